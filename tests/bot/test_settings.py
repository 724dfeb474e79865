"""Every setting is documented in ``.env.example``, and that file is a valid ``.env``."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from pydantic import BaseModel, ValidationError

from bot.settings import Settings, database_file
from tests.conftest import ROOT

ENV_EXAMPLE = ROOT / ".env.example"


def env_name(field: str) -> str:
    """Return the environment variable of a settings field."""
    return "DISCORD_TOKEN" if field == "discord_token" else f"TRACEBOT_{field.upper()}"


def setting_names() -> list[str]:
    """Every setting as its env-style field name; a section (triage) contributes its own fields."""
    names = []
    for name, info in Settings.model_fields.items():
        section = info.annotation
        if isinstance(section, type) and issubclass(section, BaseModel):
            names += [f"{name}_{sub}" for sub in section.model_fields]
        else:
            names.append(name)
    return sorted(names)


@pytest.mark.parametrize("field", setting_names())
def test_every_setting_is_in_env_example(field: str) -> None:
    lines = ENV_EXAMPLE.read_text().splitlines()
    assert any(line.startswith(f"{env_name(field)}=") for line in lines), env_name(field)


def test_env_example_loads_as_a_dotenv_with_the_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in list(os.environ):
        if name.startswith(("TRACEBOT_", "DISCORD_")):
            monkeypatch.delenv(name)
    settings = Settings(_env_file=ENV_EXAMPLE)
    assert settings.model_dump() == Settings(_env_file=None).model_dump()


@pytest.mark.parametrize("url", ["mysql://user@host:5432/db", "sqlite:///data/x.db", "file://x.db"])
def test_a_database_url_is_refused_naming_its_scheme(url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRACEBOT_DB", url)
    with pytest.raises(ValidationError, match=rf"{url.partition(':')[0]}:// URLs are not supported"):
        Settings(_env_file=None)


def test_a_postgresql_url_is_kept_as_text(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRACEBOT_DB", "postgresql://bot@db:5432/tracebot")
    assert Settings(_env_file=None).db == "postgresql://bot@db:5432/tracebot"


@pytest.mark.parametrize("path", ["data/tracebot.db", "/srv/tracebot.db", "C:/data/tracebot.db", "a:b.db"])
def test_a_database_path_is_taken_as_given(path: str) -> None:
    assert database_file(path) == Path(path)


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"TRACEBOT_SHARD_IDS": "0,1"}, "shard ids need the number of shards"),
        ({"TRACEBOT_SHARD_COUNT": "2", "TRACEBOT_SHARD_IDS": "1,2"}, r"shard ids \[2\] are not shards of 2 \(0 to 1\)"),
        ({"TRACEBOT_SHARD_COUNT": "4", "TRACEBOT_SHARD_IDS": "1,1"}, r"name a shard twice"),
        ({"TRACEBOT_SHARD_COUNT": "0"}, "shard_count"),
        ({"TRACEBOT_SHARD_COUNT": "4", "TRACEBOT_SHARD_IDS": "one"}, "shard_ids"),
    ],
)
def test_shard_settings_that_do_not_fit_are_refused_by_name(
    env: dict[str, str], message: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    with pytest.raises(ValidationError, match=message):
        Settings(_env_file=None)


def test_shard_settings_are_read_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRACEBOT_SHARD_COUNT", "4")
    monkeypatch.setenv("TRACEBOT_SHARD_IDS", "2, 3")
    settings = Settings(_env_file=None)
    assert (settings.shard_count, settings.shard_ids) == (4, (2, 3))
