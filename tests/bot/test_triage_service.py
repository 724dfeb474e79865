"""Tests for bot.triage_service: nothing secret reaches the disk or the logs; link makes pastes match."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.engine import Engine
from bot.settings import Settings, TriageSettings
from bot.triage_service import TriageService, parse_report_id
from records.errors import TriageError, UnknownRecord, UnknownReport
from records.triage import PasteOrigin
from storage.database import Database
from storage.importer import import_paths
from tests.conftest import SEED_IDS

CANARY = "hf_CANARYq7Zt3Wv9Xy2Bn4Mk6Lp8Rs1Tu5Vw0"
OTHER_TOKEN = "hf_OTHERzYxWvUtSrQpOnMlKjIhGfEdCbA9876"
RECORD = SEED_IDS["stateful"]


def paste(token: str = CANARY, path: str = "/home/alice/data/shard_0007.bin", status: int = 403) -> str:
    return (
        "Traceback (most recent call last):\n"
        '  File "/home/alice/app/main.py", line 8, in <module>\n'
        f'    client.fetch(repo, token="{token}")\n'
        '  File "/home/alice/.venv/lib/python3.11/site-packages/hubclient/core.py", line 41, in fetch\n'
        "    raise PermissionError(msg)\n"
        f"PermissionError: access denied for token {token} while reading {path} (status {status})\n"
    )


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 3, 1, 12, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
async def seeded(tmp_path: Path, seeds_dir: Path) -> AsyncIterator[Database]:
    db = await Database.open(tmp_path / "triage.db")
    await import_paths(db, [seeds_dir])
    yield db
    await db.close()


@pytest.fixture
def make_service(seeded: Database) -> Callable[..., TriageService]:
    def make(engine: Engine | None = None, clock: Clock | None = None, **settings: object) -> TriageService:
        return TriageService(seeded, TriageSettings(**settings), engine=engine, clock=clock or Clock())

    return make


def where(author: int = 1, source: str = "unmatched", channel: int = 10) -> PasteOrigin:
    return PasteOrigin(
        channel_id=channel, author_id=author, guild_id=100, message_id=author, source=source,
        jump_url=f"https://discord.com/channels/100/{channel}/{author}", record_id=RECORD if source != "unmatched" else None,
    )  # fmt: skip


def canary_variants() -> list[str]:
    return [
        paste(),
        paste(path=f"/srv/{CANARY}/x.bin"),
        paste().replace(CANARY, CANARY[:12] + "\u200b" + CANARY[12:]),
        f"my token is {CANARY} and nothing works",  # skipped: no error
        paste() + "\x00\x01" * 5_000,  # binary junk
        paste() * 50,  # long
    ]


async def log_canaries(db: Database) -> None:
    service = TriageService(db, TriageSettings(), clock=Clock())
    for n, text in enumerate(canary_variants()):
        source = "not_helpful" if n % 2 else "unmatched"
        result = await service.log_paste(text, where(author=n, source=source))
        assert result.secret_kinds, n
    group = (await service.reports())[0]
    await service.dismiss(group.id, reason=f"pasted {CANARY} by mistake")
    await service.link(group.id, RECORD)
    engine = await Engine.load(db)
    await engine.reload()


def db_files(folder: Path) -> list[Path]:
    return sorted(folder.glob("canary.db*"))


def assert_no_canary(files: list[Path]) -> None:
    assert files
    for file in files:
        data = file.read_bytes()
        for needle in (CANARY, CANARY[3:], CANARY[12:]):
            assert needle.encode() not in data, file.name


async def test_canary_token_never_reaches_the_database_file_or_the_logs(
    tmp_path: Path, seeds_dir: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    db = await Database.open(tmp_path / "canary.db")
    try:
        await import_paths(db, [seeds_dir])
        await log_canaries(db)
        files = db_files(tmp_path)
        assert any(p.name.endswith("-wal") for p in files)
        assert_no_canary(files)  # while open: the WAL still holds the writes
    finally:
        await db.close()
    assert_no_canary(db_files(tmp_path))
    assert caplog.records, "the test must see the logs (aiosqlite logs every statement at DEBUG)"
    assert any("triage:" in r.getMessage() for r in caplog.records)
    assert CANARY[12:] not in caplog.text
    assert all(CANARY[12:] not in r.getMessage() for r in caplog.records)


async def test_link_makes_the_next_paste_of_the_same_error_match(
    seeded: Database, make_service: Callable[..., TriageService]
) -> None:
    engine = await Engine.load(seeded)
    assert (await engine.answer(paste())).result.status == "unmatched"
    service = make_service(engine=engine)
    logged = await service.log_paste(paste(), where())
    assert logged.group is not None
    review = await service.link(logged.group.id, RECORD, reviewer=42)
    assert [e.entry_id for e in review.added] == [f"{RECORD}~ex1"]
    variant = paste(token=OTHER_TOKEN, path="C:\\Users\\bob\\cache\\model-00002.safetensors", status=401)
    answer = await engine.answer(variant)
    assert answer.result.status == "matched"
    assert answer.result.best is not None and answer.result.best.id == RECORD
    assert answer.record(RECORD) is not None
    fresh = await Engine.load(seeded)
    assert fresh.match_text(variant).status == "matched"
    assert fresh.match_text(variant).matches[0].id == RECORD
    await service.reopen(logged.group.id)
    assert engine.match_text(variant).status == "unmatched"


async def test_a_link_made_elsewhere_reaches_a_running_engine_on_reload(
    seeded: Database, make_service: Callable[..., TriageService]
) -> None:
    engine = await Engine.load(seeded)
    cli = make_service()  # no engine: as the command line
    logged = await cli.log_paste(paste(), where())
    assert logged.group is not None
    await cli.link(logged.group.id, "assisted-generation-is-not-supported-with-stateful")  # by slug
    assert engine.match_text(paste(token=OTHER_TOKEN)).status == "unmatched"
    assert await engine.reload() == 1
    assert engine.match_text(paste(token=OTHER_TOKEN)).matches[0].id == RECORD
    await cli.dismiss(logged.group.id, "not ours")
    assert await engine.reload() == 1
    assert engine.match_text(paste(token=OTHER_TOKEN)).status == "unmatched"


async def test_unknown_report_or_record_is_a_clear_error(
    seeded: Database, make_service: Callable[..., TriageService]
) -> None:
    service = make_service()
    logged = await service.log_paste(paste(), where())
    assert logged.group is not None
    with pytest.raises(UnknownRecord, match="no record with id or slug 'no-such-record'"):
        await service.link(logged.group.id, "no-such-record")
    with pytest.raises(UnknownReport, match="no triage report with id 404"):
        await service.link(404, RECORD)
    for call in (service.show(404), service.draft(404), service.dismiss(404), service.reopen(404)):
        with pytest.raises(UnknownReport):
            await call
    group = (await service.show(logged.group.id)).group
    assert group.status == "new" and group.record_id is None


async def test_notices_for_a_new_group_and_at_the_notice_count(
    make_service: Callable[..., TriageService],
) -> None:
    service = make_service(notify_count=3)
    notices = [(await service.log_paste(paste(), where(author=n))).notice for n in range(5)]
    assert notices == ["new", None, "count", None, None]


async def test_retention_purge_keeps_counts(make_service: Callable[..., TriageService]) -> None:
    clock = Clock()
    service = make_service(clock=clock, retention_days=7)
    await service.log_paste(paste(), where(author=1))
    clock.now += timedelta(days=8)
    await service.log_paste(paste(), where(author=2))
    purged = await service.purge()
    assert purged.samples == 1
    report = (await service.export())[0]
    assert report.group.count == 2 and len(report.samples) == 1


async def test_pages_of_reports(make_service: Callable[..., TriageService]) -> None:
    service = make_service(page_size=2)
    for n in range(5):
        await service.log_paste(paste().replace("access denied", f"access denied {n * 'x'}y"), where(author=n))
    page = await service.page(None, 3)
    assert (page.number, page.pages, page.total, len(page.groups)) == (3, 3, 5, 1)
    assert (await service.page("dismissed", 9)).number == 1


def test_settings_defaults_and_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRACEBOT_TRIAGE_SAMPLE_CHARS", "900")
    monkeypatch.setenv("TRACEBOT_TRIAGE_NOTIFY_CHANNEL_ID", "1234")
    settings = Settings(_env_file=None).triage  # triage is a section of Settings
    assert settings.sample_chars == 900 and settings.notify_channel_id == 1234
    assert settings.limits().samples_per_group == 5


@pytest.mark.parametrize(("text", "expected"), [("12", 12), ("#12", 12), (" #7 ", 7)])
def test_parse_report_id(text: str, expected: int) -> None:
    assert parse_report_id(text) == expected


@pytest.mark.parametrize("text", ["", "#", "abc", "1.5", "-3", "١٢", "9" * 20])
def test_parse_report_id_refuses_other_text(text: str) -> None:
    with pytest.raises(TriageError, match="report ids are numbers"):
        parse_report_id(text)


def frame_paste(word: str, user: str = "alice") -> str:
    return (
        "Traceback (most recent call last):\n"
        f'  File "/home/{user}/run.py", line 3, in <module>\n'
        "    go()\n"
        '  File "/venv/lib/python3.11/site-packages/engine/core.py", line 9, in run\n'
        "    raise RuntimeError(msg)\n"
        f"RuntimeError: engine {word} stalled\n"
    )


async def test_split_refuses_what_it_cannot_do_and_changes_nothing(
    make_service: Callable[..., TriageService],
) -> None:
    service = make_service()
    one = await service.log_paste(frame_paste("one"), where(author=1))
    assert one.group is not None
    report = one.group.id
    with pytest.raises(TriageError, match=f"report #{report} has 1 sample"):
        await service.split(report, [1])
    await service.log_paste(frame_paste("one", user="bob"), where(author=2))
    samples = [s.id for s in (await service.show(report)).samples]
    with pytest.raises(TriageError, match="not all of them"):
        await service.split(report, samples)
    with pytest.raises(TriageError, match="sample 999 is not a sample"):
        await service.split(report, [999])
    with pytest.raises(TriageError, match="nothing tells them apart"):
        await service.split(report, samples[:1])
    with pytest.raises(TriageError, match="into itself"):
        await service.merge(report, report)
    after = await service.show(report)
    assert after.group.count == 2 and [s.id for s in after.samples] == samples


async def test_reanswer_targets_are_recent_unanswered_and_off_with_zero(
    make_service: Callable[..., TriageService],
) -> None:
    clock = Clock()
    service = make_service(clock=clock)
    await service.log_paste(paste(), where(author=1))
    clock.now += timedelta(days=8)
    logged = await service.log_paste(paste(), where(author=2))
    assert logged.group is not None
    targets = await service.reanswer_targets(logged.group.id, RECORD)
    assert [(t.author_id, t.message_id, t.record_id) for t in targets] == [(2, 2, RECORD)]
    await service.answered(targets)
    assert await service.reanswer_targets(logged.group.id, RECORD) == []  # once per paste
    assert await make_service(clock=clock, reanswer_days=0).reanswer_targets(logged.group.id, RECORD) == []


async def test_linking_to_a_deleted_record_changes_nothing(
    seeded: Database, make_service: Callable[..., TriageService]
) -> None:
    service = make_service()
    logged = await service.log_paste(paste(), where())
    assert logged.group is not None
    async with seeded.transaction() as conn:
        await conn.execute("DELETE FROM records WHERE id = ?", (RECORD,))
    with pytest.raises(UnknownRecord):
        await service.link(logged.group.id, RECORD)
    group = (await service.show(logged.group.id)).group
    assert group.status == "new" and group.record_id is None


def test_reanswer_setting_defaults_to_seven_days(monkeypatch: pytest.MonkeyPatch) -> None:
    assert Settings(_env_file=None).triage.reanswer_days == 7
    monkeypatch.setenv("TRACEBOT_TRIAGE_REANSWER_DAYS", "0")
    assert Settings(_env_file=None).triage.reanswer_days == 0
