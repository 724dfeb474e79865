"""Reading a mined set, and the sentence naming the shipped releases that raise an error."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

from records.mining.versions import read_set, version_sentence
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


def test_the_sentence_names_the_library_and_the_releases_on_each_side() -> None:
    assert version_sentence(["1.0.1", "2.4.0"], {"1.0.1"}, "huggingface-hub") == (
        "Of the shipped huggingface-hub versions (1.0.1, 2.4.0), only 1.0.1 raises this error; "
        "2.4.0 has no raise with this message."
    )
    assert version_sentence(["4.36.2", "4.57.6", "5.24.0"], {"4.36.2", "4.57.6"}) == (
        "Of the shipped transformers versions (4.36.2, 4.57.6, 5.24.0), only 4.36.2 and 4.57.6 raise this error; "
        "5.24.0 has no raise with this message."
    )
