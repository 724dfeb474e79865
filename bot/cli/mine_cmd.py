"""``tracebot records mine``: records from every raise site of a library's source tree."""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

from bot.cli._common import add_db_option, open_database
from bot.settings import Settings
from records.errors import CliError
from records.mining import DEFAULT_WORKERS, format_report, mine_tree, write_records
from storage.importer import import_paths


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``records mine``."""
    mine = sub.add_parser(
        "mine",
        help="mine records from a source tree (a checkout or an unpacked wheel/sdist)",
        description="Emit one record per raise site whose exception carries a message. Without --out the "
        "records are imported into the database.",
    )
    mine.add_argument("path", type=Path, metavar="PATH", help="source tree to walk")
    mine.add_argument("--repo", required=True, metavar="OWNER/NAME", help="GitHub repository of the source")
    mine.add_argument("--ref", required=True, metavar="REF", help="tag or commit the GitHub links pin")
    mine.add_argument("--src-prefix", default="", metavar="PREFIX", help="repository path prefix, e.g. src/")
    mine.add_argument("--library-version", metavar="VERSION", help="release the tree is (default: REF without v)")
    mine.add_argument("--out", type=Path, metavar="FILE.jsonl.gz", help="write records here instead of importing")
    mine.add_argument("--report", action="store_true", help="print every skipped raise and file with its reason")
    mine.add_argument("--workers", type=int, default=DEFAULT_WORKERS, metavar="N", help="worker processes")
    add_db_option(mine)
    mine.set_defaults(handler=mine_command)


async def mine_command(args: argparse.Namespace, settings: Settings) -> int:
    """Mine the tree, then write the records to a file or import them."""
    if not args.path.is_dir():
        raise CliError(f"{args.path}: not a directory")
    if "/" not in args.repo:
        raise CliError(f"--repo: expected OWNER/NAME, got {args.repo!r}")
    started = time.perf_counter()
    version = args.library_version or args.ref.removeprefix("v")
    result = await asyncio.to_thread(
        mine_tree, args.path, repo=args.repo, ref=args.ref, src_prefix=args.src_prefix,
        library_version=version, workers=args.workers,
    )  # fmt: skip
    report = result.report
    details = {"max_files": len(report.skipped_files), "max_raises": 10**9} if args.report else {}
    print(format_report(report, **details), file=sys.stderr)
    print(f"mined {len(result.records)} records in {time.perf_counter() - started:.1f} s", file=sys.stderr)
    if args.out is not None:
        write_records(result.records, args.out)
        print(f"wrote {len(result.records)} records to {args.out}")
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        staged = Path(tmp) / "mined.jsonl"
        write_records(result.records, staged)
        async with open_database(args, settings) as db:
            imported = await import_paths(db, [staged])
    print(f"{imported.added} added, {imported.updated} updated, {imported.unchanged} unchanged")
    return 0
