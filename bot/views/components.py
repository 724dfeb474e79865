"""The answer's persistent components: Helpful, Not helpful, Delete and the record picker.

Each is a ``DynamicItem``: its state lives in its custom id (``tracebot:vote:up:<record_id>``,
``tracebot:delete:<author_id>``, ``tracebot:pick:<author_id>``), so a click works after a restart
without the bot remembering the view. Clicks are handed to the ``ComponentActions`` the client
carries (the answers feature provides them); the items themselves only parse and delegate.
"""

from __future__ import annotations

import logging
import re
from typing import Any, Protocol, Self

import discord

from bot.constants import NO_MENTIONS

log = logging.getLogger(__name__)

CUSTOM_ID_LIMIT = 100
VOTE_PREFIX = "tracebot:vote:"
BY_MESSAGE = "@"  # stands for "the record this reply shows" when an id is too long for a custom id


class ComponentActions(Protocol):
    """What the answer components do when clicked."""

    async def vote(self, interaction: discord.Interaction[Any], record_id: str, helpful: bool) -> None:
        """Count a Helpful or Not helpful vote."""

    async def delete(self, interaction: discord.Interaction[Any], author_id: int) -> None:
        """Delete an answer (its paste's author or a moderator only)."""

    async def pick(self, interaction: discord.Interaction[Any], author_id: int, record_id: str) -> None:
        """Show the record chosen among an ambiguous paste's answers."""


async def _actions(interaction: discord.Interaction[Any]) -> ComponentActions | None:
    actions: ComponentActions | None = getattr(interaction.client, "component_actions", None)
    if actions is None:
        log.warning("component %s clicked but no actions are loaded", interaction.data)
        await interaction.response.send_message(
            "This button is not available right now.", ephemeral=True, allowed_mentions=NO_MENTIONS
        )
    return actions


def vote_custom_id(record_id: str, helpful: bool) -> str:
    """Return the custom id of a vote button (the record id, or ``@`` when it does not fit)."""
    custom_id = f"{VOTE_PREFIX}{'up' if helpful else 'down'}:{record_id}"
    return custom_id if len(custom_id) <= CUSTOM_ID_LIMIT else custom_id[: custom_id.rindex(":") + 1] + BY_MESSAGE


class VoteButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"tracebot:vote:(?P<kind>up|down):(?P<record>[A-Za-z0-9_.:@-]+)",
):
    """Helpful / Not helpful: counts one vote per person per answer for the record shown."""

    def __init__(self, record_id: str, helpful: bool) -> None:
        self.record_id, self.helpful = record_id, helpful
        super().__init__(
            discord.ui.Button(
                label="Helpful" if helpful else "Not helpful",
                emoji="\N{THUMBS UP SIGN}" if helpful else "\N{THUMBS DOWN SIGN}",
                style=discord.ButtonStyle.success if helpful else discord.ButtonStyle.secondary,
                custom_id=vote_custom_id(record_id, helpful),
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        """Rebuild the button from its custom id."""
        return cls(match["record"], match["kind"] == "up")

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Count the vote."""
        actions = await _actions(interaction)
        if actions is not None:
            await actions.vote(interaction, self.record_id, self.helpful)


class DeleteButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"tracebot:delete:(?P<author>[0-9]{1,20})",
):
    """Delete: removes the answer; only the paste's author or a moderator may."""

    def __init__(self, author_id: int) -> None:
        self.author_id = author_id
        super().__init__(
            discord.ui.Button(
                label="Delete",
                emoji="\N{WASTEBASKET}",
                style=discord.ButtonStyle.danger,
                custom_id=f"tracebot:delete:{author_id}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        """Rebuild the button from its custom id."""
        return cls(int(match["author"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Delete the answer if the clicker may."""
        actions = await _actions(interaction)
        if actions is not None:
            await actions.delete(interaction, self.author_id)


class PickSelect(
    discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]],
    template=r"tracebot:pick:(?P<author>[0-9]{1,20})",
):
    """The menu under an ambiguous answer: choosing a record shows its explanation."""

    def __init__(self, author_id: int, options: list[discord.SelectOption] | None = None) -> None:
        self.author_id = author_id
        super().__init__(
            discord.ui.Select(
                custom_id=f"tracebot:pick:{author_id}",
                placeholder="Which one is it? Pick a record to see its explanation",
                options=options or [discord.SelectOption(label="(none)", value="-")],
                min_values=1,
                max_values=1,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        """Rebuild the menu from its custom id (the options come back with the interaction)."""
        options = item.options if isinstance(item, discord.ui.Select) else None
        return cls(int(match["author"]), options)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Show the chosen record."""
        actions = await _actions(interaction)
        if actions is not None and self.item.values:
            await actions.pick(interaction, self.author_id, self.item.values[0])


PERSISTENT_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (VoteButton, DeleteButton, PickSelect)
