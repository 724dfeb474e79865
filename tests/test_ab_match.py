"""The same-run comparison benchmark's copy of another commit's ``records`` imports only itself."""

from __future__ import annotations

from benchmarks.ab_match import own_imports


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
