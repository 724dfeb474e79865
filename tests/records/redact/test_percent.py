"""Percent-decoding of a paste and the map from the decoded text back (records/redact/_percent.py)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from records.redact._percent import percent_decoded


def test_percent_decoding_reads_a_utf8_run_as_one_character_and_maps_it_back() -> None:
    text = "a%C2%A8b%41c%C2zz%E2%82%ACq%F0%9F"
    decoded = percent_decoded(text)
    assert decoded is not None
    plain, back = decoded
    # A run that spells a character in UTF-8 is that character; a lone or cut lead byte reads as its value.
    assert plain == "a¨bAcÂzz€q\xf0\x9f"
    spelled = [text.__getitem__(slice(*back(index, index + 1))) for index in range(len(plain))]
    assert spelled == ["a", "%C2%A8", "b", "%41", "c", "%C2", "z", "z", "%E2%82%AC", "q", "%F0", "%9F"]
    assert text[slice(*back(1, 4))] == "%C2%A8b%41"


def test_text_without_an_escape_has_no_decoded_form() -> None:
    assert percent_decoded("100% sure, 50%") is None
    assert percent_decoded("no escape") is None
    assert percent_decoded("%zz%4") is None


_ESCAPES = ["%41", "%C2", "%A8", "%E2", "%82", "%AC", "%F0", "%9F", "%25", "%ff", "%", "%4", "%zz", "a", "é", "-"]


@given(st.lists(st.sampled_from(_ESCAPES), max_size=24).map("".join))
def test_each_decoded_character_maps_back_to_what_spells_it(text: str) -> None:
    decoded = percent_decoded(text)
    if decoded is None:
        assert not _has_escape(text)
        return
    plain, back = decoded
    spelled = [text[slice(*back(index, index + 1))] for index in range(len(plain))]
    # The spellings cut the text in order, and each reads, decoded alone, as its character.
    assert "".join(spelled) == text
    for character, spelling in zip(plain, spelled, strict=True):
        alone = percent_decoded(spelling)
        assert (spelling if alone is None else alone[0]) == character


def _has_escape(text: str) -> bool:
    return any(text[i + 1 : i + 3].lower() in _HEX_PAIRS for i, c in enumerate(text) if c == "%")


_HEX_PAIRS = {f"{a}{b}" for a in "0123456789abcdef" for b in "0123456789abcdef"}
