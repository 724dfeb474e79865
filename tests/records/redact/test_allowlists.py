"""gitleaks' allowlists and what a text's Screen spares of them: the answers are those of the checks asked whole."""

from __future__ import annotations

import string

import pytest
from hypothesis import given
from hypothesis import strategies as st

from records._re2 import LinePattern, compile_spans
from records.redact import _allowlists, _scanner
from records.redact._allowlists import Screen, accepted_each, joined, lined, relax


@pytest.mark.parametrize(
    ("regex", "relaxed"),
    [
        (r"^[a-zA-Z_.-]+$", r"[a-zA-Z_.-]+"),
        (r"(?i)^true|false|null$", r"(?i)true|false|null"),
        (r"\b(pat[[:alnum:]]{14})\b", r"(pat[[:alnum:]]{14})"),
        (r"[^$]x[]^]", r"[^$]x[]^]"),  # anchors inside a class are members
        (r"a\\b(?:\n|\z)", r"a\\b(?:\n|)"),  # an escaped backslash then 'b' is no boundary
        (r"\Qa$\E", None),
    ],
)
def test_anchors_and_word_boundaries_are_dropped_outside_classes(regex: str, relaxed: str | None) -> None:
    assert relax(regex) == relaxed


@given(st.text(alphabet="ab \n-_.$^", max_size=30), st.integers(0, 30), st.integers(0, 30))
def test_a_relaxed_regex_finds_in_a_text_whatever_the_regex_finds_in_a_part_of_it(text: str, a: int, b: int) -> None:
    part = text[min(a, b) : max(a, b)]
    for regex in (r"^[a-b_.-]+$", r"\bab\b", r"(?:a|^b)\s*$", r"\Ab\z"):
        relaxed = relax(regex)
        assert relaxed is not None
        if compile_spans(regex).occurs(part):
            assert compile_spans(relaxed).occurs(text)


def _generic_checks() -> tuple[_scanner.ScannerRule, _allowlists.Allow]:
    compiled, glob = _scanner.rules()
    return next(rule for rule in compiled if rule.kind == "generic_api_key"), glob


def _settled(screen: Screen) -> Screen:
    for _ in range(_allowlists._SCREEN_AFTER + 1):
        screen.filler_may_occur()  # each ask counts towards screening the text
    return screen


def test_a_screen_tells_which_lists_and_words_can_match_in_its_text() -> None:
    rule, _ = _generic_checks()
    text = "SERVICE_1_API_KEY=qQQ0lojnTiGnsAZLarj2YXZU\nmodule.exports = { lock: 1 }\n"
    screen = _settled(Screen(text))
    on_match = next(a for a in rule.allow if a.target == "match")
    on_line = next(a for a in rule.allow if a.target == "line")
    assert not screen.regex_may_match(on_line)  # neither '--mount=type=secret,' nor an import line
    words = screen.stopwords(on_match)
    assert words == tuple(sorted(w for w in on_match.stopwords if w in text.lower()))
    assert {"lock", "service"} <= set(words or ())
    assert not screen.filler_may_occur()


def test_before_it_is_settled_a_screen_asks_everything() -> None:
    rule, _ = _generic_checks()
    on_line = next(a for a in rule.allow if a.target == "line")
    assert Screen("nothing here").regex_may_match(on_line)
    assert Screen("nothing here").filler_may_occur()


_VALUES = st.text(alphabet=string.ascii_letters + string.digits + "_.-=/+$%{}", min_size=1, max_size=30)


@given(st.lists(_VALUES, min_size=1, max_size=8))
def test_a_plan_accepts_what_the_allowlists_asked_one_by_one_accept(values: list[str]) -> None:
    rule, glob = _generic_checks()
    assert rule.checks is not None
    text = "\n".join(f"api_key={value}" for value in values)
    plan = _settled(Screen(text)).plan(rule.checks)
    for value in values:
        line = f"api_key={value}"
        whole = glob.accepts(value, line, "") or any(a.accepts(value, line, line) for a in rule.allow)
        assert plan.accepts(value, line, line) == whole


# --- asking many values at once ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("regex", "read"),
    [
        (r"^[a-zA-Z_.-]+$", r"(?m)^[a-zA-Z_.-]+$"),
        (r"\Aab\z", r"(?m)^ab$"),
        (r"(?:\n|\z)[\A\z]", r"(?m)(?:\n|$)[\A\z]"),  # inside a class, escapes are members
        (r"a\\z", r"(?m)a\\z"),  # an escaped backslash, then a 'z'
        (r"(?i-m:x)", None),
        (r"(?-m)x", None),
        (r"(?i)x(?P<name>y)(?:z)", r"(?m)(?i)x(?P<name>y)(?:z)"),
        (r"\Qa$\E", None),
    ],
)
def test_a_regex_is_read_over_lines_with_its_ends_as_line_ends(regex: str, read: str | None) -> None:
    assert lined(regex) == read


_PIECES = ["a", "B", "1", "_", ".", "-", " ", "\n", "$", "{", "}", "true", "false", "null", "x=", "X=", "%s"]


@given(st.lists(st.lists(st.sampled_from(_PIECES), max_size=6).map("".join), max_size=30))
def test_values_asked_at_once_get_the_answers_each_gets_alone(values: list[str]) -> None:
    rule, glob = _generic_checks()
    lists = [glob, *rule.allow]
    for target in ("secret", "match", "line"):
        found = joined([a for a in lists if a.target == target])
        assert found is not None and found.lined is not None
        assert accepted_each(found, values) == [found.pattern.occurs(value) for value in values]
    for regex in (r"\bab\b", r"(?:a|^b)\s*$", r"\Ab\z", r"(?s)a.b", r"^$", r"x*"):
        read = lined(regex)
        assert read is not None
        found = _allowlists._Joined(compile_spans(regex), (), LinePattern(read))
        assert accepted_each(found, values) == [found.pattern.occurs(value) for value in values]


@given(st.lists(_VALUES, max_size=12))
def test_a_rules_checks_asked_of_many_findings_at_once_answer_as_asked_one_by_one(values: list[str]) -> None:
    rule, _ = _generic_checks()
    assert rule.checks is not None
    lines = [f"api_key={value}" for value in values]
    whole = rule.checks.whole()
    expected = [whole.accepts(value, line, line) for value, line in zip(values, lines, strict=True)]
    assert rule.checks.accepts_each(values, lines, lines) == expected
