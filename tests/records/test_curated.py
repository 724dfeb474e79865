"""The curated transformers records: complete, unique, and folding with a shipped raise site."""

from __future__ import annotations

import gzip
import json
from functools import lru_cache
from pathlib import Path

import pytest

from records.matching.template import group_key
from records.model import Record
from records.reader import LoadedRecord, read_file

DATA = Path(__file__).resolve().parents[2] / "records" / "data"
CURATED = DATA / "curated" / "transformers.jsonl"
SHIPPED = ("transformers.jsonl.gz",)

# Common errors that only older releases raise (reworded or removed since): slug -> (filePath, the
# release whose source was checked to raise this class and template in that file).
# With every minor release from 4.30 shipped, each of them folds with a mined site; none is listed.
NOT_SHIPPED: dict[str, tuple[str, str]] = {}


@lru_cache(maxsize=1)
def curated() -> tuple[Record, ...]:
    items = list(read_file(CURATED))
    problems = [item for item in items if not isinstance(item, LoadedRecord)]
    assert not problems, problems
    return tuple(item.record for item in items if isinstance(item, LoadedRecord))


@lru_cache(maxsize=1)
def shipped() -> tuple[frozenset[str], frozenset[str]]:
    """Return the site keys and the ids of the shipped mined records."""
    keys: set[str] = set()
    ids: set[str] = set()
    for name in SHIPPED:
        with gzip.open(DATA / name, "rt", encoding="utf-8") as fh:
            for line in fh:
                raw = json.loads(line)
                raw = raw.get("record", raw)
                ids.add(raw["id"])
                keys.add(group_key(raw.get("repo"), raw.get("filePath"), raw["errorMessage"]))
    return frozenset(keys), frozenset(ids)


def site_key(record: Record) -> str:
    return group_key(record.repo, record.file_path, record.error_message)


def test_at_least_forty_records() -> None:
    assert len(curated()) >= 40


def test_file_is_sorted_canonical_json_lines() -> None:
    lines = CURATED.read_text(encoding="utf-8").splitlines()
    raws = [json.loads(line) for line in lines]
    assert lines == [json.dumps(raw, ensure_ascii=False, sort_keys=True) for raw in raws]
    assert [raw["id"] for raw in raws] == sorted(raw["id"] for raw in raws)


@pytest.mark.sweep
def test_ids_and_slugs_are_unique_and_not_mined_ids() -> None:
    records = curated()
    ids = [r.id for r in records]
    slugs = [r.slug for r in records]
    assert len(set(ids)) == len(ids)
    assert None not in slugs and len(set(slugs)) == len(slugs)
    assert not set(ids) & shipped()[1]


@pytest.mark.parametrize("record", curated(), ids=lambda r: r.slug or r.id)
def test_record_is_complete(record: Record) -> None:
    assert record.origin == "curated" and record.schema_version == 2
    assert record.repo == "huggingface/transformers"
    assert record.error_class and record.file_path and record.file_path.startswith("src/transformers/")
    assert record.documentation and len(record.documentation) >= 200
    assert len(record.solutions) >= 3 and all(s.strip() for s in record.solutions)
    assert record.example_fix and "before" in record.example_fix and "after" in record.example_fix
    assert record.trigger_scenarios and record.common_situations
    assert record.prevention_tips and record.tags and record.error_type and record.severity


@pytest.mark.parametrize("record", curated(), ids=lambda r: r.slug or r.id)
def test_record_folds_with_a_shipped_site_or_is_listed(record: Record) -> None:
    folds = site_key(record) in shipped()[0]
    if record.slug in NOT_SHIPPED:
        file_path, _verified_in = NOT_SHIPPED[record.slug]
        assert record.file_path == file_path
        assert not folds, f"{record.slug} folds with a shipped record: remove it from NOT_SHIPPED"
    else:
        assert folds, f"{record.slug}: no shipped mined record with the same repo, filePath and template"


def test_not_shipped_list_names_existing_records() -> None:
    assert set(NOT_SHIPPED) <= {r.slug for r in curated()}
