"""storage/replies.py: reply links and votes."""

from __future__ import annotations

from storage.database import Database
from storage.replies import ReplyLink, ReplyRepository

LINK = ReplyLink(
    message_id=1, channel_id=2, guild_id=3, author_id=4, reply_id=5, reply_channel_id=2, status="matched",
    record_ids=("abc",),
)  # fmt: skip


async def test_reply_links_round_trip_and_are_forgotten_either_way(db: Database) -> None:
    repo = ReplyRepository(db)
    await repo.save(LINK)
    assert await repo.get(1) == LINK and await repo.by_reply(5) == LINK
    await repo.save(LINK.model_copy(update={"status": "ambiguous", "record_ids": ("a", "b")}))
    changed = await repo.get(1)
    assert changed is not None and changed.record_ids == ("a", "b")
    assert await repo.forget_reply(5) is not None and await repo.get(1) is None
    await repo.save(LINK)
    assert await repo.forget(1) == LINK and await repo.forget(1) is None


async def test_votes_count_once_per_person_and_can_change(db: Database) -> None:
    repo = ReplyRepository(db)
    for user, helpful in ((1, True), (2, True), (1, False), (3, False)):
        await repo.vote(reply_id=5, user_id=user, record_id="abc", helpful=helpful, guild_id=3)
    count = await repo.vote_count("abc")
    assert (count.helpful, count.not_helpful) == (1, 2)
    assert (await repo.vote_count("none")).helpful == 0


async def test_a_vote_counts_once_per_person_whatever_message_carries_the_buttons(db: Database) -> None:
    repo = ReplyRepository(db)
    for reply_id in range(10, 20):  # ten ephemeral /error answers, ten Helpful clicks by one user
        await repo.vote(reply_id=reply_id, user_id=7, record_id="abc", helpful=True, guild_id=3)
    await repo.vote(reply_id=21, user_id=8, record_id="abc", helpful=True, guild_id=3)
    assert (await repo.vote_count("abc")).helpful == 2
    await repo.vote(reply_id=22, user_id=7, record_id="abc", helpful=False, guild_id=3)  # changed their mind
    count = await repo.vote_count("abc")
    assert (count.helpful, count.not_helpful) == (1, 1)
