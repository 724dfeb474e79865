"""What a mining run found and left out, and its human-readable summary."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from records.model import Record


@dataclass(frozen=True)
class SkippedRaise:
    """A ``raise`` statement that gave no record, and why."""

    path: str
    line: int
    reason: str


@dataclass(frozen=True)
class SkippedFile:
    """A file (or directory link) that was not mined, and why."""

    path: str
    reason: str


@dataclass
class MiningReport:
    """Counts and skips of one mining run.

    ``literal_style_raises`` counts ``raise C(message, ...)`` statements where ``C`` is a class name
    (its last dotted part is capitalised) and ``message``, the first positional argument, is
    literal-style: a string literal, an f-string with a literal part, a ``+`` concatenation with a
    literal side, or ``%`` / ``.format`` applied to a string literal, with some non-blank literal
    text. ``literal_style_emitted`` counts those that gave a record.
    """

    files_seen: int = 0
    files_parsed: int = 0
    raise_statements: int = 0
    records_emitted: int = 0
    literal_style_raises: int = 0
    literal_style_emitted: int = 0
    skipped_raises: list[SkippedRaise] = field(default_factory=list)
    skipped_files: list[SkippedFile] = field(default_factory=list)
    # Why some records got no generated explanation (a condition with side effects, ...), by reason.
    explain_skips: Counter[str] = field(default_factory=Counter)

    def coverage(self) -> float:
        """Return the share of literal-style raises that gave a record (0.0 when there were none)."""
        if self.literal_style_raises == 0:
            return 0.0
        return self.literal_style_emitted / self.literal_style_raises

    def reasons(self) -> Counter[str]:
        """Count skipped raises and skipped files by reason."""
        counts: Counter[str] = Counter(skip.reason for skip in self.skipped_raises)
        counts.update(skip.reason for skip in self.skipped_files)
        return counts


@dataclass
class MiningResult:
    """The records mined from a tree and the report of the run."""

    records: list[Record]
    report: MiningReport


def format_report(report: MiningReport, *, max_files: int = 20, max_raises: int = 0) -> str:
    """Render a report for people: counts, coverage, skip reasons and the skipped files."""
    lines = [
        f"files: {report.files_seen} seen, {report.files_parsed} parsed, {len(report.skipped_files)} skipped",
        f"raise statements: {report.raise_statements}; records emitted: {report.records_emitted}",
    ]
    if report.literal_style_raises:
        lines.append(
            f'raise X("...")-style statements: {report.literal_style_raises}, '
            f"{report.literal_style_emitted} emitted (coverage {report.coverage():.1%})"
        )
    else:
        lines.append('no raise X("...")-style statements found: nothing to mine')
    lines.extend(_reason_lines(report))
    if report.explain_skips:
        skips = ", ".join(f"{reason} {n}" for reason, n in sorted(report.explain_skips.items(), key=_by_count))
        lines.append(f"records without a generated explanation, by reason: {skips}")
    lines.extend(_listed("skipped files", [f"{s.path}: {s.reason}" for s in report.skipped_files], max_files))
    listed = [f"{s.path}:{s.line}: {s.reason}" for s in report.skipped_raises]
    lines.extend(_listed("skipped raises", listed, max_raises))
    return "\n".join(lines)


def _reason_lines(report: MiningReport) -> list[str]:
    reasons = report.reasons()
    if not reasons:
        return []
    width = max(len(reason) for reason in reasons)
    return ["skipped, by reason:"] + [f"  {r.ljust(width)}  {n}" for r, n in sorted(reasons.items(), key=_by_count)]


def _by_count(item: tuple[str, int]) -> tuple[int, str]:
    return -item[1], item[0]


def _listed(title: str, items: list[str], limit: int) -> list[str]:
    if not items or limit <= 0:
        return []
    shown = [f"  {item}" for item in items[:limit]]
    more = [f"  ... and {len(items) - limit} more"] if len(items) > limit else []
    return [f"{title}:", *shown, *more]
