"""The RE2 wrapper: linear-time patterns, surrogate-safe text, literal sets and span-only matching."""

from __future__ import annotations

import pytest
import re2
from hypothesis import given
from hypothesis import strategies as st

from records._re2 import compile_pattern, compile_spans, encodable, literal_finder


def test_compile_pattern_matches_like_re() -> None:
    pattern = compile_pattern(r"(\w+)Error: (\w+)")
    [first, second] = pattern.finditer("raise ValueError: boom, then KeyError: lr")
    assert (first.group(1), first.group(2), second.group(1), second.group(2)) == ("Value", "boom", "Key", "lr")
    assert first.span() == (6, 22) and pattern.groups == 2


def test_lone_surrogates_become_the_replacement_character_and_keep_offsets() -> None:
    text = "key \ud800 missing"
    cleaned = encodable(text)
    assert cleaned == "key \ufffd missing" and len(cleaned) == len(text)
    cleaned.encode("utf-8")  # RE2 can take it now
    ordinary = "plain ü text"
    assert encodable(ordinary) is ordinary  # nothing to do: the same object back


def test_literal_finder_tells_which_literals_occur() -> None:
    find = literal_finder(["stateful", "assistant_model", "a.b", "stateful"])
    assert find("assisted generation with assistant_model on a stateful model") == {"stateful", "assistant_model"}
    assert find("a.b and axb") == {"a.b"}  # literals, not patterns: the dot is a dot
    assert find("nothing here") == frozenset()


def test_span_matches_are_the_same_on_ascii_and_non_ascii_text() -> None:
    pattern = compile_spans(r"\d+")
    assert [m.span() for m in pattern.finditer("a 12 b 345")] == [(2, 4), (7, 10)]
    # Non-ASCII text takes the str path: offsets count characters, not UTF-8 bytes.
    assert [m.span() for m in pattern.finditer("é 12 ü 345")] == [(2, 4), (7, 10)]
    assert pattern.groups == 0


# Patterns with groups that may take no part and with empty matches, the cases where reading spans
# straight from the compiled program could drift from the wrapper's finditer.
_SPAN_PATTERNS = [r"\d+", r"(a)|(b)", r"x*", r"(?:\A|[^a])(a+)(b)?", r"\b(\w)(\w*)\b", r"(é)?a", r"([^ab]+)(€)?"]


@pytest.mark.parametrize("pattern", _SPAN_PATTERNS)
@given(st.text(alphabet="aabx1 \né€😀", max_size=30))  # characters of one to four UTF-8 bytes
def test_spans_are_the_spans_finditer_reports(pattern: str, text: str) -> None:
    compiled = compile_spans(pattern)
    oracle = re2.compile(pattern)  # the wrapper's own str path, offsets in characters
    expected = [[match.span(group) for group in range(oracle.groups + 1)] for match in oracle.finditer(text)]
    assert list(compiled.spans(text)) == expected
    assert compiled.occurs(text) == bool(expected)


def test_spans_give_a_group_that_took_no_part_as_minus_one() -> None:
    pattern = compile_spans(r"(a)|(b)")
    assert list(pattern.spans("ab")) == [[(0, 1), (0, 1), (-1, -1)], [(1, 2), (-1, -1), (1, 2)]]
    assert list(pattern.spans("é b")) == [[(2, 3), (-1, -1), (2, 3)]]  # characters, not UTF-8 bytes
    assert list(pattern.spans("")) == [] and not pattern.occurs("xyz")
