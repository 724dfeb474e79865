"""Deferred, never dropped: a paste held by a cooldown is answered when it lapses."""

from __future__ import annotations

import pytest

from bot.exts.answers._deferred import DeferredReplies, Waiting
from bot.exts.answers._reading import missing_part
from bot.exts.answers._throttle import Throttle
from records.extraction import extract
from tests.bot.simbot import (  # noqa: F401
    CACHE,
    STATEFUL,
    UNMATCHED,
    Sim,
    answers,
    answers_cog,
    posted_bodies,
    sim_fixture,
    simcord_bot_fixture,
)
from tests.conftest import SEED_IDS

STATEFUL_LINE = STATEFUL.strip().splitlines()[-1]  # the final line alone, as people first paste it


def _waiting(
    message_id: int, channel_id: int = 1, fullness: tuple[int, int] = (2, 10), cause: str = "rec1"
) -> Waiting[str]:
    return Waiting(message_id, channel_id, cause, fullness, f"reply to {message_id}")


# -- the store ---------------------------------------------------------------------------------


def test_one_entry_per_person_and_channel_keeping_the_fullest() -> None:
    store: DeferredReplies[str] = DeferredReplies(per_channel=5, total=5)
    assert store.offer(7, _waiting(1, fullness=(2, 40))) == "queued"
    assert store.offer(7, _waiting(2, fullness=(2, 900))) == "replaced"  # the full traceback, later
    assert store.offer(7, _waiting(3, fullness=(1, 2000))) == "kept"  # a worse answer, however long
    assert store.offer(8, _waiting(4)) == "queued"  # someone else in the same channel
    assert store.offer(7, _waiting(5, cause="rec2")) == "queued"  # the same person, another error
    assert len(store) == 3
    assert store.drop(1) is None  # replaced: no longer held
    taken = store.take((7, 1, "rec1"))
    assert taken is not None and taken.message_id == 2


def test_bounded_per_channel_and_in_total() -> None:
    store: DeferredReplies[str] = DeferredReplies(per_channel=2, total=3)
    assert [store.offer(user, _waiting(user, channel_id=1)) for user in (1, 2, 3)] == ["queued", "queued", "overflow"]
    assert store.offer(4, _waiting(4, channel_id=2)) == "queued"
    assert store.offer(5, _waiting(5, channel_id=3)) == "overflow"  # three held in all
    assert store.drop(1) is not None
    assert store.offer(5, _waiting(5, channel_id=3)) == "queued"
    assert store.waiting_keys() == [(2, 1, "rec1"), (4, 2, "rec1"), (5, 3, "rec1")]


def test_ready_in_names_the_longest_remaining_wait() -> None:
    now = [100.0]
    throttle = Throttle(user_cooldown=10, channel_cooldown=2, budget=2, window=60, clock=lambda: now[0])
    assert throttle.ready_in(1, 1) == 0
    assert throttle.take(1, 1)
    assert throttle.ready_in(1, 1) == 10  # the user's cooldown
    assert throttle.ready_in(2, 1) == 2  # someone else: the channel's
    now[0] = 103.0
    assert throttle.take(2, 1)
    assert throttle.ready_in(3, 9) == pytest.approx(57.0)  # the global budget of 2 is spent until 160
    now[0] = 160.0
    assert throttle.ready_in(3, 9) == 0 and throttle.take(3, 9)


# -- in SimCord ----------------------------------------------------------------------------------


def _clocked(sim: Sim, *, user: float, channel: float) -> list[float]:
    cog = answers_cog(sim)
    now = [1000.0]
    cog.throttle = Throttle(user_cooldown=user, channel_cooldown=channel, budget=0, window=60, clock=lambda: now[0])
    return now


async def test_a_second_person_in_the_channel_is_answered_when_the_cooldown_lapses(sim: Sim) -> None:
    now = _clocked(sim, user=0, channel=30)
    await sim.member.send(sim.help, STATEFUL)
    second = await sim.stranger.send(sim.help, CACHE)
    assert len(answers(sim, sim.help)) == 1  # held, not dropped
    now[0] += 31
    await sim.env.advance_time(1)
    replies = answers(sim, sim.help)
    assert len(replies) == 2
    assert replies[-1].reference is not None and replies[-1].reference.message_id == second.id
    assert SEED_IDS["cache"] in (replies[-1].embeds[0].footer.text or "")


async def test_one_persons_pastes_in_a_short_window_are_answered_once_with_the_fullest(sim: Sim) -> None:
    now = _clocked(sim, user=30, channel=0)
    await sim.member.send(sim.help, CACHE)  # answered at once
    await sim.member.send(sim.help, STATEFUL_LINE)  # held
    full = await sim.member.send(sim.help, STATEFUL)  # fuller: replaces the held one
    assert len(answers(sim, sim.help)) == 1
    now[0] += 31
    await sim.env.advance_time(1)
    replies = answers(sim, sim.help)
    assert len(replies) == 2
    assert replies[-1].reference is not None and replies[-1].reference.message_id == full.id


async def test_one_persons_pastes_of_different_errors_are_each_answered(sim: Sim) -> None:
    now = _clocked(sim, user=30, channel=0)
    await sim.member.send(sim.help, CACHE)  # answered at once
    other = await sim.member.send(sim.help, STATEFUL)  # another error: held, then answered
    now[0] += 31
    await sim.env.advance_time(1)
    replies = answers(sim, sim.help)
    assert len(replies) == 2 and replies[-1].reference is not None and replies[-1].reference.message_id == other.id


async def test_a_held_answer_to_a_deleted_paste_never_goes_out(sim: Sim) -> None:
    now = _clocked(sim, user=0, channel=30)
    await sim.member.send(sim.help, STATEFUL)
    second = await sim.stranger.send(sim.help, CACHE)
    await sim.stranger.delete(second)
    now[0] += 31
    await sim.env.advance_time(1)
    assert len(answers(sim, sim.help)) == 1


async def test_an_unmatched_paste_reaches_triage_whatever_the_cooldown(sim: Sim) -> None:
    _clocked(sim, user=60, channel=60)
    await sim.member.send(sim.help, STATEFUL)
    paste = await sim.member.send(sim.help, UNMATCHED)
    [event] = sim.events["paste_unmatched"]
    assert event.message_id == paste.id


async def test_pastes_beyond_the_in_flight_bound_are_counted_not_read(sim: Sim) -> None:
    cog = answers_cog(sim)
    cog.max_queued = 0  # everything overflows
    await sim.member.send(sim.help, STATEFUL)
    assert answers(sim, sim.help) == []
    assert sim.events["paste_unmatched"] == []


# Cut right after a raise statement at a line where no shipped release raises anything: nothing to match.
CUT_OFF = (
    "Traceback (most recent call last):\n"
    '  File "/home/a/spec.py", line 12, in <module>\n'
    "    out = model.generate(**inputs, assistant_model=draft)\n"
    '  File "/home/a/.venv/lib/python3.11/site-packages/transformers/generation/utils.py", line 5, in generate\n'
    "    raise ValueError(\n"
)


async def test_a_cut_off_traceback_is_asked_for_its_last_line_once_privately(sim: Sim) -> None:
    paste = await sim.member.send(sim.help, CUT_OFF)
    await sim.member.edit(paste, CUT_OFF + "\n")  # an edit that still lacks the line: not asked twice
    assert answers(sim, sim.help) == []  # nothing public
    asked = [body for body in posted_bodies(sim) if "stops before its last line" in str(body.get("content"))]
    assert len(asked) == 1
    assert asked[0]["allowed_mentions"] == {"parse": []}


async def test_a_traceback_cut_at_a_raise_a_release_has_at_that_line_is_answered_not_asked(sim: Sim) -> None:
    # generation/utils.py:1581 is where 5.24.0 raises "assisted generation is not supported with stateful models".
    await sim.member.send(sim.help, CUT_OFF.replace("line 5,", "line 1581,"))
    assert len(answers(sim, sim.help)) == 1
    assert not [body for body in posted_bodies(sim) if "stops before its last line" in str(body.get("content"))]


def test_missing_part_is_only_for_a_traceback_without_its_final_line() -> None:
    assert missing_part(extract(CUT_OFF)) is not None
    assert missing_part(extract(CUT_OFF + "ValueError: boom")) is None
    assert missing_part(extract("hello there, how do I fine-tune llama?")) is None
