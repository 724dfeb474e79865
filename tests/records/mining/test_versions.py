"""The second pass over several releases' record sets: ``python -m records.mining.versions FILE...``."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from records.mining.versions import FIELD, main, read_set
from tests.conftest import make_record


def _write(path: Path, records: list[dict[str, object]]) -> Path:
    text = "".join(json.dumps(r) + "\n" for r in records)
    if path.name.endswith(".gz"):
        path.write_bytes(gzip.compress(text.encode("utf-8")))
    else:
        path.write_text(text, encoding="utf-8")
    return path


def test_read_set_reads_plain_and_gzipped_sets(tmp_path: Path) -> None:
    plain = _write(tmp_path / "a.jsonl", [make_record(id="a1"), make_record(id="a2")])
    plain.write_text(plain.read_text(encoding="utf-8") + "\n\n", encoding="utf-8")  # blank lines are skipped
    packed = _write(tmp_path / "b.jsonl.gz", [make_record(id="b1")])
    assert [r.id for r in read_set(plain)] == ["a1", "a2"]
    assert [r.id for r in read_set(packed)] == ["b1"]


def test_main_writes_the_sentence_only_into_records_some_releases_lack(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tf = {"repo": "huggingface/transformers"}
    both = {"errorMessage": "raised by both {x}", "messagePattern": "raised by both (.+?)", **tf}
    new_only = {"errorMessage": "only the new one {x}", "messagePattern": "only the new one (.+?)", **tf}
    old = _write(tmp_path / "old.jsonl", [make_record(id="o1", libraryVersion="4.57.6", **both)])
    new = _write(
        tmp_path / "new.jsonl",
        [
            make_record(id="n1", libraryVersion="5.24.0", **both),
            make_record(id="n2", libraryVersion="5.24.0", **new_only),
        ],
    )
    assert main([str(old), str(new)]) == 0
    by_id = {r.id: r for r in read_set(old) + read_set(new)}
    assert FIELD not in by_id["o1"].generated and by_id["o1"].common_situations is None
    assert FIELD not in by_id["n1"].generated
    assert by_id["n2"].generated == [FIELD]
    assert by_id["n2"].common_situations == (
        "Of the shipped transformers versions (4.57.6, 5.24.0), only 5.24.0 raises this error; "
        "4.57.6 has no raise with this message."
    )
    assert f"{new}: 1 of 2 records" in capsys.readouterr().out
    written = new.read_bytes()
    assert main([str(old), str(new)]) == 0 and new.read_bytes() == written  # again: the same bytes


def test_two_files_of_one_release_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first = _write(tmp_path / "a.jsonl", [make_record(id="a1", libraryVersion="5.24.0")])
    second = _write(tmp_path / "b.jsonl", [make_record(id="b1", libraryVersion="5.24.0")])
    before = second.read_text()
    assert main([str(first), str(second)]) == 2
    assert "the same one as another file" in capsys.readouterr().err and second.read_text() == before


def test_a_set_without_a_version_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    unversioned = _write(tmp_path / "a.jsonl", [make_record(id="a1")])
    assert main([str(unversioned)]) == 2
    assert "no library version" in capsys.readouterr().err


def test_each_library_s_releases_are_compared_among_themselves(tmp_path: Path) -> None:
    peft, hub = {"repo": "huggingface/peft"}, {"repo": "huggingface/huggingface_hub"}
    shared = {"errorMessage": "shared text {x}", "messagePattern": "shared text (.+?)"}
    files = [
        _write(tmp_path / "peft-old.jsonl", [make_record(id="p1", libraryVersion="1.0.1", **peft, **shared)]),
        _write(tmp_path / "peft-new.jsonl", [make_record(id="p2", libraryVersion="2.0.0", **peft, **shared)]),
        # The same release number as peft's, of another library: not "the same one as another file".
        _write(tmp_path / "hub-old.jsonl", [make_record(id="h1", libraryVersion="1.0.1", **hub, **shared)]),
        _write(tmp_path / "hub-new.jsonl", [make_record(id="h2", libraryVersion="2.4.0", **hub)]),
    ]
    assert main([str(f) for f in files]) == 0
    by_id = {r.id: r for f in files for r in read_set(f)}
    assert by_id["p1"].common_situations is None and by_id["p2"].common_situations is None  # both peft releases
    assert by_id["h1"].common_situations == (
        "Of the shipped huggingface-hub versions (1.0.1, 2.4.0), only 1.0.1 raises this error; "
        "2.4.0 has no raise with this message."
    )
