"""The paste listener in SimCord: what gets answered, the reply lifecycle, safety rules."""

from __future__ import annotations

from bot.exts.answers._throttle import Throttle
from tests.bot.simbot import (  # noqa: F401
    CACHE,
    STATEFUL,
    UNMATCHED,
    Sim,
    answers,
    answers_cog,
    footer_text,
    posted_bodies,
    sim_fixture,
    simcord_bot_fixture,
)
from tests.conftest import SEED_IDS

STATEFUL_ID, CACHE_ID = SEED_IDS["stateful"], SEED_IDS["cache"]


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
