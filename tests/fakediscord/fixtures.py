"""Pytest fixtures for the fake Discord, and the switch that points discord.py at it.

Import the fixtures from ``tests/conftest.py``::

    from tests.fakediscord.fixtures import discord_routed, fake_discord  # noqa: F401
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Iterator

import pytest
import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route

from tests.fakediscord.server import FakeDiscord


def point_discord_at(api_url: str, gateway_url: str) -> None:
    """Send discord.py's REST calls to ``api_url`` and its first gateway connection to ``gateway_url``."""
    # Route.BASE is read whenever a Route is built; DEFAULT_GATEWAY is where Client.connect
    # opens its first socket (2.7 does not ask /gateway/bot unless sharding automatically).
    Route.BASE = api_url.rstrip("/")
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


@contextlib.contextmanager
def discord_pointed_at(fake: FakeDiscord) -> Iterator[FakeDiscord]:
    """Point discord.py at ``fake`` for the duration of the block, then restore Discord's URLs."""
    saved = Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY
    point_discord_at(fake.api_url, fake.gateway_url)
    try:
        yield fake
    finally:
        Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY = saved


@pytest.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    """Yield a started fake Discord on a free loopback port; stop it afterwards."""
    async with FakeDiscord() as fake:
        yield fake


@pytest.fixture
def discord_routed(fake_discord: FakeDiscord) -> Iterator[FakeDiscord]:
    """Yield ``fake_discord`` with discord.py pointed at it (restored afterwards)."""
    with discord_pointed_at(fake_discord) as fake:
        yield fake
