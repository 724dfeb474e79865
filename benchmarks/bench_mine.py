"""Time mining transformers 5.24.0 from an unpacked wheel, with its coverage and pattern self-match.

Run: ``.venv/bin/python benchmarks/bench_mine.py /tmp/tf524/unpacked`` where the directory holds the
unpacked wheel (``pip download --no-deps transformers==5.24.0`` then ``python -m zipfile -e``). Prints
the wall time, the records emitted, the coverage of raise X("...")-style statements and the share of
records whose pattern matches their own message rendered with sample values. The budget is 60 s on a
2-core machine.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import re2

from records.mining import DEFAULT_WORKERS, mine_tree, render_template
from records.model import Record

BUDGET_SECONDS = 60.0
SAMPLE_VALUES = ["Foo", "3", "'x'", "torch.Size([2, 3])", "several words in a value", "line one\nline two"]


def _always(value: str) -> Callable[[str], str]:
    """Return a placeholder renderer that gives every expression the same text."""
    return lambda _expr: value


def self_match_share(records: list[Record]) -> float:
    """Return the share of records whose pattern matches their template rendered with sample values."""
    if not records:
        return 0.0
    matched = 0
    for record in records:
        pattern = re2.compile(record.message_pattern or "")
        renders = (render_template(record.error_message, _always(v)) for v in SAMPLE_VALUES)
        matched += all(pattern.fullmatch(text) for text in renders)
    return matched / len(records)


def main(argv: Sequence[str] | None = None) -> int:
    """Mine the tree once and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("path", type=Path, help="unpacked transformers 5.24.0 wheel")
    parser.add_argument("--workers", type=int, default=DEFAULT_WORKERS)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    result = mine_tree(
        args.path,
        repo="huggingface/transformers",
        ref="v5.24.0",
        src_prefix="src/",
        library_version="5.24.0",
        workers=args.workers,
    )
    seconds = time.perf_counter() - started
    report = result.report
    print(f"mine transformers: {seconds:.1f} s with {args.workers} workers (budget {BUDGET_SECONDS:.0f} s)")
    print(f"  files {report.files_seen} seen, {report.files_parsed} parsed")
    print(f"  raise statements {report.raise_statements}, records {report.records_emitted}")
    print(
        f"  coverage {report.coverage():.2%} "
        f"({report.literal_style_emitted}/{report.literal_style_raises} literal-style raises)"
    )
    print(f"  pattern self-match {self_match_share(result.records):.2%}")
    records = result.records
    for label, wire in (
        ("a solution", "solutions"),
        ("what it means", "documentation"),
        ("an example fix", "exampleFix"),
    ):
        share = sum(wire in r.generated for r in records) / max(1, len(records))
        print(f"  generated {label}: {share:.1%}")
    return 0 if seconds <= BUDGET_SECONDS else 1


if __name__ == "__main__":
    sys.exit(main())
