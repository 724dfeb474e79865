"""Command line: ``python -m records.mining PATH --repo R --ref REF --out FILE [--report FILE]``."""

from __future__ import annotations

import argparse
import logging
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from records.mining import DEFAULT_WORKERS, format_report, mine_tree, write_records


def build_parser() -> argparse.ArgumentParser:
    """Return the argument parser of the mining command."""
    parser = argparse.ArgumentParser(
        prog="python -m records.mining",
        description="Mine error records (one per raise with a literal message) from a source tree.",
    )
    parser.add_argument("path", type=Path, help="source tree to mine (e.g. an unpacked wheel)")
    parser.add_argument("--repo", required=True, help="GitHub repository, e.g. huggingface/transformers")
    parser.add_argument("--ref", required=True, help="tag or commit the source links pin, e.g. v5.24.0")
    parser.add_argument("--src-prefix", default="", help="put before tree paths to get repository paths")
    parser.add_argument("--library-version", default=None, help="release the tree is, e.g. 5.24.0")
    parser.add_argument("--out", type=Path, required=True, help="JSON Lines output (.gz to compress)")
    parser.add_argument("--report", type=Path, default=None, help="also write the full report here")
    parser.add_argument("--workers", type=int, default=DEFAULT_WORKERS, help="worker processes")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the mining command; return the process exit status."""
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    args = build_parser().parse_args(argv)
    if not args.path.exists():
        print(f"error: no such directory: {args.path}", file=sys.stderr)
        return 2
    started = time.perf_counter()
    result = mine_tree(
        args.path,
        repo=args.repo,
        ref=args.ref,
        src_prefix=args.src_prefix,
        library_version=args.library_version,
        workers=args.workers,
    )
    write_records(result.records, args.out)
    elapsed = time.perf_counter() - started
    print(format_report(result.report))
    print(f"wrote {len(result.records)} records to {args.out} in {elapsed:.1f} s")
    if args.report is not None:
        full = format_report(result.report, max_files=len(result.report.skipped_files), max_raises=10**9)
        args.report.write_text(full + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
