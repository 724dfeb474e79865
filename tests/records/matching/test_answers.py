"""Answers of scored records: one per raise site, the shown words those raised at the line, rewordings joined."""

from __future__ import annotations

import pytest

from records.matching import IndexEntry, Matcher, MatchIndex
from tests.records.matching.sites import mined, traceback_at


def test_of_checks_of_one_file_with_one_literal_text_the_one_raised_at_the_line_is_shown() -> None:
    template = "Some keys are defined incorrectly: `{key}` should be {rule} but found {value}"
    entries = [mined(f"check-{line}", template.replace("{key}", f"{{k{line}}}"), "lib/config.py", line,
                         library_version="2.0") for line in (100, 120, 140)]  # fmt: skip
    paste = (
        traceback_at("lib/config.py", 120)
        + "ValueError: Some keys are defined incorrectly: `width` should be > 0 but found 0"
    )
    for order in (entries, entries[::-1]):
        answer = Matcher(MatchIndex.build(order)).match(paste).matches[0]
        assert (answer.id, answer.line_number) == ("check-120", 120)
        assert "line 120 agrees" in answer.why


def test_of_two_records_raised_at_the_line_the_newer_release_s_is_shown() -> None:
    activations = "Only support weights in {accepted_activations} but found {self.activations}"
    weights = "Only support weights in {accepted_weights} but found {self.weights}"
    entries = [mined("activations", activations, "lib/quant.py", 58, library_version="2.0"),
               mined("weights", weights, "lib/quant.py", 56, library_version="2.0",
                         version_lines=(("1.0", 58),))]  # fmt: skip
    paste = traceback_at("lib/quant.py", 58) + "ValueError: Only support weights in [None, 'int8'] but found int4"
    for order in (entries, entries[::-1]):
        answer = Matcher(MatchIndex.build(order)).match(paste).matches[0]
        assert (answer.id, answer.located_version) == ("activations", "2.0")


def _reworded_pair(curated_newer: bool) -> Matcher:
    newer = "generate expected at least {n} calls to {name}.forward() during the widget's prefill and decode"
    older = "generate expected at least 2 calls to {name}.forward() during the widget's prefill and decode"
    base = IndexEntry(id="new", error_message=newer, error_class="RuntimeError", file_path="src/lib/exporters.py",
                      line_number=90, repo="o/lib", curated=curated_newer, library_version="5.15.0")  # fmt: skip
    old = base._replace(id="old", error_message=older, line_number=60, curated=False, library_version="5.13.1")
    return Matcher(MatchIndex.build([base, old]))


@pytest.mark.parametrize("curated_newer", [False, True])
def test_a_value_made_a_placeholder_in_a_later_release_is_one_check_reworded(curated_newer: bool) -> None:
    paste = "RuntimeError: generate expected at least 2 calls to Llava.forward() during the widget's prefill and decode"
    result = _reworded_pair(curated_newer).match(paste)
    assert result.status == "matched"
    (answer,) = result.matches
    assert set(answer.member_ids) == {"new", "old"}
    if curated_newer:
        assert answer.id == "new" and answer.curated  # the team's text is shown
        assert answer.error_message.startswith("generate expected at least {n} calls")
    # A curated record that names its release (and line) lists it as a mined one does.
    assert answer.versions == ("5.15.0", "5.13.1")


def test_a_short_template_is_never_judged_an_instance_of_another() -> None:
    a = IndexEntry(id="a", error_message="bad value {x}", error_class="ValueError", file_path="src/lib/a.py",
                   line_number=1, repo="o/lib", curated=False, library_version="2.0")  # fmt: skip
    b = a._replace(id="b", error_message="bad value 3", line_number=2, library_version="1.0")
    assert len(Matcher(MatchIndex.build([a, b])).match("ValueError: bad value 3").matches) == 2
