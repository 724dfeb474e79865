"""Stored patterns run on RE2 only: unusable ones are reported, hostile ones stay fast."""

from __future__ import annotations

import pytest
import re2
from hypothesis import given
from hypothesis import strategies as st

from records.matching import IndexEntry, Matcher, MatchIndex
from records.matching.patterns import (
    _options,
    check_pattern,
    derived_pattern,
    fits_whole,
    is_literal_with_holes,
    pattern_evidence,
    required_runs,
)
from records.matching.template import parse_template

ADVERSARIAL_PATTERNS = [
    "(.+?) (.+?) (.+?) failed",
    "(a+)+$",
    "((a|a)*)*b",
    "(x+x+)+y",
    "(.*){1,100}z",
    "(\\w+\\s?)*$",
    "^(([a-z])+.)+[A-Z]([a-z])+$",
    "(.+?)(.+?)(.+?)(.+?)(.+?)(.+?)(.+?)(.+?)!",
]
HOSTILE_PASTES = [
    "a " * 50_000,
    "a" * 100_000,
    "x" * 99_999 + "!",
    "ValueError: " + "failed " * 14_000,
    ("word " * 20 + "\n") * 1000,
]


@pytest.mark.parametrize("pattern", [r"(\w+) and \1", r"(?<=a)b", r"(?=x)y", "(unclosed"])
def test_unusable_patterns_are_reported(pattern: str) -> None:
    check = check_pattern(pattern)
    assert not check.usable and check.problem
    assert pattern_evidence(pattern, "anything") == 0.0


def test_overlong_pattern_is_refused() -> None:
    assert check_pattern("a" * 5000).problem == "longer than 4000 characters"


def test_full_and_partial_matches() -> None:
    pattern = derived_pattern(parse_template("expected {n} calls, got {m}").segments)
    assert pattern_evidence(pattern, "expected 3 calls, got 1") == 1.0
    assert pattern_evidence(pattern, "oh no: expected 3 calls, got 1 (see docs)") == 0.8  # inside, not whole
    assert pattern_evidence(pattern, "expected 3\ncalls, got 1") == 1.0  # re-wrapped paste
    assert pattern_evidence(pattern, "unrelated") == 0.0


def test_adversarial_patterns_are_compiled_by_the_linear_time_engine() -> None:
    # The speed bound itself (worst case under 50 ms) is in benchmarks/bench_hostile.py: a unit test
    # timed by the wall clock fails whenever the machine is busy. What can be proved here is why it
    # holds: every hostile pattern is accepted by RE2, which has no backtracking.
    for pattern in ADVERSARIAL_PATTERNS:
        assert check_pattern(pattern).usable, pattern


@pytest.mark.parametrize("paste", HOSTILE_PASTES, ids=["spaced", "run", "bang", "repeated", "lines"])
def test_adversarial_patterns_on_100kb_pastes_give_an_answer(paste: str) -> None:
    entries = [
        IndexEntry(id=f"evil{i}", error_message=f"evil failed template number{i} words", message_pattern=pattern)
        for i, pattern in enumerate(ADVERSARIAL_PATTERNS)
    ]
    result = Matcher(MatchIndex.build(entries)).match(paste + " evil failed template number3 words")
    assert result.status in {"matched", "ambiguous", "unmatched", "not_an_error"}
    assert all(0.0 <= pattern_evidence(pattern, paste) <= 1.0 for pattern in ADVERSARIAL_PATTERNS)


@pytest.mark.parametrize(
    ("pattern", "plain"),
    [
        (r"abc \(x\) (.+?) done", True),
        (r"(?s)a\.b(.+?)", True),
        ("(.+?)(.+?) failed", True),
        ("plain text", True),
        (r"(\w+) and \1", False),  # back-reference: must be compiled (and refused)
        ("(a+)+$", False),
        ("a.b", False),
        (r"(?=x)y", False),
        ("trailing \\", False),
    ],
)
def test_literal_with_holes_shape(pattern: str, plain: bool) -> None:
    assert is_literal_with_holes(pattern) is plain
    if plain:
        assert check_pattern(pattern).usable


def test_required_runs_are_the_literal_text_between_holes() -> None:
    assert required_runs(r"^expected\ (.+?)\ calls,\ got\ (.+?)$") == ("expected ", " calls, got ")
    assert required_runs(r"(?s)a\s+b(.*)c\$") == ("a", "b", "c$")
    assert required_runs(r"^(\d+) items$") is None  # \d: not plain text, compiled instead
    assert required_runs(r"a|b") is None


def test_a_pattern_whose_text_is_missing_scores_zero_like_re2() -> None:
    pattern = r"^expected\ (.+?)\ calls,\ got\ (.+?)$"
    for message in ["expected 3 calls, got 1", "expected 3\ncalls, got 1", "expected 3 calls", "got 1 expected"]:
        program = re2.compile(pattern, _options())
        texts = (message.strip(), " ".join(message.split()))
        whole = any(program.fullmatch(t) for t in texts)
        inside = any(program.search(t) for t in texts)
        assert pattern_evidence(pattern, message) == (1.0 if whole else 0.8 if inside else 0.0)


@pytest.mark.parametrize(
    ("pattern", "runs"),
    [
        (r"a\\$", ("a\\",)),  # an escaped backslash, then the end anchor
        (r"x\\(.+?)y", ("x\\", "y")),  # an escaped backslash before a hole
        (r"\(.+?)", None),  # an escaped parenthesis: not a hole, compiled instead
        (r"\\s+x", None),  # a backslash, then "s+": an operator
    ],
)
def test_required_runs_read_escapes_left_to_right(pattern: str, runs: tuple[str, ...] | None) -> None:
    assert required_runs(pattern) == runs


_PIECES = st.sampled_from(["a", "b", "ab", " ", "  ", "\t", "\n", ".", "{", "x y", "\u00a0", "(", "$"])
_TEXTS = st.lists(_PIECES, max_size=8).map("".join)


@given(segments=st.lists(_TEXTS, min_size=1, max_size=5).map(tuple), message=_TEXTS)
def test_fitting_whole_is_what_re2_says_of_the_collapsed_message(segments: tuple[str, ...], message: str) -> None:
    """``fits_whole`` answers as the derived pattern's RE2 program on the message with its white space collapsed."""
    program = re2.compile(derived_pattern(segments), _options())
    assert fits_whole(segments, message) == (program.fullmatch(" ".join(message.split())) is not None)


@pytest.mark.parametrize(
    ("template", "message", "whole"),
    [
        ("Expected {n} tokens, got {m}.", "Expected 3 tokens, got 4.", True),
        ("Expected {n} tokens, got {m}.", "Expected  3\ntokens,\tgot 4.", True),  # re-wrapped by a chat window
        ("Expected {n} tokens, got {m}.", "Expected 3 tokens, got.", False),  # a hole takes a character at least
        ("Expected {n} tokens, got {m}.", "Expected tokens, got 4.", True),  # ... a space will do, as for RE2
        ("Expected {n} tokens, got {m}.", "Expected 3 tokens, got 4. Try again", False),
        ("{a}{b}", "x", False),  # two holes, one character
        ("{a}{b}", "xy", True),
        ("no placeholder", "no  placeholder", True),
    ],
)
def test_a_message_fits_its_template_whole(template: str, message: str, whole: bool) -> None:
    assert fits_whole(parse_template(template).segments, message) is whole
