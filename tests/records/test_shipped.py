"""The shipped record files are the releases ``scripts/releases.txt`` lists, mined as their library says."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from benchmarks.shipped import BUDGET_MB, data_megabytes, table
from records.mining.libraries import find_library
from records.model import Record
from tests.conftest import make_record

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "records" / "data"
RELEASES = [
    line.strip()
    for line in (ROOT / "scripts" / "releases.txt").read_text(encoding="utf-8").splitlines()
    if line.strip() and not line.startswith("#")
]


def _first_records(path: Path, count: int = 200) -> list[dict[str, object]]:
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        return [json.loads(line) for line, _ in zip(handle, range(count), strict=False)]


def test_every_listed_release_ships_and_nothing_else_does() -> None:
    listed = {f"{release.replace('==', '-')}.jsonl.gz" for release in RELEASES}
    assert {path.name for path in DATA.glob("*.jsonl.gz")} == listed
    assert len(RELEASES) == 24  # transformers and 11 libraries around it, two releases each


@pytest.mark.parametrize("release", RELEASES)
def test_a_shipped_file_holds_its_release_s_records(release: str) -> None:
    name, version = release.split("==")
    library = find_library(name)
    assert library is not None
    for record in _first_records(DATA / f"{name}-{version}.jsonl.gz"):
        assert record["repo"] == library.repo and record["libraryVersion"] == version
        assert str(record["githubUrl"]).startswith(f"https://github.com/{library.repo}/blob/{library.ref(version)}/")
        assert str(record["filePath"]).startswith(library.src_prefix)
        if library.include:
            assert str(record["filePath"]).startswith(library.include), record["filePath"]


def test_the_shipped_data_stays_within_its_budget() -> None:
    assert data_megabytes(DATA) <= BUDGET_MB


def test_a_site_raised_by_two_releases_is_one_site() -> None:
    records = [
        Record.model_validate(make_record(id="a", libraryVersion="1.0", origin="mined")),
        Record.model_validate(make_record(id="b", libraryVersion="2.0", origin="mined")),
        Record.model_validate(make_record(id="c", libraryVersion="2.0", origin="mined", lineNumber=20,
                                          errorMessage="another check {x}", messagePattern="another check (.+?)")),
        Record.model_validate(make_record(id="d", origin="curated")),
    ]  # fmt: skip
    assert table(records) == [("lib", 3, 2, 1, "1.0, 2.0")]
