"""The curated transformers records: complete, unique, and folding with a shipped raise site."""

from __future__ import annotations

import gzip
import json
from functools import lru_cache
from pathlib import Path

import pytest

from benchmarks.evalset import shipped_matcher
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
# Messages no miner can read at their raise: `requires_backends` formats `*_IMPORT_ERROR` constants and
# raises them joined (`raise ImportError("".join(failed))`), `import_protobuf_decode_error` raises a
# constant imported from another module; `_LazyConfigMapping.__getitem__` raises `KeyError(key)` and the
# chat templates' `raise_exception(message)` a `TemplateError(message)`, messages of no literal text (their
# records carry the raising line of every shipped release, read from the wheels by
# `benchmarks/locate_site.py`, so a frame there answers). slug -> (filePath, the release whose source was
# checked).
NOT_MINED = {
    "config-mapping-unknown-model-type": ("src/transformers/models/auto/configuration_auto.py", "5.24.0"),
    "chat-template-raise-exception": ("src/transformers/utils/chat_template_utils.py", "5.24.0"),
    "chat-template-raise-exception-in-tokenizer-base": ("src/transformers/tokenization_utils_base.py", "4.44.2"),
    # Two messages chat templates raise most (Mistral's and Llama 2's, Gemma's), for pastes of the last line alone.
    "chat-template-roles-must-alternate": ("src/transformers/utils/chat_template_utils.py", "5.24.0"),
    "chat-template-system-role-not-supported": ("src/transformers/utils/chat_template_utils.py", "5.24.0"),
    "requires-protobuf-library": ("src/transformers/utils/import_utils.py", "4.44.2"),
    "requires-sentencepiece-library": ("src/transformers/utils/import_utils.py", "4.44.2"),
    "requires-torchvision-library": ("src/transformers/utils/import_utils.py", "5.24.0"),
    "requires-pil-library": ("src/transformers/utils/import_utils.py", "5.24.0"),
    "protobuf-missing-while-loading-tokenizer": ("src/transformers/tokenization_utils_base.py", "4.57.6"),
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
    listed = NOT_SHIPPED.get(record.slug or "") or NOT_MINED.get(record.slug or "")
    if listed:
        file_path, _verified_in = listed
        assert record.file_path == file_path
        assert not folds, f"{record.slug} folds with a shipped record: remove it from its list"
    else:
        assert folds, f"{record.slug}: no shipped mined record with the same repo, filePath and template"


def test_not_shipped_list_names_existing_records() -> None:
    assert set(NOT_SHIPPED) | set(NOT_MINED) <= {r.slug for r in curated()}


def _slug_of(record_id: str) -> str | None:
    return next((r.slug for r in curated() if r.id == record_id), None)


@pytest.mark.parametrize(
    ("paste", "slug"),
    [
        (  # the 5.x wording ("Check out") of a record kept in the 4.x one
            "ImportError: \nT5Tokenizer requires the SentencePiece library but it was not found in your environment. "
            "Check out the instructions on the\ninstallation page of its repo: https://github.com/google/sentencepiece"
            "#installation and follow the ones\nthat match your environment. Please note that you may need to restart "
            "your runtime after installation.",
            "requires-sentencepiece-library",
        ),
        (
            "ImportError: Qwen3VLVideoProcessor requires the Torchvision library but it was not found in your environment.",
            "requires-torchvision-library",
        ),
        (
            'Traceback (most recent call last):\n  File "/venv/lib/python3.11/site-packages/transformers/'
            'tokenization_utils_base.py", line 88, in import_protobuf_decode_error\n'
            "    raise ImportError(PROTOBUF_IMPORT_ERROR.format(error_message))\nImportError: \n requires the protobuf "
            "library but it was not found in your environment. Check out the instructions on the\ninstallation page",
            "protobuf-missing-while-loading-tokenizer",
        ),
        (  # a message of no literal text: the frame's file and line (4.43.4's) tell the site
            'Traceback (most recent call last):\n  File "/venv/lib/python3.10/site-packages/transformers/models/auto/'
            "configuration_auto.py\", line 691, in __getitem__\n    raise KeyError(key)\nKeyError: 'qwen2_5_vl'",
            "config-mapping-unknown-model-type",
        ),
        (  # the chat template's own message, raised at 4.57.6's line
            '  File "/venv/lib/python3.11/site-packages/transformers/utils/chat_template_utils.py", line 447, in '
            "raise_exception\n    raise jinja2.exceptions.TemplateError(message)\n"
            "jinja2.exceptions.TemplateError: Only user and assistant roles are supported!",
            "chat-template-raise-exception",
        ),
        (  # 4.34 to 4.44 raised it in tokenization_utils_base.py
            '  File "/root/env/lib/python3.9/site-packages/transformers/tokenization_utils_base.py", line 1771, in '
            "raise_exception\n    raise TemplateError(message)\n"
            "jinja2.exceptions.TemplateError: Conversation roles must alternate user/assistant/user/assistant/...",
            "chat-template-raise-exception-in-tokenizer-base",
        ),
    ],
)
def test_a_message_assembled_at_run_time_is_answered_by_its_curated_record(paste: str, slug: str) -> None:
    best = shipped_matcher().match(paste).best
    assert best is not None and _slug_of(best.id) == slug


@pytest.mark.parametrize(
    "paste",
    [
        "KeyError: 'qwen2'",  # no frame: any dictionary may have raised it
        'Traceback (most recent call last):\n  File "/venv/lib/python3.10/site-packages/transformers/models/auto/'
        "configuration_auto.py\", line 400, in f\n    x = d[k]\nKeyError: 'qwen2'",  # another line of the file
    ],
)
def test_a_bare_key_error_is_answered_only_at_the_mapping_s_raising_line(paste: str) -> None:
    best = shipped_matcher().match(paste).best
    assert best is None or _slug_of(best.id) != "config-mapping-unknown-model-type"


def test_a_curated_record_with_its_releases_lines_lists_them_as_a_mined_site_does() -> None:
    paste = (
        'Traceback (most recent call last):\n  File "/venv/lib/python3.10/site-packages/transformers/models/auto/'
        "configuration_auto.py\", line 691, in __getitem__\n    raise KeyError(key)\nKeyError: 'qwen2_5_vl'"
    )
    best = shipped_matcher().match(paste).best
    assert best is not None and _slug_of(best.id) == "config-mapping-unknown-model-type"
    assert len(best.versions) == 53 and best.versions[0] == "5.24.0" and best.versions[-1] == "4.30.2"
    assert best.line_versions == ("4.43.4",) and best.located_version == "4.43.4" and best.line_number == 691


@pytest.mark.parametrize(
    ("last_line", "slug"),
    [
        ("Conversation roles must alternate user/assistant/user/assistant/...", "chat-template-roles-must-alternate"),
        ("System role not supported", "chat-template-system-role-not-supported"),
    ],
)
def test_a_chat_template_s_common_message_is_answered_with_or_without_its_frame(last_line: str, slug: str) -> None:
    bare = shipped_matcher().match(f"jinja2.exceptions.TemplateError: {last_line}").best
    assert bare is not None and _slug_of(bare.id) == slug
    framed = shipped_matcher().match(
        '  File "/venv/lib/python3.11/site-packages/transformers/utils/chat_template_utils.py", line 447, in '
        f"raise_exception\n    raise jinja2.exceptions.TemplateError(message)\njinja2.exceptions.TemplateError: {last_line}"
    )
    # One answer: the message's own text, at the site's raising line (4.57.6's; its neighbours' are a line off).
    assert framed.status == "matched" and framed.best is not None and _slug_of(framed.best.id) == slug
    assert framed.best.line_number == 447 and framed.best.located_version == "4.57.6"
    assert "4.57.6" in framed.best.line_versions and len(framed.best.versions) == 38
