"""``tracebot ask``: match a paste against the record set and print the answer."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from bot.cli._common import add_db_option, freeze_loaded_heap, open_database, print_json
from bot.engine import Engine
from bot.render.answer_json import result_json
from bot.render.text import answer_text
from bot.settings import Settings
from records.errors import CliError


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``ask`` command."""
    ask = commands.add_parser("ask", help="match pasted error text (TEXT, or stdin) against the records")
    ask.add_argument("text", nargs="?", metavar="TEXT", help="the pasted text; read from stdin when omitted")
    ask.add_argument("--json", action="store_true", help="print {status, matches, extracted} as JSON")
    ask.add_argument("--batch", type=Path, metavar="FILE.jsonl", help='match every {"id", "text"} line of a file')
    add_db_option(ask)
    ask.set_defaults(handler=ask_command)


async def ask_command(args: argparse.Namespace, settings: Settings) -> int:
    """Answer one paste, or a batch of them in one process."""
    async with open_database(args, settings) as db:
        engine = await Engine.load(db)
        freeze_loaded_heap()
        if args.batch is not None:
            return _batch(engine, args.batch)
        text = args.text if args.text is not None else sys.stdin.read()
        answer = await engine.answer(text)
    if args.json:
        print_json(result_json(answer.result))
    else:  # as the console shows it; an ambiguous answer is its numbered candidates, one per line
        print(answer_text(answer))
    return 0


def _batch(engine: Engine, path: Path) -> int:
    try:
        handle = path.open(encoding="utf-8")
    except OSError as exc:
        raise CliError(f"{path}: cannot read: {exc.strerror}") from None
    problems = 0
    with handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            item = _batch_item(path, number, line)
            if item is None:
                problems += 1
                continue
            output = {"id": item["id"], **result_json(engine.match_text(item["text"]))}
            sys.stdout.write(json.dumps(output, ensure_ascii=False) + "\n")
    return 1 if problems else 0


def _batch_item(path: Path, number: int, line: str) -> dict[str, Any] | None:
    try:
        item = json.loads(line)
    except json.JSONDecodeError as exc:
        print(f"tracebot: {path}:{number}: malformed JSON at column {exc.colno}", file=sys.stderr)
        return None
    if not isinstance(item, dict) or not isinstance(item.get("text"), str):
        print(f'tracebot: {path}:{number}: expected an object with a string "text"', file=sys.stderr)
        return None
    return item
