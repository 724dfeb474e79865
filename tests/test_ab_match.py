"""The same-run comparison benchmark: its copy of another commit's ``records`` imports only itself; its shared set."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import benchmarks.ab_match as ab
from benchmarks.ab_match import base_package, own_imports


def test_a_base_copy_imports_its_own_modules_and_leaves_others_alone() -> None:
    source = (
        "from records.matching.index import IndexEntry\n"
        "import records.text\n"
        "    from records import redact  # inside a function\n"
        "from recordsmith import x\n"
        'doc = "from records.x import y"\n'
    )
    assert own_imports(source) == (
        "from records_base.matching.index import IndexEntry\n"
        "import records_base.text\n"
        "    from records_base import redact  # inside a function\n"
        "from recordsmith import x\n"
        'doc = "from records.x import y"\n'
    )


def test_a_revision_that_is_no_commit_is_one_line_naming_it(tmp_path: Path) -> None:
    with pytest.raises(SystemExit, match=r"^benchmarks.ab_match: no-such-rev: cannot read records/ at that commit"):
        base_package("no-such-rev", tmp_path)
    assert not (tmp_path / "records_base").exists()  # nothing half written


def test_the_shared_set_missing_is_one_line_saying_how_to_make_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ab, "SHARED_CACHE", tmp_path)
    with pytest.raises(SystemExit, match=r"syn100000\.jsonl: missing; run python -m benchmarks\.bench_shared"):
        ab.this_matcher(shared=True)


def test_shared_entries_are_read_as_the_shared_benchmark_reads_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = {"id": "syn1", "errorMessage": "The answer is {x}", "errorClass": "ValueError", "messagePattern": None,
              "filePath": "src/a.py", "lineNumber": 3, "repo": "huggingface/transformers"}  # fmt: skip
    (tmp_path / "syn100000.jsonl").write_text(json.dumps({"record": record}) + "\n", encoding="utf-8")
    monkeypatch.setattr(ab, "SHARED_CACHE", tmp_path)
    matcher = ab.this_matcher(shared=True)
    result = matcher.match("ValueError: The answer is 42")
    assert [m.id for m in result.matches] == ["syn1"]
