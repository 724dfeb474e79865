"""Slash commands, autocomplete, the /explain form, search pages and the context menu, in SimCord."""

from __future__ import annotations

import json
from pathlib import Path

import discord
import simcord

from bot.client import TracebotBot
from storage.importer import import_paths
from tests.bot.simbot import (  # noqa: F401
    DEV_GUILD,
    STATEFUL,
    Sim,
    answers,
    footer_text,
    response_of,
    seeded_services,
    sim_fixture,
    simcord_bot_fixture,
)
from tests.conftest import SEED_IDS, make_record

STATEFUL_ID, CACHE_ID = SEED_IDS["stateful"], SEED_IDS["cache"]
STATEFUL_SLUG = "assisted-generation-is-not-supported-with-stateful"


def footer_of(result: simcord.InteractionResult) -> str:
    """Return the footer text of an interaction's answer."""
    return footer_text(response_of(result))


async def test_error_by_id_and_by_slug_answers_privately(sim: Sim) -> None:
    by_id = await sim.member.slash(sim.help, "error", id=STATEFUL_ID)
    by_slug = await sim.member.slash(sim.help, "error", id=STATEFUL_SLUG)
    assert by_id.ephemeral and STATEFUL_ID in footer_of(by_id)
    assert STATEFUL_ID in footer_of(by_slug)
    labels = [c["label"] for row in response_of(by_id).components for c in row["components"]]
    assert labels[:2] == ["Helpful", "Not helpful"] and "Delete" not in labels


async def test_error_with_an_unknown_id_says_so(sim: Sim) -> None:
    result = await sim.member.slash(sim.help, "error", id="no-such-record")
    assert result.ephemeral and "No record has the id or slug" in response_of(result).content


async def test_error_shared_posts_for_everyone_with_delete(sim: Sim) -> None:
    result = await sim.member.slash(sim.help, "error", id=CACHE_ID, share=True)
    assert not result.ephemeral and CACHE_ID in footer_of(result)
    unknown = await sim.member.slash(sim.help, "error", id="nope", share=True)
    assert "No record has the id or slug `nope`" in response_of(unknown).content


async def test_autocomplete_puts_the_exact_id_first_and_searches_messages(sim: Sim) -> None:
    exact = await sim.member.autocomplete(sim.help, "error", "id", CACHE_ID)
    assert exact[0]["value"] == CACHE_ID and len(exact[0]["name"]) <= 100
    words = await sim.member.autocomplete(sim.help, "error", "id", "stateful models")
    assert [c["value"] for c in words] == [STATEFUL_ID]
    empty = await sim.member.autocomplete(sim.help, "error", "id", "")
    assert 1 <= len(empty) <= 25


async def test_search_pages_and_opens_a_record(sim: Sim, tmp_path: Path) -> None:
    path = tmp_path / "many.jsonl"
    records = [
        make_record(id=f"zeta{i:02d}", slug=f"zeta-{i}", errorMessage=f"zeta gadget number {i} failed to warm up")
        for i in range(12)
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    await import_paths(sim.services.db, [path])
    await sim.services.engine.reload()
    result = await sim.member.slash(sim.help, "search", query="zeta gadget warm up")
    page = response_of(result)
    assert result.ephemeral and footer_text(page).startswith("page 1 of 3")
    await sim.member.click(page, label="Next")
    assert footer_text(page).startswith("page 2 of 3")
    second = [o["value"] for row in page.components for c in row["components"] for o in c.get("options", [])]
    assert len(second) == 5
    opened = await sim.member.select(page, [second[0]])
    assert opened.ephemeral and footer_of(opened).startswith(f"record {second[0]}")


async def test_search_without_results(sim: Sim) -> None:
    result = await sim.member.slash(sim.help, "search", query="qwertyuiop asdfghjkl")
    assert response_of(result).embeds[0].description == "No record matches that."


async def test_context_menu_explains_a_message(sim: Sim) -> None:
    target = await sim.member.send(sim.help, "help pls\n```\n" + STATEFUL + "```")
    result = await sim.stranger.context_menu(sim.help, "Explain this error", target)
    assert result.ephemeral and STATEFUL_ID in footer_of(result)
    assert len(answers(sim, sim.help)) == 1  # the paste's own reply; the context menu answer is private


async def test_context_menu_works_without_the_message_content_intent(tmp_path: Path) -> None:
    services = await seeded_services(tmp_path)
    intents = discord.Intents.default()  # no message_content: pastes are invisible, commands still work
    bot = TracebotBot(services, intents=intents)
    try:
        async with simcord.run(bot, approved_intents=intents) as env:
            guild = env.create_guild(id=DEV_GUILD)
            channel = guild.create_text_channel("help")
            bob = guild.add_member(env.create_user("bob"))
            paste = await bob.send(channel, STATEFUL)
            assert [m for m in channel.history() if m.author.bot] == []
            result = await bob.context_menu(channel, "Explain this error", paste)
            assert STATEFUL_ID in footer_of(result)
    finally:
        await services.db.close()


async def test_an_ambiguous_explain_is_picked_in_place(sim: Sim, tmp_path: Path) -> None:
    path = tmp_path / "ambiguous.jsonl"
    records = [
        make_record(id="amb1", slug="amb-a", filePath="src/lib/a.py", lineNumber=10),
        # A record of no repository (a curated one) with the same words: a second cause (copies within
        # one library fold, and so do those of two libraries, into the preferred library's answer).
        make_record(id="amb2", slug="amb-b", repo=None, filePath="src/lib/b.py", lineNumber=20),
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    await import_paths(sim.services.db, [path])
    await sim.services.engine.reload()
    result = await sim.member.slash(sim.help, "explain", text="ValueError: something went wrong with foo")
    menu = response_of(result)
    assert menu.embeds[0].title == "Several records could explain this error"
    await sim.member.select(menu, ["amb1"], custom_id=f"tracebot:pick:{sim.member.id}")
    assert footer_text(menu).startswith("record amb1") and menu.ephemeral
    labels = [c.get("label") for row in menu.components for c in row["components"]]
    assert "Delete" not in labels and labels[:2] == ["Helpful", "Not helpful"]
