"""Per-server configuration (allow-list, channel modes, maintainer role, reply style) and bot status.

``GuildRepository`` keeps each server's configuration in memory once read: every message the bot
sees needs it, and every change goes through this same repository, which forgets its copy.
``StatusRepository`` holds the heartbeat the running bot writes and ``tracebot health`` reads.
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from records.errors import StorageError
from storage.database import Database
from storage.records import utc_now

Mode = Literal["auto", "mention", "off"]
ReplyStyle = Literal["reply", "thread"]
ThreadPolicy = Literal["opener", "everyone"]
HEARTBEAT = "heartbeat"
HEALTH_PROBE = "health_probe"


class GuildConfig(BaseModel):
    """How tracebot behaves in one server. The defaults apply to a server nobody configured."""

    model_config = ConfigDict(frozen=True)

    guild_id: int
    maintainer_role_id: int | None = None
    reply_style: ReplyStyle = "reply"
    thread_policy: ThreadPolicy = "opener"
    allowed_channels: frozenset[int] = frozenset()  # empty: every channel the bot can read
    channel_modes: dict[int, Mode] = Field(default_factory=dict)  # unlisted channels are "auto"


class Heartbeat(BaseModel):
    """The last heartbeat of the running bot."""

    at: str
    latency_ms: float | None = None
    guilds: int | None = None
    pid: int | None = None


class _Unset:
    """Marks a keyword argument the caller did not pass (None is a real value: "no role")."""


UNSET: Any = _Unset()


class GuildRepository:
    """Reads and changes server and channel settings."""

    def __init__(self, db: Database) -> None:
        self._db = db
        self._cache: dict[int, GuildConfig] = {}

    async def config(self, guild_id: int) -> GuildConfig:
        """Return a server's configuration (the defaults when it has none)."""
        cached = self._cache.get(guild_id)
        if cached is None:
            cached = self._cache[guild_id] = await self._load(guild_id)
        return cached

    async def update_guild(
        self,
        guild_id: int,
        *,
        maintainer_role_id: int | None = UNSET,
        reply_style: ReplyStyle | None = None,
        thread_policy: ThreadPolicy | None = None,
    ) -> GuildConfig:
        """Change server-wide settings (arguments left out keep their value); return the result."""
        current = await self.config(guild_id)
        role = current.maintainer_role_id if maintainer_role_id is UNSET else maintainer_role_id
        async with self._db.transaction() as conn:
            await conn.execute(
                "INSERT INTO guild_settings (guild_id, maintainer_role_id, reply_style, thread_policy, "
                "updated_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET "
                "maintainer_role_id = excluded.maintainer_role_id, reply_style = excluded.reply_style, "
                "thread_policy = excluded.thread_policy, updated_at = excluded.updated_at",
                (
                    guild_id,
                    role,
                    reply_style or current.reply_style,
                    thread_policy or current.thread_policy,
                    utc_now(),
                ),
            )
        return await self._reload(guild_id)

    async def update_channel(
        self, guild_id: int, channel_id: int, *, allowed: bool | None = None, mode: Mode | None = UNSET
    ) -> GuildConfig:
        """Put a channel on or off the allow-list and/or set its mode (None resets it to the default)."""
        current = await self.config(guild_id)
        listed = channel_id in current.allowed_channels if allowed is None else allowed
        chosen = current.channel_modes.get(channel_id) if mode is UNSET else mode
        async with self._db.transaction() as conn:
            if not listed and chosen is None:
                sql = "DELETE FROM channel_settings WHERE guild_id = ? AND channel_id = ?"
                await conn.execute(sql, (guild_id, channel_id))
            else:
                await conn.execute(
                    "INSERT INTO channel_settings (guild_id, channel_id, allowed, mode, updated_at) "
                    "VALUES (?, ?, ?, ?, ?) ON CONFLICT (guild_id, channel_id) DO UPDATE SET "
                    "allowed = excluded.allowed, mode = excluded.mode, updated_at = excluded.updated_at",
                    (guild_id, channel_id, int(listed), chosen, utc_now()),
                )
        return await self._reload(guild_id)

    async def _reload(self, guild_id: int) -> GuildConfig:
        self._cache.pop(guild_id, None)
        return await self.config(guild_id)

    async def _load(self, guild_id: int) -> GuildConfig:
        guild = await self._db.fetch_one(
            "SELECT maintainer_role_id, reply_style, thread_policy FROM guild_settings WHERE guild_id = ?",
            (guild_id,),
        )
        channels = await self._db.fetch(
            "SELECT channel_id, allowed, mode FROM channel_settings WHERE guild_id = ?", (guild_id,)
        )
        fields: dict[str, Any] = {"guild_id": guild_id} | (dict(guild) if guild is not None else {})
        fields["allowed_channels"] = frozenset(int(row["channel_id"]) for row in channels if row["allowed"])
        fields["channel_modes"] = {int(row["channel_id"]): row["mode"] for row in channels if row["mode"] is not None}
        return GuildConfig.model_validate(fields)


class StatusRepository:
    """The running bot's heartbeat, and a write probe for health checks."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def beat(self, *, latency_ms: float | None, guilds: int, pid: int) -> None:
        """Record that the bot is connected now."""
        value = json.dumps({"latency_ms": latency_ms, "guilds": guilds, "pid": pid})
        await self._put(HEARTBEAT, value)

    async def heartbeat(self) -> Heartbeat | None:
        """Return the last heartbeat, if the bot ever wrote one."""
        row = await self._db.fetch_one("SELECT value, updated_at FROM bot_status WHERE key = ?", (HEARTBEAT,))
        if row is None:
            return None
        return Heartbeat.model_validate({**json.loads(row["value"]), "at": row["updated_at"]})

    async def probe_write(self) -> None:
        """Commit a small write (the time of this check), proving the database is writable."""
        try:
            await self._put(HEALTH_PROBE, json.dumps({"checked": True}))
        except sqlite3.Error as exc:
            raise StorageError(f"{self._db.path}: the database is not writable: {exc}") from None

    async def _put(self, key: str, value: str) -> None:
        async with self._db.transaction() as conn:
            await conn.execute(
                "INSERT INTO bot_status (key, value, updated_at) VALUES (?, ?, ?) ON CONFLICT (key) "
                "DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
                (key, value, utc_now()),
            )
