"""``tracebot console``: pastes end with an empty line; /error, /search and /triage work; EOF exits."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator

import pytest
from rich.console import Console

from bot.console import run_console
from bot.engine import Engine
from bot.settings import Settings
from bot.triage_service import TriageService
from records.triage import PasteOrigin
from storage.database import Database
from storage.importer import import_paths
from tests.bot.simbot import CACHE, STATEFUL
from tests.conftest import SEED_IDS, SEEDS_JSONL


@pytest.fixture(name="engine")
async def engine_fixture(db: Database) -> AsyncIterator[Engine]:
    """An engine over the seed records."""
    await import_paths(db, [SEEDS_JSONL])
    yield await Engine.load(db)


async def run(engine: Engine, typed: str) -> str:
    """Run a console session on ``typed`` and return what it printed."""
    out = io.StringIO()
    status = await run_console(engine, io.StringIO(typed), Console(file=out, width=120, color_system=None))
    assert status == 0
    return out.getvalue()


async def test_a_paste_shows_the_answer_with_its_buttons(engine: Engine) -> None:
    printed = await run(engine, STATEFUL + "\n")
    assert "ValueError: assisted generation is not supported" in printed
    assert f"record {SEED_IDS['stateful']}" in printed and "[👍 Helpful]" in printed and "Source: src/" in printed


async def test_several_pastes_then_end_of_input(engine: Engine) -> None:
    printed = await run(engine, f"{CACHE}\n\nhello there\n\nValueError: zeta flux nine\n")
    assert f"record {SEED_IDS['cache']}" in printed
    assert "does not look like a Python error" in printed and "no record explains it yet" in printed


async def test_prompt_commands(engine: Engine) -> None:
    printed = await run(
        engine, f"/error {SEED_IDS['decompose']}\n/error nope\n/search assisted decoding\n/search\n/help\n/quit\n"
    )
    assert f"record {SEED_IDS['decompose']}" in printed and "No record has the id or slug 'nope'" in printed
    assert "Search: assisted decoding" in printed and "Usage: /search WORDS" in printed


async def test_triage_without_a_service_points_to_the_command(engine: Engine) -> None:
    assert "tracebot triage" in await run(engine, "/triage\n")


async def test_triage_list_and_show_at_the_prompt(engine: Engine) -> None:
    service = TriageService(engine.db, Settings(_env_file=None).triage, engine=engine)  # type: ignore[call-arg]
    origin = PasteOrigin(guild_id=1, channel_id=2, message_id=3, author_id=4, jump_url="https://discord.com/x")
    await service.log_paste("ZorbError: the zorb at /home/alice/x.py failed with code 7", origin)
    out = io.StringIO()
    typed = io.StringIO("/triage new\n/triage show 1\n/triage show 99\n/triage bogus\n")
    assert await run_console(engine, typed, Console(file=out, width=120, color_system=None), triage=service) == 0
    printed = out.getvalue()
    assert "#1" in printed and "ZorbError" in printed and "alice" not in printed  # redacted sample
    assert "no triage report with id 99" in printed
    assert "status must be new, linked or dismissed" in printed
