"""Count the instructions of answering the shared synthetic pastes, per paste, with callgrind.

Run: ``python -m benchmarks.instructions_match [PASTES]`` (default 200; needs valgrind and the shared set
that ``python -m benchmarks.bench_shared`` makes in ``.bench-data/``; about a minute). Timings of two
versions of the matcher on this busy 2-core VM differ by a fifth from one run to the next; instruction
counts do not, so this compares versions (run it in each checkout, or with ``PYTHONPATH`` on another).

What is counted is what ``tracebot ask --batch`` does for each paste after start-up: ``Engine.match_text``
(cleaning, extraction, matching) and the JSON line, over the first ``PASTES`` pastes of the 100k-record
set, each once. Every paste reaches templates no other one does, so this is the batch's cold cost
(parsing, aligning and scoring templates new to the caches), not a warm rerun. Loading the index and one
warm-up paste (which builds the kin table) are left out: only ``functools.reduce`` is counted.
"""

from __future__ import annotations

import asyncio
import functools
import gc
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks.bench_shared import CACHE, RECORDS
from benchmarks.instructions import callgrind_total

_CHILD = "--counted"  # the mode this module runs in under valgrind


def _answer_counted(count: int) -> None:
    """Answer ``count`` pastes inside one functools.reduce (what callgrind counts)."""
    from bot.engine import Engine  # noqa: PLC0415  # the parent process needs none of the bot
    from bot.render.answer_json import result_json  # noqa: PLC0415
    from storage.database import Database  # noqa: PLC0415

    async def load() -> Engine:
        return await Engine.load(await Database.open(CACHE / f"syn{RECORDS}.db"))

    engine = asyncio.run(load())
    gc.freeze()  # as ``tracebot ask`` does
    lines = (CACHE / f"syn{RECORDS}-q.jsonl").read_text(encoding="utf-8").splitlines()
    items = [json.loads(line) for line in lines[: count + 1]]
    engine.match_text(items[0]["text"])  # the warm-up: not counted

    def answer(_: None, item: dict[str, str]) -> None:
        json.dumps({"id": item["id"], **result_json(engine.match_text(item["text"]))}, ensure_ascii=False)

    functools.reduce(answer, items[1:], None)
    os._exit(0)  # the database's thread would keep a normal exit waiting


def count(pastes: int) -> float:
    """Return the instructions per paste, in millions (run under valgrind in a child)."""
    # The index saved beside the database is made by this checkout's code, once, outside valgrind: after a
    # change to the matcher the child would otherwise build it first, fifty times slower.
    database = CACHE / f"syn{RECORDS}.db"
    subprocess.run(
        [sys.executable, "-m", "bot", "ask", "--db", str(database), "warm-up"], check=True, capture_output=True
    )
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        command = [
            "valgrind", "--tool=callgrind", "--collect-atstart=no", "--toggle-collect=functools_reduce",
            f"--callgrind-out-file={out}", sys.executable, "-m", "benchmarks.instructions_match", _CHILD, str(pastes),
        ]  # fmt: skip
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=os.environ)
        return callgrind_total(out) / pastes / 1e6


def main(argv: list[str]) -> int:
    """Print the instructions per paste; return 2 when valgrind or the shared set is missing."""
    if argv[:1] == [_CHILD]:
        _answer_counted(int(argv[1]))
        return 0
    if shutil.which("valgrind") is None:
        print("valgrind is not installed (Debian: apt-get install valgrind)", file=sys.stderr)
        return 2
    if not (CACHE / f"syn{RECORDS}.db").exists():
        print(f"no shared set in {CACHE}: run python -m benchmarks.bench_shared first", file=sys.stderr)
        return 2
    pastes = int(argv[0]) if argv and argv[0].isdigit() else 200
    print(f"ask --batch on the shared set ({RECORDS:,} records), callgrind instructions per paste")
    print(f"{pastes} pastes, each once: {count(pastes):.2f} M")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
