"""The paste listener in SimCord: what gets answered, the reply lifecycle, safety rules."""

from __future__ import annotations

import json
from pathlib import Path

from bot.exts.answers._throttle import Throttle
from storage.importer import import_paths
from tests.bot.simbot import (  # noqa: F401
    CACHE,
    STATEFUL,
    UNMATCHED,
    Sim,
    answers,
    answers_cog,
    footer_text,
    posted_bodies,
    response_of,
    sim_fixture,
    simcord_bot_fixture,
)
from tests.conftest import SEED_IDS, make_record

STATEFUL_ID, CACHE_ID = SEED_IDS["stateful"], SEED_IDS["cache"]


async def add_ambiguous_records(sim: Sim, tmp_path: Path) -> None:
    """Store two records with the same message raised in two files, and reload the index."""
    path = tmp_path / "ambiguous.jsonl"
    records = [
        make_record(id="amb1", slug="amb-a", filePath="src/lib/a.py", lineNumber=10),
        # Another library raising the same words: a second cause (copies within one library fold).
        make_record(id="amb2", slug="amb-b", repo="example/other", filePath="src/lib/b.py", lineNumber=20),
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    await import_paths(sim.services.db, [path])
    await sim.services.engine.reload()


async def test_a_seed_paste_gets_one_reply_with_its_record_and_pings_nobody(sim: Sim) -> None:
    paste = await sim.member.send(sim.help, STATEFUL + "\n@everyone <@" + str(sim.owner.id) + ">")
    [reply] = answers(sim, sim.help)
    assert reply.reference is not None and reply.reference.message_id == paste.id
    title = reply.embeds[0].title
    assert STATEFUL_ID in footer_text(reply)
    assert title is not None and title.startswith("ValueError: assisted generation")
    [body] = posted_bodies(sim)
    assert body["allowed_mentions"] == {"parse": [], "replied_user": False}
    assert not reply.mentions and not reply.mention_everyone


async def test_chat_is_not_answered_and_an_unexplained_error_goes_to_listeners(sim: Sim) -> None:
    await sim.member.send(sim.help, "anyone know a good tutorial for decorators?")
    paste = await sim.member.send(sim.help, UNMATCHED)
    assert answers(sim, sim.help) == []
    [event] = sim.events["paste_unmatched"]
    assert (event.message_id, event.author_id, event.channel_id) == (paste.id, sim.member.id, sim.help.id)
    assert event.result.status == "unmatched" and event.guild_id == sim.guild.id


async def test_edit_updates_the_reply_and_a_chat_edit_removes_it(sim: Sim) -> None:
    paste = await sim.member.send(sim.help, STATEFUL)
    [reply] = answers(sim, sim.help)
    await sim.member.edit(paste, CACHE)
    [updated] = answers(sim, sim.help)
    assert updated.id == reply.id and CACHE_ID in footer_text(updated)
    await sim.member.edit(paste, "never mind, fixed it")
    assert answers(sim, sim.help) == []
    assert await sim.services.replies.get(paste.id) is None


async def test_chat_edited_into_a_paste_is_answered_once(sim: Sim) -> None:
    message = await sim.member.send(sim.help, "getting an error, one sec")
    await sim.member.edit(message, CACHE)
    await sim.member.edit(message, CACHE + "\n(full log above)")
    [reply] = answers(sim, sim.help)
    assert reply.reference is not None and reply.reference.message_id == message.id


async def test_deleting_the_paste_deletes_the_reply(sim: Sim) -> None:
    paste = await sim.member.send(sim.help, STATEFUL)
    assert len(answers(sim, sim.help)) == 1
    await sim.member.delete(paste)
    assert answers(sim, sim.help) == []
    assert await sim.services.replies.get(paste.id) is None


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


async def test_channel_modes_and_the_allow_list(sim: Sim) -> None:
    guilds = sim.services.guilds
    await guilds.update_channel(sim.guild.id, sim.help.id, mode="off")
    await sim.member.send(sim.help, STATEFUL)
    await guilds.update_channel(sim.guild.id, sim.help.id, mode="mention")
    await sim.member.send(sim.help, CACHE)
    assert answers(sim, sim.help) == []
    await sim.member.send(sim.help, f"<@{sim.me.id}> {CACHE}")
    assert len(answers(sim, sim.help)) == 1
    await guilds.update_channel(sim.guild.id, sim.help.id, allowed=True, mode=None)
    await sim.member.send(sim.other, STATEFUL)
    assert answers(sim, sim.other) == []


async def test_cooldowns_stop_a_flood_from_one_user(sim: Sim) -> None:
    cog = answers_cog(sim)
    cog.throttle = Throttle(user_cooldown=60, channel_cooldown=0, budget=0, window=60, clock=lambda: 100.0)
    for _ in range(3):
        await sim.member.send(sim.help, STATEFUL)
    await sim.stranger.send(sim.help, CACHE)
    assert len(answers(sim, sim.help)) == 2


async def test_thread_reply_style_answers_in_a_new_thread(sim: Sim) -> None:
    await sim.services.guilds.update_guild(sim.guild.id, reply_style="thread")
    paste = await sim.member.send(sim.help, STATEFUL)
    assert not any(m.embeds for m in answers(sim, sim.help))
    [thread] = sim.help.threads
    [answer] = answers(sim, thread)
    assert thread.id == paste.id and STATEFUL_ID in footer_text(answer)
