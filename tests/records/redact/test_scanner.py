"""Redaction against the scanner corpus (gitleaks, detect-secrets and Nosey Parker fixtures) and issue 13's kinds.

The corpus is labelled data, so its targets are asserted here as rates: per-kind recall and false positives
on gitleaks' fixtures and floors on detect-secrets' (the tuning sets), and a floor on Nosey Parker's (the
independent check). Timing is a benchmark (``make eval-redact``), never a test.
"""

from __future__ import annotations

import base64
import random
import string
from functools import cache
from pathlib import Path

import pytest
import re2

from benchmarks.eval_redact import CONTEXTS, Fixture, disputed, embed, evaluate, load
from benchmarks.redaction_corpus import _np_secret, guess_secret, unverbose
from records.redact import PERSONAL_KINDS, _scanner, marker, redact

SCANNERS = Path(__file__).resolve().parents[2] / "data" / "redaction" / "scanners"


@cache
def _gitleaks() -> list[Fixture]:
    return load("gitleaks.jsonl")


@cache
def _detect_secrets() -> list[Fixture]:
    return load("detect_secrets.jsonl")


@cache
def _noseyparker() -> list[Fixture]:
    return load("noseyparker.jsonl")


@cache
def _counts(name: str) -> dict[str, dict[str, int]]:
    fixtures = {"gitleaks": _gitleaks, "detect-secrets": _detect_secrets, "noseyparker": _noseyparker}[name]()
    return evaluate(fixtures)


def _totals(counts: dict[str, dict[str, int]]) -> tuple[float, float]:
    found = sum(c["found"] for c in counts.values())
    secrets = sum(c["secrets"] for c in counts.values())
    altered = sum(c["altered"] for c in counts.values())
    lookalikes = sum(c["lookalikes"] for c in counts.values())
    return found / secrets, altered / lookalikes


# --- the corpus ---------------------------------------------------------------------------------


def test_corpus_is_large_and_labelled() -> None:
    gitleaks, detect, nosey = _gitleaks(), _detect_secrets(), _noseyparker()
    assert sum(f.label == "secret" for f in gitleaks) >= 500
    assert sum(f.label == "lookalike" for f in gitleaks) >= 250
    assert len({f.kind for f in gitleaks}) >= 200
    assert sum(f.label == "secret" for f in detect) >= 250
    assert sum(f.label == "secret" for f in nosey) >= 400 and len({f.kind for f in nosey}) >= 150
    everything = [*gitleaks, *detect, *nosey]
    assert all(f.secret and f.secret in f.text for f in everything if f.label == "secret")
    assert all(f.secret is None for f in everything if f.label == "lookalike")


@pytest.mark.parametrize("name", ["gitleaks.jsonl", "detect_secrets.jsonl", "noseyparker.jsonl"])
def test_corpus_files_hold_no_secret_in_the_clear(name: str) -> None:
    raw = (SCANNERS / name).read_text(encoding="utf-8")
    fixtures = load(name)
    assert not [f.secret for f in fixtures if f.secret and len(f.secret) >= 12 and f.secret in raw]


def test_every_fixture_sits_in_every_context() -> None:
    fixture = Fixture("k", "s", "secret", 'token = "abc"', "abc")
    for context in CONTEXTS:
        text, start, end, secret = embed(fixture, context)
        assert secret is not None and secret in text[start:end]


# --- recall and false positives -------------------------------------------------------------------


@pytest.mark.sweep
def test_gitleaks_recall_is_at_least_97_percent_and_every_kind_90() -> None:
    counts = _counts("gitleaks")
    recall, _ = _totals(counts)
    weak = {k: f"{c['found']}/{c['secrets']}" for k, c in counts.items() if c["found"] < 0.9 * c["secrets"]}
    assert recall >= 0.97
    assert weak == {}


def test_gitleaks_lookalikes_are_altered_at_most_2_percent() -> None:
    _, false_positives = _totals(_counts("gitleaks"))
    assert false_positives <= 0.02


def test_detect_secrets_recall_holds_with_its_ported_detectors() -> None:
    # detect-secrets' fixtures tune the detectors ported from it (records/redact/_ported.py): recall 96.3%
    # when they landed, from 54.2% before. Its look-alikes are negatives of one plugin in one file type,
    # some of them secrets to another plugin, to gitleaks or in another file type ('password = m{{h}o)p...'
    # is a look-alike in a .py file and a secret in a .yaml one), so they are held to their measured floor:
    # 17.8% until letters-only passwords were redacted, 18.6% since ('ibm-cloud-pwd = shorter-version',
    # a look-alike of the IBM plugin, is a password to a redactor of pastes), 18.9% once values labelled
    # inside an escaped JSON string were read (recall 96.3% -> 97.2%: the look-alikes flagged in the
    # other contexts are now flagged in the JSON one too), 15.7% once gitleaks' GitLab rules had to end
    # where the token does ('glimt-my-tokens_are-correctAB38_280'). Recall 97.2% -> 98.4% when the corpus
    # took a labelled line's value as its secret ('X-JFrog-Art-Api: AKC...' had been labelled with the
    # header's name, the longest run of the line, which no redactor removes). False positives 15.0% -> 11.8%
    # once a credential's format was read (records/redact/_formats.py): a JWT whose header or payload opens
    # an object it never closes or names no algorithm, a PyPI macaroon cut before its signature, an
    # 'sk-proj-' key without OpenAI's marker are left, by our rules and gitleaks' alike.
    # Recall 98.4% -> 98.7% once the header of a PEM block the paste never closes was redacted (its
    # private_key plugin's 'some text here\n-----BEGIN PRIVATE KEY-----\nyabba dabba doo': 6/10 -> 10/10).
    recall, false_positives = _totals(_counts("detect-secrets"))
    assert recall >= 0.986
    assert false_positives <= 0.119
    weak = {
        k: f"{c['found']}/{c['secrets']}"
        for k, c in _counts("detect-secrets").items()
        if c["found"] < 0.9 * c["secrets"]
    }
    assert weak == {}
    # 65 of those 75 altered embeddings hold a value another of detect-secrets' tests labels a secret; the
    # other 10 are values of the keyword plugin's secrets' shape ('ibm-cloud-pwd = shorter-version' is a
    # letters-only password, 'someotherpassword = "doesnt start right"' a quoted phrase as in its
    # 'password = "value with quotes and spaces"'), negatives only of the IBM plugins they were written for.
    counts = _counts("detect-secrets").values()
    clear = sum(c["lookalikes"] - c["disputed"] for c in counts)
    assert sum(c["altered"] - c["altered_disputed"] for c in counts) / clear <= 0.02


def test_a_look_alike_holding_a_value_its_corpus_labels_a_secret_is_disputed() -> None:
    token = "ghp_" + "a1B2" * 9
    secret = Fixture("github_token", "t", "secret", f"GITHUB_TOKEN={token}", token)
    negative = Fixture("gitlab_token", "t", "lookalike", token, None)
    other = Fixture("gitlab_token", "t", "lookalike", "glpat-short", None)
    secrets = frozenset({token})
    assert disputed(negative, secrets) and not disputed(other, secrets) and not disputed(secret, secrets)
    counts = evaluate([secret, negative, other])
    assert counts["gitlab_token"]["disputed"] == len(CONTEXTS) and counts["gitlab_token"]["lookalikes"] == 2 * len(
        CONTEXTS
    )


@pytest.mark.parametrize(
    ("line", "secret"),
    [
        ("X-JFrog-Art-Api: AKC" + "x" * 10, "AKC" + "x" * 10),
        ("//registry.npmjs.org/:_authToken=npm_" + "x" * 11, "npm_" + "x" * 11),
        ("artifactoryx:_password=AP6" + "x" * 10, "AP6" + "x" * 10),
        ('api_key = "abc123def456";', "abc123def456"),
        ("AccountKey=ab+cd/ef==", "ab+cd/ef=="),
        ("some text\n-----BEGIN PRIVATE KEY-----\nMIIE", "-----BEGIN PRIVATE KEY-----\nMIIE"),
        ("see tests/plugins/keyword_test.py (line 12)", "tests/plugins/keyword_test.py"),  # no label: the longest run
    ],
)
def test_corpus_takes_a_labelled_lines_value_as_its_secret(line: str, secret: str) -> None:
    assert guess_secret(line) == secret


@pytest.mark.parametrize(
    ("prefix", "length"), [("gl" + "imt-", 25), ("gl" + "soat-", 20), ("gl" + "oas-", 64), ("GR" + "1348941", 20)]
)
def test_gitlab_tokens_of_gitleaks_rules_end_where_the_token_does(prefix: str, length: int) -> None:
    # gitleaks' GitLab rules take a fixed length with no end: a longer run of token characters is no token.
    token = prefix + _r(_ALNUM, length)
    assert redact(f"token {token} here").text == "token [REDACTED:gitlab_token] here"
    assert redact(f'T="{token}"').text == 'T="[REDACTED:gitlab_token]"'
    longer = f"{token}_{_r(_ALNUM, 40)}"  # past every length GitLab documents, with no end between
    assert redact(f"name {longer} here").text == f"name {longer} here"


def test_noseyparker_stays_above_its_measured_floor() -> None:
    # The independent check (Nosey Parker's rule examples, never read to write a rule): recall 60.2% and
    # false positives 17.5% when it was added, short of the tuning sets' figures; this floor keeps it from
    # getting worse unnoticed. Letters-only passwords and crypt(3) hashes (rules written from formats
    # common in pastes, not from its examples) took it to 65.2% recall and 18.3% false positives; values
    # labelled inside escaped JSON strings to 65.6% and 18.8%.
    recall, false_positives = _totals(_counts("noseyparker"))
    assert recall >= 0.655
    assert false_positives <= 0.19


# --- the kinds issue 13 names -------------------------------------------------------------------

_RNG = random.Random(13)
_ALNUM = string.ascii_letters + string.digits
_HEX = "0123456789abcdef"
_B32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"


def _r(alphabet: str, n: int) -> str:
    return "".join(_RNG.choice(alphabet) for _ in range(n))


def _jwt_base64() -> str:
    header = base64.urlsafe_b64encode(b'{"alg":"HS256","typ":"JWT"}').decode().rstrip("=")
    body = base64.urlsafe_b64encode(b'{"sub":"1234567890","name":"x"}').decode().rstrip("=")
    return base64.b64encode(f"{header}.{body}.{_r(_ALNUM, 43)}".encode()).decode()


# Built from pieces at test time, so the source holds nothing a push-time scanner would take for a key.
ISSUE_CASES = [
    ("telegram", f"{_r(string.digits, 10)}:AA{_r(_ALNUM, 33)}", "telegram_bot_api_token"),
    ("gitlab deploy", "gl" + "dt-" + _r(_ALNUM, 20), "gitlab_token"),
    ("gitlab runner", "gl" + "rt-" + _r(_ALNUM, 20), "gitlab_token"),
    ("gitlab trigger", "gl" + "ptt-" + _r(_ALNUM, 40), "gitlab_token"),
    ("gitlab job", "gl" + "cbt-" + _r(_ALNUM, 5) + "_" + _r(_ALNUM, 20), "gitlab_token"),
    (
        "slack xoxe",
        "xo" + "xe-" + "-".join(_r(string.digits, 13) for _ in range(3)) + "-" + _r(_HEX, 32),
        "slack_token",
    ),
    ("stripe prod", "sk" + "_prod_" + _r(_ALNUM, 30), "stripe_key"),
    ("aws ABIA", "AB" + "IA" + _r(_B32, 16), "aws_access_key"),
    ("aws ACCA", "AC" + "CA" + _r(_B32, 16), "aws_access_key"),
    ("jwt in base64", _jwt_base64(), "jwt_base64"),
    ("twilio", "SK" + _r(_HEX, 32), "twilio_api_key"),
    ("sendgrid", "SG." + _r(_ALNUM, 22) + "." + _r(_ALNUM, 43), "sendgrid_api_token"),
    ("mailgun", "key-" + _r(_HEX, 32), "mailgun_key"),
    ("azure client secret", _r(_ALNUM, 3) + "8Q~" + _r(_ALNUM, 34), "azure_ad_client_secret"),
    (
        "azure sas",
        "https://acct.blob.core.windows.net/c/b?sv=2022-11-02&se=2030-01-01&sp=r&sig=" + _r(_ALNUM, 43) + "%3D",
        "loose_sas_secret",
    ),
]


@pytest.mark.parametrize(("what", "secret", "kind"), ISSUE_CASES, ids=[c[0] for c in ISSUE_CASES])
@pytest.mark.parametrize("context", list(CONTEXTS))
def test_issue_kinds_are_redacted_in_every_context_and_named(what: str, secret: str, kind: str, context: str) -> None:
    text, _, _, spelled = embed(Fixture(kind, what, "secret", f"credential {secret}", secret), context)
    result = redact(text)
    assert spelled is not None and spelled not in result.text
    assert marker(kind) in result.text
    assert result.has_live_secret


_VALUE = _r(_ALNUM, 10) + "7"
LABELLED = [
    f'apiKey="{_VALUE}"',
    f"clientSecret: {_VALUE}",
    f'secret := "{_VALUE}"',
    f'"password" => "{_VALUE}"',
    f"DB_PASSWORD=p4ss${_VALUE}",
    f'password = "correct horse {_VALUE}"',
    f"if (api_key == '{_VALUE}') {{",
    f"PRIVATE_KEY ?= {_VALUE}",
]


@pytest.mark.parametrize("text", LABELLED)
def test_labelled_values_of_every_spelling_are_redacted(text: str) -> None:
    result = redact(text)
    assert _VALUE not in result.text
    assert [f.kind for f in result.findings] == ["generic_secret"]


@pytest.mark.parametrize(
    "text",
    [
        "secret_name = 'prod-db-9'",
        "token_type_ids = ids2",
        'api_key = "${OPENAI_API_KEY}"',
        "password = '<your password>'",
        'token = "xxxxxxxxxxxxxxxxxxxx"',
        "GITHUB_TOKEN=ghp_" + "x" * 36,
        "apiKey: '{{ secrets.API_KEY }}'",
        "PWD=/srv/app2/releases",
    ],
)
def test_placeholders_and_names_are_left_alone(text: str) -> None:
    result = redact(text)
    assert [f for f in result.findings if f.kind not in PERSONAL_KINDS] == []


def test_the_rule_tables_are_compiled_once_whichever_way_they_are_asked_for() -> None:
    assert _scanner.rules() is _scanner.rules(True) is _scanner.rules(microsoft=True)
    assert _scanner.rules(False) is not _scanner.rules()


# --- reading Nosey Parker's patterns (benchmarks/redaction_corpus.py) ------------------------------


@pytest.mark.parametrize(
    ("pattern", "plain"),
    [
        ("(?x)\n  \\b (ey[a-z]{12,}  (?# header )\n  \\. ey[a-z]+ )  # the payload\n", "\\b(ey[a-z]{12,}\\.ey[a-z]+)"),
        ("(?xi) key [ =:] \\  ( [^ #]+ )", "(?i)key[ =:]\\ ([^ #]+)"),
        ("(?x)(?m) ^ [] x] $", "(?m)^[] x]$"),
        ("\\bplain [ ]pattern", "\\bplain [ ]pattern"),
    ],
)
def test_verbose_patterns_are_rewritten_for_re2(pattern: str, plain: str) -> None:
    assert unverbose(pattern) == plain


def test_a_noseyparker_secret_is_the_second_group_when_a_user_or_id_comes_first() -> None:
    both = re2.search(r"postgres://([a-z]+):([a-z]+)@([a-z]+)", "postgres://ada:hunter@db")
    alone = re2.search(r"\b(tok_[a-z]+)", "x tok_abc")
    assert both is not None and _np_secret(both) == "hunter"
    assert alone is not None and _np_secret(alone) == "tok_abc"
