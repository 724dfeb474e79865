"""The form ``/explain`` opens for a paste too long for a command option."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import discord

MODAL_TEXT = 4000
OnText = Callable[[discord.Interaction[Any], str, bool], Awaitable[None]]


class ExplainModal(discord.ui.Modal, title="Explain an error"):
    """One paragraph field for the traceback."""

    text: discord.ui.TextInput[ExplainModal] = discord.ui.TextInput(
        label="Error or traceback",
        style=discord.TextStyle.paragraph,
        placeholder="Paste the whole traceback, from 'Traceback (most recent call last):' to the last line",
        max_length=MODAL_TEXT,
        custom_id="tracebot:explain:text",
    )

    def __init__(self, on_text: OnText, *, share: bool = False) -> None:
        super().__init__(custom_id="tracebot:explain")
        self.on_text = on_text
        self.share = share

    async def on_submit(self, interaction: discord.Interaction[Any], /) -> None:
        """Defer, then answer with what the records say about the pasted text."""
        await interaction.response.defer(ephemeral=not self.share, thinking=True)
        await self.on_text(interaction, self.text.value, self.share)
