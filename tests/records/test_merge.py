"""Curated text, mined location: one answer per raise site."""

from __future__ import annotations

from records.merge import merge_site
from records.model import Record
from tests.conftest import make_record


def test_curated_text_with_mined_location_and_gaps_filled() -> None:
    curated = Record.model_validate(
        make_record(id="seed", documentation="curated meaning", solutions=["do this"], lineNumber=1581,
                    filePath="src/lib/utils.py", triggerScenarios=None)
    )  # fmt: skip
    mined = Record.model_validate(
        make_record(id="mined", documentation="a comment", solutions=[], lineNumber=1888, filePath="src/lib/utils.py",
                    githubUrl="https://github.com/o/lib/blob/v5/src/lib/utils.py#L1880-L1896", libraryVersion="5.0",
                    triggerScenarios="if self._is_stateful", origin="mined")
    )  # fmt: skip
    merged = merge_site(curated, mined)
    assert merged.id == "seed" and merged.origin != "mined"
    assert merged.documentation == "curated meaning" and merged.solutions == ["do this"]
    assert (merged.line_number, merged.library_version) == (1888, "5.0")
    assert merged.github_url is not None and merged.github_url.endswith("#L1880-L1896")
    assert merged.trigger_scenarios == "if self._is_stateful"  # filled: the curated record had none


def test_same_record_is_returned_as_is() -> None:
    record = Record.model_validate(make_record())
    assert merge_site(record, record) is record
