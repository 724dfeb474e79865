"""Imports beside other writers, and a gzip bomb (``python -m benchmarks.bench_import_lock [N]``).

- While ``tracebot records import`` loads N synthetic records (default 200,000) into a fresh database,
  a second process writes one row every 50 ms (what a running bot's heartbeat, votes and triage do)
  and times how long each write waited for the lock. Then the same file is imported again (nothing
  changes: no write lock at all) with the writer still running. Target: longest wait <= 1 s.
  New records are copied in short transactions and published at once; changed records are staged
  beside the published ones in short transactions too, switched in by one short transaction and merged
  in short batches afterwards. ``--changed`` adds a third import, of the same records each changed,
  where that double write costs most (measured: 86.9 s before, 130.0 s after, longest wait 0.46 s).
- Peak RSS of importing a 2 MB ``.jsonl.gz`` holding one line that inflates to 2 GiB. Target <= 300 MB.
"""

from __future__ import annotations

import gzip
import json
import multiprocessing
import resource
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.synthetic import synthetic_records


def other_writer(db: str, stop_at: float, waits: list[float]) -> None:
    """Write one row every 50 ms until ``stop_at``, noting how long each write waited."""
    conn = sqlite3.connect(db, timeout=60, isolation_level=None)
    while time.time() < stop_at:
        started = time.perf_counter()
        conn.execute("BEGIN IMMEDIATE")
        conn.execute(
            "INSERT INTO bot_status (key, value, updated_at) VALUES ('bench', '{}', 'now') "
            "ON CONFLICT (key) DO UPDATE SET value = excluded.value"
        )
        conn.execute("COMMIT")
        waits.append(time.perf_counter() - started)
        time.sleep(0.05)
    conn.close()


def import_beside_a_writer(source: Path, db: Path) -> tuple[float, float]:
    """Run one import while another process writes; return (import seconds, longest other write)."""
    manager = multiprocessing.Manager()
    waits = manager.list()
    writer = multiprocessing.Process(target=other_writer, args=(str(db), time.time() + 3600, waits))
    writer.start()
    try:
        started = time.perf_counter()
        command = [sys.executable, "-m", "bot", "records", "import", str(source), "--db", str(db),
                   "--max-file-size", str(1024**3)]  # fmt: skip
        subprocess.run(command, check=True, capture_output=True)
        elapsed = time.perf_counter() - started
    finally:
        writer.terminate()
        writer.join()
    return elapsed, max(waits, default=0.0)


def gzip_bomb_rss(tmp: Path) -> float:
    """Import a 2 MB gzip of one 2 GiB line in a child; return its peak RSS in MB."""
    bomb = tmp / "bomb.jsonl.gz"
    with gzip.open(bomb, "wb", compresslevel=9) as fh:
        fh.write(b'{"id": "x", "errorMessage": "')
        chunk = b"A" * (16 * 1024 * 1024)
        for _ in range(128):
            fh.write(chunk)
        fh.write(b'"}\n')
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    subprocess.run([sys.executable, "-m", "bot", "records", "import", str(bomb), "--db", str(tmp / "bomb.db"),
                    "--max-file-size", str(4 * 1024**3)], capture_output=True, check=False)  # fmt: skip
    after = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return max(after, before) / 1024


def main(count: int = 200_000) -> int:
    """Print the figures; exit 1 when a target is missed."""
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        source, changed, db = tmp / "synthetic.jsonl", tmp / "changed.jsonl", tmp / "bench.db"
        with source.open("w") as fh, changed.open("w") as other:
            for record in synthetic_records(count):
                fh.write(json.dumps(record) + "\n")
                other.write(json.dumps({**record, "errorMessage": record["errorMessage"] + " (changed)"}) + "\n")
        subprocess.run([sys.executable, "-m", "bot", "db", "migrate", "--db", str(db)], check=True, capture_output=True)
        first, first_wait = import_beside_a_writer(source, db)
        again, again_wait = import_beside_a_writer(source, db)
        each, each_wait = import_beside_a_writer(changed, db) if "--changed" in sys.argv else (0.0, 0.0)
        rss = gzip_bomb_rss(tmp)
    print(f"import of {count:,} new records beside a writer: {first:.1f} s, longest other write {first_wait:.2f} s")
    print(f"the same import again (nothing changes): {again:.1f} s, longest other write {again_wait:.3f} s")
    if each:
        print(f"the same records each changed: {each:.1f} s, longest other write {each_wait:.2f} s")
    print(f"gzip bomb (one 2 GiB line in 2 MB of gzip): peak RSS of the import {rss:.0f} MB (target <= 300 MB)")
    return 0 if max(first_wait, again_wait) <= 1.0 and rss <= 300 else 1


if __name__ == "__main__":
    numbers = [arg for arg in sys.argv[1:] if arg.isdigit()]
    sys.exit(main(int(numbers[0]) if numbers else 200_000))
