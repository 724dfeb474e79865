"""Reading record files: every form, and every kind of bad input with its location."""

from __future__ import annotations

import gzip
import json
from collections.abc import Callable
from pathlib import Path

import pytest

from records.errors import RecordFileError, RecordProblem
from records.reader import LoadedRecord, read_file, read_paths
from tests.conftest import SEED_IDS, make_record


def _items(path: Path, **kwargs: int) -> list[LoadedRecord | RecordProblem]:
    return list(read_file(path, **kwargs))


def test_directory_of_seeds_gives_the_three_records(seeds_dir: Path) -> None:
    items = list(read_paths([seeds_dir]))
    assert all(isinstance(i, LoadedRecord) for i in items)
    assert {i.record.id for i in items if isinstance(i, LoadedRecord)} == set(SEED_IDS.values())


def test_bare_object_envelope_and_array(tmp_path: Path) -> None:
    bare = tmp_path / "bare.json"
    bare.write_text(json.dumps(make_record(id="a")))
    array = tmp_path / "array.json"
    array.write_text(json.dumps([{"record": make_record(id="b"), "datasetVersion": "v1"}, make_record(id="c")]))
    items = [*read_file(bare), *read_file(array)]
    loaded = [i for i in items if isinstance(i, LoadedRecord)]
    assert [(i.record.id, i.dataset_version) for i in loaded] == [("a", None), ("b", "v1"), ("c", None)]
    assert loaded[1].location.endswith("array.json[0]")


def test_jsonl_and_gz(tmp_path: Path) -> None:
    lines = "".join(json.dumps(make_record(id=f"r{i}")) + "\n" for i in range(3))
    plain = tmp_path / "r.jsonl"
    plain.write_text(lines)
    packed = tmp_path / "r.jsonl.gz"
    packed.write_bytes(gzip.compress(lines.encode()))
    for path in (plain, packed):
        assert [i.record.id for i in _items(path) if isinstance(i, LoadedRecord)] == ["r0", "r1", "r2"]


def test_malformed_json_line_names_file_and_line(write_jsonl: Callable[..., Path]) -> None:
    path = write_jsonl([make_record(id="ok")])
    path.write_text(path.read_text() + '{"id": "broken", \n')
    items = _items(path)
    problem = items[1]
    assert isinstance(problem, RecordProblem)
    assert str(problem).startswith(f"{path}:2: (json): malformed JSON")


def test_malformed_json_document(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"record": {"id": ')
    with pytest.raises(RecordFileError, match=r"bad\.json: malformed JSON at line 1"):
        _items(path)


def test_truncated_gz(tmp_path: Path) -> None:
    data = gzip.compress(("".join(json.dumps(make_record(id=f"r{i}")) + "\n" for i in range(200))).encode())
    path = tmp_path / "cut.jsonl.gz"
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(RecordFileError, match="corrupt or truncated gzip"):
        _items(path)


@pytest.mark.parametrize(
    ("overrides", "expected"),
    [
        ({"id": None}, ":1: id: "),
        ({"errorMessage": None}, ":1: errorMessage: "),
        ({"lineNumber": "abc"}, ":1: lineNumber: Input should be a valid integer"),
        ({"schemaVersion": 7}, ":1: schemaVersion: Value error, unsupported schema version"),
        ({"documentation": "x" * 10_000_000}, ":1: documentation: too long (limit 200,000 characters)"),
    ],
)
def test_invalid_records_are_reported_with_location_and_field(
    write_jsonl: Callable[..., Path], overrides: dict[str, object], expected: str
) -> None:
    record = {k: v for k, v in make_record(**overrides).items() if v is not None}
    path = write_jsonl([record])
    [problem] = _items(path)
    assert isinstance(problem, RecordProblem)
    assert expected in str(problem)
    assert "xxxxxxxxxx" not in str(problem)  # the offending value is never echoed


def test_missing_field_message(write_jsonl: Callable[..., Path]) -> None:
    record = make_record()
    del record["id"]
    [problem] = _items(write_jsonl([record]))
    assert str(problem).endswith(":1: id: required field is missing")


def test_oversized_file_refused_before_parsing(tmp_path: Path) -> None:
    path = tmp_path / "huge.jsonl"
    with path.open("wb") as fh:  # sparse: 200 MB on paper, nothing on disk
        fh.truncate(200 * 1024 * 1024)
    with pytest.raises(RecordFileError, match=r"209,715,200 bytes, over the 134,217,728-byte limit"):
        _items(path)


def test_gzip_bomb_refused_by_decompressed_size(tmp_path: Path) -> None:
    path = tmp_path / "bomb.jsonl.gz"
    path.write_bytes(gzip.compress((b" " * 1023 + b"\n") * 2048))  # 2 MiB from 2 KiB
    with pytest.raises(RecordFileError, match=r"decompressed data is over the 1,048,576-byte limit"):
        _items(path, max_bytes=1024 * 1024)


@pytest.mark.parametrize("name", ["junk.json", "junk.jsonl", "junk.txt"])
def test_binary_garbage(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    path.write_bytes(bytes(range(256)) * 10)
    with pytest.raises(RecordFileError, match=r"binary data|not UTF-8"):
        _items(path)


@pytest.mark.parametrize("name", ["empty.json", "empty.jsonl", "empty.txt", "blank.jsonl"])
def test_empty_file(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    path.write_text("\n\n" if name.startswith("blank") else "")
    with pytest.raises(RecordFileError, match=r"empty|no records"):
        _items(path)


def test_text_that_is_not_a_record(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("just some notes\n")
    with pytest.raises(RecordFileError, match="not a record file"):
        _items(path)


def test_missing_path() -> None:
    with pytest.raises(RecordFileError, match="no such file"):
        list(read_paths([Path("/nonexistent/records.jsonl")]))
