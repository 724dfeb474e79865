"""Answering logged pastes again in SimCord: after a link, after an import, only where the bot may write."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import cast

import discord
import pytest

from bot.exts.triage import TriageCog
from records.matching import IndexEntry
from storage.importer import import_paths
from tests.bot.exts.triage.simtriage import (  # noqa: F401
    RECORD,
    Sim,
    answers_to,
    key_paste,
    paste,
    sim_fixture,
    simcord_bot_fixture,
)


async def test_linking_answers_the_recent_pastes_still_there(sim: Sim) -> None:
    carol = sim.guild.add_member(sim.env.create_user("carol"))
    dave = sim.guild.add_member(sim.env.create_user("dave"))
    first = await sim.member.send(sim.help, key_paste("bob", "input_ids"))
    second = await carol.send(sim.help, key_paste("carol", "attention_mask"))
    gone = await dave.send(sim.help, key_paste("dave", "labels"))
    await dave.delete(gone)
    [group] = await sim.service.reports()
    assert group.title == "KeyError: '<key>' not found in token map" and group.people == 3
    assert group.frame == "tokenmap/maps.py:lookup"
    result = await sim.owner.slash(sim.help, "triage link", report=group.id, record=RECORD)
    assert result.ephemeral and result.response is not None
    assert result.response.content == (
        f"Report #{group.id} linked to `{RECORD}`; 1 example(s) now match it. "
        "Answered 2 recent paste(s) of this error; 1 deleted."
    )
    for pasted in (first, second):
        [answer] = answers_to(sim, pasted)
        assert RECORD in str(answer.embeds[0].to_dict())
    posts = [r for r in sim.env.http_requests if r.method == "POST" and str(r.path).endswith("/messages")]
    assert all(r.json["allowed_mentions"]["parse"] == [] for r in posts if r.json)
    # Once per paste: linking again answers nothing more.
    await sim.owner.slash(sim.help, "triage reopen", report=group.id)
    again = await sim.owner.slash(sim.help, "triage link", report=group.id, record=RECORD)
    assert again.response is not None and again.response.content.endswith("now match it.")
    assert len(answers_to(sim, first)) == 1


async def test_a_paste_in_a_channel_the_bot_cannot_see_is_skipped(sim: Sim) -> None:
    hidden = sim.guild.create_text_channel("hidden")
    pasted = await sim.member.send(hidden, key_paste())
    [group] = await sim.service.reports()
    channel = sim.bot.get_channel(hidden.id)
    assert isinstance(channel, discord.TextChannel) and channel.guild.me is not None
    await channel.set_permissions(channel.guild.me, view_channel=False)
    await sim.env.settle()
    result = await sim.owner.slash(sim.help, "triage link", report=group.id, record=RECORD)
    assert result.response is not None
    assert result.response.content.endswith(
        "Answered 0 recent paste(s) of this error; 1 in a channel I can no longer see."
    )
    assert not [m for m in hidden.history() if m.reference and m.reference.message_id == pasted.id]


async def test_reanswering_is_off_with_zero_days(sim: Sim) -> None:
    sim.service.settings.reanswer_days = 0
    pasted = await sim.member.send(sim.help, key_paste())
    [group] = await sim.service.reports()
    result = await sim.owner.slash(sim.help, "triage link", report=group.id, record=RECORD)
    assert result.response is not None and result.response.content.endswith("now match it.")
    assert answers_to(sim, pasted) == []


async def test_an_import_answers_the_pastes_its_record_matches(sim: Sim, tmp_path: Path) -> None:
    pasted = await sim.member.send(sim.help, key_paste())
    record = {
        "id": "tokenmap-missing-key", "repo": "example/tokenmap", "errorClass": "KeyError",
        "errorMessage": "'{key}' not found in token map", "filePath": "tokenmap/maps.py", "lineNumber": 40,
        "documentation": "The token map has no entry for this key.", "solutions": ["Add the key to the map."],
    }  # fmt: skip
    path = tmp_path / "tokenmap.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    await import_paths(sim.bot.services.db, [path])
    # By name and behaviour: other tests reload the extension, so the class object may differ.
    found = sim.bot.get_cog("TriageCog")
    assert found is not None and hasattr(found, "reanswer_entries")
    cog = cast(TriageCog, found)
    engine = sim.bot.services.engine
    seen: list[int] = []

    async def count(entries: list[IndexEntry]) -> None:
        seen.append(len(entries))

    engine.reload_listeners.append(count)
    assert await engine.reload() >= 1
    for task in list(cog._tasks):
        await task
    await sim.env.settle()
    [answer] = answers_to(sim, pasted)
    assert "tokenmap-missing-key" in str(answer.embeds[0].to_dict()) and seen
    assert await cog.reanswer_entries([e async for e in engine.records.index_entries()]) is None  # once per paste


async def test_unloading_the_cog_stops_the_re_answers_still_running(sim: Sim, monkeypatch: pytest.MonkeyPatch) -> None:
    # A reload just before a shutdown left its re-answer running after the database had closed.
    found = sim.bot.get_cog("TriageCog")
    assert found is not None
    cog = cast(TriageCog, found)
    started = asyncio.Event()

    async def slow(entries: list[IndexEntry]) -> None:
        started.set()
        await asyncio.Event().wait()  # a re-answer still waiting on the database or Discord

    monkeypatch.setattr(cog, "reanswer_entries", slow)
    await cog._on_reload([])
    [task] = list(cog._tasks)
    await asyncio.wait_for(started.wait(), 30)
    await sim.bot.unload_extension("bot.exts.triage")
    assert task.cancelled() and not cog._tasks
