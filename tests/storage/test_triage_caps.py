"""Tests for storage.triage's per-user caps: they bound what a flood stores, never what it counts."""

from __future__ import annotations

import pytest

from records.triage import Observation, PasteOrigin, TriageLimits, observe
from storage.database import Database
from storage.triage import TriageRepository

LIMITS = TriageLimits(samples_per_group=3, user_daily_pastes=50, user_daily_groups=10)
DAY = "2026-03-01T10:00:00.000Z"
CANARY = "hf_CANARYaBcDeFgHiJkLmNoPqRsTuVwXyZ0123"


def paste(version: str) -> str:
    return (
        "Traceback (most recent call last):\n"
        '  File "/home/alice/app/main.py", line 8, in <module>\n'
        "    client.fetch(repo)\n"
        '  File "/home/alice/.venv/lib/python3.11/site-packages/hubclient/core.py", line 41, in fetch\n'
        "    raise ValueError(msg)\n"
        f"hubclient=={version}\n"
        f"ValueError: the quantum flux capacitor refused token {CANARY}\n"
    )


def observed(text: str) -> Observation:
    found = observe(text)
    assert isinstance(found, Observation), found
    return found


def origin(author: int, n: int = 0) -> PasteOrigin:
    return PasteOrigin(channel_id=10, author_id=author, guild_id=100, message_id=n)


@pytest.fixture
def repo(db: Database) -> TriageRepository:
    return TriageRepository(db)


async def rows(db: Database, table: str) -> int:
    row = await db.fetch_one(f"SELECT count(*) AS n FROM {table}")
    return int(row["n"]) if row is not None else 0


async def test_a_flood_of_one_paste_is_counted_whole(repo: TriageRepository, db: Database) -> None:
    flood = observed(paste("1.0.0"))
    # Four times the daily cap (benchmarks/bench_bot_load.py floods the bot with 1,000).
    outcomes = [(await repo.log(flood, origin(666, n), LIMITS, DAY)).outcome for n in range(200)]
    assert outcomes.count("logged") == LIMITS.user_daily_pastes
    assert outcomes.count("counted") == 200 - LIMITS.user_daily_pastes
    group = await repo.get(1)
    assert group is not None and group.count == 200 and group.people == 1
    # One author keeps one sample, whatever the count; the secret never reached the table.
    assert await rows(db, "triage_samples") == 1
    report = await repo.report(1)
    assert report is not None and CANARY not in report.samples[0].text
    assert "[REDACTED:huggingface_token]" in report.samples[0].text


async def test_capped_pastes_store_nothing_that_grows(repo: TriageRepository, db: Database) -> None:
    for n in range(LIMITS.user_daily_pastes):
        await repo.log(observed(paste("1.0.0")), origin(666, n), LIMITS, DAY)
    before = {t: await rows(db, t) for t in ("triage_samples", "triage_aliases", "triage_versions", "triage_groups")}
    # Past the cap: made-up versions, and a bare final line of the same error (another key, routed
    # by the loose key) are counted, but add no version, alias or sample row.
    for n in range(60):
        await repo.log(observed(paste(f"9.{n}.0")), origin(666, n), LIMITS, DAY)
        bare = observed(f"ValueError: the quantum flux capacitor refused token {CANARY}")
        assert (await repo.log(bare, origin(666, n), LIMITS, DAY)).outcome == "counted"
    after = {t: await rows(db, t) for t in before}
    assert after == before
    group = await repo.get(1)
    assert group is not None and group.count == LIMITS.user_daily_pastes + 2 * 60
    assert group.versions == {"hubclient": ["1.0.0"]}


async def test_a_capped_user_cannot_start_groups(repo: TriageRepository) -> None:
    limits = TriageLimits(samples_per_group=3, user_daily_pastes=2, user_daily_groups=10)
    await repo.log(observed(paste("1.0.0")), origin(7), limits, DAY)
    await repo.log(observed(paste("1.0.0")), origin(7), limits, DAY)
    other = observed("KeyError: 'flux' not found in the capacitor map")
    assert (await repo.log(other, origin(7), limits, DAY)).outcome == "user_limit"
    assert await repo.count() == 1
    # Another person is not capped by the flooder's allowance.
    assert (await repo.log(other, origin(8), limits, DAY)).outcome == "logged"
