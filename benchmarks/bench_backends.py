"""SQLite beside PostgreSQL, in one run (``python -m benchmarks.bench_backends [--records N] [--pastes N]``).

Starts its own throw-away PostgreSQL cluster (scripts/pg-cluster.sh), then:

- store, on each backend: ``tracebot records import`` of N synthetic records (default 100,000) into
  a new database; matching p50/p99 of every real paste (tests/data/real) by an engine loaded from it;
  and the reload time after a 1-record import by another process (from that process's start, and
  from its exit, to the first answer with the new record; the watch at the default 1 s, 5 runs);
- shards, on PostgreSQL: two ``tracebot run`` processes with two shards each, through the local
  Discord server, and N pastes (default 1,000) spread over 8 servers: how many were answered, how
  many more than once, p50/p99 from the paste's dispatch to the reply's arrival, and any ``deadlock``
  or ``serialization`` line in the bots' logs.

Run it alone: the machine has 2 cores.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.bench_bot import percentile, reply_times
from benchmarks.synthetic import synthetic_records
from bot.engine import Engine
from storage.database import Database
from storage.importer import import_paths
from tests import pg
from tests.conftest import SEEDS_JSONL
from tests.e2e.test_bot_e2e import BotProcess
from tests.e2e.test_shards import SHARDS, add_servers, replies_per_paste
from tests.fakediscord import FakeDiscord

ROOT = Path(__file__).resolve().parent.parent
REAL = ROOT / "tests" / "data" / "real"
PASTES = (
    "RuntimeError: assisted decoding requires a cache",
    "ValueError: assisted generation is not supported with stateful models, such as MambaForCausalLM",
)
RELOADS = 5


def _cli(*args: str) -> float:
    """Run ``tracebot`` and return its wall time."""
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "bot", *args], cwd=ROOT, check=True, capture_output=True)
    return time.perf_counter() - started


def _real_pastes() -> list[str]:
    return [json.loads(line)["text"] for file in sorted(REAL.glob("*.jsonl")) for line in file.open() if line.strip()]


async def _reload_seconds(engine: Engine, target: str, n: int, workdir: Path) -> tuple[float, float]:
    """Import one record in another process; return (its start to the first answer, its exit to that answer).

    A watch can reload before the importing process has exited (its commit comes first), so the
    second figure can be 0; the first includes that process's start-up and its import.
    """
    record = {"id": f"live-{n}", "errorClass": "ValueError", "repo": "example/bench",
              "errorMessage": f"the bench flux capacitor number {n} refused configuration {{name}}"}  # fmt: skip
    source = workdir / f"live-{n}.jsonl"
    source.write_text(json.dumps(record) + "\n")
    started = time.perf_counter()
    await asyncio.to_thread(_cli, "records", "import", str(source), "--db", target)
    imported = time.perf_counter()
    paste = f"ValueError: the bench flux capacitor number {n} refused configuration zeta"
    while (await engine.answer(paste)).result.status != "matched":
        if time.perf_counter() - imported > 60:
            raise SystemExit(f"{target}: record {n} was not answered within 60 s")
        await asyncio.sleep(0.02)
    answered = time.perf_counter()
    return answered - started, answered - imported


async def store_figures(target: str, source: Path, workdir: Path) -> dict[str, float]:
    """Import, match and reload on one backend; return the figures."""
    figures = {"import_s": _cli("records", "import", str(source), "--db", target)}
    db = await Database.open(Path(target) if not target.startswith("postgresql://") else target)
    try:
        engine = await Engine.load(db)
        times = []
        for text in _real_pastes():
            started = time.perf_counter()
            engine.match_text(text)
            times.append((time.perf_counter() - started) * 1000)
        figures |= {"match_p50_ms": statistics.median(times), "match_p99_ms": percentile(times, 0.99)}
        watcher = asyncio.create_task(engine.watch(interval=1.0))
        try:
            await asyncio.sleep(0.5)
            runs = [await _reload_seconds(engine, target, n, workdir) for n in range(RELOADS)]
        finally:
            watcher.cancel()
            await asyncio.gather(watcher, return_exceptions=True)
        from_start, from_exit = [r[0] for r in runs], [r[1] for r in runs]
        figures |= {
            "reload_from_import_start_median_s": statistics.median(from_start),
            "reload_from_import_start_max_s": max(from_start),
            "reload_from_import_exit_median_s": statistics.median(from_exit),
        }
    finally:
        await db.close()
    return figures


async def shard_figures(url: str, pastes: int, workdir: Path) -> dict[str, Any]:
    """Two bot processes, two shards each, on one PostgreSQL database: answers and event-to-reply times."""
    db = await Database.open(url)
    await import_paths(db, [SEEDS_JSONL])
    await db.close()
    async with FakeDiscord() as fake:
        channels = add_servers(fake)
        bots = []
        for name, ids in (("a", "0,1"), ("b", "2,3")):
            (workdir / name).mkdir()
            settings = {"TRACEBOT_DB": url, "TRACEBOT_SHARD_COUNT": str(SHARDS), "TRACEBOT_SHARD_IDS": ids,
                        "TRACEBOT_LOG_LEVEL": "WARNING", "TRACEBOT_HEARTBEAT_INTERVAL": "0"}  # fmt: skip
            bots.append(BotProcess(fake, url, workdir / name, settings=settings))
        try:
            await asyncio.gather(*(bot.start(timeout=180) for bot in bots))
            await fake.recorder.wait_until(lambda: fake.gateway.ready_count() >= SHARDS or None, 180, "4 shards")
            sent: dict[str, float] = {}
            for n in range(pastes):
                dispatched = time.time()
                message = await fake.create_message(channels[n % len(channels)], fake.member_user, PASTES[n % 2])
                sent[message["id"]] = dispatched
                await asyncio.sleep(0.005)
            for _ in range(1200):
                if set(sent) <= set(reply_times(fake)):
                    break
                await asyncio.sleep(0.1)
            await asyncio.sleep(2)
        finally:
            for bot in bots:
                await bot.stop()
        replies, arrived = replies_per_paste(fake), reply_times(fake)
        delays = [(arrived[m] - t) * 1000 for m, t in sent.items() if m in arrived]
        logs = "\n".join(bot.log_tail(100_000).lower() for bot in bots)
    return {
        "pastes": pastes,
        "answered": sum(1 for m in sent if replies[m] >= 1),
        "answered_twice": sum(1 for m in sent if replies[m] > 1),
        "reply_p50_ms": statistics.median(delays) if delays else float("nan"),
        "reply_p99_ms": percentile(delays, 0.99) if delays else float("nan"),
        "deadlock_or_serialization_lines": sum("deadlock" in line or "serializ" in line for line in logs.splitlines()),
    }


async def run(records: int, pastes: int) -> None:
    """Start a cluster, measure both backends and the shards, print the figures."""
    url, cluster = pg.start_cluster()
    os.environ[pg.ENV] = url  # tests.pg makes and drops the databases on it
    try:
        with tempfile.TemporaryDirectory() as name:
            workdir = Path(name)
            source = workdir / "synthetic.jsonl"
            with source.open("w") as fh:
                for record in synthetic_records(records):
                    fh.write(json.dumps(record) + "\n")
            figures = await store_figures(str(workdir / "bench.db"), source, workdir)
            print("sqlite: " + ", ".join(f"{k} {v:.2f}" for k, v in figures.items()), flush=True)
            async with pg.fresh_database(migrated=False) as target:
                figures = await store_figures(target, source, workdir)
            print("postgresql: " + ", ".join(f"{k} {v:.2f}" for k, v in figures.items()), flush=True)
            if not pastes:
                return
            async with pg.fresh_database(migrated=False) as target:
                shards = await shard_figures(target, pastes, workdir)
            print("shards (2 processes x 2 shards, 8 servers): " + ", ".join(f"{k} {v:.1f}" if isinstance(v, float)
                  else f"{k} {v}" for k, v in shards.items()))  # fmt: skip
    finally:
        pg.stop_cluster(cluster)


def main() -> None:
    """Parse the options and run."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=100_000)
    parser.add_argument("--pastes", type=int, default=1_000, help="0: skip the two-process part")
    args = parser.parse_args()
    asyncio.run(run(args.records, args.pastes))


if __name__ == "__main__":
    main()
