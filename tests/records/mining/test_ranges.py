"""One record per raise site across releases: ``records.mining.ranges``."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest

from records.mining.ranges import main, merge_releases, newest_of_each_major
from records.mining.versions import FIELD, read_set
from records.model import Record

REPO = "huggingface/transformers"
CHECK = "input_ids must be set {x}"


def mined(version: str, line: int, *, message: str = CHECK, error_class: str = "ValueError", **extra: Any) -> Record:
    """Return one release's mined record of a site in ``src/transformers/core.py``."""
    return Record.model_validate(
        {
            "id": f"{version}-{line}-{error_class}",
            "errorMessage": message,
            "errorClass": error_class,
            "repo": REPO,
            "filePath": "src/transformers/core.py",
            "lineNumber": line,
            "sourceCode": extra.pop("sourceCode", f"    raise {error_class}(...)  # {line}\n"),
            "sourceCodeStart": line - 8,
            "sourceCodeEnd": line + 8,
            "githubUrl": f"https://github.com/{REPO}/blob/v{version}/src/transformers/core.py#L{line - 8}-L{line + 8}",
            "analyzedSha": f"v{version}",
            "libraryVersion": version,
            "origin": "mined",
            **extra,
        }
    )


def test_one_record_per_site_lists_every_release_newest_first() -> None:
    (site,) = merge_releases({"4.57.6": [mined("4.57.6", 120)], "5.24.0": [mined("5.24.0", 100)],
                              "4.36.2": [mined("4.36.2", 90)]})  # fmt: skip
    assert [v.version for v in site.versions] == ["5.24.0", "4.57.6", "4.36.2"]
    assert (site.library_version, site.line_number, site.first_version, site.last_version) == (
        "5.24.0", 100, "4.36.2", "5.24.0"
    )  # fmt: skip
    assert [v.line_number for v in site.versions] == [100, 120, 90]
    assert site.versions[1].github_url is not None and "/blob/v4.57.6/" in site.versions[1].github_url
    assert site.common_situations is None  # every shipped release raises it
    assert site.at_version("4.57.6").line_number == 120
    assert site.at_version("4.57.6").analyzed_sha == "v4.57.6"


def test_the_site_id_is_the_same_whichever_releases_raise_it() -> None:
    (both,) = merge_releases({"4.57.6": [mined("4.57.6", 120)], "5.24.0": [mined("5.24.0", 100)]})
    (one,) = merge_releases({"5.24.0": [mined("5.24.0", 100)]})
    assert both.id == one.id and both.id not in {"5.24.0-100-ValueError", "4.57.6-120-ValueError"}


def test_a_site_only_some_releases_raise_says_which() -> None:
    sites = merge_releases({"4.57.6": [mined("4.57.6", 120)], "5.24.0": [mined("5.24.0", 100, message="new {x}")]})
    old = next(s for s in sites if s.error_message == CHECK)
    assert [v.version for v in old.versions] == ["4.57.6"] and old.library_version == "4.57.6"
    assert old.common_situations == (
        "Of the shipped transformers versions (4.57.6, 5.24.0), only 4.57.6 raises this error; "
        "5.24.0 has no raise with this message."
    )
    assert FIELD in old.generated


def test_two_releases_raising_another_class_there_are_two_sites() -> None:
    sites = merge_releases(
        {"4.57.6": [mined("4.57.6", 120, error_class="TypeError")], "5.24.0": [mined("5.24.0", 100)]}
    )
    assert sorted((s.error_class, s.library_version) for s in sites) == [
        ("TypeError", "4.57.6"),
        ("ValueError", "5.24.0"),
    ]


def test_identical_raises_in_one_file_stay_two_sites() -> None:
    sets = {
        "5.24.0": [mined("5.24.0", 100), mined("5.24.0", 300)],
        "4.57.6": [mined("4.57.6", 110), mined("4.57.6", 310)],
    }
    sites = sorted(merge_releases(sets), key=lambda s: s.line_number or 0)
    assert [[v.line_number for v in s.versions] for s in sites] == [[100, 110], [300, 310]]
    assert len({s.id for s in sites}) == 2


def test_source_text_is_kept_for_the_newest_release_of_each_major_only() -> None:
    sets = {version: [mined(version, line)] for version, line in (("5.24.0", 100), ("5.0.0", 95), ("4.57.6", 120),
                                                                    ("4.36.2", 90))}  # fmt: skip
    (site,) = merge_releases(sets)
    texts = {v.version: v.source_code for v in site.versions}
    assert texts["5.24.0"] is None  # the record's own text is the newest's
    assert texts["4.57.6"] == "    raise ValueError(...)  # 120\n"
    assert texts["5.0.0"] is None and texts["4.36.2"] is None  # their pinned links show the code
    same = merge_releases(
        {"5.24.0": [mined("5.24.0", 100, sourceCode="x\n")], "4.57.6": [mined("4.57.6", 90, sourceCode="x\n")]}
    )
    assert same[0].versions[1].source_code is None  # no copy of a text the record already has


def test_newest_of_each_major() -> None:
    assert newest_of_each_major(["4.30.2", "4.57.6", "5.0.0", "5.24.0"]) == {"4.57.6", "5.24.0"}
    assert newest_of_each_major(["0.17.0", "0.17.1", "0.21.2"]) == {"0.17.1", "0.21.2"}  # 0.x: minors


def _write(path: Path, records: list[Record]) -> Path:
    path.write_bytes(gzip.compress("".join(r.model_dump_json(by_alias=True) + "\n" for r in records).encode()))
    return path


def test_main_merges_files_deterministically(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    old = _write(tmp_path / "t-4.57.6.jsonl.gz", [mined("4.57.6", 120)])
    new = _write(tmp_path / "t-5.24.0.jsonl.gz", [mined("5.24.0", 100), mined("5.24.0", 200, message="new {x}")])
    out = tmp_path / "transformers.jsonl.gz"
    assert main([str(out), str(old), str(new)]) == 0
    assert capsys.readouterr().out == f"{out}: 2 sites from 3 records of 2 releases\n"
    written = out.read_bytes()
    assert main([str(out), str(new), str(old)]) == 0 and out.read_bytes() == written  # same bytes, any order
    lines = [json.loads(line) for line in gzip.decompress(written).decode().splitlines()]
    assert all("sourceCode" not in v for line in lines for v in line["versions"] if v["version"] == "5.24.0")
    assert {r.id for r in read_set(out)} == {line["id"] for line in lines}


def test_main_refuses_two_files_of_one_release_or_two_libraries(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first = _write(tmp_path / "a.jsonl.gz", [mined("5.24.0", 100)])
    second = _write(tmp_path / "b.jsonl.gz", [mined("5.24.0", 100)])
    out = tmp_path / "out.jsonl.gz"
    assert main([str(out), str(first), str(second)]) == 2
    assert "the same one as another file" in capsys.readouterr().err and not out.exists()
    other = _write(tmp_path / "c.jsonl.gz", [mined("1.0", 50).model_copy(update={"repo": "huggingface/peft"})])
    assert main([str(out), str(first), str(other)]) == 2
    assert "several repositories" in capsys.readouterr().err and not out.exists()
