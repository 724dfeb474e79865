"""The shared fixtures' own promises (tests/conftest.py)."""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path

from tests.conftest import database_file, make_record


def _ids(path: Path) -> set[str]:
    with sqlite3.connect(path) as conn:
        return {row[0] for row in conn.execute("SELECT id FROM records")}


def test_a_database_file_holds_what_its_source_holds_now(tmp_path: Path) -> None:
    source = tmp_path / "records.jsonl"
    source.write_text(json.dumps(make_record(id="first")) + "\n")
    assert _ids(database_file(tmp_path / "a.db", source)) == {"first"}
    assert _ids(database_file(tmp_path / "b.db", source)) == {"first"}  # the same template, copied again
    source.write_text(json.dumps(make_record(id="second")) + "\n")
    stat = source.stat()
    os.utime(source, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))  # a rewrite within the clock's tick
    assert _ids(database_file(tmp_path / "c.db", source)) == {"second"}
