"""Record files built to crash or exhaust the reader: each is refused with its place, the rest kept."""

from __future__ import annotations

import gzip
import json
import os
from pathlib import Path

import pytest

from records.errors import RecordFileError, RecordProblem
from records.reader import MAX_EXTRA_BYTES, MAX_LINE_BYTES, LoadedRecord, expand_paths, read_file
from storage.database import Database
from storage.importer import import_paths
from tests.conftest import make_record


def _line(**overrides: object) -> str:
    return json.dumps(make_record(**overrides)) + "\n"


def _problems(path: Path) -> list[str]:
    return [str(item) for item in read_file(path) if isinstance(item, RecordProblem)]


def test_a_gzip_holding_one_huge_line_is_refused_line_by_line_without_holding_it(tmp_path: Path) -> None:
    path = tmp_path / "bomb.jsonl.gz"
    with gzip.open(path, "wb", compresslevel=9) as fh:
        fh.write(_line(id="before").encode())
        chunk = b"x" * (1024 * 1024)
        fh.write(b'{"id": "huge", "errorMessage": "')
        for _ in range(MAX_LINE_BYTES // len(chunk) + 4):  # a line past the cap, streamed in
            fh.write(chunk)
        fh.write(b'"}\n')
        fh.write(_line(id="after").encode())
    items = list(read_file(path))
    loaded = [item.record.id for item in items if isinstance(item, LoadedRecord)]
    assert loaded == ["before", "after"]
    [problem] = [str(item) for item in items if isinstance(item, RecordProblem)]
    assert problem.startswith(f"{path}:2: (json): line is over the {MAX_LINE_BYTES:,}-byte limit")


@pytest.mark.parametrize("suffix", [".jsonl", ".json"])
def test_json_nested_a_thousand_levels_is_a_problem_not_a_crash(tmp_path: Path, suffix: str) -> None:
    record = json.dumps(make_record(id="deep"))
    path = tmp_path / f"deep{suffix}"
    path.write_text(record[:-1] + ', "unknownField": ' + "[" * 1000 + "]" * 1000 + "}\n")
    if suffix == ".jsonl":
        assert _problems(path) == [f"{path}:1: (json): JSON nested too deeply (limit 32 levels)"]
    else:
        with pytest.raises(RecordFileError, match="nested too deeply"):
            list(read_file(path))


def test_a_4301_digit_integer_is_a_problem_with_its_line(tmp_path: Path) -> None:
    path = tmp_path / "big.jsonl"
    path.write_text(_line(id="ok") + '{"id": "x", "errorMessage": "m", "lineNumber": ' + "9" * 4301 + "}\n")
    [problem] = _problems(path)
    assert problem.startswith(f"{path}:2: (json): integer of 4,301 digits")


def test_unknown_fields_are_capped_in_total_size(tmp_path: Path) -> None:
    path = tmp_path / "extras.jsonl"
    path.write_text(_line(id="fat", padding="y" * (MAX_EXTRA_BYTES + 1)) + _line(id="slim", note="small"))
    items = list(read_file(path))
    assert [i.record.id for i in items if isinstance(i, LoadedRecord)] == ["slim"]
    [problem] = [str(i) for i in items if isinstance(i, RecordProblem)]
    assert problem.startswith(f"{path}:1: (unknown fields): ") and "-byte limit" in problem


def test_a_named_pipe_is_refused_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "records.jsonl"
    os.mkfifo(fifo)
    with pytest.raises(RecordFileError, match=r"not a regular file \(a named pipe\)"):
        list(read_file(fifo))


def test_a_symlink_to_a_device_is_refused(tmp_path: Path) -> None:
    link = tmp_path / "zero.json"
    link.symlink_to("/dev/zero")
    with pytest.raises(RecordFileError, match=r"not a regular file \(a character device\)"):
        list(read_file(link))


def test_a_symlink_loop_is_named_as_one(tmp_path: Path) -> None:
    loop = tmp_path / "loop.json"
    loop.symlink_to(loop)
    with pytest.raises(RecordFileError, match="symbolic link loop"):
        expand_paths(loop)


def test_a_one_line_malformed_jsonl_names_its_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "one.jsonl"
    path.write_text('{"id": "a", "errorMessage": }\n')
    assert _problems(path) == [f"{path}:1: (json): malformed JSON at column 29: Expecting value"]


async def test_one_hostile_file_does_not_discard_the_rest_of_a_run(db: Database, tmp_path: Path) -> None:
    good = tmp_path / "good.jsonl"
    good.write_text(_line(id="good1") + _line(id="good2"))
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 5000 + "]" * 5000)
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    report = await import_paths(db, [deep, fifo, good])
    assert report.added == 2
    assert len(report.problems) == 2
    assert any("deep.json" in p and "nested too deeply" in p for p in report.problems)
    assert any("pipe.jsonl" in p and "named pipe" in p for p in report.problems)
