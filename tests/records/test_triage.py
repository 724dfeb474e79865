"""Tests for records.triage: redact first, cut, extract, fingerprint; templates and record drafts."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from records.matching.template import parse_template
from records.model import RecordEnvelope
from records.triage import (
    CUT_MARK,
    MAX_INPUT_CHARS,
    Observation,
    Skipped,
    cut,
    draft_record,
    example_template,
    observe,
    split_rule,
    usable_example,
)

CANARY = "hf_CANARYaBcDeFgHiJkLmNoPqRsTuVwXyZ0123"


def paste(message: str, error_class: str = "PermissionError", path: str = "/home/alice/app/main.py") -> str:
    return (
        "Traceback (most recent call last):\n"
        f'  File "{path}", line 8, in <module>\n'
        "    client.fetch(repo)\n"
        '  File "/home/alice/.venv/lib/python3.11/site-packages/hubclient/core.py", line 41, in fetch\n'
        "    raise PermissionError(msg)\n"
        f"{error_class}: {message}\n"
    )


def observed(text: str, **limits: int) -> Observation:
    found = observe(text, **limits)
    assert isinstance(found, Observation), found
    return found


def test_observation_is_redacted_grouped_and_hinted() -> None:
    found = observed(paste(f"access denied for token {CANARY} while reading /home/alice/x.bin (status 403)"))
    assert found.error_class == "PermissionError"
    assert found.masked == "access denied for token [REDACTED:huggingface_token] while reading <path> (status <n>)"
    assert CANARY not in found.sample and "alice" not in found.sample
    assert "[REDACTED:huggingface_token]" in found.sample
    assert found.secret_kinds == ("huggingface_token",) and found.live_secret
    assert found.libraries == {"hubclient": None}


def test_same_error_with_other_values_has_the_same_key() -> None:
    a = observed(paste(f"access denied for token {CANARY} while reading /home/alice/x.bin (status 403)"))
    b = observed(
        paste("access denied for token hf_OTHERzYxWvUtSrQpOnMlKjIhGfEdCbA9876 while reading /tmp/a/b (status 1)")
    )
    assert a.key == b.key


@pytest.mark.parametrize(
    "trick",
    [
        pytest.param(lambda s: s.replace("PermissionError", "Permission\u200bError"), id="zero-width in class"),
        pytest.param(lambda s: s.replace("PermissionError", "\ufeffPermissionError\u200d"), id="bom and joiner"),
        pytest.param(lambda s: s.replace("access", "\u202eaccess\u202c"), id="right-to-left override"),
        pytest.param(lambda s: s.replace("denied", "\u200fdenied\u200e"), id="rtl and ltr marks"),
        pytest.param(lambda s: s.replace("PermissionError", "PermissionЕrror"), id="cyrillic E in class"),
        pytest.param(lambda s: s.replace("PermissionError", "Ρermissiοn\u0415rror"), id="greek and cyrillic"),
    ],
)
def test_unicode_tricks_group_with_the_plain_error(trick: object) -> None:
    plain = paste("access denied for token while reading /x/y.bin (status 403)")
    assert callable(trick)
    tricked = observed(trick(plain))
    assert tricked.key == observed(plain).key
    assert tricked.error_class == "PermissionError"
    for hidden in ("\u200b", "\u202e", "\u200f", "\ufeff"):
        assert hidden not in tricked.sample


@pytest.mark.parametrize(
    "disguised",
    [
        pytest.param(CANARY[:10] + "\u200b" + CANARY[10:], id="zero-width inside the token"),
        pytest.param(CANARY[:10] + "\u200e" + CANARY[10:], id="bidi mark inside the token"),
        pytest.param(CANARY.replace("a", "а", 1), id="cyrillic look-alike inside the token"),
        pytest.param("".join(chr(ord(c) + 0xFEE0) if c.isalnum() else c for c in CANARY), id="full-width token"),
    ],
)
def test_disguised_tokens_are_still_redacted(disguised: str) -> None:
    found = observed(paste(f"bad credentials {disguised} for repo"))
    assert found.live_secret
    body = CANARY.removeprefix("hf_")
    assert body not in found.sample and body[8:] not in found.sample
    assert body not in found.masked


def test_binary_junk_is_skipped() -> None:
    junk = bytes(range(256)).decode("latin-1") * 50
    assert observe(junk) == Skipped("binary")
    assert observe(junk + CANARY) == Skipped("binary", ("huggingface_token",))
    replaced = observe(b"\xff\xfe\x00PermissionError: x".decode("utf-8", "replace") * 100)
    assert isinstance(replaced, Skipped) and replaced.reason == "binary"


def test_lone_surrogates_and_nul_do_not_break_anything() -> None:
    found = observed(paste("bad value \ud800 here\x00 for repo"))
    found.sample.encode("utf-8")  # storable: no lone surrogate survives


def test_chat_without_an_error_is_skipped_but_its_token_is_reported() -> None:
    skipped = observe(f"hey, my token is {CANARY}, why does nothing work?")
    assert isinstance(skipped, Skipped) and skipped.reason == "no error"
    assert skipped.live_secret
    assert observe("   \n\u200b ") == Skipped("empty")


def test_huge_paste_is_cut_fast_and_keeps_its_error() -> None:
    noise = "INFO loading shard 12 of 99 from /data/x.bin\n" * 120_000  # ~5.4 MB
    text = f"my token {CANARY}\n" + noise + paste("access denied for token while reading /x/y.bin (status 403)")
    found = observe(text, paste_chars=8_000, sample_chars=1_500)  # its time: benchmarks/bench_hostile.py
    assert isinstance(found, Observation) and found.truncated
    assert found.masked == "access denied for token while reading <path> (status <n>)"
    assert len(found.sample) <= 1_500 and CANARY not in found.sample


def test_one_huge_line_is_skipped() -> None:
    assert isinstance(observe("A" * (MAX_INPUT_CHARS * 3)), Skipped)


WHOLE = {"paste_chars": MAX_INPUT_CHARS * 2, "sample_chars": MAX_INPUT_CHARS * 2}
LINE = "x" * 49 + "\n"  # head kept = MAX_INPUT_CHARS // 4 characters = whole filler lines


def crossing_tail_cut(secret_block: str, offset: int) -> str:
    """Return a paste whose kept tail starts ``offset`` characters into ``secret_block``."""
    end = paste("bad credentials for repo")
    tail_chars = MAX_INPUT_CHARS - MAX_INPUT_CHARS // 4
    after = secret_block[offset:]
    filler = LINE * ((tail_chars - len(after) - len(end)) // len(LINE))
    pad = " " * (tail_chars - len(after) - len(filler) - len(end))
    return LINE * 2_000 + secret_block + filler + pad + end


@pytest.mark.parametrize(
    ("block", "offset", "secret"),
    [
        pytest.param(
            "aws_secret_access_key = wJalrXUtnFEMIK7MDENGbPxRfiCYEXAMPLEKEY12\n", 27, "EMIK7MDENG", id="label cut off"
        ),
        pytest.param("password: Zq8vLmN3pR7sT2wX\n", 12, "vLmN3pR7sT2", id="password without its label"),
        pytest.param(
            "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7\n"
            "VJTUt9Us8cKjMzEfYyjiWA4R4mSuOtNGSsC1EXAMPLEbodyTWO\n-----END PRIVATE KEY-----\n",
            60,
            "VJTUt9Us8cKjMzEf",
            id="private key without its BEGIN line",
        ),
    ],
)
def test_the_input_cap_never_keeps_part_of_a_secret(block: str, offset: int, secret: str) -> None:
    text = crossing_tail_cut(block, offset)
    assert len(text) > MAX_INPUT_CHARS
    found = observed(text, **WHOLE)
    assert found.truncated
    assert secret not in found.sample


def test_the_input_cap_drops_a_secret_line_cut_at_the_head() -> None:
    head_chars = MAX_INPUT_CHARS // 4
    secret = "password: Qwertyuiop12345\n"  # a cut after 'Qwerty' would keep letters no rule redacts
    text = "y" * (head_chars - 17) + "\n" + secret + LINE * 5_000 + paste("bad credentials for repo")
    found = observed(text, **WHOLE)
    assert "Qwerty" not in found.sample


@pytest.mark.parametrize("limit", [50, 100, 1_000])
def test_cut_keeps_head_and_tail_within_the_limit(limit: int) -> None:
    text = "".join(f"line {i}\n" for i in range(1_000))
    short = cut(text, limit)
    assert len(short) <= limit
    assert CUT_MARK in short and short.endswith("line 999\n")
    assert cut("short", limit) == "short"


@pytest.mark.parametrize(
    ("masked", "template"),
    [
        ("bad thing <n> happened", "bad thing {n} happened"),
        ("token [REDACTED:huggingface_token] at <path>", "token {redacted} at {path}"),
        ("dict {<q>: <n>} is not valid", "dict {{{q}: {n}}} is not valid"),
        ("no placeholders at all", "no placeholders at all"),
        ("<q>", "{q}"),
        (
            "shape <shape> vs <size> at <hex> <uuid> <url> for <user>",
            "shape {shape} vs {size} at {hex} {uuid} {url} for {user}",
        ),
    ],
)
def test_example_template(masked: str, template: str) -> None:
    assert example_template(masked) == template


@given(st.text(alphabet="ab {}<>nq_[]:", max_size=40))
def test_template_literal_text_is_the_masked_text_without_placeholders(masked: str) -> None:
    template = example_template(masked)
    literal = "".join(parse_template(template).segments)
    stripped = masked
    for placeholder in ("<n>", "<q>"):
        stripped = stripped.replace(placeholder, "")
    assert literal == stripped


def test_usable_example_needs_literal_text() -> None:
    assert not usable_example("{q}")
    assert not usable_example("bad {n}")
    assert usable_example("access denied for token {redacted}")


class Group:
    fingerprint = "9c5a16071097a5460ecc"
    error_class = "PermissionError"
    masked = "access denied for token [REDACTED:huggingface_token] while reading <path> (status <n>)"
    libraries = {"hubclient": "1.2.0", "requests": None}  # noqa: RUF012


def test_draft_record_is_an_importable_envelope() -> None:
    draft = draft_record(Group())
    envelope = RecordEnvelope.model_validate(draft)
    record = envelope.record
    assert record.id == "triage-9c5a16071097a5460ecc"
    assert record.error_message == "access denied for token {redacted} while reading {path} (status {n})"
    assert record.message_pattern == r"access denied for token (.+?) while reading (.+?) \(status (.+?)\)"
    assert record.error_class == "PermissionError"
    assert record.slug == "permissionerror-access-denied-for-token-while-reading-status"
    assert record.tags == ["hubclient", "requests"]
    assert record.schema_version == 2
    assert set(draft["record"]) >= {"documentation", "solutions", "triggerScenarios", "commonSituations"}


def test_a_draft_without_literal_text_gets_no_pattern() -> None:
    group = Group()
    group.masked = "<q>"
    record = draft_record(group)["record"]
    assert (record["errorMessage"], record["messagePattern"], record["slug"]) == ("{q}", None, "permissionerror")


CAUSE = (
    "Traceback (most recent call last):\n"
    '  File "/home/a/run.py", line 3, in <module>\n'
    "    load()\n"
    '  File "/venv/lib/python3.11/site-packages/datasets/packaged_modules/json/json.py", line 90, in _generate\n'
    "    raise KeyError(key)\n"
    "KeyError: 'text' not found in token map\n"
)
DATASET_WRAPPER = (
    "\nThe above exception was the direct cause of the following exception:\n\n"
    "Traceback (most recent call last):\n"
    '  File "/venv/lib/python3.11/site-packages/datasets/builder.py", line 1627, in _prepare_split_single\n'
    '    raise DatasetGenerationError("An error occurred while generating the dataset") from e\n'
    "datasets.exceptions.DatasetGenerationError: An error occurred while generating the dataset\n"
)
TORCHRUN = (
    "Traceback (most recent call last):\n"
    '  File "/venv/lib/python3.11/site-packages/torch/distributed/launcher/api.py", line 263, in launch_agent\n'
    "    raise ChildFailedError(\n"
    "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: \n"
    "=====\ntrain.py FAILED\n  host      : node-{host}\n"
)


@pytest.mark.parametrize(
    "text",
    [
        CAUSE,
        CAUSE + DATASET_WRAPPER,
        "\n".join(f"[rank3]: {line}" for line in CAUSE.splitlines()),
        CAUSE + TORCHRUN.format(host=7),
        CAUSE.replace("/home/a/run.py", "/Users/bob/x/train.py").replace("'text'", "'input_ids'"),
    ],
    ids=["plain", "datasets wrapper", "rank prefix", "torchrun wrapper", "other user and key"],
)
def test_wrappers_prefixes_and_users_frames_keep_the_group(text: str) -> None:
    found = observed(text)
    assert found.key == observed(CAUSE).key
    assert f"{found.error_class}: {found.masked}" == "KeyError: '<key>' not found in token map"
    assert found.frame == "datasets/packaged_modules/json/json.py:_generate"


def test_a_wrapper_alone_is_grouped_by_what_stays_the_same() -> None:
    one, two = observed(TORCHRUN.format(host=1)), observed(TORCHRUN.format(host=2))
    assert one.key == two.key and one.masked == "train.py FAILED"
    caught = observed(
        "ValueError: Caught ValueError in replica 1 on device 1.\nOriginal Traceback (most recent call last):\n"
    )
    assert (caught.error_class, caught.masked) == ("ValueError", "Caught ValueError in replica <n> on device <n>.")


@pytest.mark.parametrize(
    ("chosen", "rest", "rule"),
    [
        ([{"frame": "a:f", "message": "x"}], [{"frame": "b:g", "message": "x"}], ("frame", ("a:f",))),
        ([{"frame": "", "message": "x 1"}], [{"frame": "", "message": "x 2"}], ("message", ("x 1",))),
        ([{"frame": "a:f", "message": "x"}], [{"frame": "a:f", "message": "x"}], None),
    ],
)
def test_split_rule(chosen: list[dict[str, str]], rest: list[dict[str, str]], rule: object) -> None:
    assert split_rule(chosen, rest) == rule
