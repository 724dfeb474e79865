"""Aligning a template's literal text with a pasted message: squashed, in order, pieces allowed."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from records.matching.align import align, squash
from records.matching.template import parse_template

CONFIG = (
    "Unrecognized configuration class {config} for this kind of AutoModel: {name}.\n"
    "Model type should be one of {choices}."
)
PAD = "Please select a token to use as `pad_token` `(tokenizer.pad_token = tokenizer.eos_token e.g.)` or add one"


def _align(template: str, message: str) -> tuple[float, bool]:
    result = align(parse_template(template).segments, message)
    return round(result.covered, 2), result.consistent


@pytest.mark.parametrize(
    ("template", "message", "covered", "consistent"),
    [
        pytest.param(
            CONFIG,
            "Unrecognized configuration class <class 'X'> for this kind of AutoModel: AutoModelForCausalLM.\n"
            "Model type should be one of " + ", ".join(f"Config{k}" for k in range(2000)) + ".",
            1.0,
            True,
            id="huge-placeholder-value",
        ),
        pytest.param(
            PAD,
            "Please select a token to use as pad_token (tokenizer.pad_token = tokenizer.eos_to\nken e.g.) or add one",
            1.0,
            True,
            id="backticks-lost-and-word-wrapped",
        ),
        pytest.param(
            CONFIG,
            "Unrecognized configuration class <class 'X'> for this kind of AutoModel: AutoModelForCausalLM.",
            0.7,
            True,
            id="second-line-cut-off",
        ),
        pytest.param(CONFIG, "Unrecognized configuration class <class 'X'> for this ki", 0.53, True, id="cut-mid-word"),
        pytest.param(PAD, "a token to use as `pad_token`", 0.27, True, id="piece-of-one-segment"),
        pytest.param(
            CONFIG,
            "Unrecognized configuration class X.\nModel type should be one of A.",
            0.7,
            False,
            id="missing-inside",
        ),
        pytest.param(CONFIG, "nothing alike at all", 0.0, False, id="unrelated"),
    ],
)
def test_align(template: str, message: str, covered: float, consistent: bool) -> None:
    got_covered, got_consistent = _align(template, message)
    assert got_covered == pytest.approx(covered, abs=0.01) and got_consistent is consistent


def test_text_after_a_template_ending_in_literal_text_is_outside_it() -> None:
    short = "Unable to create tensor with the same length."
    message = "Unable to create tensor with the same length. Perhaps your features (`"
    assert align(parse_template(short).segments, message).outside > 0.2
    assert align(parse_template(short + " Perhaps your features ({key}) nest").segments, message).outside == 0.0


def test_a_long_unexplained_opening_is_not_a_piece_from_the_middle() -> None:
    template = 'Specified `experts_implementation="{x}"` is not supported. The only possible arguments are {y}.'
    message = 'Specified `attn_implementation="fast_attention"` is not supported. The only possible arguments are a'
    assert not align(parse_template(template).segments, message).consistent


@given(st.text(max_size=300), st.text(max_size=300))
def test_align_is_bounded(template: str, message: str) -> None:
    result = align(parse_template(template).segments, message)
    assert 0.0 <= result.covered <= 1.0
    assert 0.0 <= result.outside <= 1.0
    assert result.found_chars <= len(squash(message)) + len(squash(template))
