"""Templates: literal segments, holes, words, and the in-order literal matcher."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from records.matching.template import (
    first_clause,
    leading_words,
    literal_words,
    message_words,
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
    ("text", "count", "words"),
    [
        ("Input length of {n} is {m}, but `max_length` is set to {k}.", 3, ["input", "length", "max"]),
        ("{path} is not a local folder and is not a valid model", 3, ["local", "folder", "valid"]),  # after the hole
        ("the and of", 3, []),
    ],
)
def test_leading_words_are_the_first_words_of_the_literal_text_in_order(
    text: str, count: int, words: list[str]
) -> None:
    assert leading_words(parse_template(text), count) == words


def test_leading_words_skip_words_already_posted() -> None:
    assert leading_words(parse_template("load tokenizer for {x}"), 2, frozenset({"load"})) == ["tokenizer"]


@pytest.mark.parametrize(
    ("text", "clause"),
    [
        ("Can't load tokenizer for '{n}'. If you were trying {x}", ("Can't load tokenizer for '", "'.")),
        (
            "{p} does not appear to have a file named {f}. Checkout {u}",
            ("", " does not appear to have a file named ", "."),
        ),
        ("{p} is not a local folder\nIf this is private", ("", " is not a local folder\n")),  # a line break ends one
        ("First sentence. Second one {x}", ("First sentence.",)),
        ("One sentence only, value {x}.", None),  # the template's own end is no first sentence
        ("Version 4.{minor} is needed", None),  # a point inside a number ends nothing
    ],
)
def test_first_clause_ends_at_the_first_sentence_end_inside_literal_text(
    text: str, clause: tuple[str, ...] | None
) -> None:
    assert first_clause(parse_template(text).segments) == clause


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


@pytest.mark.parametrize(
    ("message", "words"),
    [
        ("Can't load tokenizer for '/data/llm/models/vicuna-7b-delta-v1.1'", {"load", "tokenizer"}),
        ("Path ./bert/FoBERT2-SS not found", {"path", "found"}),
        ("C:\\Users\\me\\model.bin not found", {"found"}),
        # A URL, and words a template writes with one slash, are the template's own.
        ("see https://huggingface.co/models", {"https", "huggingface", "models"}),
        ("input/output mismatch in 16/32-bit floats", {"input", "output", "mismatch", "bit", "floats"}),
    ],
)
def test_message_words_leave_out_the_words_of_paths(message: str, words: set[str]) -> None:
    assert message_words(message) == words
