"""Tests for records.redact: a generated corpus of secrets and look-alikes, and invariants."""

from __future__ import annotations

import base64
import importlib.util
import json
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import records.redact as redact_module
from records.redact import PERSONAL_KINDS, Finding, marker, redact

CORPUS = Path(__file__).resolve().parent.parent / "data" / "redaction"


def _load(name: str) -> list[dict[str, Any]]:
    with (CORPUS / name).open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle]


POSITIVES = _load("positives.jsonl")
LOOKALIKES = _load("lookalikes.jsonl")


def _generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("redaction_corpus", CORPUS / "generate.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# --- the corpus ---------------------------------------------------------------------------------


def test_corpus_is_large_and_varied() -> None:
    assert len(POSITIVES) >= 150
    assert len({row["kind"] for row in POSITIVES}) >= 12
    assert len({row["context"] for row in POSITIVES}) >= 10
    assert len(LOOKALIKES) >= 30


def test_corpus_files_match_their_generator() -> None:
    generator = _generator()
    assert generator.build_positives() == POSITIVES
    assert generator.build_lookalikes() == LOOKALIKES


def test_corpus_credentials_are_marked_fake() -> None:
    credentials = [row for row in POSITIVES if row["kind"] not in PERSONAL_KINDS]
    assert all("fake" in row["secret"].lower() for row in credentials)


@pytest.mark.parametrize(
    "row", POSITIVES, ids=[f"{i}-{row['kind']}-{row['context']}" for i, row in enumerate(POSITIVES)]
)
def test_secret_is_removed_and_reported_as_its_kind(row: dict[str, str]) -> None:
    result = redact(row["text"])
    where = row["text"].index(row["secret"])
    covering = [f for f in result.findings if f.start <= where < f.end]
    assert row["secret"] not in result.text
    assert [f.kind for f in covering] == [row["kind"]]
    assert result.has_live_secret == (row["kind"] not in PERSONAL_KINDS)


@pytest.mark.parametrize("row", LOOKALIKES, ids=[row["why"] for row in LOOKALIKES])
def test_lookalike_is_left_alone(row: dict[str, str]) -> None:
    result = redact(row["text"])
    assert result.findings == ()
    assert result.text == row["text"]


# --- behaviour ----------------------------------------------------------------------------------

HF = "hf_FAKEaBcDeFgHiJkLmNoPqRsTuVwXyZ0123"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('File "/home/alice/x.py"', 'File "/home/<user>/x.py"'),
        ("/Users/bob/Library/x.py", "/Users/<user>/Library/x.py"),
        (r"C:\Users\carol\AppData\x.py", r"C:\Users\<user>\AppData\x.py"),
        ("C:/Users/dave/x.py", "C:/Users/<user>/x.py"),
        (r"'C:\\Users\\erin\\x.py'", r"'C:\\Users\\<user>\\x.py'"),
        (r"C:\Users\John Smith\Desktop", r"C:\Users\<user>\Desktop"),
        ("cwd=/home/frank", "cwd=/home/<user>"),
    ],
)
def test_home_directories_keep_their_shape(text: str, expected: str) -> None:
    result = redact(text)
    assert result.text == expected
    assert not result.has_live_secret


def test_url_credentials_keep_scheme_and_host() -> None:
    assert redact("postgres://app:s3cretpw@db:5432/x").text == "postgres://[REDACTED:url_credentials]@db:5432/x"


def test_token_inside_url_credentials_merges_into_one_finding() -> None:
    text = f"https://x-access-token:{HF}@huggingface.co/repo"
    result = redact(text)
    assert result.text == "https://[REDACTED:huggingface_token]@huggingface.co/repo"
    assert result.findings == (Finding("huggingface_token", 8, 8 + len("x-access-token:") + len(HF)),)


def test_labelled_token_is_reported_as_the_specific_kind() -> None:
    result = redact(f'HF_TOKEN="{HF}"')
    assert result.text == 'HF_TOKEN="[REDACTED:huggingface_token]"'
    assert [f.kind for f in result.findings] == ["huggingface_token"]


def test_findings_point_into_the_original_text() -> None:
    text = f"mail alice@example.com then {HF} end"
    result = redact(text)
    assert [text[f.start : f.end] for f in result.findings] == ["alice@example.com", HF]


def test_personal_data_alone_is_not_a_live_secret() -> None:
    result = redact("from alice@example.com in /home/alice/x")
    assert {f.kind for f in result.findings} == {"email", "home_user"}
    assert not result.has_live_secret


def test_cut_off_private_key_is_redacted_to_the_end_of_its_body() -> None:
    text = "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAx4FAKEbody0123\nabc"
    assert redact(text).text == "[REDACTED:private_key]"


def test_redacted_text_has_no_findings() -> None:
    text = f"https://u:pw123456@h/ {HF} /home/alice/ a@b.com token={HF}"
    assert redact(redact(text).text).findings == ()


def test_lone_surrogates_do_not_raise() -> None:
    text = f"\ud800 {HF} \udfff"
    assert redact(text).text == "\ud800 [REDACTED:huggingface_token] \udfff"


def test_marker_names_the_kind() -> None:
    assert marker("jwt") == "[REDACTED:jwt]"
    assert marker("home_user") == "<user>"


@pytest.mark.parametrize("fragment", ["hf_", "eyJ", "@", "-----BEGIN PRIVATE KEY-----", "a:b@", "/home/"])
def test_hostile_input_is_redacted_whole(fragment: str) -> None:
    # A backtracking engine takes seconds to hours here; RE2 takes milliseconds. The time is measured
    # in benchmarks/bench_hostile.py, not by the wall clock of a shared test machine.
    text = fragment * (200_000 // len(fragment))
    redacted = redact(text)
    assert redacted.text and len(redacted.text) <= 2 * len(text)


@given(st.integers(min_value=10**16, max_value=10**20 - 1), st.sampled_from([27, 38]))
def test_discord_tokens_of_every_id_length_are_found(user_id: int, tail: int) -> None:
    first = base64.urlsafe_b64encode(str(user_id).encode()).decode().rstrip("=")
    token = f"{first}.GhIjKl.{'FAKE0' * 8}"[: len(first) + 8 + tail]
    result = redact(f"client.run('{token}')")
    assert [f.kind for f in result.findings] == ["discord_token"]
    assert token not in result.text


# --- invariants ---------------------------------------------------------------------------------

_FRAGMENTS = [
    HF,
    "hf_",
    "sk-",
    "sk-proj-",
    "ghp_",
    "AKIA",
    "AIza",
    "xoxb-",
    "eyJ",
    "eyJhbGciOiJIUzI1NiJ9.",
    ".",
    "MTIzNDU2Nzg5MDEyMzQ1Njc4",
    "-----BEGIN PRIVATE KEY-----",
    "-----END PRIVATE KEY-----",
    "@",
    ":",
    "://",
    "https://",
    "user:pw@",
    "/home/",
    "/Users/",
    "C:\\Users\\",
    "\\\\",
    "/",
    "token=",
    "password: ",
    "Bearer ",
    "mailto:",
    "[REDACTED:jwt]",
    "<user>",
    " ",
    "\n",
    "'",
    '"',
    "x",
    "7",
    "_",
    "-",
    "é",
    "\ud800",
]
texts = st.one_of(
    st.text(),
    st.lists(st.one_of(st.sampled_from(_FRAGMENTS), st.text(max_size=4)), max_size=40).map("".join),
)


@given(texts)
def test_redact_is_idempotent(text: str) -> None:
    once = redact(text).text
    assert redact(once).text == once


@given(texts)
def test_findings_are_ordered_disjoint_and_bound_the_output(text: str) -> None:
    result = redact(text)
    ends = [0]
    for finding in result.findings:
        assert ends[-1] <= finding.start < finding.end <= len(text)
        ends.append(finding.end)
    assert len(result.text) <= len(text) + sum(len(marker(f.kind)) for f in result.findings)


# Kinds of every priority band, two of them equal (tables' kinds that tracebot does not name).
_MERGE_KINDS = ["huggingface_token", "jwt", "sendgrid_api_token", "twilio_api_key", "generic_secret", "email"]
_raw_findings = st.lists(
    st.tuples(st.integers(0, 30), st.integers(1, 8), st.sampled_from(_MERGE_KINDS)).map(
        lambda item: (item[0], item[0] + item[1], item[2])
    ),
    max_size=12,
)


def _merge_by_definition(findings: list[tuple[int, int, str]]) -> tuple[Finding, ...]:
    """Merge as the rule says, one finding at a time: the reference the quicker merge must agree with."""
    merged: list[Finding] = []
    for start, end, kind in sorted(findings, key=lambda f: (f[0], -f[1])):
        last = merged[-1] if merged else None
        if last is None or start >= last.end:
            merged.append(Finding(kind, start, end))
            continue
        best = min(last.kind, kind, key=redact_module._rank)
        merged[-1] = Finding(best, last.start, max(last.end, end))
    return tuple(merged)


def _merged(findings: list[tuple[int, int, str]]) -> tuple[Finding, ...]:
    found = redact_module._Found()
    for start, end, kind in findings:
        found.add(start, end, kind)
    return redact_module._findings(redact_module._merge(found))


@given(_raw_findings)
def test_overlapping_findings_merge_into_their_union(findings: list[tuple[int, int, str]]) -> None:
    assert _merged(findings) == _merge_by_definition(findings)


def test_of_two_kinds_of_equal_priority_on_one_span_the_first_found_wins() -> None:
    first = _merged([(0, 5, "shopify_access_token"), (0, 5, "sendgrid_api_token")])
    second = _merged([(0, 5, "sendgrid_api_token"), (0, 5, "shopify_access_token")])
    assert [f.kind for f in first] == ["shopify_access_token"] and [f.kind for f in second] == ["sendgrid_api_token"]


def test_a_value_repeated_in_a_paste_is_redacted_at_every_occurrence() -> None:
    token = "hf_" + "AbCdEfGhIjKlMnOpQrStUvWxYz01234567"
    text = "\n".join([f"HF_TOKEN={token}", f"login({token!r})"] * 3)
    result = redact(text)
    assert token not in result.text
    assert len([f for f in result.findings if f.kind == "huggingface_token"]) == 6


def test_a_candidate_inside_a_finding_of_equal_or_higher_priority_with_its_end_is_dominated() -> None:
    found = redact_module._Found([10], [30], ["generic_secret"])
    dominated = redact_module._Dominated(found)
    assert dominated("generic_api_key", 12, 30) and dominated("generic_api_key", 10, 30)
    assert not dominated("generic_api_key", 9, 30)  # it would reach before the finding
    assert not dominated("generic_api_key", 12, 31)
    assert not dominated("huggingface_token", 12, 30)  # it would give the union its kind


def test_a_candidate_is_dominated_by_any_finding_with_its_end_not_only_the_first() -> None:
    # The first finding ending at 30 starts after the candidate, or ranks below it; a later one holds it.
    later = redact_module._Found([15, 10], [30, 30], ["generic_secret", "generic_secret"])
    assert redact_module._Dominated(later)("generic_api_key", 12, 30)
    ranked = redact_module._Found([10, 10, 0], [30, 30, 8], ["generic_api_key", "generic_secret", "email"])
    dominated = redact_module._Dominated(ranked)
    assert dominated("generic_secret", 12, 30) and dominated("email", 0, 8)
    assert not dominated("aws_secret_key", 12, 30) and not dominated("generic_secret", 9, 30)


def test_candidates_asked_of_at_once_are_told_as_one_by_one() -> None:
    found = redact_module._Found(
        [10, 15, 10, 0], [30, 30, 20, 8], ["generic_api_key", "generic_secret", "email", "email"]
    )
    spans: list[tuple[int, int] | None] = [
        None,
        *((start, end) for start in (0, 9, 10, 12, 16) for end in (8, 20, 30, 31)),
    ]
    for kind in ("generic_secret", "generic_api_key", "email", "huggingface_token"):
        alone = redact_module._Dominated(found)
        expected = [span is not None and alone(kind, *span) for span in spans]
        assert redact_module._Dominated(found).each(kind, spans) == expected
        assert any(expected) or kind == "huggingface_token"


def test_among_many_findings_the_first_candidates_asked_of_alone_are_checked() -> None:
    # Mapping the ends of a hundred findings costs more than checking a candidate or two: until 32 were
    # asked of, each is checked whatever was found; a question about many at once maps them at once.
    count = redact_module._MAPPED_PER_CHECK * 2
    many = redact_module._Found(
        [10 * i for i in range(count)], [10 * i + 5 for i in range(count)], ["generic_secret"] * count
    )
    dominated = redact_module._Dominated(many)
    assert not any(dominated("generic_api_key", 11, 15) for _ in range(redact_module._DOMINATED_AFTER))
    assert dominated("generic_api_key", 11, 15)
    spans: list[tuple[int, int] | None] = [(11, 15), (21, 25), None]
    assert redact_module._Dominated(many).each("generic_api_key", spans[:1]) == [False]
    assert redact_module._Dominated(many).each("generic_api_key", spans * 2) == [True, True, False] * 2


def test_only_the_findings_made_before_the_scan_dominate() -> None:
    found = redact_module._Found([10], [30], ["generic_secret"])
    dominated = redact_module._Dominated(found)
    found.add(40, 60, "generic_secret")  # found by the scan itself, after the question could be asked
    assert dominated("generic_api_key", 12, 30) and not dominated("generic_api_key", 45, 60)


def _unscreened(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ask every check of every candidate, as before the shortcuts (Screen plans, dominated findings)."""
    monkeypatch.setattr(redact_module._Dominated, "__call__", lambda self, kind, start, end: False)
    monkeypatch.setattr(redact_module._Dominated, "each", lambda self, kind, spans: [False] * len(spans))
    monkeypatch.setattr(redact_module._scanner, "_kept", _kept_unscreened)


def _kept_unscreened(rule: Any, glob: Any, secret: str, whole: str, line: str, *, screen: Any = None) -> bool:
    return _KEPT(rule, glob, secret, whole, line)


_KEPT = redact_module._scanner._kept


@pytest.mark.parametrize(
    "text",
    [
        "".join(f"SERVICE_{i}_API_KEY=aB3dE5gH7jK9mN1pQ3sT{i:04d}\n" for i in range(50)),
        'api_key: "sk-x-0123456789abcdef" token=abcdef0123456789 & secret=%2Fab12cdEF34gh56ij',
        "password=hunter2-Passw0rd PASSWORD=hunter2-Passw0rd\njira_token = ABCDEFGHIJ0123456789abcd",
        'aws_secret_access_key="wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY" auth=Zm9vYmFyYmF6cXV4MTIz',
    ],
)
def test_the_shortcuts_leave_the_redaction_as_every_check_would(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    fast = redact(text)
    _unscreened(monkeypatch)
    assert redact(text) == fast
