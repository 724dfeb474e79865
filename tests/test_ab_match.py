"""The same-run comparison benchmark's copy of another commit's ``records`` imports only itself."""

from __future__ import annotations

from pathlib import Path

import pytest

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
