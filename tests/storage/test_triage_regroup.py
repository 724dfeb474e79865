"""Tests for storage.triage_regroup: a bare line's group takes a frame; stored groups rekeyed on a new version."""

from __future__ import annotations

import pytest

from records.fingerprint import KEY_VERSION
from records.triage import Observation, PasteOrigin, TriageLimits, observe
from storage.database import Database
from storage.triage import TriageRepository
from storage.triage_regroup import KEY_VERSION_STATUS

LIMITS = TriageLimits(samples_per_group=5, user_daily_pastes=50, user_daily_groups=10)
DAY = "2026-03-01T10:00:00.000Z"
SITE = "/opt/conda/lib/python3.11/site-packages/transformers/models"
VIDEO = "ValueError: Video features and video tokens do not match: tokens: 12, features 9"
GATED = (
    "OSError: You are trying to access a gated repo.\nMake sure to request access at "
    "https://huggingface.co/meta-llama/Llama-2-7b and pass a token having permission to this repo either by "
    "logging in with `huggingface-cli login` or by passing `token=<your_token>`."
)


def raised_in(model: str, final: str = VIDEO) -> str:
    return (
        "Traceback (most recent call last):\n"
        '  File "/home/ann/run.py", line 9, in <module>\n    model(**inputs)\n'
        f'  File "{SITE}/{model}/modeling_{model}.py", line 1400, in forward\n    raise ValueError(msg)\n{final}\n'
    )


def observed(text: str) -> Observation:
    found = observe(text)
    assert isinstance(found, Observation), found
    return found


def origin(author: int) -> PasteOrigin:
    return PasteOrigin(channel_id=10, author_id=author, guild_id=100, message_id=author)


async def group_of(repo: TriageRepository, text: str, author: int) -> int:
    logged = await repo.log(observed(text), origin(author), LIMITS, DAY)
    assert logged.group is not None
    return logged.group.id


@pytest.fixture
def repo(db: Database) -> TriageRepository:
    return TriageRepository(db)


async def test_a_bare_line_group_takes_the_frame_of_the_first_traceback(repo: TriageRepository) -> None:
    bare = await group_of(repo, VIDEO, 1)
    assert await group_of(repo, raised_in("qwen2_vl"), 2) == bare
    group = await repo.get(bare)
    assert group is not None and group.frame.endswith("qwen2_vl/modeling_qwen2_vl.py:forward")
    # The same check raised in another model's file is its own group, as its key says ...
    other = await group_of(repo, raised_in("glm4v"), 3)
    assert other != bare
    assert await group_of(repo, raised_in("glm4v"), 4) == other
    # ... and a bare line (it cannot tell the files apart) joins the larger group of its message.
    assert await group_of(repo, VIDEO, 5) == bare


async def old_version_groups(db: Database, repo: TriageRepository) -> tuple[int, int]:
    """Store two groups of one error under keys an older version computed; return their ids."""
    await repo.rekey(DAY)  # a fresh database is current: record it, then make it look old
    ids = []
    for n, text in enumerate((raised_in("qwen2_vl", GATED), GATED.replace("login`", "login`\n"))):
        stale = Observation(key=f"oldkey{n}", error_class="OSError", masked=f"old masking {n}", sample=text)
        logged = await repo.log(stale, origin(n + 1), LIMITS, DAY)
        assert logged.group is not None and logged.new_group
        ids.append(logged.group.id)
    async with db.transaction() as conn:
        await conn.execute("UPDATE bot_status SET value = 'fp-old' WHERE key = ?", (KEY_VERSION_STATUS,))
    return ids[0], ids[1]


async def test_a_new_version_rekeys_stored_groups_and_merges_one_error(db: Database, repo: TriageRepository) -> None:
    first, second = await old_version_groups(db, repo)
    upgraded = TriageRepository(db)  # a bot started with the new version
    # A paste of the error finds the stored group, whose two old groups are now one.
    assert await group_of(upgraded, GATED, 9) == first
    assert await upgraded.get(second) is None and await upgraded.merged_into(second) == first
    group = await upgraded.get(first)
    assert group is not None and group.count == 3 and group.people == 3
    assert "huggingface-cli login or by passing `<value>`" in group.masked  # read again, new masking
    row = await db.fetch_one("SELECT value FROM bot_status WHERE key = ?", (KEY_VERSION_STATUS,))
    assert row is not None and row["value"] == KEY_VERSION
    assert await upgraded.rekey(DAY) is None and await TriageRepository(db).rekey(DAY) is None


async def test_a_rekey_keeps_reviews_and_splits(db: Database, repo: TriageRepository) -> None:
    first, second = await old_version_groups(db, repo)
    await repo.dismiss(second, "noise", reviewer=1, now=DAY)
    async with db.transaction() as conn:  # a maintainer's link stands on the first (no record needed here)
        await conn.execute("UPDATE triage_groups SET status = 'linked', record_id = 'r1' WHERE id = ?", (first,))
    upgraded = TriageRepository(db)
    assert await upgraded.rekey(DAY) == 0  # a dismissed group is not merged into a linked one
    assert await upgraded.get(first) is not None and await upgraded.get(second) is not None
    assert await group_of(upgraded, GATED, 9) == first


async def test_a_split_group_is_not_merged_back(db: Database, repo: TriageRepository) -> None:
    first, _ = await old_version_groups(db, repo)
    again = Observation(
        key="oldkey0", error_class="OSError", masked="old masking 0", sample=raised_in("qwen2_vl", GATED)
    )
    await repo.log(again, origin(5), LIMITS, DAY)
    report = await repo.report(first)
    assert report is not None and len(report.samples) == 2
    split = await repo.split(first, sample_ids=[report.samples[0].id], part="frame", values=["x.py:f"], now=DAY)
    merged = await TriageRepository(db).rekey(DAY)
    assert merged == 1  # the two old groups of the error; the split's group stays
    assert await repo.get(split) is not None


async def test_a_group_without_samples_is_rekeyed_from_its_message(db: Database, repo: TriageRepository) -> None:
    await repo.rekey(DAY)
    stale = Observation(key="oldkey", error_class="ValueError", masked="bad value <n> in <path>", sample="gone")
    logged = await repo.log(stale, origin(1), LIMITS, DAY)
    assert logged.group is not None
    async with db.transaction() as conn:
        await conn.execute("DELETE FROM triage_samples")
        await conn.execute("UPDATE bot_status SET value = 'fp-old' WHERE key = ?", (KEY_VERSION_STATUS,))
    upgraded = TriageRepository(db)
    assert await group_of(upgraded, "ValueError: bad value 12 in /home/bob/data.csv", 2) == logged.group.id
