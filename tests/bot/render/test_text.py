"""The terminal rendering of records and answers: the embed's sections, in its order, as plain text."""

from __future__ import annotations

from bot.engine import Answer
from bot.render.text import answer_text, candidates_text, record_text
from records.extraction import extract
from records.matching import Match, MatchResult, Status
from records.model import Record
from tests.bot.samples import CURATED, MINED, PASTED, match


def test_curated_record_reads_top_to_bottom() -> None:
    text = record_text(CURATED, match(CURATED.id), pasted=PASTED)
    headings = [line for line in text.split("\n") if line and not line.startswith(" ")]
    assert headings[:7] == [
        "ValueError: " + PASTED,
        "What it means",
        "Solutions",
        "Example fix",
        "When it happens",
        "Raised at",
        "Versions that raise it: 4.57.6, 5.24.0",
    ]
    assert "\n  1. Remove `assistant_model`.\n  2. Use a non-stateful model.\n" in text
    assert f"  Message: {CURATED.error_message}\n" in text
    assert text.endswith(f"Matched with score 97/100: pattern matches.\nrecord {CURATED.id} (curated)")


def test_sections_have_no_empty_lines_inside() -> None:
    text = record_text(MINED)
    assert "When it happens\n  Raised when: if videos is not None\n  Comment beside the raise: # videos" in text
    source = text.split("Source\n", 1)[1].split("\n\n", 1)[0]
    assert source.splitlines()[2] == "  >102          raise ValueError('no video')"


def test_not_raised_by_the_shipped_versions() -> None:
    record = CURATED.model_copy(update={"analyzed_sha": "a597f97485"})
    text = record_text(record, match(record.id, versions=()), shipped=("5.24.0", "4.57.6"))
    assert "Not raised by 5.24.0 or 4.57.6 (this record was written for a597f97485)." in text


def test_a_message_only_older_releases_raise_says_so_under_its_versions() -> None:
    text = record_text(
        MINED, match(MINED.id, versions=("4.57.6",), line_versions=("4.57.6",)), shipped=("5.24.0", "4.57.6")
    )
    assert (
        "Versions that raise it: 4.57.6\nYour traceback matches 4.57.6 (its raising line).\n"
        "Not raised as is by 5.24.0, which is newer: the check was"
    ) in text
    assert "Not raised as is" not in record_text(MINED, match(MINED.id), shipped=("5.24.0", "4.57.6"))


def test_candidates_one_per_line_with_number_class_message_and_file() -> None:
    matches = [match("a", 84), match("b", 80, file_path="src/lib/other.py", line_number=None)]
    assert candidates_text(matches, pasted="missing key 'lr'").split("\n") == [
        "Several records could explain this error; the closest are:",
        "  1. KeyError: missing key 'lr'  src/lib/core.py:10  (84%, id a)",
        "  2. KeyError: missing key 'lr'  src/lib/other.py  (80%, id b)",
    ]


def test_answer_text_for_each_status() -> None:
    def answer(status: Status, matches: tuple[Match, ...] = (), records: dict[str, Record] | None = None) -> Answer:
        result = MatchResult(status, matches, extract("KeyError: missing key 'lr'"))
        return Answer(result, records or {}, {"huggingface/transformers": ("5.24.0",)})

    assert answer_text(answer("not_an_error")) == "That does not look like an error."
    assert answer_text(answer("unmatched")).startswith("That looks like an error, but no record explains it")
    assert answer_text(answer("ambiguous", (match("a"), match("b")))).count("KeyError: missing key 'lr'") == 2
    assert answer_text(answer("matched", (match("gone"),))).startswith("KeyError: missing key 'lr'\n")
