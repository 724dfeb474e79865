"""The checks the built-in secret rules run on a candidate span, beyond what their patterns say."""

from __future__ import annotations

import pytest

from records.redact._rules import (
    RULES,
    _has_key_body,
    _hf_token,
    _is_email,
    _labelled_name,
    _labelled_value,
    _openai,
    _slack,
    _value_of,
)

HF_BODY = "AbCdEfGhIjKlMnOpQrStUvWxYz01234567"  # 34 characters, as Hugging Face issues them


def test_rule_hints_are_lower_case_literals() -> None:
    # The text is lower-cased once and each hint looked up with `in`: an upper-case hint never hits.
    assert all(hint == hint.lower() and hint for rule in RULES for hint in rule.hints)


@pytest.mark.parametrize(
    ("value", "accepted"),
    [
        ("hf_" + HF_BODY, True),
        ("hf_" + HF_BODY[:20] + "9", True),  # shorter, but with a digit: an older token
        ("hf_someCamelCaseNameWithoutDigits", False),  # an identifier that starts like a token
        ("hf_" + "x" * 34, False),  # a placeholder
    ],
)
def test_hugging_face_tokens(value: str, accepted: bool) -> None:
    assert _hf_token(value) is accepted


def test_slack_and_openai_keys() -> None:
    assert _slack("xoxb-1234567890-0987654321-AbCdEfGhIjKlMnOpQrStUvWx")
    assert not _slack("xoxb-1234567890-0987654321-")  # cut off at the dash
    assert _openai("sk-proj-Ab12Cd34Ef56Gh78Ij90Kl12Mn34Op56")
    assert not _openai("sk-ant-api03-Ab12Cd34Ef56Gh78Ij90Kl12")  # Anthropic's, found by its own rule
    assert not _openai("sk-only-letters-here")


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
    ],
)
def test_labelled_values(value: str, accepted: bool) -> None:
    assert _labelled_value(value) is accepted


def test_a_label_that_names_a_secret_not_its_name_or_place() -> None:
    assert _labelled_name('password="s3cr3t-Passw0rd!"')
    assert not _labelled_name('secret_name="s3cr3t-Passw0rd!"')
    assert not _labelled_name("token_path=/run/secrets/t0ken")
    assert _value_of('api_key => "Ab12Cd34"') == "Ab12Cd34"
    assert _value_of("token: 'Ab12'") == "Ab12"
    assert _value_of("no operator") == "no operator"


def test_a_private_key_needs_key_material() -> None:
    body = "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC"
    assert _has_key_body(f"-----BEGIN PRIVATE KEY-----\n{body}\n-----END PRIVATE KEY-----")
    assert _has_key_body(f"-----BEGIN PRIVATE KEY-----\\n{body}")  # cut off, but the body is there
    assert not _has_key_body("-----BEGIN PRIVATE KEY-----\n-----END PRIVATE KEY-----")
    assert not _has_key_body("-----BEGIN PRIVATE KEY----- is what the file should start with")


@pytest.mark.parametrize(
    ("value", "personal"),
    [
        ("alice@example.org", True),
        ("git@github.com", False),  # an SSH remote
        ("icon@2x.png", False),  # a retina asset
        ("model@self.config", False),  # attribute access in code
    ],
)
def test_what_counts_as_an_email_address(value: str, personal: bool) -> None:
    assert _is_email(value) is personal
