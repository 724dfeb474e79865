"""The record model: every field of the JSON form, checked types, extra fields kept."""

from __future__ import annotations

import json

import pytest
from pydantic import ValidationError

from records.model import Record, RecordEnvelope
from tests.conftest import TEST_SEEDS, make_record

JSON_SEED = TEST_SEEDS / "004_623ec91ff61f1452.txt"
WIRE_FIELDS = {
    "id", "repo", "slug", "errorCode", "errorMessage", "messagePattern", "errorType", "errorClass",
    "httpStatus", "severity", "filePath", "lineNumber", "sourceCode", "sourceCodeStart", "sourceCodeEnd",
    "githubUrl", "documentation", "triggerScenarios", "commonSituations", "solutions", "exampleFix",
    "handlingStrategy", "validationCode", "typeGuard", "tryCatchPattern", "preventionTips", "tags",
    "backgroundTag", "analyzedSha", "analyzedAt", "schemaVersion",
}  # fmt: skip


def test_seed_envelope_round_trips_every_field() -> None:
    raw = json.loads(JSON_SEED.read_text())
    envelope = RecordEnvelope.model_validate(raw)
    wire = envelope.record.to_wire()
    assert envelope.dataset_version == "2026-08-15T22:17:37.221Z"
    assert set(wire) >= WIRE_FIELDS
    for name in WIRE_FIELDS:
        assert wire[name] == raw["record"][name], name


def test_unknown_fields_are_kept_for_export() -> None:
    record = Record.model_validate(make_record(futureField={"nested": [1, 2]}))
    assert record.to_wire()["futureField"] == {"nested": [1, 2]}
    assert record.extra_fields == {"futureField": {"nested": [1, 2]}}


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"lineNumber": "abc"}, "lineNumber"),
        ({"lineNumber": "12"}, "lineNumber"),  # strict: a string is not a line number
        ({"solutions": "one"}, "solutions"),
        ({"tags": [1, 2]}, "tags.0"),
        ({"errorMessage": ""}, "errorMessage"),
        ({"id": "has space"}, "id"),
        ({"schemaVersion": 99}, "schemaVersion"),
        ({"httpStatus": 4.5}, "httpStatus"),
    ],
)
def test_wrong_types_are_rejected(overrides: dict[str, object], field: str) -> None:
    with pytest.raises(ValidationError) as info:
        Record.model_validate(make_record(**overrides))
    locations = {".".join(str(p) for p in e["loc"]) for e in info.value.errors()}
    assert field in locations


@pytest.mark.parametrize("missing", ["id", "errorMessage"])
def test_required_fields(missing: str) -> None:
    data = make_record()
    del data[missing]
    with pytest.raises(ValidationError):
        Record.model_validate(data)


def test_validation_error_never_echoes_the_value() -> None:
    secret = "hf_" + "A" * 34
    with pytest.raises(ValidationError) as info:
        Record.model_validate(make_record(lineNumber=secret))
    assert secret not in str(info.value)


def test_content_hash_changes_with_content_only() -> None:
    a = Record.model_validate(make_record())
    b = Record.model_validate(make_record())
    c = Record.model_validate(make_record(lineNumber=11))
    assert a.content_hash() == b.content_hash() != c.content_hash()


@pytest.mark.parametrize(("origin", "mined"), [("mined", True), ("curated", False), (None, False)])
def test_is_mined_tells_a_mined_record_from_a_curated_one(origin: str | None, mined: bool) -> None:
    assert Record.model_validate(make_record(origin=origin)).is_mined is mined


def test_an_origin_other_than_curated_or_mined_is_refused_by_name() -> None:
    with pytest.raises(ValidationError, match=r"origin\n  Input should be 'curated' or 'mined'"):
        Record.model_validate(make_record(origin="scraped"))


def test_a_release_listed_twice_is_refused_by_name() -> None:
    versions = [{"version": "5.24.0", "lineNumber": 3}, {"version": "5.24.0", "lineNumber": 9}]
    with pytest.raises(ValidationError, match=r"a release is listed twice: 5\.24\.0"):
        Record.model_validate(make_record(versions=versions))
    with pytest.raises(ValidationError, match=r"versions\.0\.lineNumber"):
        Record.model_validate(make_record(versions=[{"version": "5.24.0", "lineNumber": -1}]))
    with pytest.raises(ValidationError, match=r"versions\.0\.line"):
        Record.model_validate(make_record(versions=[{"version": "5.24.0", "line": 3}]))  # an unknown field


def test_a_record_located_at_one_of_its_releases() -> None:
    versions = [{"version": "5.24.0", "lineNumber": 3}, {"version": "4.57.6", "lineNumber": 9, "sourceCode": "x\n"}]
    record = Record.model_validate(
        make_record(libraryVersion="5.24.0", lineNumber=3, sourceCode="y\n", versions=versions)
    )
    older = record.at_version("4.57.6")
    assert (older.line_number, older.library_version, older.source_code, older.id) == (9, "4.57.6", "x\n", record.id)
    assert (
        record.at_version("5.24.0") is record
        and record.at_version("3.0.0") is record
        and record.at_version(None) is record
    )
