"""The bot, an import and maintainer commands on one database at once, through the local Discord server.

Nothing is lost: every paste sent while a large import runs in another process is answered (or, if
unexplained, reaches triage), and every command finishes with its line.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import pytest

from tests.bot.simbot import CACHE, STATEFUL, UNMATCHED
from tests.conftest import ROOT, make_record
from tests.e2e.test_bot_e2e import BotProcess, clean_environment, scalar, seeded_target
from tests.fakediscord import FakeDiscord

pytestmark = [pytest.mark.e2e]
PASTES = 30


async def _cli(*args: str, db: Path | str) -> tuple[int, str]:
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", *args, "--db", str(db), cwd=ROOT, env=clean_environment(),
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    out, err = await asyncio.wait_for(proc.communicate(), 180)
    assert proc.returncode is not None
    return proc.returncode, (out + err).decode()


def _replied(fake: FakeDiscord) -> set[str]:
    found = set()
    for message in fake.sent_messages():
        reference = message.get("message_reference") or {}
        if "message_id" in reference:
            found.add(str(reference["message_id"]))
    return found


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
async def test_pastes_imports_and_commands_share_one_database(backend: str, tmp_path: Path) -> None:
    async with seeded_target(backend, tmp_path) as db:
        await _share_one_database(db, tmp_path)


async def _share_one_database(db: Path | str, tmp_path: Path) -> None:
    big = tmp_path / "big.jsonl"
    big.write_text("".join(json.dumps(make_record(id=f"bulk{n}", errorMessage=f"bulk error {n} in {{x}}")) + "\n"
                           for n in range(6_000)))  # fmt: skip
    async with FakeDiscord() as fake:
        bot = BotProcess(fake, db, tmp_path)
        await bot.start()
        try:
            importing = asyncio.create_task(_cli("records", "import", str(big), db=db))
            sent = []
            for n in range(PASTES):
                text = (STATEFUL, CACHE, UNMATCHED)[n % 3]
                sent.append((await fake.create_message(fake.text_channel_id, fake.member_user, text), text))
                await asyncio.sleep(0.02)
            listing = await _cli("triage", "list", db=db)
            imported = await importing
            for _ in range(300):  # every answerable paste answered: up to 30 s
                if {m["id"] for m, t in sent if t != UNMATCHED} <= _replied(fake):
                    break
                await asyncio.sleep(0.1)
            await asyncio.sleep(1)
        finally:
            assert await bot.stop() == 0, bot.log_tail()
    assert imported[0] == 0, imported[1]
    assert listing[0] == 0, listing[1]
    assert {m["id"] for m, t in sent if t != UNMATCHED} <= _replied(fake)
    triaged = await scalar(db, "SELECT coalesce(sum(count), 0) FROM triage_groups")
    records = await scalar(db, "SELECT count(*) FROM records WHERE id LIKE 'bulk%'")
    assert triaged == PASTES // 3  # every unexplained paste counted
    assert records == 6_000
    assert "database is locked" not in bot.log_tail(400) and "Traceback" not in bot.log_tail(400)
