"""Import N synthetic records into a fresh database; report wall time and peak memory.

Run: ``python -m benchmarks.bench_import [N]`` (default 100,000). Target: ≤ 15 s and ≤ 500 MB peak RSS.
The import runs in a child process so its peak RSS is measured alone (ru_maxrss of the child).
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.synthetic import synthetic_records


def main(count: int = 100_000) -> dict[str, float]:
    """Write the records, import them in a child process, print and return the figures."""
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "synthetic.jsonl"
        with source.open("w") as fh:
            for record in synthetic_records(count):
                fh.write(json.dumps(record) + "\n")
        db = Path(tmp) / "bench.db"
        start = time.perf_counter()
        proc = subprocess.run(
            [sys.executable, "-m", "bot", "records", "import", str(source), "--db", str(db)],
            capture_output=True, text=True, check=True,
        )  # fmt: skip
        elapsed = time.perf_counter() - start
        peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        figures = {"records": count, "seconds": round(elapsed, 2), "peak_rss_mb": round(peak_mb, 1),
                   "file_mb": round(source.stat().st_size / 1e6, 1)}  # fmt: skip
        print(f"import {count:,} records ({figures['file_mb']} MB JSONL): {elapsed:.2f} s, "
              f"peak RSS {peak_mb:.0f} MB  [{proc.stdout.strip()}]")  # fmt: skip
        return figures


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 100_000)
