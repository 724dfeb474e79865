"""``tracebot run`` and ``sync-commands``: clear one-line failures, clean exits."""

from __future__ import annotations

import argparse
import asyncio
import re
from collections.abc import AsyncIterator
from pathlib import Path

import discord
import pytest

from bot.cli import discord_cmd, main
from bot.cli.discord_cmd import REJECTED, console_command, run_command, sync_command
from bot.client import Services, ShardedTracebotBot, TracebotBot, make_bot, point_discord_at
from records.errors import CliError
from storage.database import Database
from storage.importer import import_paths
from tests.bot.simbot import settings_for_tests
from tests.conftest import SEEDS_JSONL
from tests.fakediscord import FakeDiscord
from tests.fakediscord.fixtures import discord_pointed_at


@pytest.fixture(autouse=True)
def no_ambient_settings(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Keep the developer's token and .env out of these tests."""
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.delenv("TRACEBOT_DISCORD_TOKEN", raising=False)
    monkeypatch.chdir(tmp_path)


@pytest.fixture(name="fake")
async def fake_fixture() -> AsyncIterator[FakeDiscord]:
    """A fake Discord, with discord.py's URLs restored afterwards."""
    async with FakeDiscord() as fake:
        with discord_pointed_at(fake):
            yield fake


def test_run_without_a_token_is_one_line_and_status_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "--db", str(tmp_path / "t.db")]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("tracebot: error: DISCORD_TOKEN is not set")


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--shard-ids", "0,1"], "run: shard ids need the number of shards"),
        (["--shards", "2", "--shard-ids", "0,5"], r"run: shard ids \[5\] are not shards of 2"),
    ],
)
def test_shard_options_that_do_not_fit_are_one_line(
    options: list[str],
    message: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "x" * 59)
    assert main(["run", "--db", str(tmp_path / "t.db"), *options]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    assert re.search(message, err), err
    assert not (tmp_path / "t.db").exists()  # refused before anything was opened


@pytest.mark.parametrize(
    ("options", "message"),
    [(["--shards", "0"], "not a number of shards"), (["--shard-ids", "a"], "not a list of shard ids")],
)
def test_shard_options_that_are_not_numbers_are_usage_errors(
    options: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["run", "--db", str(tmp_path / "t.db"), *options])
    assert exit_.value.code == 2 and message in capsys.readouterr().err


def test_the_sharded_bot_runs_the_shards_it_is_given() -> None:
    settings = settings_for_tests(Path("unused.db")).model_copy(update={"shard_count": 4, "shard_ids": (2, 3)})
    services = Services(settings, *([None] * 6))  # type: ignore[arg-type]  # only the settings are read
    bot = make_bot(services)
    assert isinstance(bot, ShardedTracebotBot) and (bot.shard_count, bot.shard_ids) == (4, [2, 3])
    plain = make_bot(Services(settings_for_tests(Path("unused.db")), *([None] * 6)))  # type: ignore[arg-type]
    assert type(plain) is TracebotBot


async def test_run_with_a_rejected_token_fails_cleanly(tmp_path: Path, fake: FakeDiscord) -> None:
    settings = settings_for_tests(
        tmp_path / "t.db", discord_token="wrong", discord_api_url=fake.api_url, discord_gateway_url=fake.gateway_url
    )
    with pytest.raises(CliError, match="rejected the token"):
        await run_command(argparse.Namespace(db=None), settings)
    assert str(REJECTED).endswith("check DISCORD_TOKEN")


async def test_the_console_freezes_the_heap_once_the_index_is_loaded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    steps: list[str] = []

    async def console(engine: object, triage: object) -> int:
        steps.append(f"console with {len(engine.matcher.index)} records")  # type: ignore[attr-defined]
        return 0

    monkeypatch.setattr(discord_cmd, "freeze_loaded_heap", lambda: steps.append("frozen"))
    monkeypatch.setattr(discord_cmd, "run_console", console)
    db = await Database.open(tmp_path / "t.db")
    await import_paths(db, [SEEDS_JSONL])
    await db.close()
    assert await console_command(argparse.Namespace(db=None), settings_for_tests(tmp_path / "t.db")) == 0
    assert steps == ["frozen", "console with 3 records"]


async def test_sync_commands_publishes_globally(
    tmp_path: Path, fake: FakeDiscord, capsys: pytest.CaptureFixture[str]
) -> None:
    settings = settings_for_tests(tmp_path / "t.db", discord_token=fake.token, discord_api_url=fake.api_url)
    assert await sync_command(argparse.Namespace(db=None, guild=None), settings) == 0
    names = {c["name"] for c in fake.world.commands[None]}
    assert {"error", "explain", "search", "tracebot", "Explain this error"} <= names
    assert "synced" in capsys.readouterr().out and fake.world.commands.get(fake.guild_id) is None


def test_point_discord_at_sets_rest_and_gateway() -> None:
    saved = discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    try:
        point_discord_at("http://127.0.0.1:1/api/v10/", "ws://127.0.0.1:1/gateway")
        assert discord.http.Route.BASE == "http://127.0.0.1:1/api/v10"
        assert str(discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY) == "ws://127.0.0.1:1/gateway"
    finally:
        discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = saved


class _StuckBot:
    """A bot whose gateway never closes (discord.py in its reconnect backoff, Discord unreachable)."""

    def __init__(self) -> None:
        self.closed = False

    async def close(self) -> None:
        self.closed = True
        await asyncio.Event().wait()  # never returns


async def test_a_close_that_hangs_does_not_keep_the_process_alive(monkeypatch: pytest.MonkeyPatch) -> None:
    from bot.cli import discord_cmd  # noqa: PLC0415

    monkeypatch.setattr(discord_cmd, "SHUTDOWN_GRACE", 0.05)
    running = asyncio.create_task(asyncio.Event().wait())  # the gateway task, reconnecting forever
    bot = _StuckBot()
    await discord_cmd._close(bot, running)  # type: ignore[arg-type]  # a stand-in with close() only
    with pytest.raises(asyncio.CancelledError):
        await running
    assert bot.closed and running.cancelled()


async def test_the_first_gateway_connection_refused_is_one_line(tmp_path: Path, fake: FakeDiscord) -> None:
    db = await Database.open(tmp_path / "t.db")
    await import_paths(db, [SEEDS_JSONL])
    await db.close()
    settings = settings_for_tests(tmp_path / "t.db", discord_token=fake.token, discord_api_url=fake.api_url,
                                  discord_gateway_url="ws://127.0.0.1:9/")  # fmt: skip
    args = argparse.Namespace(db=None)
    with pytest.raises(CliError, match="cannot reach the Discord gateway"):
        await asyncio.wait_for(run_command(args, settings), 60)
