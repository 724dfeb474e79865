"""Accuracy of the matcher on the labelled evaluation set (``make eval``).

Categories: ``generated`` (pastes made from records; top-1 and top-3 against the label), ``hard``
(hand-written cases with an expected record or status), ``chat`` (must never be matched or
ambiguous) and ``foreign`` (errors of other libraries; at most 1% may be matched).
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from benchmarks.evalset import EVAL_DIR, shipped_records
from records.matching import IndexEntry, Matcher, MatchIndex, MatchResult, Thresholds
from records.model import Record


def entry_of(record: Record) -> IndexEntry:
    """Return the index entry of a record (as the store would give it)."""
    return IndexEntry.from_record(record)


def load_cases(name: str) -> list[dict[str, Any]]:
    """Read one evaluation file."""
    path = EVAL_DIR / f"{name}.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


@dataclass
class Tally:
    """Counts for one category."""

    total: int = 0
    top1: int = 0
    top3: int = 0
    statuses: Counter[str] = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)

    def row(self, name: str) -> str:
        """Format one table row."""
        pct = lambda n: f"{100 * n / self.total:6.1f}%" if self.total else "    - "  # noqa: E731
        s = self.statuses
        return (f"{name:<10} {self.total:>5} {pct(self.top1)} {pct(self.top3)} {pct(s['matched'])} "
                f"{pct(s['ambiguous'])} {pct(s['unmatched'])} {pct(s['not_an_error'])}")  # fmt: skip


def _ranked_ids(result: MatchResult) -> list[set[str]]:
    return [set(m.member_ids) | {m.id} for m in result.matches]


def score_case(matcher: Matcher, case: dict[str, Any], tally: Tally) -> None:
    """Match one case and count it."""
    result = matcher.match(case["text"])
    tally.total += 1
    tally.statuses[result.status] += 1
    accept = set(case.get("accept") or ([case["expect"]] if case.get("expect") else []))
    ranked = _ranked_ids(result)
    if accept:
        hit1 = bool(ranked) and bool(ranked[0] & accept) and result.status in ("matched", "ambiguous")
        hit3 = any(ids & accept for ids in ranked[:3])
        tally.top1 += hit1
        tally.top3 += hit3
        if not hit1:
            tally.failures.append(
                f"{case['id']} ({case.get('kind')}): {result.status} {[m.id for m in result.matches][:3]} want {case['expect']}"
            )
    elif case.get("status"):
        ok = result.status in case["status"].split("|")
        tally.top1 += ok
        tally.top3 += ok
        if not ok:
            tally.failures.append(
                f"{case['id']}: {result.status} {[m.id for m in result.matches][:2]} want {case['status']}"
            )


def evaluate(matcher: Matcher | None = None) -> dict[str, Tally]:
    """Run every category; return the tallies."""
    if matcher is None:
        matcher = Matcher(MatchIndex.build(entry_of(r) for r in shipped_records()))
    tallies: dict[str, Tally] = {}
    for name in ("generated", "hard", "chat", "foreign"):
        tally = tallies.setdefault(name, Tally())
        for case in load_cases(name):
            score_case(matcher, case, tally)
    return tallies


def sweep() -> None:
    """Print how the statuses move with the thresholds (how ``Thresholds`` was chosen)."""
    index = MatchIndex.build(entry_of(r) for r in shipped_records())
    print("matched ambiguous | generated matched  top-1 | hard matched | chat m+a | foreign matched  m+a")
    for matched in (50.0, 62.0, 75.0, 85.0):
        for ambiguous in (35.0, 45.0, 60.0):
            t = evaluate(Matcher(index, Thresholds(matched=matched, ambiguous=ambiguous)))
            g, h, c, f = t["generated"], t["hard"], t["chat"], t["foreign"]
            pct = lambda n, tally: 100 * n / tally.total  # noqa: E731
            print(
                f"{matched:7.0f} {ambiguous:9.0f} | {pct(g.statuses['matched'], g):17.1f} {pct(g.top1, g):6.1f} | "
                f"{pct(h.statuses['matched'], h):12.1f} | {pct(c.statuses['matched'] + c.statuses['ambiguous'], c):8.1f} | "
                f"{pct(f.statuses['matched'], f):15.1f} {pct(f.statuses['matched'] + f.statuses['ambiguous'], f):4.1f}"
            )


def main() -> None:
    """Print the accuracy table and the failures (``--sweep``: the threshold table)."""
    if "--sweep" in sys.argv:
        sweep()
        return
    tallies = evaluate()
    print(
        f"{'category':<10} {'n':>5} {'top-1':>7} {'top-3':>7} {'matched':>7} {'ambig.':>7} {'unmatch':>7} {'chat':>7}"
    )
    for name, tally in tallies.items():
        print(tally.row(name))
    for name, tally in tallies.items():
        for failure in tally.failures[:15]:
            print(f"  miss [{name}] {failure}")


if __name__ == "__main__":
    main()
