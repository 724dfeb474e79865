"""The answers' buttons and menu in SimCord: votes, delete, picking a candidate, after a restart too."""

from __future__ import annotations

import json
from pathlib import Path

from storage.importer import import_paths
from tests.bot.simbot import (  # noqa: F401
    CACHE,
    STATEFUL,
    Sim,
    answers,
    footer_text,
    response_of,
    sim_fixture,
    simcord_bot_fixture,
)
from tests.conftest import SEED_IDS, make_record

STATEFUL_ID = SEED_IDS["stateful"]


async def add_ambiguous_records(sim: Sim, tmp_path: Path) -> None:
    """Store two records with the same message raised in two files, and reload the index."""
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


async def test_ambiguous_paste_offers_a_menu_and_the_author_picks_in_place(sim: Sim, tmp_path: Path) -> None:
    await add_ambiguous_records(sim, tmp_path)
    await sim.member.send(sim.help, "ValueError: something went wrong with foo")
    [reply] = answers(sim, sim.help)
    assert reply.embeds[0].title == "Several records could explain this error"
    result = await sim.stranger.select(reply, ["amb2"], custom_id=f"tracebot:pick:{sim.member.id}")
    assert result.ephemeral and footer_text(response_of(result)).startswith("record amb2")
    await sim.member.select(reply, ["amb2"], custom_id=f"tracebot:pick:{sim.member.id}")
    [shown] = answers(sim, sim.help)
    assert shown.id == reply.id and footer_text(shown).startswith("record amb2")
    link = await sim.services.replies.by_reply(reply.id)
    assert link is not None and link.record_ids == ("amb2",)


async def test_helpful_and_not_helpful_votes_are_counted_per_record(sim: Sim) -> None:
    paste = await sim.member.send(sim.help, STATEFUL)
    [reply] = answers(sim, sim.help)
    up = await sim.member.click(reply, custom_id=f"tracebot:vote:up:{STATEFUL_ID}")
    down = await sim.stranger.click(reply, custom_id=f"tracebot:vote:down:{STATEFUL_ID}")
    assert up.ephemeral and "1 helpful" in response_of(up).content
    count = await sim.services.replies.vote_count(STATEFUL_ID)
    assert (count.helpful, count.not_helpful) == (1, 1) and down.ephemeral
    [event] = sim.events["answer_not_helpful"]
    assert event.record_id == STATEFUL_ID and event.message_id == paste.id


async def test_delete_button_is_for_the_author_or_a_moderator(sim: Sim) -> None:
    await sim.member.send(sim.help, STATEFUL)
    [reply] = answers(sim, sim.help)
    refused = await sim.stranger.click(reply, custom_id=f"tracebot:delete:{sim.member.id}")
    assert refused.ephemeral and "Only the person" in response_of(refused).content
    assert len(answers(sim, sim.help)) == 1
    await sim.member.click(reply, custom_id=f"tracebot:delete:{sim.member.id}")
    assert answers(sim, sim.help) == []
    await sim.member.send(sim.help, CACHE)
    [second] = answers(sim, sim.help)
    await sim.owner.click(second, custom_id=f"tracebot:delete:{sim.member.id}")  # the server owner moderates
    assert answers(sim, sim.help) == []


async def test_buttons_keep_working_after_a_restart(sim: Sim) -> None:
    await sim.member.send(sim.help, STATEFUL)
    [reply] = answers(sim, sim.help)
    await sim.env.restart_bot(type(sim.bot)(sim.services))
    result = await sim.stranger.click(reply, custom_id=f"tracebot:vote:up:{STATEFUL_ID}")
    assert result.ephemeral and "1 helpful" in response_of(result).content
