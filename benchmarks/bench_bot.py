"""The bot end to end: ``tracebot run`` against the local fake Discord with 100k records loaded.

Run: ``python -m benchmarks.bench_bot [RECORDS]`` (default 100,000 synthetic records plus the seeds).
Two figures, both measured on the fake server's side of the socket:

- latency: pastes sent at 50 per second (rendered from random records in real-world formats); for
  each answered paste, the time from dispatching its MESSAGE_CREATE to the bot's reply POST arriving.
  Target: p99 ≤ 50 ms.
- throughput: 2,000 messages (two in five pastes, the rest chat) sent as fast as the fake can; events
  handled per second = messages / time until the last paste's reply arrived.

The bot runs in its own process (as in production), so its CPU is not shared with the fake server's.
"""

from __future__ import annotations

import asyncio
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.pastes import FORMATS, render_message
from benchmarks.synthetic import synthetic_records
from tests.conftest import SEEDS_JSONL
from tests.e2e.test_bot_e2e import CHAT, BotProcess
from tests.fakediscord import FakeDiscord

RATE = 50  # pastes per second in the latency phase
LATENCY_PASTES = 500
FLOOD = 2000
USERS, CHANNELS = 50, 50  # replies spread over channels, as a bot in many servers: no per-channel limit binds
Payload = dict[str, Any]


def write_records(path: Path, count: int) -> None:
    """Write ``count`` synthetic records as JSON Lines."""
    with path.open("w") as handle:
        for record in synthetic_records(count):
            handle.write(json.dumps(record) + "\n")


def pastes(count: int, records: int, seed: int = 11) -> list[str]:
    """Render ``count`` pastes from randomly chosen records, in the formats people paste."""
    rng = random.Random(seed)
    chosen = set(rng.sample(range(records), count))
    texts = []
    for number, record in enumerate(synthetic_records(records)):
        if number in chosen:
            kind = rng.choice(sorted(FORMATS))
            message = render_message(record["errorMessage"], rng)
            texts.append(FORMATS[kind](record["errorClass"], message, record["filePath"], record["lineNumber"], rng))
    rng.shuffle(texts)
    return texts


def reply_times(fake: FakeDiscord) -> dict[str, float]:
    """Return, per pasted message id, when the bot's reply POST reached the server."""
    times: dict[str, float] = {}
    for request in fake.requests:
        if request.method == "POST" and request.route == "/channels/{channel_id}/messages" and request.status == 200:
            reference = (request.json or {}).get("message_reference") or {}
            if "message_id" in reference:
                times.setdefault(str(reference["message_id"]), request.timestamp)
    return times


def people_and_channels(fake: FakeDiscord) -> tuple[list[Payload], list[int]]:
    """Add users and channels to the fake's guild (before the bot connects)."""
    users = [fake.world.add_user(f"user{i}") for i in range(USERS)]
    for user in users:
        fake.world.add_member(fake.guild_id, user)
    channels = [int(fake.world.add_channel(fake.guild_id, f"help-{i}")["id"]) for i in range(CHANNELS)]
    return users, channels


async def latency_phase(
    fake: FakeDiscord, texts: list[str], users: list[Payload], channels: list[int]
) -> dict[str, float]:
    """Send pastes at ``RATE`` per second; return per-message dispatch times."""
    sent: dict[str, float] = {}
    start = time.perf_counter()
    for i, text in enumerate(texts):
        delay = start + i / RATE - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        dispatched = time.time()
        message = await fake.create_message(channels[i % len(channels)], users[i % len(users)], text)
        sent[message["id"]] = dispatched
    await asyncio.sleep(2.0)  # let the last replies arrive (bounded)
    return sent


async def flood_phase(
    fake: FakeDiscord, texts: list[str], users: list[Payload], channels: list[int], answerable: set[str]
) -> tuple[float, int]:
    """Send ``FLOOD`` messages at once; return the seconds until the last reply and the replies seen.

    ``answerable`` holds the paste texts the bot answered in the latency phase: their repeats here
    are the replies to wait for (bounded: two minutes, or ten seconds without progress).
    """
    before = set(reply_times(fake))
    started, expected = time.time(), 0
    for i in range(FLOOD):
        text = texts[i % len(texts)] if i % 5 in (0, 3) else CHAT[i % len(CHAT)]
        expected += text in answerable
        await fake.create_message(channels[i % len(channels)], users[i % len(users)], text)
    seen, progress = 0, time.perf_counter()
    for _ in range(1200):
        await asyncio.sleep(0.1)
        count = sum(1 for k in reply_times(fake) if k not in before)
        if count != seen:
            seen, progress = count, time.perf_counter()
        if seen >= expected or time.perf_counter() - progress > 10:
            break
    newest = max((v for k, v in reply_times(fake).items() if k not in before), default=time.time())
    return newest - started, seen


def percentile(values: list[float], share: float) -> float:
    """Return the ``share`` percentile (0-1) of ``values``."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def prepare(records: int, workdir: Path) -> Path:
    """Import the synthetic records and the seeds into a fresh database; return its path."""
    source, db = workdir / "synthetic.jsonl", workdir / "tracebot.db"
    write_records(source, records)
    subprocess.run([sys.executable, "-m", "bot", "records", "import", str(source), str(SEEDS_JSONL), "--db", str(db)],
                   check=True, capture_output=True)  # fmt: skip
    return db


async def run(db: Path, texts: list[str], workdir: Path) -> dict[str, float]:
    """Start the bot against the fake, run both phases, return the figures."""
    async with FakeDiscord() as fake:
        users, channels = people_and_channels(fake)
        bot = BotProcess(fake, db, workdir, {"TRACEBOT_LOG_LEVEL": "WARNING", "TRACEBOT_HEARTBEAT_INTERVAL": "0"})
        await bot.start(timeout=180)
        try:
            sent = await latency_phase(fake, texts, users, channels)
            replies = reply_times(fake)
            latencies = [(replies[mid] - at) * 1000 for mid, at in sent.items() if mid in replies]
            answerable = {text for text, mid in zip(texts, sent, strict=True) if mid in replies}
            elapsed, flood_replies = await flood_phase(fake, texts, users, channels, answerable)
        finally:
            await bot.stop()
    return {
        "pastes": len(sent),
        "answered": len(latencies),
        "p50_ms": round(statistics.median(latencies), 1),
        "p99_ms": round(percentile(latencies, 0.99), 1),
        "max_ms": round(max(latencies), 1),
        "flood_messages": FLOOD,
        "flood_replies": flood_replies,
        "events_per_s": round(FLOOD / elapsed),
    }


def main(records: int = 100_000) -> dict[str, float]:
    """Print and return the figures."""
    with tempfile.TemporaryDirectory() as tmp:
        db = prepare(records, Path(tmp))
        figures = asyncio.run(run(db, pastes(LATENCY_PASTES, records), Path(tmp))) | {"records": records}
    print(
        f"bot, {figures['records']:,} records + seeds, through the fake Discord:\n"
        f"  {RATE} pastes/s: {figures['answered']}/{figures['pastes']} answered, MESSAGE_CREATE -> reply POST "
        f"p50 {figures['p50_ms']} ms, p99 {figures['p99_ms']} ms, max {figures['max_ms']} ms (target p99 <= 50 ms)\n"
        f"  flood: {figures['flood_messages']} messages ({figures['flood_replies']} replies) handled at "
        f"{figures['events_per_s']} events/s"
    )
    return figures


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 100_000)
