"""The generic rules' patterns matched in two steps (records/redact/_split.py) give RE2's own spans.

The locators read a secret's group off the match by reasoning about each pattern's parse; these tests hold
that reasoning to RE2's answer (the pattern whole, with its groups: the match and the first group that took
part) on texts built from the fragments the reasoning turns on: labels, every operator, quotes, spaces,
separators, terminators and values.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from records.redact import _rules, _scanner, _split
from records.redact._split import (
    GITLEAKS_LABEL_CHARACTERS,
    GITLEAKS_LABEL_ENDS,
    LabelEnds,
    SplitPattern,
    gitleaks_generic_bounds,
    gitleaks_generic_bounds_each,
    secret_spans,
    skip,
    without_groups,
)

_LABELS = (
    "api_key", "API_KEY", "SERVICE_7_API_KEY", "password", "db.pass", "x-secret", "clientSecret", "token",
    "auth", "access", "creds", "credential", "passwd", "pwd", "private_key", "my.token.value", "Api", "key",
    "secret_name", "pass", "tokens", "a", "_", ".", "-",
)  # fmt: skip
_OPERATORS = (
    "=", "==", "===", "!=", "!==", ":", "::", ":=", "::=", ":::=", "=>", "?=", ">", "||", ",", "=:", "= =",
)  # fmt: skip
_GLUE = (" ", "  ", "\t", "\n", "\r\n", "\f", "\v", '"', "'", "`", "\\n", "\\r", "\\", ";", "&", "[", "]", "/", "")
_VALUE_ALPHABET = "aZ09xK+/=-_.~!@#%^*${}()<>|?:;\"' \\"


def _value(rng: random.Random) -> str:
    shape = rng.random()
    if shape < 0.4:
        return "".join(rng.choices("abcXYZ0189", k=rng.randint(8, 30)))
    if shape < 0.6:
        return "".join(rng.choices("abcXYZ0189+/", k=rng.randint(10, 20))) + "=" * rng.randint(0, 4)
    return "".join(rng.choices(_VALUE_ALPHABET, k=rng.randint(1, 25)))


def _text(rng: random.Random) -> str:
    pieces = []
    for _ in range(rng.randint(1, 6)):
        pieces += [rng.choice(_GLUE), rng.choice(_LABELS), rng.choice(_GLUE), rng.choice(_OPERATORS)]
        pieces += [rng.choice(_GLUE), _value(rng), rng.choice(_GLUE)]
    return "".join(pieces)


def _patterns() -> list[SplitPattern]:
    ours = next(rule.pattern for rule in _rules.RULES if rule.kind == "generic_secret")
    theirs = next(rule.pattern for rule in _scanner.rules()[0] if rule.kind == "generic_api_key")
    assert isinstance(ours, SplitPattern)
    assert isinstance(theirs, SplitPattern)
    return [ours, theirs]


def _marked(pattern: SplitPattern, text: str) -> bytes:
    return text.encode("ascii").translate(pattern._marks)


def _ends(pattern: SplitPattern, text: str, *, marked: bool) -> LabelEnds:
    ends = pattern.label_ends(text)
    ends._asked = 1000 if marked else -1000
    return ends


def _whole(pattern: SplitPattern, text: str) -> list[list[tuple[int, int]]]:
    return [secret_spans(spans) for spans in pattern._whole.spans(text)]


def _agree(pattern: SplitPattern, text: str) -> None:
    assert list(pattern.spans(text)) == _whole(pattern, text)
    for (start, end), *_ in pattern._bare.spans(text):
        for marked in (False, True):  # the fallback is never needed, whether labels are read or the text marked
            assert pattern._locate(text, _ends(pattern, text, marked=marked), start, end) is not None


@pytest.mark.parametrize("seed", range(20))
def test_spans_in_two_steps_are_the_patterns_own(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(100):
        text = _text(rng)
        for pattern in _patterns():
            _agree(pattern, text)


@settings(max_examples=300)
@given(st.lists(st.sampled_from([*_LABELS, *_OPERATORS, *_GLUE, "abc123", "Zz9", "x" * 12, "9" * 11]), max_size=14))
def test_spans_agree_on_any_arrangement_of_the_fragments(pieces: list[str]) -> None:
    text = "".join(pieces)
    for pattern in _patterns():
        _agree(pattern, text)


@pytest.mark.parametrize("seed", range(10))
def test_the_bounds_of_a_gitleaks_match_hold_its_secret(seed: int) -> None:
    rng = random.Random(seed)
    theirs = _patterns()[1]
    for _ in range(100):
        text = _text(rng)
        for (start, end), *_ in theirs._bare.spans(text):
            bounds = gitleaks_generic_bounds(text, _ends(theirs, text, marked=True), start, end)
            located = theirs._locate(text, _ends(theirs, text, marked=False), start, end)
            assert located is not None and bounds is not None
            (_, _), (secret_start, secret_end) = located
            assert bounds[0] <= secret_start and bounds[1] == secret_end


@pytest.mark.parametrize("seed", range(5))
def test_many_matches_read_at_once_are_read_as_one_by_one(seed: int) -> None:
    # Past _MARK_AFTER matches a text is marked at once and most matches read inline (locate_each, bound_each).
    rng = random.Random(seed)
    text = "".join(_text(rng) for _ in range(1200))
    ours, theirs = _patterns()
    for pattern in (ours, theirs):
        assert len(list(pattern._bare.spans(text))) > _split._MARK_AFTER
        _agree(pattern, text)
    matches = [spans[0] for spans in ours._bare.spans(text)]
    located = [_rules._generic_secret_spans(text, _ends(ours, text, marked=False), *match) for match in matches]
    assert _rules._generic_secret_spans_each(text, ours.label_ends(text), matches) == located
    matches = [spans[0] for spans in theirs._bare.spans(text)]
    bounds = [gitleaks_generic_bounds(text, _ends(theirs, text, marked=False), *match) for match in matches]
    assert gitleaks_generic_bounds_each(text, theirs.label_ends(text), matches) == bounds


def test_an_env_dump_is_read_at_once() -> None:
    text = "".join(f"SERVICE_{i}_API_KEY=aB3dE5gH7jK9mN1pQ3sT{i:04d}\n" for i in range(_split._MARK_AFTER * 2))
    for pattern in _patterns():
        _agree(pattern, text)
    ours = _patterns()[0]
    ends = ours.label_ends(text)
    assert ends.marked() is ends.marked() == _marked(ours, text)


def test_matches_the_caller_does_not_want_are_left_out_before_they_are_located() -> None:
    theirs = _patterns()[1]
    text = "A_API_KEY=aB3dE5gH7jK9\nB_API_KEY=zY8xW6vU4tS2\n"
    everything = list(theirs.spans(text))
    asked: list[list[tuple[int, int] | None]] = []

    def unwanted(bounds: list[tuple[int, int] | None]) -> list[bool]:
        asked.append(bounds)
        return [bound is not None and text[bound[0] : bound[1]].startswith("a") for bound in bounds]

    assert [spans[1] for spans in theirs.spans(text, unwanted)] == [everything[1][1]]
    # Asked once, of every match.
    assert [[text[start:end] for start, end in filter(None, bounds)] for bounds in asked] == [
        ["aB3dE5gH7jK9", "zY8xW6vU4tS2"]
    ]


def test_text_that_is_not_ascii_takes_the_pattern_whole() -> None:
    text = "api_key=é1234567890abcdef password=s3cr3t-Passw0rd"
    for pattern in _patterns():
        assert list(pattern.spans(text)) == _whole(pattern, text)


def test_a_match_is_given_with_its_first_group_that_took_part() -> None:
    assert secret_spans([(0, 9), (-1, -1), (2, 5), (6, 8)]) == [(0, 9), (2, 5)]
    assert secret_spans([(0, 9)]) == [(0, 9), (0, 9)]


@pytest.mark.parametrize(
    ("regex", "expected"),
    [
        (r"a(b)c", r"a(?:b)c"),
        (r"(?P<name>x)(?:y)", r"(?:x)(?:y)"),
        (r"\(([()])\)", r"\((?:[()])\)"),
        (r"[](]\\(a)", r"[](]\\(?:a)"),
        (r"[[:alpha:](](x)", r"[[:alpha:](](?:x)"),
    ],
)
def test_groups_are_made_non_capturing_outside_classes_and_escapes(regex: str, expected: str) -> None:
    assert without_groups(regex) == expected


def test_skip_stops_at_the_first_character_outside_the_set_or_at_the_end() -> None:
    assert skip("aab=c", 0, 5, "ab") == 3
    assert skip("aab=c", 1, 2, "ab") == 2
    assert skip("=", 0, 1, "ab") == 0


def test_a_label_ends_at_a_marked_character_which_no_label_holds() -> None:
    # The locators find where a label ends by the first marked character: none may be part of a label.
    assert set(GITLEAKS_LABEL_ENDS).isdisjoint(GITLEAKS_LABEL_CHARACTERS)
    assert set(_rules._LABEL_ENDS).isdisjoint(_rules._NAME_CHARACTERS)
    ours, theirs = _patterns()
    text = "a_key: 'x' password=abc123 token ?= Zz9"
    assert _marked(ours, text) == b"a_key===x==password=abc123=token====Zz9"
    assert _marked(theirs, text) == b"a_key= 'x' password=abc123 token == Zz9"
