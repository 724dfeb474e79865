"""The checks the built-in secret rules run on a candidate span, beyond what their patterns say."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from records._re2 import SpanPattern, compile_spans
from records.redact import redact
from records.redact._rules import (
    _NOT_EMAIL_LITERALS,
    _PEM_BEGIN,
    EMAIL_ADDRESS,
    EMAIL_CONTEXT,
    PEM_OPENING,
    RULES,
    URL_CREDENTIALS,
    URL_SCHEME,
    WINDOWS_HOME,
    WINDOWS_NAME,
    WINDOWS_NAME_ENDED,
    Rule,
    _has_key_body,
    _hf_token,
    _is_email,
    _openai,
    _slack,
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
    assert _openai("sk-proj-Ab12Cd34Ef56Gh78Ij90" + "T3BlbkFJ" + "Kl12Mn34Op56Qr78St90")
    assert not _openai("sk-proj-Ab12Cd34Ef56Gh78Ij90" + "T4BlbkFJ" + "Kl12Mn34Op56Qr78St90")  # no OpenAI marker
    assert _openai("sk-Ab12Cd34Ef56Gh78Ij90Kl12Mn34Op56")  # a bare 'sk-' key may be another service's
    assert not _openai("sk-ant-api03-Ab12Cd34Ef56Gh78Ij90Kl12")  # Anthropic's, found by its own rule
    assert not _openai("sk-only-letters-here")


_HEADER = "-----BEGIN " + "PRIVATE KEY-----"


@pytest.mark.parametrize(
    "text",
    [
        f"some text here\n{_HEADER}\nyabba dabba doo",  # cut inside the key, or mangled: the body reads as none
        f"PermissionError: bad key\r\n  {_HEADER}  \r\nnot the key itself\n",
        f'{{"config": "some text here\\n{_HEADER}\\nyabba dabba doo"}}',  # the line breaks escaped in JSON
        f"{_HEADER}\npart one\n{_HEADER}\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----",
    ],
)
def test_the_header_of_a_pem_block_the_paste_never_closes_is_redacted(text: str) -> None:
    result = redact(text)
    assert _HEADER not in result.text
    assert [f.kind for f in result.findings] and {f.kind for f in result.findings} == {"private_key"}


@pytest.mark.parametrize(
    "text",
    [
        f"{_HEADER}\nanything\n-----END PRIVATE KEY-----",  # a closed block of prose: an illustration
        f"ValueError: expected {_HEADER} header",  # a header in a sentence opens no block
        f"ValueError: the key must start with\n{_HEADER}\n",  # nothing after it: no block
        f"{_HEADER}\n\nthe file was empty",  # a blank line after it
    ],
)
def test_a_closed_block_of_prose_and_a_header_that_opens_no_block_are_left(text: str) -> None:
    assert redact(text).findings == ()


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


# Rules matched without groups find their secret with a function: it must agree with the pattern as first
# written, with a group around the secret (for Windows paths, one for each kind of name).
_GROUPED = {
    "private_key": compile_spans(PEM_OPENING.replace(_PEM_BEGIN, f"({_PEM_BEGIN})", 1)),
    "email": compile_spans(f"{EMAIL_CONTEXT}({EMAIL_ADDRESS})"),
    "url_credentials": compile_spans(f"{URL_SCHEME}({URL_CREDENTIALS})@"),
    "home_user": compile_spans(rf"{WINDOWS_HOME}(?:({WINDOWS_NAME_ENDED})(?:\\|/)|({WINDOWS_NAME}))"),
}
_LOCATED = {rule.kind: rule for rule in RULES if rule.locate is not None}
# Pieces of addresses, URLs and Windows paths and their neighbours, with characters RE2's case folding or
# its UTF-8 path treat apart (the long s matches 's' in '(?i:users)'; 'é' takes the str path).
_NOISE = [*("a", "Z", "7", ".", "-", ":", "]", "@", " ", "\n", "'", '"', "<", "/", "\\", "\\\\", "é", "=")]
_PIECES = {
    "private_key": [*("-----BEGIN PRIVATE KEY-----", "-----BEGIN RSA PRIVATE KEY-----", "\\n", "\r\n", "\r", "\t")],
    "email": [*("_", "%", "+", "[", "mailto:", "MAILTO:", "x.io", "example.com", "alice@x.io", "\u212a")],
    "url_credentials": [*("https://", "git+ssh://", "ftp://", "u:p", "u:p@", ":@", "@h", "https://u:FAKE1@")],
    "home_user": [*("C:", "d:", "Users", "USERS", "u\u017fers", "My Name", "\t", "C:\\Users\\", "c:/users/")],
}


def _pasted(kind: str) -> st.SearchStrategy[str]:
    return st.lists(st.sampled_from(_PIECES[kind] + _NOISE), max_size=16).map("".join)


def _first_group(spans: list[tuple[int, int]]) -> tuple[int, int]:
    return next(span for span in spans[1:] if span[0] >= 0)


def _located(rule: Rule, text: str) -> list[tuple[int, int]]:
    assert rule.locate is not None
    return [rule.locate(text, *spans[0]) for spans in rule.pattern.spans(text)]


@pytest.mark.parametrize("kind", sorted(_GROUPED))
@given(data=st.data())
def test_a_secret_located_without_groups_is_the_group_of_the_pattern(kind: str, data: st.DataObject) -> None:
    text = data.draw(_pasted(kind))
    grouped: SpanPattern = _GROUPED[kind]
    assert _located(_LOCATED[kind], text) == [_first_group(spans) for spans in grouped.spans(text)]


def test_every_rule_matched_without_groups_is_checked_against_its_groups() -> None:
    assert sorted(_LOCATED) == sorted(_GROUPED)
    assert all(_LOCATED[kind].pattern.groups == 0 for kind in _LOCATED)


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("mailto:alice@example.org", "alice@example.org"),
        ("alice@example.org", "alice@example.org"),
        ("(bob@x.io)", "bob@x.io"),
        ("C:\\Users\\My Name\\x.py", "My Name"),
        ("C:\\\\Users\\\\bob\\\\x.py", "bob"),
        ("c:/users/bob", "bob"),
        ("https://u:FAKEpw1@db.example.com", "u:FAKEpw1"),
    ],
)
def test_located_secrets(text: str, secret: str) -> None:
    spans = [span for rule in _LOCATED.values() for span in _located(rule, text)]
    assert [text[start:end] for start, end in spans] == [secret]


_LOCAL_PARTS = st.sampled_from(["git", "GIT", "Git.x", "alice", "a.b", "x+y"])
_DOMAINS = st.sampled_from(["self.x.io", "cls.conf", "SELF.a.co", "x.self.io", "2x.png", "a.JPEG", "e.ico", "x.io"])
_addresses = st.one_of(
    st.from_regex(EMAIL_ADDRESS, fullmatch=True),
    st.builds(lambda local, domain: f"{local}@{domain}", _LOCAL_PARTS, _DOMAINS),
)


@given(_addresses)
def test_an_address_is_rejected_only_when_it_holds_a_literal_the_rule_looks_for(address: str) -> None:
    # The e-mail rule skips _is_email on a paste holding none of these literals.
    rejected = not _is_email(address)
    assert not rejected or any(literal in address.lower() for literal in _NOT_EMAIL_LITERALS)


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("Server=tcp:db.example.net,1433;User ID=sa;Password=sunshine;Encrypt=True;", "sunshine"),
        ("PGPASSWORD=trustno\nPGUSER=app\n", "trustno"),
        ("db_pass: correct-horse-battery\n", "correct-horse-battery"),
        ("ERROR worker: login failed: password=trustno (retry 2/5)", "trustno"),
        ('{"user": "app", "passwd": "sunshine"}', "sunshine"),
        ("password = 'hunterzz'", "hunterzz"),
    ],
)
def test_a_password_of_letters_only_is_redacted(text: str, secret: str) -> None:
    result = redact(text)
    assert secret not in result.text
    assert {f.kind for f in result.findings} & {"password", "generic_secret"}


@pytest.mark.parametrize(
    "text",
    [
        "Incorrect password: please try again",  # prose after the label
        "ValueError: password: required",
        "def login(self, username: str, password: Optional[str] = None):",  # code
        "    conn = connect(host=h, password=password)",
        "  File x, in f(password=self.password)",
        "password=getpass()",
        "login(password=db_password)",  # a variable named for what it holds
        "pass: true",  # a bare 'pass' is prose
        "Password: ********",
        'psycopg2.OperationalError: FATAL:  password authentication failed for user "postgres"',
    ],
)
def test_a_password_label_before_prose_or_code_redacts_nothing(text: str) -> None:
    assert redact(text).findings == ()


@pytest.mark.parametrize(
    "hashed",
    [
        "$2b$12$KIXQJ1a0s8eZ5lq8pQm1NuV3c7Rk1gq1YyqvT6xgk0oQpQk9a7m2W",  # bcrypt
        "$6$saltsalt$qFmFH.bQmmtXzyBY0s9v7Oicd2z4XSIecDzlB5KiA2/jctKu9YterLp8wwnSq.qc.eoxqOmSuNp2xS0ktL3nh/",
        "$1$abcdefgh$0123456789abcdefghijkl",  # MD5-crypt
        "$argon2id$v=19$m=65536,t=3,p=4$c29tZXNhbHQ$RdescudvJCsgt3ub+b+dWRWJTmaaJObG",
    ],
)
def test_a_password_hash_is_redacted(hashed: str) -> None:
    result = redact(f"root:{hashed}:19000:0:99999:7:::")
    assert hashed not in result.text and [f.kind for f in result.findings] == ["password_hash"]


@pytest.mark.parametrize(
    ("text", "secret", "kind"),
    [
        ("Pinecone(api_key='pcsk_4abcde_" + "Ab12Cd34" * 8 + "')", "pcsk_4abcde_" + "Ab12Cd34" * 8, "pinecone_key"),
        ("Client(api_key=xai-" + "Ab12Cd34" * 10 + ")", "xai-" + "Ab12Cd34" * 10, "xai_key"),
        ("url: nvapi-" + "Ab12Cd34" * 8 + " failed", "nvapi-" + "Ab12Cd34" * 8, "nvidia_key"),
        ("docker login -u me -p dckr_pat_Ab12Cd34Ef56Gh78Ij90Kl12Mn3", "dckr_pat_Ab12Cd34Ef56Gh78Ij90Kl12Mn3", "dockerhub_token"),
        ("$ mysql -u root -pS3cretPass123 -h db", "S3cretPass123", "command_password"),
        ("sshpass -p 'hunter22' ssh user@host", "hunter22", "command_password"),
        ("machine api.example.com login me password hunter2", "hunter2", "command_password"),
        ("Authorization: Token 0123456789abcdef0123456789abcdef01234567", "0123456789abcdef01234567", "bearer_token"),
    ],
)  # fmt: skip
def test_service_keys_and_command_line_passwords(text: str, secret: str, kind: str) -> None:
    result = redact(text)
    assert secret not in result.text and kind in {f.kind for f in result.findings}


@pytest.mark.parametrize(
    "text",
    ["mysql -u root -p -h db", "mysql: error -p --port", "the machine is the login server password reset"],
)
def test_a_command_line_without_a_password_redacts_nothing(text: str) -> None:
    assert redact(text).findings == ()


def test_values_labelled_inside_an_escaped_json_string_are_redacted_in_place() -> None:
    key = "abcd1234" * 8
    text = '{"config": "{\\"sl_api_key\\": \\"' + key + '\\", \\"pwd\\": \\"sunshine\\"}", "retries": 3}'
    result = redact(text)
    assert key not in result.text and "sunshine" not in result.text
    # The markers replace the values alone: the escaped quotes around them are kept as they were.
    assert '\\"[REDACTED:softlayer_key]\\"' in result.text and '\\"[REDACTED:password]\\"' in result.text
    assert result.text.endswith('\\"}", "retries": 3}')


@pytest.mark.parametrize(
    "text",
    [
        "https://api.example.com/v1/items?q=password%20=%20%22,.:-%C2%A8@*%C2%BF%3F!%22&page=2",
        '{"config": "password = \\",.:-\\u00a8@*\\u00bf?!\\"", "retries": 3}',
    ],
)
def test_a_labelled_value_of_escaped_punctuation_redacts_nothing(text: str) -> None:
    assert redact(text).findings == ()


def test_a_labelled_value_with_escaped_punctuation_and_a_letter_is_redacted() -> None:
    text = "https://api.example.com/v1/items?q=secrete%20=%20%22A,.:-%C2%A8@*%C2%BF%3F!%22&page=2"
    assert "A,.:-%C2%A8" not in redact(text).text


@pytest.mark.parametrize(
    ("text", "redacted"),
    [
        ("for url: https://api.example.com/v1?q=https://url:8000%20@something%20else&page=2", None),
        ("for url: https://api.example.com/v1?q=https://url:%208000@something", None),
        ("postgresql://alice:my%20s3cret@db.example.com/app", "alice:my%20s3cret"),
        ("https://bob:p%40ss%2Fw0rd@example.com/", "bob:p%40ss%2Fw0rd"),
    ],
)
def test_url_credentials_read_decoded_start_and_end_with_no_space(text: str, redacted: str | None) -> None:
    result = redact(text)
    if redacted is None:
        assert [f.kind for f in result.findings if f.kind == "url_credentials"] == []
    else:
        assert redacted not in result.text and "[REDACTED:url_credentials]" in result.text
