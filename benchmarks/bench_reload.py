"""How soon records imported by another process are answered (``python -m benchmarks.bench_reload [N]``).

A bot follows its database (``TRACEBOT_RELOAD_INTERVAL``, 1 s by default): N times (default 10), a
``tracebot records import`` process adds one new record to a database holding the shipped records,
and the time from that process's exit to the engine's first answer with the new record is taken.
Target: at most 5 s. The tests check that the answer comes without a restart; the time is measured
here, where a busy machine makes a slow run a figure and not a failure.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

from bot.engine import Engine
from storage.database import Database
from storage.importer import import_paths

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ROOT / "records" / "data"
INTERVAL = 1.0  # the setting's default


def _new_record(n: int) -> dict[str, object]:
    return {"id": f"bench-live-{n}", "errorClass": "ValueError", "repo": "example/bench",
            "errorMessage": f"the bench flux capacitor number {n} refused configuration {{name}}"}  # fmt: skip


async def _import(db_path: Path, record: dict[str, object], workdir: Path) -> None:
    source = workdir / f"{record['id']}.jsonl"
    source.write_text(json.dumps(record) + "\n")
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "records", "import", str(source), "--db", str(db_path),
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL,
    )  # fmt: skip
    if await proc.wait() != 0:
        raise SystemExit(f"the import of {source} failed")


async def _seconds_until_answered(engine: Engine, db_path: Path, n: int, workdir: Path) -> float:
    await _import(db_path, _new_record(n), workdir)
    imported = time.perf_counter()
    paste = f"ValueError: the bench flux capacitor number {n} refused configuration zeta"
    while (await engine.answer(paste)).result.status != "matched":
        if time.perf_counter() - imported > 60:
            raise SystemExit(f"record {n} was not answered within 60 s")
        await asyncio.sleep(0.02)
    return time.perf_counter() - imported


async def _run(runs: int) -> list[float]:
    with tempfile.TemporaryDirectory() as name:
        workdir = Path(name)
        db = await Database.open(workdir / "tracebot.db")
        try:
            await import_paths(db, [SHIPPED])
            engine = await Engine.load(db)
            watcher = asyncio.create_task(engine.watch(interval=INTERVAL))
            try:
                return [await _seconds_until_answered(engine, db.path, n, workdir) for n in range(runs)]
            finally:
                watcher.cancel()
                await asyncio.gather(watcher, return_exceptions=True)
        finally:
            await db.close()


def main() -> None:
    """Print the delay from an import's end to the first answer with its record."""
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    delays = asyncio.run(_run(runs))
    print(f"reload interval {INTERVAL:g} s, {runs} imports: import end -> answered "
          f"median {statistics.median(delays):.2f} s, max {max(delays):.2f} s (target <= 5 s)")  # fmt: skip


if __name__ == "__main__":
    main()
