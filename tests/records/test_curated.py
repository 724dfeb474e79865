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
NOT_SHIPPED = {
    "couldnt-connect-to-hub-load-this-file": ("src/transformers/utils/hub.py", "4.44.2"),
    "low-cpu-mem-usage-requires-accelerate": ("src/transformers/modeling_utils.py", "4.44.2"),
    "low-cpu-mem-usage-requires-accelerate-min-version": ("src/transformers/modeling_utils.py", "4.46.3"),
    "trust-remote-code-required-configuration-file": ("src/transformers/dynamic_module_utils.py", "4.44.2"),
    "tokenizer-text-input-must-be-str-list": ("src/transformers/tokenization_utils_base.py", "4.44.2"),
    "tokenizer-text-input-must-of-type-str": ("src/transformers/tokenization_utils_base.py", "4.36.2"),
    "llama-rope-scaling-must-have-two-fields": ("src/transformers/models/llama/configuration_llama.py", "4.42.4"),
    "couldnt-instantiate-backend-tokenizer-sentencepiece": ("src/transformers/tokenization_utils_fast.py", "4.44.2"),
    "no-weights-file-in-directory-without-safetensors": ("src/transformers/modeling_utils.py", "4.33.2"),
    "hub-repository-missing-file-old-link": ("src/transformers/utils/hub.py", "4.40.2"),
    "not-a-local-folder-or-valid-model-id-cli-login": ("src/transformers/utils/hub.py", "4.44.2"),
    "not-a-local-folder-or-valid-model-id-use-auth-token": ("src/transformers/utils/hub.py", "4.30.2"),
    "training-arguments-bf16-not-supported-ampere": ("src/transformers/training_args.py", "4.44.2"),
    "bnb-4bit-modules-dispatched-on-cpu-old-flag-name": ("src/transformers/quantizers/quantizer_bnb_4bit.py", "4.44.2"),
    "quantized-modules-dispatched-on-cpu-modeling-utils": ("src/transformers/modeling_utils.py", "4.36.2"),
    "llama-rope-scaling-must-have-two-fields-with-with": (
        "src/transformers/models/llama/configuration_llama.py",
        "4.38.2",
    ),
    "deepspeed-zero3-incompatible-with-device-map": ("src/transformers/modeling_utils.py", "4.44.2"),
    "bnb-quantized-model-to-not-supported": ("src/transformers/modeling_utils.py", "4.44.2"),
    "failed-to-import-transformers-module": ("src/transformers/utils/import_utils.py", "4.48.3"),
    "trainer-requires-accelerate-0-20-1": ("src/transformers/training_args.py", "4.30.2"),
    "qwen2-flash-attention-right-padding": ("src/transformers/models/qwen2/modeling_qwen2.py", "4.49.0"),
    "processor-chat-template-not-set": ("src/transformers/processing_utils.py", "4.46.3"),
}


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
