"""Whether a value looks random (records/redact/_randomness.py): placeholders, runs, templates, entropy."""

from __future__ import annotations

import math
import string
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from records.redact import _randomness
from records.redact._randomness import entropy_under, shannon


def _placeholder_by_definition(value: str) -> bool:
    """The placeholder test spelled out plainly: the reference the RE2 pass must agree with."""
    lowered = value.lower()
    if any(word in lowered for word in _randomness._PLACEHOLDER_WORDS) or any(c * 6 in lowered for c in set(lowered)):
        return True
    if any(value.startswith(a) and value.endswith(b) for a, b in _randomness._TEMPLATES):
        return True
    return len(value) >= 16 and _randomness.shannon(value) < 3.0


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("hf_" + "AbCdEfGhIjKlMnOpQrStUvWxYz01234567", False),
        ("YOUR_TOKEN_HERE", True),
        ("sk-xxxxxxxxxxxx", True),
        ("hf_FAKE000000000000000000000000000001", True),  # a run of six
        ("hf_FAKE00000aBcDeFgHiJkLmNoPqRsTuVwXyZ", False),  # five is no run
        ("ééééééAbCdEf0123", True),  # a run outside ASCII
        ("\x00" * 6 + "AbCdEf0123", True),
        ("${OPENAI_API_KEY}", True),
        ("abababababababababab", True),  # too regular
    ],
)
def test_placeholders_and_fillers_are_told_from_secrets(value: str, expected: bool) -> None:
    assert _randomness.placeholder(value) is expected
    assert _placeholder_by_definition(value) is expected


@given(st.text(alphabet=string.ascii_letters + string.digits + "_-${}<>xX0éÉ\u212a", max_size=40))
def test_placeholder_agrees_with_its_definition(value: str) -> None:
    assert _randomness.placeholder(value) == _placeholder_by_definition(value)


def _shannon_by_counter(value: str) -> float:
    counts = Counter(value)
    return -sum(n / len(value) * math.log2(n / len(value)) for n in counts.values())


@given(st.text(min_size=1, max_size=600))
def test_shannon_is_the_counter_formula_to_the_last_bit(value: str) -> None:
    assert shannon(value) == _shannon_by_counter(value)


@given(
    st.one_of(st.text(min_size=1, max_size=80), st.text(alphabet="ab01", min_size=1, max_size=40)),
    st.sampled_from([1.0, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5]),
)
def test_entropy_under_a_limit_is_told_as_the_sum_tells_it(value: str, limit: float) -> None:
    assert entropy_under(value, limit) == (shannon(value) < limit)


@pytest.mark.parametrize(
    ("value", "under"),
    [
        ("abcdefgh" * 2, False),  # eight characters, evenly: exactly 3 bits, not under
        ("abcdefg" * 3, True),  # seven: at most log2(7)
        ("aabcdefghijklmnop", False),  # largest share 2/17: at least 3.09 bits
        ("a" * 20 + "bcdefghi", True),  # nine characters, one of them most: the sum tells (1.72 bits)
        ("aaaabcdefghijklmnop", False),  # sixteen, largest share 4/19: the sum tells (3.83 bits)
    ],
)
def test_entropy_under_three_bits_at_and_near_the_bounds(value: str, under: bool) -> None:
    assert entropy_under(value, 3.0) is under


@pytest.mark.parametrize("size", [16, 17, 24, 40, 64])
def test_the_fewest_distinct_characters_over_a_limit_bound_the_most_uneven_value(size: int) -> None:
    # At the bound, the value with one character repeated and every other once is over three bits; with one
    # distinct character fewer it is not, so the bound is the tightest the count of distinct characters
    # alone can give.
    fewest = _randomness._fewest_distinct_over(size, 3.0)
    others = (string.ascii_letters[1:] + string.digits)[: fewest - 1]
    uneven = "a" * (size - fewest + 1) + others
    assert len(uneven) == size and len(set(uneven)) == fewest
    assert shannon(uneven) > 3.0
    fewer = "a" * (size - fewest + 2) + others[:-1]
    assert len(fewer) == size and shannon(fewer) <= 3.0
