"""The whole shipped record set in use: import, bot start-up, memory, and matching time on real pastes.

Run: ``python -m benchmarks.bench_shipped`` (about a minute; run it alone on the 2 shared cores).
With every file of ``records/data`` (transformers and the libraries around it):

1. ``tracebot records import records/data`` into a fresh database, as ``make run`` does, timed;
2. ``tracebot run`` against the local fake Discord: seconds from start to ready (commands synced,
   gateway identified), the first time (the index is built and saved) and again (the saved index is
   loaded), and the bot's RSS once ready and after it answered every real paste of ``tests/data/real``;
3. in-process, p50 and p99 of ``clean_text`` + ``Matcher.match`` per paste over the real pastes
   (transformers, other libraries, chat), each paste timed 3 times and its fastest kept.

The targets of issue 12 are printed beside the figures: start-up at most 15 s, RSS at most 1.5 GB,
p99 at most 10 ms.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.bench_bot_load import populate, rss_mb, wait_for_replies
from benchmarks.evalset import real_cases, shipped_matcher
from records.text import clean_text
from records.triage import MAX_INPUT_CHARS
from tests.e2e.test_bot_e2e import BotProcess
from tests.fakediscord import FakeDiscord

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "records" / "data"
TARGET_START_S, TARGET_RSS_MB, TARGET_P99_MS = 15.0, 1536.0, 10.0
TIMINGS = 3


def real_texts() -> list[str]:
    """Return the real pastes of every labelled set (transformers, other libraries, chat)."""
    kinds = ("transformers", "ecosystem", "foreign", "chat")
    return [case["text"] for kind in kinds for case in real_cases(kind)]


def import_seconds(db: Path) -> float:
    """Import the shipped set into ``db`` with the command line; return the seconds it took."""
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "bot", "records", "import", str(DATA), "--db", str(db)],
                   check=True, stdout=subprocess.DEVNULL)  # fmt: skip
    return time.perf_counter() - started


async def run_bot(db: Path, workdir: Path, texts: list[str]) -> dict[str, float]:
    """Start the bot twice on ``db``; return its start-up times and RSS (ready, after the pastes)."""
    figures: dict[str, float] = {}
    async with FakeDiscord() as fake:
        users, channels = populate(fake, "asker", 20, "help-", 20)
        for attempt in ("first", "again"):
            bot = BotProcess(fake, db, workdir, {"TRACEBOT_LOG_LEVEL": "WARNING"})
            started = time.perf_counter()
            await bot.start(timeout=300)
            figures[f"start_{attempt}_s"] = time.perf_counter() - started
            assert bot.proc is not None
            try:
                figures[f"rss_ready_{attempt}_mb"] = rss_mb(bot.proc.pid)
                if attempt == "again":
                    for k, text in enumerate(texts):
                        await fake.create_message(channels[k % 20], users[k % 20], text)
                    await wait_for_replies(fake, len(texts), limit=300)  # chat gets none: ends 15 s after the last
                    await asyncio.sleep(1)
                    figures["rss_after_mb"] = rss_mb(bot.proc.pid)
            finally:
                await bot.stop()
    return figures


def match_times(texts: list[str]) -> tuple[float, float]:
    """Return p50 and p99, in ms, of cleaning and matching each paste (the fastest of ``TIMINGS``)."""
    matcher = shipped_matcher()
    best: list[float] = []
    for text in texts:
        runs = []
        for _ in range(TIMINGS):
            started = time.perf_counter()
            matcher.match(clean_text(text, MAX_INPUT_CHARS))
            runs.append((time.perf_counter() - started) * 1000)
        best.append(min(runs))
    best.sort()
    return best[len(best) // 2], best[min(len(best) - 1, int(0.99 * len(best)))]


def _verdict(ok: bool) -> str:
    return "ok" if ok else "MISSED"


def main() -> int:
    """Print the figures."""
    texts = real_texts()
    print(f"load: {os.getloadavg()[0]:.2f} (1-min average, 2 cores shared)", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "shipped.db"
        print(f"records import records/data (fresh database): {import_seconds(db):.1f} s", flush=True)
        bot = asyncio.run(run_bot(db, Path(tmp), texts))
    start = max(bot["start_first_s"], bot["start_again_s"])
    print(
        f"tracebot run start-up to ready: {bot['start_first_s']:.1f} s building the index, "
        f"{bot['start_again_s']:.1f} s loading it  [{_verdict(start <= TARGET_START_S)} <= {TARGET_START_S:.0f} s]"
    )
    rss = max(bot["rss_ready_first_mb"], bot["rss_ready_again_mb"], bot["rss_after_mb"])
    print(f"tracebot run RSS: {bot['rss_ready_first_mb']:.0f} MB ready, {bot['rss_after_mb']:.0f} MB after "
          f"{len(texts)} real pastes  [{_verdict(rss <= TARGET_RSS_MB)} <= {TARGET_RSS_MB:.0f} MB]")  # fmt: skip
    p50, p99 = match_times(texts)
    print(f"matching per real paste ({len(texts)}): p50 {p50:.2f} ms  p99 {p99:.2f} ms  "
          f"[{_verdict(p99 <= TARGET_P99_MS)} <= {TARGET_P99_MS:.0f} ms]")  # fmt: skip
    print(f"load: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
