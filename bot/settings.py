"""Settings, read once at start-up from the environment and ``.env`` (never at import time)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Literal

from pydantic import AliasChoices, BaseModel, Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from records.limits import MAX_INPUT_CHARS, TriageLimits

DEFAULT_DB = Path("data/tracebot.db")
DEFAULT_PASTE_HOSTS = (
    "gist.github.com",
    "gist.githubusercontent.com",
    "pastebin.com",
    "hastebin.com",
    "toptal.com",
    "www.toptal.com",
    "paste.gg",
    "mclo.gs",
)


# A URL's scheme: two characters or more, so a Windows drive ('C:/data') is still a path.
_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.-]+://")


def database_file(value: str) -> Path | str:
    """Return the database a TRACEBOT_DB or ``--db`` value names: an SQLite file, or a PostgreSQL URL (kept as text).

    Path() would read 'sqlite:///x.db' as a relative path and the database would open a directory
    named 'sqlite:' with a file in it: a URL of any other scheme is refused by name instead.
    """
    found = _URL.match(value)
    if found:
        scheme = found.group()[:-3]
        if scheme in {"postgresql", "postgres"}:
            return value
        raise ValueError(
            f"{scheme}:// URLs are not supported: give the path of an SQLite database file or a postgresql:// URL"
        )
    return Path(value)


def shard_plan(count: int | None, ids: Sequence[int] | None) -> tuple[int | None, tuple[int, ...] | None]:
    """Check a shard count and the ids one process runs; raise ValueError naming what does not fit."""
    if ids is None:
        return count, None
    if count is None:
        raise ValueError("shard ids need the number of shards: set TRACEBOT_SHARD_COUNT (or --shards)")
    if not ids:
        raise ValueError("shard ids: give at least one shard id")
    wrong = [i for i in ids if not 0 <= i < count]
    if wrong:
        raise ValueError(f"shard ids {wrong} are not shards of {count} (0 to {count - 1})")
    if len(set(ids)) != len(ids):
        raise ValueError(f"shard ids {list(ids)} name a shard twice")
    return count, tuple(ids)


class TriageSettings(BaseModel):
    """Triage settings, part of ``Settings`` (environment variables ``TRACEBOT_TRIAGE_*``)."""

    paste_chars: int = Field(default=8_000, ge=500, le=MAX_INPUT_CHARS, description="paste cut length")
    sample_chars: int = Field(default=1_500, ge=200, le=3_500, description="stored sample length")
    samples_per_group: int = Field(default=5, ge=0, le=50, description="samples kept per group")
    retention_days: int = Field(default=30, ge=1, description="samples older than this are purged")
    user_daily_pastes: int = Field(default=50, ge=1, description="pastes counted per user per day")
    user_daily_groups: int = Field(default=10, ge=1, description="new groups per user per day")
    notify_count: int = Field(default=10, ge=0, description="notice when a group reaches it (0: never)")
    notify_channel_id: int | None = Field(default=None, description="channel for triage notices")
    page_size: int = Field(default=10, ge=1, le=25, description="reports per /triage list page")
    reanswer_days: int = Field(
        default=7, ge=0, le=365, description="answer pastes this recent when their record arrives (0: never)"
    )

    def limits(self) -> TriageLimits:
        """Return the caps the repository enforces."""
        return TriageLimits(self.samples_per_group, self.user_daily_pastes, self.user_daily_groups)


class Settings(BaseSettings):
    """Every setting tracebot reads. Environment variables use the ``TRACEBOT_`` prefix."""

    model_config = SettingsConfigDict(
        env_prefix="TRACEBOT_",
        env_file=".env",
        env_file_encoding="utf-8",
        extra="ignore",
        hide_input_in_errors=True,
        env_ignore_empty=True,  # `NAME=` (as in .env.example) means "the default", not an empty value
        # TRACEBOT_TRIAGE_PASTE_CHARS fills triage.paste_chars: split once, after the section name.
        env_nested_delimiter="_",
        env_nested_max_split=1,
    )

    discord_token: SecretStr | None = Field(
        default=None, validation_alias=AliasChoices("DISCORD_TOKEN", "TRACEBOT_DISCORD_TOKEN")
    )
    db: Path | str = Field(default=DEFAULT_DB, description="SQLite database file, or a postgresql:// URL")
    dev_guild: int | None = Field(default=None, description="guild to sync commands to at start-up")
    discord_api_url: str = Field(default="https://discord.com/api/v10", description="Discord REST base URL")
    discord_gateway_url: str | None = Field(default=None, description="gateway URL (default: Discord's)")
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"
    log_format: Literal["plain", "json"] = "plain"
    max_file_bytes: int = Field(default=128 * 1024 * 1024, gt=0, description="largest record file read")
    write_wait: float = Field(default=30.0, gt=0, description="seconds a write waits for another process's lock")
    # Sharding (several processes on one PostgreSQL database): how many shards in all, and which of
    # them this process runs; unset, one process runs every shard Discord recommends (or none at all).
    shard_count: int | None = Field(default=None, ge=1, description="shards in all (unset = not sharded)")
    shard_ids: Annotated[tuple[int, ...] | None, NoDecode] = Field(
        default=None, description="shards this process runs, comma-separated (unset = all)"
    )

    # Flood control: how often the bot may answer one person, one channel, and everyone together.
    user_cooldown: float = Field(default=10.0, ge=0, description="seconds between answers to one user")
    channel_cooldown: float = Field(default=2.0, ge=0, description="seconds between answers in one channel")
    global_budget: int = Field(default=60, ge=0, description="answers allowed per global window (0 = no limit)")
    global_window: float = Field(default=60.0, gt=0, description="seconds the global budget covers")
    # A paste that arrives while a cooldown runs is matched at once and answered when it lapses; these
    # bound what waits (per channel and in all) and what is being read and matched at any moment.
    deferred_per_channel: int = Field(default=20, ge=0, description="answers waiting for a cooldown, per channel")
    deferred_total: int = Field(default=500, ge=0, description="answers waiting for a cooldown, in all")
    max_in_flight: int = Field(default=8, ge=1, description="pastes being read and matched at once")
    max_queued: int = Field(default=2000, ge=1, description="pastes waiting or being handled at once")

    # Reading pastes: attachments and paste-site links.
    max_attachment_bytes: int = Field(default=512 * 1024, gt=0, description="largest attachment read")
    max_paste_bytes: int = Field(default=512 * 1024, gt=0, description="largest paste-site text read")
    paste_timeout: float = Field(default=5.0, gt=0, description="seconds to fetch one paste link")
    link_hosts: Annotated[tuple[str, ...], NoDecode] = Field(
        default=("github.com",), description="hosts a record's source link may open as a button (comma-separated)"
    )
    paste_hosts: Annotated[tuple[str, ...], NoDecode] = Field(
        default=DEFAULT_PASTE_HOSTS, description="paste-site hosts whose links are read (comma-separated)"
    )

    # People who count as maintainers in every server (bot owners), and the liveness heartbeat.
    owner_ids: Annotated[tuple[int, ...], NoDecode] = Field(
        default=(), description="user ids treated as maintainers everywhere (comma-separated)"
    )
    heartbeat_interval: float = Field(default=30.0, ge=0, description="seconds between heartbeats (0 = off)")
    heartbeat_max_age: float = Field(default=120.0, gt=0, description="oldest heartbeat `health` accepts")
    reload_interval: float = Field(default=1.0, ge=0, description="seconds between checks for new records (0 = off)")
    metrics_port: int | None = Field(default=None, ge=1, le=65535, description="Prometheus metrics port (unset = off)")
    triage: TriageSettings = Field(default_factory=TriageSettings, description="triage (TRACEBOT_TRIAGE_*)")

    @field_validator("db", mode="before")
    @classmethod
    def _database_file(cls, value: object) -> object:
        return database_file(value) if isinstance(value, str) else value

    @field_validator("paste_hosts", "link_hosts", mode="before")
    @classmethod
    def _split_hosts(cls, value: object) -> object:
        if isinstance(value, str):
            return tuple(host.strip().lower() for host in value.split(",") if host.strip())
        return value

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _split_shards(cls, value: object) -> object:
        if isinstance(value, str):
            return tuple(part.strip() for part in value.split(",") if part.strip())
        return value

    @model_validator(mode="after")
    def _shards_fit(self) -> Settings:
        shard_plan(self.shard_count, self.shard_ids)
        return self

    @field_validator("owner_ids", mode="before")
    @classmethod
    def _split_ids(cls, value: object) -> object:
        if isinstance(value, str):
            return tuple(part.strip() for part in value.split(",") if part.strip())
        return value
