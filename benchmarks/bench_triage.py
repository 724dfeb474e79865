"""Time triage: logging unmatched pastes (redaction included) and redacting 16 KB pastes.

Run: ``python -m benchmarks.bench_triage [PASTES]`` (default 10,000 pastes from 500 users into 300
groups, through ``TriageService.log_paste`` into a fresh database file, ``synchronous=FULL``).
Reports the time per paste, the database size afterwards, and the p99 of ``redact`` and of the
whole ``observe`` step on 16 KB pastes (target for redaction: p99 ≤ 20 ms).
"""

from __future__ import annotations

import asyncio
import random
import statistics
import string
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.bench_redact import pastes as redaction_pastes
from bot.settings import TriageSettings
from bot.triage_service import TriageService
from records.redact import redact
from records.triage import PasteOrigin, observe
from storage.database import Database, SqliteDatabase

USERS = 500
GROUPS = 300
CHANNELS = 20
RUNS_16K = 300
ALNUM = string.ascii_letters + string.digits
CLASSES = ["ValueError", "RuntimeError", "KeyError", "TypeError", "OSError", "AttributeError"]
ADJECTIVES = ["frozen", "sparse", "quantized", "sharded", "cached", "fused", "padded", "masked", "rotary", "tiled"]
NOUNS = [
    "embedding",
    "adapter",
    "scheduler",
    "tokenizer",
    "collator",
    "sampler",
    "kernel",
    "projector",
    "pipeline",
    "buffer",
]
VERBS = ["load", "resize", "merge", "dispatch", "compile"]


def message(group: int, rng: random.Random) -> str:
    """Return a message of ``group`` with fresh variable parts (numbers, paths, names)."""
    verb = VERBS[group % len(VERBS)]
    adjective = ADJECTIVES[group // len(VERBS) % len(ADJECTIVES)]
    noun = NOUNS[group // (len(VERBS) * len(ADJECTIVES)) % len(NOUNS)]
    user = rng.choice(["alice", "bob", "jdoe", "mei"])
    return (
        f"cannot {verb} {adjective} {noun}: expected {rng.randint(1, 4096)} items but got "
        f"{rng.randint(1, 4096)} in '/home/{user}/runs/{rng.randint(1, 99)}/state.bin'"
    )


def paste(group: int, rng: random.Random) -> str:
    """Return a realistic unmatched paste (1-10 KB): frames, sometimes a token or log noise."""
    frames = "".join(
        f'  File "/home/u/.venv/lib/python3.11/site-packages/{lib}/core_{k}.py", line {rng.randint(1, 900)}, '
        f"in step_{k}\n    return self.step(batch)\n"
        for k, lib in enumerate(rng.sample(["torch", "transformers", "accelerate", "peft", "datasets"], 4))
    )
    head = f"HF_TOKEN=hf_{''.join(rng.choices(ALNUM, k=34))}\n" if rng.random() < 0.3 else ""
    noise = "INFO step 12/900 loss=0.4312 lr=2e-05\n" * rng.choice([0, 0, 10, 200])
    cls = CLASSES[group % len(CLASSES)]
    return f"{head}{noise}Traceback (most recent call last):\n{frames}{cls}: {message(group, rng)}\n"


async def log_pastes(path: Path, count: int) -> list[float]:
    """Log ``count`` pastes through the service; return the seconds each took."""
    rng = random.Random(11)
    db = await Database.open(path)
    service = TriageService(db, TriageSettings())
    timings: list[float] = []
    try:
        for n in range(count):
            group = n if n < GROUPS else rng.randrange(GROUPS)  # every group exists after 300 pastes
            author = n % USERS
            origin = PasteOrigin(channel_id=1_000 + n % CHANNELS, author_id=author, guild_id=1 + n % 5)
            text = paste(group, rng)
            started = time.perf_counter()
            await service.log_paste(text, origin)
            timings.append(time.perf_counter() - started)
        groups, samples, counted = await _counts(db)
    finally:
        await db.close()
    print(f"  groups {groups}, pastes counted {counted:,}, samples kept {samples}")
    return timings


async def _counts(db: SqliteDatabase) -> tuple[int, int, int]:
    async with db.reader.execute(
        "SELECT (SELECT count(*) FROM triage_groups), (SELECT count(*) FROM triage_samples), "
        "(SELECT sum(count) FROM triage_groups)"
    ) as cursor:
        row = await cursor.fetchone()
    assert row is not None
    return int(row[0]), int(row[1]), int(row[2])


def percentiles(values: list[float]) -> str:
    """Return mean, p50, p99 and max of seconds, in milliseconds."""
    ms = sorted(v * 1000 for v in values)
    p99 = ms[min(len(ms) - 1, round(0.99 * (len(ms) - 1)))]
    return f"mean {statistics.fmean(ms):.2f} ms, p50 {ms[len(ms) // 2]:.2f} ms, p99 {p99:.2f} ms, max {ms[-1]:.2f} ms"


def time_16k() -> None:
    """Time ``redact`` and ``observe`` on the 16 KB pastes of the redaction benchmark."""
    texts = redaction_pastes()
    redactions: list[float] = []
    observations: list[float] = []
    for text in texts.values():
        for _ in range(RUNS_16K // 10):
            started = time.perf_counter()
            redact(text)
            redactions.append(time.perf_counter() - started)
            started = time.perf_counter()
            observe(text)
            observations.append(time.perf_counter() - started)
    print(f"16 KB pastes ({len(texts)} kinds, {len(redactions)} runs each step)")
    print(f"  redact:  {percentiles(redactions)}  (target p99 <= 20 ms)")
    print(f"  observe: {percentiles(observations)}  (clean + redact + cut + extract + fingerprint)")


def main(argv: list[str]) -> int:
    """Run the benchmark and print its figures."""
    count = int(argv[0]) if argv else 10_000
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "triage.db"
        print(f"triage: logging {count:,} unmatched pastes from {USERS} users into {GROUPS} groups")
        started = time.perf_counter()
        timings = asyncio.run(log_pastes(path, count))
        total = time.perf_counter() - started
        size = sum(p.stat().st_size for p in Path(tmp).glob("triage.db*"))
        print(f"  per paste (observe + one write transaction): {percentiles(timings)}")
        print(f"  total {total:.1f} s; database after close: {size / 1024:.0f} KiB")
    time_16k()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
