"""Settings, read once at start-up from the environment and ``.env`` (never at import time)."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import AliasChoices, Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

DEFAULT_DB = Path("data/tracebot.db")


class Settings(BaseSettings):
    """Every setting tracebot reads. Environment variables use the ``TRACEBOT_`` prefix."""

    model_config = SettingsConfigDict(
        env_prefix="TRACEBOT_",
        env_file=".env",
        env_file_encoding="utf-8",
        extra="ignore",
        hide_input_in_errors=True,
    )

    discord_token: SecretStr | None = Field(
        default=None, validation_alias=AliasChoices("DISCORD_TOKEN", "TRACEBOT_DISCORD_TOKEN")
    )
    db: Path = Field(default=DEFAULT_DB, description="SQLite database file")
    dev_guild: int | None = Field(default=None, description="guild to sync commands to at start-up")
    discord_api_url: str = Field(default="https://discord.com/api/v10", description="Discord REST base URL")
    discord_gateway_url: str | None = Field(default=None, description="gateway URL (default: Discord's)")
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"
    log_format: Literal["plain", "json"] = "plain"
    max_file_bytes: int = Field(default=128 * 1024 * 1024, gt=0, description="largest record file read")
