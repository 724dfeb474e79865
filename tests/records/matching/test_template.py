"""Templates: literal segments, holes, words, and the in-order literal matcher."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from records.matching.template import (
    literal_words,
    parse_template,
    segments_in_order,
    template_from_pattern,
)


@pytest.mark.parametrize(
    ("text", "segments", "holes"),
    [
        ("plain message", ("plain message",), 0),
        ("expected {n} got {m}", ("expected ", " got ", ""), 2),
        ("{type(model).__name__}.forward()", ("", ".forward()"), 1),
        ("nested {d[{k}]} end", ("nested ", " end"), 1),
        ("literal {{braces}} kept", ("literal {braces} kept",), 0),
        ("unclosed {oops", ("unclosed ", ""), 1),
    ],
)
def test_parse_template(text: str, segments: tuple[str, ...], holes: int) -> None:
    template = parse_template(text)
    assert template.segments == segments
    assert template.holes == holes


def test_template_from_pattern() -> None:
    template = template_from_pattern(r"assisted generation is not supported with stateful models, such as (.+?)")
    assert template.segments == ("assisted generation is not supported with stateful models, such as ", "")
    assert template_from_pattern(r"^a\.b (\d+) c$").segments == ("a.b ", " c")


def test_literal_words_skip_stopwords_and_short_words() -> None:
    words = literal_words(parse_template("The model {x} is not supported with a cache"))
    assert words == {"model", "supported", "cache"}


@pytest.mark.parametrize(
    ("message", "share"),
    [
        ("expected 3 got 4", 1.0),
        ("EXPECTED 3\n   GOT 4", 1.0),  # case and re-wrapping do not matter
        ("got 4 expected 3", 8 / 11),  # out of order: only "expected" (8 of 11 literal chars) counts
        ("nothing alike", 0.0),
    ],
)
def test_segments_in_order(message: str, share: float) -> None:
    assert segments_in_order(parse_template("expected {n} got {m}").segments, message) == pytest.approx(share)


@given(st.text(max_size=200))
def test_parse_never_fails_and_keeps_literal_text(text: str) -> None:
    template = parse_template(text)
    assert len(template.segments) >= 1
    if "{" not in text and "}" not in text:
        assert template.segments == (text,)
