"""Reading a Discord message in SimCord: who is ignored, attachments and paste links, the size cap."""

from __future__ import annotations

from tests.bot.simbot import (  # noqa: F401
    CACHE,
    STATEFUL,
    Sim,
    answers,
    footer_text,
    sim_fixture,
    simcord_bot_fixture,
)
from tests.conftest import SEED_IDS

STATEFUL_ID, CACHE_ID = SEED_IDS["stateful"], SEED_IDS["cache"]


async def test_bots_and_webhooks_are_ignored(sim: Sim) -> None:
    other_bot = sim.guild.add_member(sim.env.create_user("ci-bot", bot=True))
    await other_bot.send(sim.help, STATEFUL)
    await sim.guild.create_webhook(sim.help, "CI").send(STATEFUL)
    assert answers(sim, sim.help) == []


async def test_text_attachments_and_paste_links_are_read(sim: Sim) -> None:
    await sim.member.send(sim.help, "see file", attachments=[("message.txt", STATEFUL.encode())])
    sim.pastes.texts["https://pastebin.com/abc123"] = CACHE
    await sim.member.send(sim.help, "full log: https://pastebin.com/abc123")
    await sim.member.send(sim.help, "screenshot", attachments=[("error.png", STATEFUL.encode())])
    replies = answers(sim, sim.help)
    assert [STATEFUL_ID in footer_text(replies[0]), CACHE_ID in footer_text(replies[1])] == [True, True]
    assert len(replies) == 2 and sim.pastes.fetched == ["https://pastebin.com/abc123"]


async def test_an_attachment_over_the_cap_is_not_downloaded(sim: Sim) -> None:
    big = (STATEFUL + "\n" + "x" * sim.services.settings.max_attachment_bytes).encode()
    await sim.member.send(sim.help, "log attached", attachments=[("message.txt", big)])
    assert answers(sim, sim.help) == []
    assert not any("attachments" in r.path for r in sim.env.http_requests if r.method == "GET")
