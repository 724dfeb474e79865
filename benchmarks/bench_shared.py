"""Speed end to end on the shared synthetic set, as a user of ``tracebot ask --batch`` sees it.

Run: ``python -m benchmarks.bench_shared [--skip-1m]`` (heavy: take ``flock /tmp/h/bench.lock`` or
run it alone). In one run it

1. builds, or reuses from ``.bench-data/`` (git-ignored), the shared synthetic set of
   ``../shared/bench/`` at 100k records from the transformers 5.24.0 wheel (``pip download``), and
   imports it into a throw-away database there;
2. times, in each of ``ROUNDS`` rounds, the ``tracebot ask --batch`` command (a subprocess: start-up,
   extraction, matching, JSON) over 500 pastes and over 1 paste, and the shared sequential ``re`` scan
   (``naive_baseline.py``) on the same records and pastes; it prints the medians over the rounds of
   the cost per paste ``(t500 - t1) / 499``, in which start-up cancels, and of how many times faster
   than the scan the command is, with the top-1 share of the 500;
3. at 1M records, measures p50/p99 per paste in-process (``clean_text`` and ``Matcher.match``, what
   ``Engine.match_text`` runs), because importing 1M records for a subprocess takes far longer than
   the figure is worth.

The targets of issue 10 are printed beside the figures. The machine is shared: compare the ratio,
which is measured in the same run, and read absolute figures beside the load printed with them.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from records.matching import IndexEntry, Matcher, MatchIndex
from records.matching.index import intern_entry
from records.text import clean_text
from records.triage import MAX_INPUT_CHARS

PY = sys.executable
ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("TRACEBOT_SHARED_BENCH", ROOT.parent / "shared" / "bench"))
CACHE = ROOT / ".bench-data"
TRANSFORMERS = "5.24.0"
RECORDS, PASTES, MILLION = 100_000, 500, 1_000_000
# Rounds, each timing a 500-paste run, the 1-paste run right after it and the shared re scan: start-up
# (about 1.3 s: imports and the saved index) moves by a tenth of a second between runs on this VM, which
# is 0.2 ms in the per-paste figure, and the host's load comes and goes. The figures are the medians over
# the rounds of each round's own per-paste cost and ratio (a round shares the load of its moment).
ROUNDS = 7
NAIVE_PASTES = 40
TARGET_MS, TARGET_RATIO, TARGET_TOP1, TARGET_P99_1M = 1.0, 25.0, 0.99, 25.0


def _run(args: list[str], **kwargs: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, check=True, text=True, **kwargs)


def templates() -> Path:
    """Return the templates mined from the transformers wheel (downloaded and mined once)."""
    out = CACHE / "t524.json"
    if out.exists():
        return out
    wheels, unpacked = CACHE / "w", CACHE / "tf"
    if not any(wheels.glob(f"transformers-{TRANSFORMERS}-*.whl")):
        _run([PY, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:",
              f"transformers=={TRANSFORMERS}", "-d", str(wheels)])  # fmt: skip
    wheel = next(wheels.glob(f"transformers-{TRANSFORMERS}-*.whl"))
    _run([PY, "-m", "zipfile", "-e", str(wheel), str(unpacked)])
    _run([PY, str(SHARED / "mine_templates.py"), str(unpacked / "transformers"), str(out)], stdout=subprocess.DEVNULL)
    return out


def synthetic(size: int, pastes: int) -> tuple[Path, Path]:
    """Return the records and pastes files of the shared generator at ``size`` (made once)."""
    records, queries = CACHE / f"syn{size}.jsonl", CACHE / f"syn{size}-q.jsonl"
    if not (records.exists() and queries.exists()):
        _run([PY, str(SHARED / "synth.py"), str(templates()), str(size), str(pastes), str(records), str(queries)])
    return records, queries


def imported(records: Path) -> Path:
    """Return a throw-away database holding ``records`` (imported once, kept in the cache)."""
    db = records.with_suffix(".db")
    if not db.exists():
        partial = db.with_suffix(".partial.db")
        partial.unlink(missing_ok=True)
        _run([PY, "-m", "bot", "records", "import", str(records), "--db", str(partial)], stdout=subprocess.DEVNULL)
        partial.rename(db)
    return db


def time_batch(db: Path, batch: Path) -> tuple[float, str]:
    """Run ``tracebot ask --batch`` once; return its wall time and its output."""
    started = time.perf_counter()
    done = _run([PY, "-m", "bot", "ask", "--batch", str(batch), "--db", str(db)], capture_output=True)
    return time.perf_counter() - started, done.stdout


def top1(output: str, expected: dict[str, str]) -> float:
    """Return the share of pastes whose first answer is the record they were made from."""
    right = 0
    for line in output.splitlines():
        item = json.loads(line)
        matches = item["matches"]
        right += bool(matches) and matches[0]["id"] == expected[item["id"]]
    return right / len(expected)


def batches(queries: Path, tmp: Path) -> tuple[Path, Path, dict[str, str]]:
    """Write the 500-paste and the 1-paste batch files; return them and each paste's expected record."""
    items = [json.loads(line) for line in queries.read_text(encoding="utf-8").splitlines()][:PASTES]
    many, one = tmp / "many.jsonl", tmp / "one.jsonl"
    many.write_text("".join(json.dumps({"id": i["id"], "text": i["text"]}) + "\n" for i in items), encoding="utf-8")
    one.write_text(json.dumps({"id": items[0]["id"], "text": items[0]["text"]}) + "\n", encoding="utf-8")
    return many, one, {item["id"]: item["expect"] for item in items}


def rounds(db: Path, records: Path, queries: Path, tmp: Path) -> dict[str, float]:
    """Time ``ROUNDS`` rounds of the 500- and 1-paste batches and the re scan; return the medians and top-1."""
    many, one, expected = batches(queries, tmp)
    t_many, t_one, per_paste, scans, ratios = [], [], [], [], []
    output = ""
    for _ in range(ROUNDS):
        seconds, output = time_batch(db, many)
        t_many.append(seconds)
        t_one.append(time_batch(db, one)[0])
        per_paste.append((t_many[-1] - t_one[-1]) / (len(expected) - 1) * 1000)
        scans.append(naive(records, queries))
        ratios.append(scans[-1]["ms_per_paste"] / per_paste[-1] if per_paste[-1] > 0 else float("inf"))
    return {"t500_s": statistics.median(t_many), "t1_s": statistics.median(t_one),
            "ms_per_paste": statistics.median(per_paste), "top1": top1(output, expected),
            "scan_ms": statistics.median(s["ms_per_paste"] for s in scans), "scan_top1": scans[-1]["top1"],
            "ratio": statistics.median(ratios), "ratio_low": min(ratios), "ratio_high": max(ratios)}  # fmt: skip


def naive(records: Path, queries: Path) -> dict[str, float]:
    """Run the shared sequential ``re`` scan; return its figures."""
    done = _run([PY, str(SHARED / "naive_baseline.py"), str(records), str(queries), str(NAIVE_PASTES)],
                capture_output=True)  # fmt: skip
    figures: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return figures


def shared_entry(line: str) -> IndexEntry:
    """Return the index entry of one line of the shared synthetic set."""
    r = json.loads(line)["record"]
    return intern_entry(IndexEntry(id=r["id"], error_message=r["errorMessage"], error_class=r["errorClass"],
                                   message_pattern=r["messagePattern"], file_path=r["filePath"],
                                   line_number=r["lineNumber"], repo=r["repo"]))  # fmt: skip


def in_process(records: Path, queries: Path) -> dict[str, float]:
    """Build the index from ``records`` and time each paste (clean, extract, match); return p50/p99."""
    started = time.perf_counter()
    with records.open(encoding="utf-8") as handle:
        matcher = Matcher(MatchIndex.build(shared_entry(line) for line in handle))
    build = time.perf_counter() - started
    items = [json.loads(line) for line in queries.read_text(encoding="utf-8").splitlines()]
    times, right = [], 0
    for item in items:
        started = time.perf_counter()
        result = matcher.match(clean_text(item["text"], MAX_INPUT_CHARS))
        times.append((time.perf_counter() - started) * 1000)
        right += bool(result.matches) and result.matches[0].id == item["expect"]
    times.sort()
    return {"build_s": build, "p50_ms": times[len(times) // 2], "p99_ms": times[min(len(times) - 1, int(0.99 * len(times)))],
            "top1": right / len(items)}  # fmt: skip


def _verdict(ok: bool) -> str:
    return "ok" if ok else "MISSED"


def main(argv: list[str]) -> int:
    """Print the figures; return non-zero when the data cannot be made."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_shared", description=__doc__.split("\n")[0])
    parser.add_argument("--skip-1m", action="store_true", help="leave out the 1M-record p99 (minutes of CPU)")
    args = parser.parse_args(argv)
    CACHE.mkdir(exist_ok=True)
    records, queries = synthetic(RECORDS, PASTES)
    db = imported(records)
    print(f"load: {os.getloadavg()[0]:.2f} (1-min average, 2 cores shared)", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        ours = rounds(db, records, queries, Path(tmp))
    per_paste, ratio = ours["ms_per_paste"], ours["ratio"]
    print(
        f"100k ask --batch: t500 {ours['t500_s']:.2f}s  t1 {ours['t1_s']:.2f}s (start-up)  medians of {ROUNDS} rounds"
    )
    print(f"  per paste (t500 - t1) / 499: {per_paste:.3f} ms  [{_verdict(per_paste <= TARGET_MS)} <= {TARGET_MS} ms]")
    print(f"  top-1 {ours['top1']:.1%}  [{_verdict(ours['top1'] >= TARGET_TOP1)} >= {TARGET_TOP1:.0%}]")
    print(f"  naive re scan ({NAIVE_PASTES} pastes): {ours['scan_ms']:.2f} ms/paste, top-1 {ours['scan_top1']:.1%}")
    print(f"  ask --batch is {ratio:.1f}x the re scan (rounds {ours['ratio_low']:.1f}x to {ours['ratio_high']:.1f}x)"
          f"  [{_verdict(ratio >= TARGET_RATIO)} >= {TARGET_RATIO:.0f}x]")  # fmt: skip
    print(f"load: {os.getloadavg()[0]:.2f}", flush=True)
    if not args.skip_1m:
        big = in_process(*synthetic(MILLION, PASTES))
        print(f"1M in-process (index {big['build_s']:.0f}s): p50 {big['p50_ms']:.2f} ms  p99 {big['p99_ms']:.2f} ms"
              f"  [{_verdict(big['p99_ms'] <= TARGET_P99_1M)} <= {TARGET_P99_1M:.0f} ms]  top-1 {big['top1']:.1%}")  # fmt: skip
        print(f"load: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
