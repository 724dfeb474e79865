"""Print the generated explanations of the shipped mined records: figures, problems and sample replies.

Run: ``make explain-report`` (``python -m benchmarks.explain_report``). For every shipped set it counts
the records with at least one solution, a what-it-means sentence and an example fix (overall, and over
the records the real-paste set in ``tests/data/real/`` hits: same file and message as a case's label; and
those hits as replied, with the curated record of the same site in ``records/data/curated/`` folded in),
the records left without generated text and why, and the quality problems
(:mod:`records.mining._explain.quality`). Then it prints the reply as text for a random sample of 30
records (fixed seed) and for every record the real-paste set hits. ``--figures`` prints only the counts.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from bot.render.text import record_text
from records.merge import merge_site
from records.mining._explain.quality import problems
from records.mining.versions import read_set
from records.model import Record

ROOT = Path(__file__).resolve().parents[1]
SAMPLE_SIZE = 30
SEED = 20261201
TARGETS = {"all": (0.90, 0.95, 0.40), "real-paste hits": (0.95, 1.00, 0.50)}


def load_records(data: Path) -> list[Record]:
    """Return the mined records of every shipped transformers set."""
    found: list[Record] = []
    for path in sorted(data.glob("transformers-*.jsonl.gz")):
        found.extend(read_set(path))
    return found


def load_curated(data: Path) -> dict[tuple[str, str], Record]:
    """Return the curated transformers records by (filePath, template): the raise site they fold into."""
    found: dict[tuple[str, str], Record] = {}
    for path in sorted((data / "curated").glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                record = Record.model_validate_json(line)
                if record.file_path:
                    found.setdefault((record.file_path, record.error_message), record)
    return found


def answered(records: list[Record], curated: dict[tuple[str, str], Record]) -> list[Record]:
    """Return the records as the reply shows them: a curated record of the same site folded in (its text wins)."""
    shown = []
    for record in records:
        over = curated.get((record.file_path or "", record.error_message))
        shown.append(merge_site(over, record) if over is not None else record)
    return shown


def real_labels(real: Path) -> set[tuple[str, str]]:
    """Return the (filePath, template) labels of the real-paste cases."""
    labels: set[tuple[str, str]] = set()
    for path in sorted(real.glob("transformers-*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            case = json.loads(line) if line.strip() else {}
            if case.get("filePath") and case.get("template"):
                labels.add((case["filePath"], case["template"]))
    return labels


def unexplained_reason(record: Record) -> str | None:
    """Return why a record has no generated what-it-means sentence (None when it has one)."""
    if "documentation" in record.generated:
        return None
    trigger = record.trigger_scenarios or ""
    if trigger.startswith("except"):
        return "raise in an except block with no condition"
    if trigger.startswith(("if ", "while ")):
        return "condition unreadable (side effects, f-string, too long)"
    if not trigger:
        return "no guard (after other statements, or a match case)"
    return "other"


def figures(title: str, records: list[Record], curated_count: bool = False) -> list[str]:
    """Return the count lines for a group of records (``curated_count``: count curated text too)."""
    total = len(records) or 1
    if curated_count:  # a folded reply: curated text counts as well as generated text
        with_solution = sum(bool(r.solutions) for r in records)
        with_meaning = sum(bool(r.documentation) for r in records)
        with_fix = sum(bool(r.example_fix) for r in records)
    else:
        with_solution = sum(bool(r.solutions) and "solutions" in r.generated for r in records)
        with_meaning = sum("documentation" in r.generated for r in records)
        with_fix = sum("exampleFix" in r.generated for r in records)
    targets = TARGETS.get(title.split(" (", maxsplit=1)[0], (0.0, 0.0, 0.0))
    lines = [f"{title}: {len(records)} records"]
    for name, count, target in zip(
        ("at least one solution", "a what-it-means sentence", "an example fix"),
        (with_solution, with_meaning, with_fix),
        targets,
        strict=True,
    ):
        lines.append(f"  {name:26} {count:6}  {count / total:6.1%}  (target {target:.0%})")
    return lines


# The steps of guards on computed values (records.mining._explain._internal), by how they start.
_TRACED = re.compile(r"^Check .+: the check reads .+, computed from")
_INTERNAL = re.compile(r"^`.+ (?:is|are) computed by `.+` itself, from nothing you pass directly")


def solution_kinds(records: list[Record]) -> list[str]:
    """Return the count lines of records whose only generated steps are the computed-value ones."""
    generated = [r for r in records if r.solutions and "solutions" in r.generated]
    traced = sum(all(_TRACED.match(s) for s in r.solutions) for r in generated)
    internal = sum(all(_INTERNAL.match(s) for s in r.solutions) for r in generated)
    return [
        "records whose only generated step is about computed values:",
        f"  what they are computed from (arguments, config fields): {traced}",
        f"  an internal check to report when the inputs are right: {internal}",
    ]


def report(
    records: list[Record],
    labels: set[tuple[str, str]],
    *,
    replies: bool,
    curated: dict[tuple[str, str], Record] | None = None,
) -> str:
    """Return the whole report as text (``curated``: the curated records that fold into mined sites)."""
    hits = [r for r in records if (r.file_path or "", r.error_message) in labels]
    lines = [*figures("all", records), *figures("real-paste hits", hits)]
    lines.append(f"  real-paste labels: {len(labels)}, hit by {len(hits)} records (all shipped versions)")
    shown_hits = answered(hits, curated or {})
    folded = sum(1 for r in hits if (r.file_path or "", r.error_message) in (curated or {}))
    lines += figures(f"real-paste hits (as replied, {folded} with a curated record folded in)", shown_hits, True)
    lines += solution_kinds(records)
    reasons = Counter(reason for r in records if (reason := unexplained_reason(r)))
    lines.append("no generated what-it-means, by reason:")
    lines += [f"  {reason}: {n}" for reason, n in reasons.most_common()]
    found = [(r, p) for r in records for p in problems(r)]
    lines.append(f"quality problems: {len(found)} in {len({r.id for r, _p in found})} records")
    lines += [f"  {r.id} {r.file_path}:{r.line_number}: {p}" for r, p in found[:20]]
    by_version = Counter(r.library_version for r in records if "commonSituations" in r.generated)
    lines.append(f"raised by only some shipped versions: {dict(sorted(by_version.items()))}")
    if replies:
        sample = random.Random(SEED).sample(records, min(SAMPLE_SIZE, len(records)))
        lines += _replies(f"random sample of {len(sample)} (seed {SEED})", sample)
        lines += _replies(f"records the real-paste set hits ({len(hits)}), as replied", shown_hits)
    return "\n".join(lines)


def _replies(title: str, records: list[Record]) -> list[str]:
    lines = ["", "=" * 100, title, "=" * 100]
    for record in records:
        lines += ["", "-" * 100, record_text(record)]
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    """Print the report; exit 1 when any shipped record has a quality problem."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--data", type=Path, default=ROOT / "records" / "data")
    parser.add_argument("--real", type=Path, default=ROOT / "tests" / "data" / "real")
    parser.add_argument("--figures", action="store_true", help="print the counts only, no replies")
    args = parser.parse_args(argv)
    records = load_records(args.data)
    print(report(records, real_labels(args.real), replies=not args.figures, curated=load_curated(args.data)))
    return 1 if any(problems(r) for r in records) else 0


if __name__ == "__main__":
    sys.exit(main())
