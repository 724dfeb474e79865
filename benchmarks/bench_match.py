"""Matching speed at 10k, 100k and 1M records, side by side with two naive baselines.

Run: ``python -m benchmarks.bench_match [SIZES...]`` (default 10000 100000 1000000). Each size runs in
its own child process so peak RSS is measured per size. Per size: index build time, p50/p99 latency
per paste (extraction + match) over 1,000 pastes, throughput, peak RSS and top-1 accuracy; then the
same pastes (a sample at the largest sizes) through ``rapidfuzz.process.extractOne`` over every
errorMessage with its default scorer, and a sequential Python ``re`` scan over every messagePattern.
"""

from __future__ import annotations

import json
import random
import re
import resource
import statistics
import subprocess
import sys
import time
from typing import Any

from benchmarks.pastes import FORMATS, render_message
from benchmarks.synthetic import synthetic_records
from records.matching import IndexEntry, Matcher, MatchIndex
from records.matching.index import intern_entry

PASTES = 1000
BASELINE_PASTES = {10_000: 200, 100_000: 50, 1_000_000: 10}


def _entry(r: dict[str, Any]) -> IndexEntry:
    return intern_entry(IndexEntry(id=r["id"], error_message=r["errorMessage"], error_class=r["errorClass"],
                      message_pattern=r["messagePattern"], file_path=r["filePath"], line_number=r["lineNumber"],
                      repo=r["repo"], curated=False, library_version=r["libraryVersion"]))  # fmt: skip


def _pastes(size: int) -> list[tuple[str, str]]:
    """1,000 pastes from records chosen up front, so the records themselves are never all kept."""
    rng = random.Random(size)
    chosen = set(rng.sample(range(size), PASTES))
    pastes = []
    for number, record in enumerate(synthetic_records(size)):
        if number in chosen:
            kind = rng.choice(sorted(FORMATS))
            message = render_message(record["errorMessage"], rng)
            text = FORMATS[kind](record["errorClass"], message, record["filePath"], record["lineNumber"], rng)
            pastes.append((record["id"], text))
    random.Random(size + 1).shuffle(pastes)
    return pastes


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run_engine(size: int) -> dict[str, Any]:
    """Build the index from streamed records and match 1,000 pastes (child process: RSS is ours)."""
    pastes = _pastes(size)
    entries = [_entry(r) for r in synthetic_records(size)]  # generating records is not the index's time
    started = time.perf_counter()
    matcher = Matcher(MatchIndex.build(entries))
    build = time.perf_counter() - started
    del entries  # the index holds the same objects
    latencies, correct = [], 0
    for label, text in pastes:
        t0 = time.perf_counter()
        result = matcher.match(text)
        latencies.append((time.perf_counter() - t0) * 1000)
        correct += bool(result.matches) and label in result.matches[0].member_ids
    return {
        "size": size, "build_s": round(build, 2), "p50_ms": round(_percentile(latencies, 0.5), 3),
        "p99_ms": round(_percentile(latencies, 0.99), 3), "per_s": round(len(pastes) / (sum(latencies) / 1000)),
        "top1": round(100 * correct / len(pastes), 1),
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
    }  # fmt: skip


def run_baselines(size: int) -> dict[str, Any]:
    """Time the two naive baselines on a sample of the same pastes (child process)."""
    sample = _pastes(size)[: BASELINE_PASTES.get(size, 10)]
    records = [(r["id"], r["errorMessage"], r["messagePattern"]) for r in synthetic_records(size)]
    return {**_baseline_extract_one(records, sample), **_baseline_re_scan(records, sample)}


def _baseline_extract_one(records: list[tuple[str, str, str]], sample: list[tuple[str, str]]) -> dict[str, Any]:
    from rapidfuzz import process  # noqa: PLC0415 - baseline only

    messages = [message for _, message, _ in records]
    times, correct = [], 0
    for label, text in sample:
        t0 = time.perf_counter()
        _, _, index = process.extractOne(text, messages)  # default scorer (WRatio), as a naive user would
        times.append((time.perf_counter() - t0) * 1000)
        correct += records[index][0] == label
    return {"rf_p50_ms": round(statistics.median(times), 1), "rf_top1": round(100 * correct / len(sample), 1),
            "rf_n": len(sample)}  # fmt: skip


def _baseline_re_scan(records: list[tuple[str, str, str]], sample: list[tuple[str, str]]) -> dict[str, Any]:
    compiled = [re.compile(pattern) for _, _, pattern in records]  # not timed: only the scan is
    times, correct = [], 0
    for label, text in sample:
        t0 = time.perf_counter()
        hit = next((i for i, pattern in enumerate(compiled) if pattern.search(text)), None)
        times.append((time.perf_counter() - t0) * 1000)
        correct += hit is not None and records[hit][0] == label
    return {"re_p50_ms": round(statistics.median(times), 1), "re_top1": round(100 * correct / len(sample), 1)}


def _child(kind: str, size: int) -> dict[str, Any]:
    out = subprocess.run([sys.executable, "-m", "benchmarks.bench_match", "--child", kind, str(size)],
                         capture_output=True, text=True, check=True)  # fmt: skip
    return dict(json.loads(out.stdout.strip().splitlines()[-1]))


def main(sizes: list[int]) -> None:
    """Run every size in a child process and print the table."""
    rows = []
    for size in sizes:
        rows.append({**_child("engine", size), **_child("baselines", size)})
        print(f"done {size}", file=sys.stderr)
    header = ("records", "build s", "p50 ms", "p99 ms", "pastes/s", "RSS MB", "top-1 %",
              "rf p50 ms", "rf top-1", "re p50 ms", "re top-1", "vs re")  # fmt: skip
    print(" | ".join(header))
    for r in rows:
        speedup = r["re_p50_ms"] / r["p50_ms"] if r["p50_ms"] else float("inf")
        print(" | ".join(str(v) for v in (
            f"{r['size']:,}", r["build_s"], r["p50_ms"], r["p99_ms"], r["per_s"], r["peak_rss_mb"], r["top1"],
            r["rf_p50_ms"], f"{r['rf_top1']} (n={r['rf_n']})", r["re_p50_ms"], r["re_top1"], f"{speedup:.0f}x",
        )))  # fmt: skip


if __name__ == "__main__":
    if len(sys.argv) > 3 and sys.argv[1] == "--child":
        run = run_engine if sys.argv[2] == "engine" else run_baselines
        print(json.dumps(run(int(sys.argv[3]))))
    else:
        main([int(a) for a in sys.argv[1:]] or [10_000, 100_000, 1_000_000])
