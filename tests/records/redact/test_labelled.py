"""Labelled values (records/redact/_labelled.py): a value after a label, and a label that names a secret."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from records.redact._labelled import (
    NOT_SECRETS,
    _escaped_start,
    _holds_letter_or_digit,
    _value_of,
    labelled_name,
    labelled_names,
    labelled_value,
)
from records.redact._randomness import placeholder


@pytest.mark.parametrize(
    ("value", "accepted"),
    [
        ("s3cr3t-Passw0rd!", True),
        ("None", False),
        ("token", False),
        ("/home/alice/project", False),  # a directory, left to the home-directory rule
        ("<your password>", False),
        ("a = b", False),  # a nested assignment, not a value
        ("***", False),
        # Punctuation escaped as JSON or for a URL holds letters and digits only as written.
        (",.:-\\u00a8@*\\u00bf?!", False),
        (",.:-%C2%A8@*%C2%BF%3F!", False),
        ("%22%C2%BF%22", False),
        # Escapes of letters, and escapes beside letters, leave a value that holds them.
        ("\\u00e9t\\u00e9", True),
        ("p%40ss%2Cw0rd", True),
        ("x%41%42", True),
        ("\\q%ZZ", True),  # no JSON string and no escape: read as written
    ],
)
def test_labelled_values(value: str, accepted: bool) -> None:
    assert labelled_value(value) is accepted


def _labelled_value_by_definition(value: str) -> bool:
    """labelled_value spelled out test by test, each asked of every value."""
    nested = " " in value and ("= " in value or " =" in value or ": " in value)
    path = value.startswith(("/", "~/")) and "/" in value[2:]
    literal = value.lower() in NOT_SECRETS
    escaped = "\\" in value or "%" in value
    holds = _holds_letter_or_digit(value) if escaped else any(c.isalnum() for c in value)
    if value.startswith("<") or nested or path or _escaped_start(value) or literal or not holds:
        return False
    return not placeholder(value)


@given(st.text(alphabet="aZ09xX_-%<>/~ =:\\é" + "".join(sorted(set("".join(NOT_SECRETS)))), max_size=20))
def test_labelled_value_agrees_with_its_definition(value: str) -> None:
    assert labelled_value(value) == _labelled_value_by_definition(value)


@pytest.mark.parametrize(
    "value", ["None", "TRUE", "password", "Ab3dE5gH7jK9mN1pQ3sT", "aaaaaaaaaaaaaaaaaaaa", "é1", "x"]
)
def test_a_value_of_letters_and_digits_alone_is_judged_as_any_other(value: str) -> None:
    assert labelled_value(value) == _labelled_value_by_definition(value)


def test_a_label_that_names_a_secret_not_its_name_or_place() -> None:
    assert labelled_name('password="s3cr3t-Passw0rd!"')
    assert not labelled_name('secret_name="s3cr3t-Passw0rd!"')
    assert not labelled_name("token_path=/run/secrets/t0ken")
    assert _value_of('api_key => "Ab12Cd34"') == "Ab12Cd34"
    assert _value_of("token: 'Ab12'") == "Ab12"
    assert _value_of("no operator") == "no operator"


_LABELS = ["password", "secret_name", "api_key", "token_path", "?q=password", "csrf_token", "publicKey"]
_LABELLED_VALUES = ["s3cr3t-Passw0rd!", "abcdefghij", "${TOKEN}", "true", "/home/x/y", "Ab12Cd34Ef", "{{ x }}"]


@given(
    st.lists(
        st.tuples(st.sampled_from(_LABELS), st.sampled_from(["=", ": ", " => "]), st.sampled_from(_LABELLED_VALUES))
    )
)
def test_labels_judged_all_at_once_are_judged_as_one_by_one(parts: list[tuple[str, str, str]]) -> None:
    matches = [f"{label}{operator}{value}" for label, operator, value in parts]
    assert labelled_names(matches) == [labelled_name(match) for match in matches]


def _value_by_definition(match: str) -> str:
    for operator in ("=>", ":=", "==", "=", ":"):
        if operator in match:
            return match.split(operator, 1)[1].strip().strip("\"'`").strip()
    return match


@given(st.lists(st.sampled_from(["a", "=", ":", ">", " ", "'", '"', "k", "=>", ":=", "=="]), max_size=12).map("".join))
def test_the_value_of_a_match_follows_its_first_operator_by_priority(match: str) -> None:
    assert _value_of(match) == _value_by_definition(match)
