"""The quality check over every shipped mined record's generated text (issue 11, item 5)."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from records.mining._explain.quality import problems
from records.model import Record

DATA = Path(__file__).resolve().parents[2] / "records" / "data"
SHIPPED = sorted(DATA.glob("transformers-*.jsonl.gz"))


@pytest.fixture(scope="module", params=SHIPPED, ids=lambda path: path.name)
def shipped(request: pytest.FixtureRequest) -> list[Record]:
    """The records of one shipped set."""
    with gzip.open(request.param, "rt", encoding="utf-8") as handle:
        return [Record.model_validate_json(line) for line in handle]


def test_every_generated_text_is_grounded_filled_and_not_repeated(shipped: list[Record]) -> None:
    found = [f"{r.id} {r.file_path}:{r.line_number}: {p}" for r in shipped for p in problems(r)]
    assert found == [], f"{len(found)} problems, first: {found[:5]}"


def test_most_records_have_generated_text(shipped: list[Record]) -> None:
    # A floor that catches a generator that silently stopped working; the targets are in the report.
    explained = sum("documentation" in r.generated for r in shipped)
    assert explained / len(shipped) > 0.9


def test_generated_fields_are_set(shipped: list[Record]) -> None:
    wire = {"documentation": "documentation", "triggerScenarios": "trigger_scenarios", "solutions": "solutions",
            "exampleFix": "example_fix", "commonSituations": "common_situations"}  # fmt: skip
    unset = [(r.id, name) for r in shipped for name in r.generated if not getattr(r, wire[name])]
    assert unset == []


def test_the_quality_check_can_fail() -> None:
    bad = Record.model_validate({
        "id": "x1", "errorMessage": "bad value {value}", "sourceCode": "if value < 0:\n    raise ValueError(...)\n",
        "solutions": ["Restart your computer.", "Set `value` to {value}."], "documentation": "Set `value` to {value}.",
        "generated": ["solutions", "documentation"],
    })  # fmt: skip
    found = problems(bad)
    assert any("names no identifier" in p for p in found)
    assert any("unfilled placeholder" in p for p in found)
    assert any("repeat each other" in p for p in found)
