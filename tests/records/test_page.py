"""The rendered page form: sections parsed, missing ones left empty, link rebuilt."""

from __future__ import annotations

import pytest

from records.errors import PageFormatError
from records.page import parse_page
from tests.conftest import TEST_SEEDS

DECOMPOSE = (TEST_SEEDS / "000_1f424bbb07e910ec.txt").read_text()
CACHE = (TEST_SEEDS / "003_4d6aefe891d0c47b.txt").read_text()


def test_decompose_page_fields() -> None:
    data = parse_page(DECOMPOSE)
    assert data["id"] == "945e53733269f43c"
    assert data["repo"] == "huggingface/transformers"
    assert data["errorClass"] == "RuntimeError"
    assert data["errorMessage"].startswith("decompose_prefill_decode expected at least {num_new_tokens} calls")
    assert data["errorMessage"].endswith("not supported for this architecture.")
    assert data["filePath"] == "src/transformers/exporters/utils.py"
    assert data["lineNumber"] == 774
    assert data["analyzedSha"] == "a597f97485"
    assert data["analyzedAt"] == "2026-08-14"
    assert len(data["solutions"]) == 3
    assert data["handlingStrategy"] == "fallback"
    assert "_capture_forward" in data["validationCode"]
    assert data["tryCatchPattern"].startswith("try:")
    assert data["exampleFix"].startswith("// before")
    assert data["triggerScenarios"].startswith("Exporting an architecture")
    assert data["commonSituations"].startswith("Newly added")
    assert "raise RuntimeError(" in data["sourceCode"]
    assert data["githubUrl"] == (
        "https://github.com/huggingface/transformers/blob/a597f97485/src/transformers/exporters/utils.py#L774"
    )


def test_cache_page_lacks_sections_and_they_stay_empty() -> None:
    data = parse_page(CACHE)
    assert data["id"] == "98bda666129646d4"
    assert data["errorMessage"] == "assisted decoding requires a cache"
    assert data["solutions"] == ["Enable caching (`use_cache=True`) so assisted decoding has a cache to work with."]
    for absent in ("exampleFix", "validationCode", "tryCatchPattern", "handlingStrategy"):
        assert absent not in data


def test_sections_out_of_order_and_missing() -> None:
    lines = DECOMPOSE.split("\n")
    start = lines.index("Solutions")
    end = lines.index("Example fix")
    solutions = lines[start:end]
    rest = lines[:start] + lines[end:]
    # Move Solutions to the end and drop "What it means" entirely.
    meaning = rest.index("What it means")
    source = rest.index("Source")
    reordered = rest[:meaning] + rest[source:] + solutions
    data = parse_page("\n".join(reordered))
    assert len(data["solutions"]) == 3
    assert "documentation" not in data
    assert data["lineNumber"] == 774


def test_not_a_page() -> None:
    with pytest.raises(PageFormatError):
        parse_page("hello\nworld")
