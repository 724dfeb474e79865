"""The bot's replies (which message answers which paste) and the votes people give answers."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict

from storage.connection import Row
from storage.database import Database
from storage.records import utc_now

_COLUMNS = "message_id, channel_id, guild_id, author_id, reply_id, reply_channel_id, status, record_ids"


class ReplyLink(BaseModel):
    """A paste and the bot's reply to it: what the reply shows (status and record ids)."""

    model_config = ConfigDict(frozen=True)

    message_id: int
    channel_id: int
    guild_id: int | None
    author_id: int
    reply_id: int
    reply_channel_id: int
    status: str
    record_ids: tuple[str, ...]


class VoteCount(BaseModel):
    """How people rated the answers that showed one record."""

    record_id: str
    helpful: int = 0
    not_helpful: int = 0


class ReplyRepository:
    """Reads and writes reply links and votes."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def get(self, message_id: int) -> ReplyLink | None:
        """Return the reply to a paste, if the bot answered it."""
        return await self._one(f"SELECT {_COLUMNS} FROM replies WHERE message_id = ?", message_id)

    async def by_reply(self, reply_id: int) -> ReplyLink | None:
        """Return the link whose reply is this message."""
        return await self._one(f"SELECT {_COLUMNS} FROM replies WHERE reply_id = ?", reply_id)

    async def save(self, link: ReplyLink) -> None:
        """Insert or replace the reply to a paste."""
        now = utc_now()
        async with self._db.transaction() as conn:
            await conn.execute(
                f"INSERT INTO replies ({_COLUMNS}, created_at, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (message_id) DO UPDATE SET reply_id = excluded.reply_id, "
                "reply_channel_id = excluded.reply_channel_id, status = excluded.status, "
                "record_ids = excluded.record_ids, updated_at = excluded.updated_at",
                (*_row(link), now, now),
            )

    async def forget(self, message_id: int) -> ReplyLink | None:
        """Remove the link of a paste; return it if there was one."""
        return await self._delete("message_id", message_id)

    async def forget_reply(self, reply_id: int) -> ReplyLink | None:
        """Remove the link whose reply is this message; return it if there was one."""
        return await self._delete("reply_id", reply_id)

    async def vote(self, *, reply_id: int, user_id: int, record_id: str, helpful: bool, guild_id: int | None) -> None:
        """Record (or change) one person's vote on a record: one vote per person per record, whatever the message."""
        async with self._db.transaction() as conn:
            await conn.execute(
                "INSERT INTO votes (reply_id, user_id, record_id, helpful, guild_id, voted_at) "
                "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (user_id, record_id) DO UPDATE SET "
                "helpful = excluded.helpful, reply_id = excluded.reply_id, guild_id = excluded.guild_id, "
                "voted_at = excluded.voted_at",
                (reply_id, user_id, record_id, int(helpful), guild_id, utc_now()),
            )

    async def vote_count(self, record_id: str) -> VoteCount:
        """Return the helpful and not-helpful votes on a record."""
        row = await self._db.fetch_one(
            "SELECT coalesce(sum(helpful), 0) AS helpful, coalesce(sum(1 - helpful), 0) AS not_helpful "
            "FROM votes WHERE record_id = ?",
            (record_id,),
        )
        assert row is not None  # an aggregate always returns one row
        return VoteCount(record_id=record_id, helpful=int(row["helpful"]), not_helpful=int(row["not_helpful"]))

    async def _delete(self, column: str, value: int) -> ReplyLink | None:
        # `column` is one of our own column names, never user input.
        sql = f"DELETE FROM replies WHERE {column} = ? RETURNING {_COLUMNS}"
        async with self._db.transaction() as conn:
            row = await conn.fetch_one(sql, (value,))
        return _link(row) if row is not None else None

    async def _one(self, sql: str, value: int) -> ReplyLink | None:
        row = await self._db.fetch_one(sql, (value,))
        return _link(row) if row is not None else None


def _row(link: ReplyLink) -> tuple[Any, ...]:
    return (
        link.message_id,
        link.channel_id,
        link.guild_id,
        link.author_id,
        link.reply_id,
        link.reply_channel_id,
        link.status,
        " ".join(link.record_ids),
    )


def _link(row: Row) -> ReplyLink:
    fields = dict(row)
    fields["record_ids"] = tuple(str(fields["record_ids"]).split())
    return ReplyLink.model_validate(fields)
