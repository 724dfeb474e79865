"""Text from outside is made encodable once: lone surrogates, undecodable bytes, NUL, oversize."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from records.text import clean_text, decode_bytes


def test_lone_surrogates_and_nul_are_replaced() -> None:
    assert clean_text("bad \ud800 value\x00!") == "bad \ufffd value !"
    assert clean_text("ok text") == "ok text"


def test_undecodable_bytes_are_replaced() -> None:
    assert decode_bytes(b"ValueError: bad \xff value") == "ValueError: bad \ufffd value"


def test_the_cap_keeps_the_tail() -> None:
    assert clean_text("x" * 10 + "ValueError: end", max_chars=15) == "ValueError: end"


@given(st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=0xE100)))
def test_anything_comes_out_encodable_and_cleaning_twice_changes_nothing(text: str) -> None:
    cleaned = clean_text(text)
    cleaned.encode("utf-8")
    assert "\x00" not in cleaned
    assert clean_text(cleaned) == cleaned
