"""Run every benchmark in turn (``make bench``); each prints its own figures.

The mining benchmark needs the transformers wheel: it is downloaded (no dependencies) and unpacked
into a temporary directory first, as ``scripts/mine_records.sh`` does. Pass names to run some:
``python -m benchmarks shipped shipped-run import match extract redact hostile mine triage bot reload backends``.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

PY = sys.executable
SIMPLE = {
    "import": ["-m", "benchmarks.bench_import", "100000"],
    "match": ["-m", "benchmarks.bench_match"],
    "extract": ["-m", "benchmarks.bench_extract"],
    "redact": ["-m", "benchmarks.bench_redact"],
    "triage": ["-m", "benchmarks.bench_triage"],
    "bot": ["-m", "benchmarks.bench_bot"],
    "hostile": ["-m", "benchmarks.bench_hostile"],
    "reload": ["-m", "benchmarks.bench_reload"],
    "shipped": ["-m", "benchmarks.shipped"],
    "shipped-run": ["-m", "benchmarks.bench_shipped"],
    "backends": ["-m", "benchmarks.bench_backends"],
}
ORDER = [
    "shipped", "shipped-run", "import", "extract", "redact", "hostile", "match", "mine", "triage", "bot", "reload",
    "backends",
]  # fmt: skip


def _mine() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        wheel_dir, unpacked = Path(tmp) / "wheel", Path(tmp) / "unpacked"
        subprocess.run([PY, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:",
                        "transformers==5.24.0", "-d", str(wheel_dir)], check=True)  # fmt: skip
        wheel = next(wheel_dir.glob("transformers-*.whl"))
        subprocess.run([PY, "-m", "zipfile", "-e", str(wheel), str(unpacked)], check=True)
        return subprocess.run([PY, "-m", "benchmarks.bench_mine", str(unpacked)], check=False).returncode


def main(names: list[str]) -> int:
    """Run the named benchmarks (all by default); return non-zero if any failed."""
    failed = []
    for name in names or ORDER:
        print(f"\n=== {name}", flush=True)
        code = _mine() if name == "mine" else subprocess.run([PY, *SIMPLE[name]], check=False).returncode
        if code:
            failed.append(name)
    if failed:
        print(f"\nfailed: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
