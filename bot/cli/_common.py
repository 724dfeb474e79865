"""Helpers every CLI command uses: one-line errors, the database, output."""

from __future__ import annotations

import argparse
import gc
import importlib
import json
import sys
from collections.abc import AsyncIterator, Callable, Coroutine
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from storage.database import Database

if TYPE_CHECKING:
    from bot.settings import Settings


Handler = Callable[[argparse.Namespace, "Settings"], Coroutine[Any, Any, int]]


def lazy(target: str) -> Handler:
    """Return a handler that imports ``module:function`` only when its command runs.

    Commands register their parsers at start-up; importing every command's dependencies then would
    make ``tracebot --help`` pay for discord.py and aiohttp.
    """
    module_name, _, function_name = target.partition(":")

    async def handler(args: argparse.Namespace, settings: Settings) -> int:
        function: Handler = getattr(importlib.import_module(module_name), function_name)
        return await function(args, settings)

    return handler


def freeze_loaded_heap() -> None:
    """Keep every object alive now (the loaded index above all) out of the cyclic collector's passes.

    Call it once the index is loaded, in a process that keeps it to the end. The index's entries and
    templates (a few hundred thousand objects at 100k records) hold no garbage: left to the collector,
    each full pass walked them all, a sixth of a batch's time on the shared benchmark (0.5 of 3.0 ms a
    paste), landing on whichever paste or redaction happened to trigger it. Records added later by a
    reload are collected as usual.
    """
    gc.freeze()


def db_path(args: argparse.Namespace, settings: Settings) -> Path | str:
    """Return the database (a path, or a PostgreSQL URL): ``--db`` wins over TRACEBOT_DB and the default."""
    chosen: Path | str | None = getattr(args, "db", None)
    return chosen if chosen is not None else settings.db


@asynccontextmanager
async def open_database(args: argparse.Namespace, settings: Settings) -> AsyncIterator[Database]:
    """Open the database the command names, closing it afterwards."""
    db = await Database.open(db_path(args, settings), write_wait=settings.write_wait)
    try:
        yield db
    finally:
        await db.close()


def print_json(data: Any, out: TextIO | None = None) -> None:
    """Print data as indented JSON (to stdout unless ``out`` is given)."""
    target = out if out is not None else sys.stdout
    json.dump(data, target, indent=2, ensure_ascii=False)
    target.write("\n")


def add_db_option(parser: argparse.ArgumentParser) -> None:
    """Add ``--db PATH`` to a command."""
    parser.add_argument(
        "--db",
        type=database_argument,
        metavar="PATH",
        help="database file or postgresql:// URL (default: $TRACEBOT_DB or ./data/tracebot.db)",
    )


def database_argument(value: str) -> Path | str:
    """Read ``--db``: argparse reports the ValueError's text as the option's error."""
    from bot.settings import database_file  # noqa: PLC0415  # settings import pydantic: only when a --db is given

    try:
        return database_file(value)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
