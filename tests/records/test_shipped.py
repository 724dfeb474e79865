"""The shipped record files are the releases ``scripts/releases.txt`` lists, mined as their library says."""

from __future__ import annotations

import gzip
import json
from collections import Counter
from pathlib import Path
from typing import Any

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


LIBRARIES = sorted({release.split("==")[0] for release in RELEASES})


def _records(path: Path) -> list[dict[str, Any]]:
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        return [json.loads(line) for line in handle]


def test_every_listed_library_ships_and_nothing_else_does() -> None:
    assert {path.name for path in DATA.glob("*.jsonl.gz")} == {f"{name}.jsonl.gz" for name in LIBRARIES}
    per_library = Counter(release.split("==")[0] for release in RELEASES)
    # transformers: every minor release from 4.30 to 5.24; the 11 libraries around it: two releases each.
    assert per_library.pop("transformers") == 53
    assert len(per_library) == 11 and set(per_library.values()) == {2}


@pytest.mark.parametrize("name", LIBRARIES)
def test_a_library_s_sites_list_its_releases_with_their_links(name: str) -> None:
    library = find_library(name)
    assert library is not None
    listed = {release.split("==")[1] for release in RELEASES if release.startswith(f"{name}==")}
    seen: set[str] = set()
    for record in _records(DATA / f"{name}.jsonl.gz"):
        assert record["repo"] == library.repo and str(record["filePath"]).startswith(library.src_prefix)
        if library.include:
            assert str(record["filePath"]).startswith(library.include), record["filePath"]
        versions = record["versions"]
        assert versions[0]["version"] == record["libraryVersion"] == record["lastVersion"]
        assert versions[-1]["version"] == record["firstVersion"]
        for version in versions:
            tag = library.ref(version["version"])
            assert str(version["githubUrl"]).startswith(f"https://github.com/{library.repo}/blob/{tag}/")
            seen.add(version["version"])
    assert seen == listed  # each listed release raises some site, and no other release is in the file


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
    ranged = Record.model_validate(make_record(id="e", libraryVersion="3.0", origin="mined",
                                               versions=[{"version": "3.0"}, {"version": "10.0"}]))  # fmt: skip
    assert table([ranged])[0][4] == "3.0, 10.0"  # every release of a site, in version order
