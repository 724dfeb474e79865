"""Titles show the message as the paste shows it; the template, placeholders as ``…``, when it does not fit."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from records.titles import TITLE_LIMIT, filled_message, readable_template, title

STATEFUL = "assisted generation is not supported with stateful models, such as {self.__class__.__name__}"
DECOMPOSE = (
    "decompose_prefill_decode expected at least {num_new_tokens} calls to {type(model).__name__}.forward() "
    "during generate(max_new_tokens={num_new_tokens})"
)
VIDEO = "QianfanOCR does not support video input. Got {{'videos': {n}}}"


@pytest.mark.parametrize(
    ("template", "pattern", "pasted", "expected"),
    [
        (STATEFUL, None, "assisted generation is not supported with stateful models, such as MambaForCausalLM",
         "assisted generation is not supported with stateful models, such as MambaForCausalLM"),
        (STATEFUL, None, None, "assisted generation is not supported with stateful models, such as …"),
        (STATEFUL, None, "something else entirely", "assisted generation is not supported with stateful models, such as …"),
        (DECOMPOSE, None, "decompose_prefill_decode expected at least 2 calls to\n   Foo.forward() during generate(max_new_tokens=2)",
         "decompose_prefill_decode expected at least 2 calls to Foo.forward() during generate(max_new_tokens=2)"),
        (VIDEO, None, "QianfanOCR does not support video input. Got {'videos': 3}", "QianfanOCR does not support video input. Got {'videos': 3}"),
        (VIDEO, None, "", "QianfanOCR does not support video input. Got {'videos': …}"),
        ("no placeholders here", None, "no placeholders here", "no placeholders here"),
        ("no placeholders here", None, "a different message", "no placeholders here"),
        ("Expected a cache", r"Expected a (.+?)", "Expected a tuple", "Expected a tuple"),
        ("Expected a cache", r"Expected a (.+?)", None, "Expected a …"),
        ("{value}", None, "anything  at all", "anything at all"),
        ("multi\nline {x}\n  template", None, None, "multi line … template"),
        # What the paste holds around the message (a progress bar and a banner before it, a log suffix
        # after it) is not in the title unless a placeholder at that end takes it.
        ("`.to` is not supported for `4-bit` models.", None,
         "Loading shards: 100%|███| 2/2 !!! Exception during processing !!! `.to` is not supported for `4-bit` models. [42s]",
         "`.to` is not supported for `4-bit` models."),
        (STATEFUL, None, "!!! Exception !!! assisted generation is not supported with stateful models, such as Mamba",
         "assisted generation is not supported with stateful models, such as Mamba"),
    ],
)  # fmt: skip
def test_filled_message(template: str, pattern: str | None, pasted: str | None, expected: str) -> None:
    assert filled_message(template, pattern, pasted) == expected


def test_long_values_are_shortened_and_the_literal_text_kept() -> None:
    pasted = "QianfanOCR does not support video input. Got {'videos': " + "x" * 500 + "}"
    filled = filled_message(VIDEO, None, pasted)
    assert filled.startswith("QianfanOCR does not support video input. Got {'videos': xxx")
    assert filled.endswith("x…}") and len(filled) < 150


def test_title_names_the_class_and_fits_discord() -> None:
    assert title(None, STATEFUL) == "Error: assisted generation is not supported with stateful models, such as …"
    assert title("E", "{x}", None, "y" * 5000).endswith("…") and len(title("E", "{x}", None, "y" * 5000)) == TITLE_LIMIT


def test_readable_template_unhides_literal_braces() -> None:
    assert readable_template("a {{literal}} {hole}") == "a {literal} …"


values = st.text(alphabet=st.characters(categories=["L", "N"]), min_size=1, max_size=20)


@given(first=values, second=values)
def test_a_template_filled_with_short_values_comes_back(first: str, second: str) -> None:
    pasted = f"expected {first} calls to {second}.forward()"
    assert filled_message("expected {n} calls to {name}.forward()", None, pasted) == pasted


@given(template=st.text(max_size=400), pasted=st.none() | st.text(max_size=2000), limit=st.integers(1, 300))
def test_any_title_fits_its_limit(template: str, pasted: str | None, limit: int) -> None:
    shown = title("ValueError", template or "m", None, pasted, limit)
    assert 0 < len(shown) <= limit and "\n" not in shown
