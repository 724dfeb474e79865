"""A Discord-compatible server on loopback for end-to-end tests of a real discord.py client.

``FakeDiscord`` serves the REST API under ``/api/v10`` and the gateway at ``/gateway``;
``fixtures`` holds the ``fake_discord`` and ``discord_routed`` pytest fixtures.
"""

from tests.fakediscord.interactions import FakeInteraction
from tests.fakediscord.recording import InteractionResponse, RecordedRequest, Violation
from tests.fakediscord.server import DEFAULT_TOKEN, FakeDiscord

__all__ = [
    "DEFAULT_TOKEN",
    "FakeDiscord",
    "FakeInteraction",
    "InteractionResponse",
    "RecordedRequest",
    "Violation",
]
