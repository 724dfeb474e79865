"""The raise site the traceback shows decides the answer without a word search, as the search would.

``Matcher(site_first=True)`` (the default) scores the templates raised at the raising frame's line, with
the templates their answers can become one with, and answers from them alone when one of them is
the raise statement the paste shows (its file, line and class, its pattern matching the whole message).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

import pytest

from benchmarks.evalset import raised_cases, real_cases, shipped_matcher
from benchmarks.evaluate import load_cases
from records.matching import IndexEntry, Matcher, MatchIndex, MatchResult
from tests.records.matching.sites import mined, traceback_at

MESSAGE = "the widget configuration {name} cannot be combined with legacy sprockets in this release"
PASTED = "ValueError: the widget configuration 'x' cannot be combined with legacy sprockets in this release"


class _NoWordSearch(MatchIndex):
    """An index that fails the test when the message's words are searched."""

    def candidates(self, message: str, limit: int = 40) -> list[Any]:
        raise AssertionError(f"the words of {message!r} were searched")


def _site_only(*entries: IndexEntry) -> Matcher:
    index = _NoWordSearch()
    for entry in entries:
        index.upsert([entry])
    return Matcher(index)


def test_the_raise_statement_shown_answers_without_searching_words() -> None:
    matcher = _site_only(mined("a", MESSAGE, "lib/alpha.py", 10), mined("b", MESSAGE + "!", "lib/beta.py", 20))
    result = matcher.match(traceback_at("lib/alpha.py", 11) + PASTED)  # a line apart: a multi-line raise
    assert result.status == "matched" and result.matches[0].id == "a"
    assert "line 10 agrees" in result.matches[0].why


@pytest.mark.parametrize(
    ("message", "paste"),
    [
        (
            MESSAGE,
            traceback_at("lib/alpha.py", 10) + "ValueError: the widget configuration 'x' cannot be combined",
        ),  # cut
        (MESSAGE, traceback_at("lib/alpha.py", 10) + "TypeError: " + PASTED.removeprefix("ValueError: ")),  # class
        (MESSAGE, traceback_at("lib/alpha.py", 30) + PASTED),  # another line
        (MESSAGE, traceback_at("other/alpha.py", 10) + PASTED),  # a file of that name in another package
        ("{message}", traceback_at("lib/alpha.py", 10) + PASTED),  # a template of no text of its own
    ],
)
def test_a_site_that_does_not_decide_leaves_the_answer_to_the_word_search(message: str, paste: str) -> None:
    with pytest.raises(AssertionError, match="were searched"):
        _site_only(mined("a", message, "lib/alpha.py", 10)).match(paste)


def test_the_same_check_raised_in_other_files_folds_into_the_site_answer() -> None:
    other_names = MESSAGE.replace("{name}", "{config_name}")  # the same literal text, another placeholder
    matcher = _site_only(mined("a", MESSAGE, "lib/alpha.py", 10), mined("b", other_names, "lib/beta.py", 20))
    (answer,) = matcher.match(traceback_at("lib/alpha.py", 10) + PASTED).matches
    assert (answer.id, answer.file_path, answer.other_files) == ("a", "src/lib/alpha.py", ())  # a frame picks
    assert set(answer.member_ids) == {"a"}
    entries = [mined("a", MESSAGE, "lib/alpha.py", 10), mined("b", other_names, "lib/beta.py", 20)]
    without_frame = Matcher(MatchIndex.build(entries)).match(PASTED).matches[0]
    assert set(without_frame.member_ids) == {"a", "b"}  # no frame: one answer for both files


def test_a_curated_text_naming_no_line_is_shown_on_the_site_it_opens() -> None:
    curated = IndexEntry(id="curated", error_message="the widget configuration {name} cannot be combined",
                         error_class="ValueError", file_path="src/lib/alpha.py", repo="o/lib")  # fmt: skip
    matcher = _site_only(mined("a", MESSAGE, "lib/alpha.py", 10, library_version="2.0"), curated)
    (answer,) = matcher.match(traceback_at("lib/alpha.py", 10) + PASTED).matches
    assert answer.id == "curated" and answer.curated  # the team's text
    assert (answer.file_path, answer.line_number, answer.versions) == ("src/lib/alpha.py", 10, ("2.0",))


def test_an_older_release_s_wording_of_the_check_joins_the_site_answer() -> None:
    newer = "expected at least {count} calls to {function} before the widget configuration is combined"
    older = "expected at least 2 calls to {function} before the widget configuration is combined"
    entries = [mined("new", newer, "lib/alpha.py", 10, library_version="2.0"),
               mined("old", older, "lib/alpha.py", 10, library_version="1.0")]  # fmt: skip
    paste = (
        traceback_at("lib/alpha.py", 10)
        + "ValueError: expected at least 2 calls to f() before the widget configuration is combined"
    )
    answer = _site_only(*entries).match(paste).matches[0]
    assert answer.versions == ("2.0", "1.0") and set(answer.member_ids) == {"new", "old"}


# Every paste of every set: the raised set is where the raising frame decides most (457 of its 548).
SETS: dict[str, Callable[[], list[dict[str, Any]]]] = {
    "real": lambda: real_cases("transformers"),
    "ecosystem": lambda: real_cases("ecosystem"),
    "raised": raised_cases,
    "foreign": lambda: real_cases("foreign"),
    "chat": lambda: real_cases("chat"),
    "hard": lambda: load_cases("hard"),
    "generated": lambda: load_cases("generated"),
}


@cache
def _searching() -> Matcher:
    return Matcher(shipped_matcher().index, site_first=False)


def _shown(result: MatchResult) -> tuple[object, ...]:
    answers = [(m.id, m.score, m.rank, m.file_path, m.line_number, m.versions, m.line_versions, m.other_files,
                m.why, frozenset(m.member_ids), m.curated) for m in result.matches]  # fmt: skip
    return result.status, result.error.message if result.error else None, answers


@pytest.mark.sweep
@pytest.mark.parametrize("name", SETS)
def test_deciding_at_the_site_gives_the_answers_the_word_search_gives(name: str) -> None:
    """Answers, scores, folds, versions and members (in any order) as with the word search."""
    cases = SETS[name]()
    assert len(cases) >= 19
    for case in cases:
        assert _shown(shipped_matcher().match(case["text"])) == _shown(_searching().match(case["text"])), case["id"]
