"""``tracebot records mine``: records from every raise site of a library's source tree.

The one mining command (``scripts/mine_records.sh`` and ``make records`` use it too). What it
walks and the repository paths of its files are decided in ``bot.cli.mine_sources``; ``--library``
fetches a release's wheel with ``bot.cli.wheels`` and takes the repository, layout and tag of a known
library from ``records.mining.libraries``.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

from bot.cli._common import add_db_option, open_database
from bot.cli.mine_sources import resolve_source
from bot.cli.wheels import Release, fetch_release, parse_release
from bot.settings import Settings
from records.errors import CliError
from records.mining import DEFAULT_WORKERS, format_report, mine_tree, write_records
from records.mining.libraries import find_library
from storage.importer import import_paths


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``records mine``."""
    mine = sub.add_parser(
        "mine",
        help="mine records from a source tree (a checkout or an unpacked wheel/sdist)",
        description="Emit one record per raise site whose exception carries a message. Without --out the "
        "records are imported into the database.",
    )
    mine.add_argument("path", type=Path, nargs="?", metavar="PATH",
                      help="a package directory, an unpacked wheel or a repository checkout")  # fmt: skip
    mine.add_argument(
        "--library",
        metavar="NAME==VERSION",
        help="download this release's wheel from PyPI with pip and mine its package",
    )
    mine.add_argument("--repo", metavar="OWNER/NAME", help="GitHub repository of the source (known for --library)")
    mine.add_argument("--ref", metavar="REF", help="tag or commit the links pin (--library: its tag)")
    mine.add_argument("--src-prefix", default=None, metavar="PREFIX", help="repository path prefix, e.g. src/")
    mine.add_argument("--library-version", metavar="VERSION", help="release the tree is (default: REF without v)")
    mine.add_argument("--include", action="append", default=None, metavar="PREFIX",
                      help="mine only files whose repository path starts with PREFIX (repeatable; "
                      "--library: the library's own parts, e.g. torch's Python layer)")  # fmt: skip
    mine.add_argument("--out", type=Path, metavar="FILE.jsonl.gz", help="write records here instead of importing")
    mine.add_argument("--report", action="store_true", help="print every skipped raise and file with its reason")
    mine.add_argument("--workers", type=int, default=DEFAULT_WORKERS, metavar="N", help="worker processes")
    add_db_option(mine)
    mine.set_defaults(handler=mine_command)


async def mine_command(args: argparse.Namespace, settings: Settings) -> int:
    """Mine the tree (or a downloaded release), then write the records to a file or import them."""
    if (args.path is None) == (args.library is None):
        raise CliError("give a PATH to mine or --library NAME==VERSION (one of the two)")
    if args.library is None:
        _check_target(args)
        return await _mine(args, settings, args.path)
    release = parse_release(args.library)
    _target_release(args, release)
    # Removed on every way out; a download or unpack that fails does so before anything is written.
    with tempfile.TemporaryDirectory(prefix="tracebot-mine-") as tmp:
        package = await asyncio.to_thread(fetch_release, release, Path(tmp))
        return await _mine(args, settings, package)


def _target_release(args: argparse.Namespace, release: Release) -> None:
    """Fill in the repository, tag, layout and version a known library's release has, then check them."""
    library = find_library(release.name)
    if library is not None:
        args.repo = args.repo or library.repo
        args.ref = args.ref or library.ref(release.version)
        args.src_prefix = library.src_prefix if args.src_prefix is None else args.src_prefix
        args.include = library.include if args.include is None else args.include
    elif not args.repo or not args.ref:
        raise CliError(f"--library {release}: not a library tracebot knows; give its --repo OWNER/NAME and --ref TAG")
    args.library_version = args.library_version or release.version
    _check_target(args)


def _check_target(args: argparse.Namespace) -> None:
    """Refuse a missing or malformed repository or tag before any work is done."""
    if not args.repo or "/" not in args.repo:
        raise CliError(f"--repo: expected OWNER/NAME, got {args.repo!r}" if args.repo else "--repo is required")
    if not args.ref:
        raise CliError("--ref is required (the tag or commit the links pin)")


async def _mine(args: argparse.Namespace, settings: Settings, path: Path) -> int:
    source = resolve_source(path, args.src_prefix or "")
    started = time.perf_counter()
    version = args.library_version or args.ref.removeprefix("v")
    result = await asyncio.to_thread(
        mine_tree, source.root, repo=args.repo, ref=args.ref, src_prefix=source.prefix,
        library_version=version, workers=args.workers, include=args.include or (),
    )  # fmt: skip
    if not result.records and not result.report.files_seen:
        within = f" under {', '.join(args.include)}" if args.include else ""
        raise CliError(f"{path}: no Python files to mine{within}")
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
