"""Matching time of this checkout against another commit's, measured in one process, in alternation.

Run: ``python -m benchmarks.ab_match REV [--rounds N]`` (a few minutes; run it alone). On 2 shared
cores two runs of the same code differ by 30%; timings taken in one process, the two versions taking
turns paste by paste, differ by what the code does. So:

1. ``records/`` of ``REV`` is taken from git into a temporary directory as the package ``records_base``
   (its absolute imports of ``records`` rewritten to it), beside this checkout's ``records``;
2. a matcher of each version is built over the shipped record set (``records/data`` of this checkout);
3. each real paste of ``tests/data/real`` is matched by both, ``--rounds`` times each, the version that
   goes first alternating; each paste's fastest time per version is kept;
4. p50, p90 and p99 of each, their ratio, the total time ratio, and whether any answer differs.

A differing answer is printed with its paste id: a change meant to be faster only must print none.
"""

from __future__ import annotations

import argparse
import importlib
import json
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.bench_shared import CACHE as SHARED_CACHE
from benchmarks.bench_shared import RECORDS as SHARED_RECORDS
from benchmarks.bench_shared import shared_entry
from benchmarks.evalset import real_cases, shipped_matcher, shipped_records
from records.matching import IndexEntry, Matcher, MatchIndex
from records.text import clean_text
from records.triage import MAX_INPUT_CHARS

ROOT = Path(__file__).resolve().parent.parent
BASE_PACKAGE = "records_base"
_IMPORT = re.compile(r"^(\s*)(from|import) records(?=[.\s])", re.MULTILINE)
KINDS = ("transformers", "ecosystem", "foreign", "chat")


def base_package(rev: str, into: Path) -> None:
    """Write ``records/`` of ``rev`` into ``into/records_base``, its imports of ``records`` made its own.

    Raises SystemExit with one line when ``rev`` is no commit of this repository (or it has no ``records/``).
    """
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev, "records"], check=False, capture_output=True)
    if archive.returncode != 0:
        reason = archive.stderr.decode(errors="replace").strip().splitlines()[-1:] or ["git archive failed"]
        raise SystemExit(f"benchmarks.ab_match: {rev}: cannot read records/ at that commit ({reason[0]})")
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)
    (into / "records").rename(into / BASE_PACKAGE)
    for path in (into / BASE_PACKAGE).rglob("*.py"):
        path.write_text(own_imports(path.read_text(encoding="utf-8")), encoding="utf-8")


def own_imports(source: str) -> str:
    """Return a module's source with its absolute imports of ``records`` made imports of ``records_base``."""
    return _IMPORT.sub(rf"\1\2 {BASE_PACKAGE}", source)


def base_matcher(into: Path, shared: bool = False) -> Any:
    """Return the base version's matcher over the shipped records, or over the shared synthetic set."""
    sys.path.insert(0, str(into))
    index = importlib.import_module(f"{BASE_PACKAGE}.matching.index")
    matcher = importlib.import_module(f"{BASE_PACKAGE}.matching.matcher")
    if shared:
        return matcher.Matcher(index.MatchIndex.build(index.IndexEntry(*e) for e in _shared_entries()))
    return matcher.Matcher(index.MatchIndex.build(index.IndexEntry.from_record(r) for r in shipped_records()))


def this_matcher(shared: bool = False) -> Matcher:
    """Return this checkout's matcher over the same records as ``base_matcher``."""
    if shared:
        return Matcher(MatchIndex.build(_shared_entries()))
    return shipped_matcher()


def _shared_entries() -> list[IndexEntry]:
    """Return the entries of the shared synthetic set at 100k records (made by ``benchmarks.bench_shared``)."""
    path = SHARED_CACHE / f"syn{SHARED_RECORDS}.jsonl"
    if not path.is_file():
        raise SystemExit(f"benchmarks.ab_match: {path}: missing; run python -m benchmarks.bench_shared --skip-1m first")
    with path.open(encoding="utf-8") as handle:
        return [shared_entry(line) for line in handle]


def shared_texts() -> list[str]:
    """Return the pastes of the shared synthetic set, cleaned as the bot cleans them."""
    path = SHARED_CACHE / f"syn{SHARED_RECORDS}-q.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines()
    return [clean_text(json.loads(line)["text"], MAX_INPUT_CHARS) for line in lines]


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)  # as bench_shipped reads its p99: the value at int(share * n)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def _answers(result: Any) -> tuple[object, ...]:
    return result.status, tuple((m.id, m.score, m.file_path, m.line_number, m.member_ids) for m in result.matches)


def compare(base: Any, this: Matcher, texts: list[str], rounds: int) -> dict[str, list[float]]:
    """Return each version's fastest time per paste (ms), the two taking turns; print differing answers."""
    matchers = {"base": base, "this": this}
    times: dict[str, list[list[float]]] = {name: [[] for _ in texts] for name in matchers}
    for k, text in enumerate(texts):
        if _answers(matchers["base"].match(text)) != _answers(matchers["this"].match(text)):
            print(f"answers differ: paste {k}")
    for turn in range(rounds):
        for k, text in enumerate(texts):
            order = ("base", "this") if (turn + k) % 2 else ("this", "base")
            for name in order:
                started = time.perf_counter()
                matchers[name].match(text)
                times[name][k].append((time.perf_counter() - started) * 1000)
    return {name: [min(runs) for runs in per_paste] for name, per_paste in times.items()}


def main(argv: list[str] | None = None) -> int:
    """Print the figures."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.ab_match", description=__doc__.split("\n")[0])
    parser.add_argument("rev", help="the commit to compare with (e.g. HEAD~3, a tag, a hash)")
    parser.add_argument("--rounds", type=int, default=5, help="times each paste is matched by each version")
    parser.add_argument("--shared", action="store_true",
                        help="the shared synthetic set at 100k records and its pastes instead (made by bench_shared)")  # fmt: skip
    args = parser.parse_args(argv)
    if args.shared:
        texts, what = shared_texts(), "shared synthetic (100k records)"
    else:
        texts, what = [clean_text(case["text"], MAX_INPUT_CHARS) for kind in KINDS for case in real_cases(kind)], "real"
    with tempfile.TemporaryDirectory() as tmp:
        base_package(args.rev, Path(tmp))
        best = compare(base_matcher(Path(tmp), args.shared), this_matcher(args.shared), texts, args.rounds)
    figures = {name: [_percentile(ms, share) for share in (0.5, 0.9, 0.99)] for name, ms in best.items()}
    print(f"{len(texts)} {what} pastes, {args.rounds} rounds, fastest per paste kept (ms):")
    for name in ("base", "this"):
        p50, p90, p99 = figures[name]
        print(f"  {name:<5} p50 {p50:.2f}  p90 {p90:.2f}  p99 {p99:.2f}  total {sum(best[name]):.0f}")
    ratios = [this / base for this, base in zip(figures["this"], figures["base"], strict=True)]
    print(f"  this/base: p50 {ratios[0]:.3f}  p90 {ratios[1]:.3f}  p99 {ratios[2]:.3f}  "
          f"total {sum(best['this']) / sum(best['base']):.3f}")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
