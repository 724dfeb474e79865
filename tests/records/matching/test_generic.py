"""Messages Python, PyTorch and NumPy print themselves are weak text, except in their own repository's records."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from records.matching.generic import GENERIC_SHARE, PHRASE_OWNERS, generic_owners, is_generic
from records.matching.template import parse_template

MAT1 = parse_template("mat1 and mat2 shapes cannot be multiplied ({}x{} and {}x{})")


def test_a_phrase_that_is_most_of_the_template_is_generic_in_the_records_of_other_repositories() -> None:
    assert generic_owners(MAT1) == {"pytorch/pytorch"}
    assert is_generic(MAT1) and is_generic(MAT1, "huggingface/transformers")


def test_a_phrase_is_not_generic_in_the_records_of_the_repository_that_prints_it() -> None:
    assert not is_generic(MAT1, "pytorch/pytorch")
    broadcast = parse_template("operands could not be broadcast together with shapes {} {}")
    assert is_generic(broadcast, "pytorch/pytorch") and not is_generic(broadcast, "numpy/numpy")


def test_python_s_own_messages_are_generic_in_every_record() -> None:
    index_error = parse_template("list index out of range")
    assert generic_owners(index_error) == {None}
    assert is_generic(index_error, "pytorch/pytorch") and is_generic(index_error, None)


@pytest.mark.parametrize(
    "text",
    [
        "Unrecognized configuration class {} for this kind of AutoModel: the model has no attribute {}",
        "",
        "{}",
    ],
)
def test_a_phrase_inside_a_longer_specific_message_or_no_literal_text_is_not_generic(text: str) -> None:
    template = parse_template(text)
    assert not generic_owners(template) and not is_generic(template)


def test_every_phrase_has_one_owner_and_is_lower_case() -> None:
    phrases = [phrase for phrase, _ in PHRASE_OWNERS]
    assert len(phrases) == len(set(phrases))
    assert all(phrase == phrase.lower() for phrase in phrases)


_PHRASES = [phrase for phrase, _ in PHRASE_OWNERS]


@given(st.lists(st.sampled_from([*_PHRASES, "{x}", "the", "model", "x" * 40, "Weights"]), max_size=5).map(" ".join))
def test_the_owners_are_those_of_every_phrase_that_is_most_of_the_literal_text(message: str) -> None:
    """Long texts are ruled out before any phrase is looked for: the answer is the one looking would give."""
    literal = " ".join(parse_template(message).literal.lower().split())
    expected = {o for p, o in PHRASE_OWNERS if literal and p in literal and len(p) >= GENERIC_SHARE * len(literal)}
    assert generic_owners(parse_template(message)) == expected
