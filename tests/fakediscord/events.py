"""What a test does as "the users": post, edit and delete messages; run commands; click; submit modals.

Each helper changes the world the way Discord would and dispatches the matching gateway event.
"""

from __future__ import annotations

import mimetypes
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from tests.fakediscord import interactions as ix
from tests.fakediscord.messages import EPHEMERAL, apply_edit, attach_reference

if TYPE_CHECKING:
    from tests.fakediscord.gateway import Gateway
    from tests.fakediscord.recording import Recorder
    from tests.fakediscord.state import World

Payload = dict[str, Any]
UserRef = Payload | int
AttachmentSpec = tuple[str, bytes | str]
MODAL = 9


def _content_type(filename: str) -> str:
    guessed = mimetypes.guess_type(filename)[0] or "application/octet-stream"
    return f"{guessed}; charset=utf-8" if guessed.startswith("text/") else guessed


class EventsMixin:
    """Event helpers of :class:`~tests.fakediscord.server.FakeDiscord`."""

    world: World
    gateway: Gateway
    recorder: Recorder
    interactions: dict[int, ix.FakeInteraction]

    if TYPE_CHECKING:  # read-only properties of FakeDiscord, which the events read

        @property
        def bot_user(self) -> Payload: ...
        @property
        def member_user(self) -> Payload: ...
        @property
        def application_id(self) -> int: ...
        @property
        def text_channel_id(self) -> int: ...

    async def dispatch(self, event: str, data: Payload, *, silent: bool = False) -> int:
        """Send a gateway event to every connected client (unless ``silent``); return how many got it."""
        delivered = 0 if silent else await self.gateway.dispatch(event, data)
        await self.recorder.notify()
        return delivered

    async def publish(self, message: Payload, *, silent: bool = False) -> Payload:
        """Store a message and dispatch MESSAGE_CREATE (``silent`` for ephemeral ones)."""
        self.world.store_message(message)
        await self.dispatch("MESSAGE_CREATE", message, silent=silent)
        return message

    async def remove_message(self, message_id: int) -> None:
        """Forget a message and dispatch MESSAGE_DELETE."""
        message = self.world.messages.pop(message_id)
        event = {"id": message["id"], "channel_id": message["channel_id"]}
        if message.get("guild_id"):
            event["guild_id"] = message["guild_id"]
        await self.dispatch("MESSAGE_DELETE", event, silent=bool(message["flags"] & EPHEMERAL))

    async def create_message(
        self,
        channel_id: int,
        author: UserRef,
        content: str = "",
        *,
        attachments: Sequence[AttachmentSpec] = (),
        mentions: Iterable[UserRef] = (),
        embeds: Sequence[Payload] = (),
        reply_to: int | None = None,
    ) -> Payload:
        """Post a message as ``author`` and dispatch MESSAGE_CREATE; return the stored message."""
        message = self.world.new_message(channel_id, self.world.user(author), content)
        message["embeds"] = list(embeds)
        message["attachments"] = [
            self.world.store_file(
                channel_id, name, data.encode() if isinstance(data, str) else data, _content_type(name)
            )
            for name, data in attachments
        ]
        extra = [int(self.world.user(user)["id"]) for user in mentions]
        self.world.fill_mentions(message, self.world.guild_id_of(channel_id), extra)
        if reply_to is not None:
            attach_reference(self.world, message, {"message_id": str(reply_to), "channel_id": str(channel_id)})
        return await self.publish(message)

    async def edit_message(
        self, message_id: int, *, content: str | None = None, embeds: Sequence[Payload] | None = None
    ) -> Payload:
        """Edit a stored message and dispatch MESSAGE_UPDATE with the full message."""
        body: Payload = {}
        if content is not None:
            body["content"] = content
        if embeds is not None:
            body["embeds"] = list(embeds)
        message = apply_edit(self.world, self.world.messages[message_id], body, [])
        await self.dispatch("MESSAGE_UPDATE", message)
        return message

    async def delete_message(self, message_id: int) -> None:
        """Delete a stored message and dispatch MESSAGE_DELETE."""
        await self.remove_message(message_id)

    async def send_interaction(
        self,
        kind: int,
        data: Payload,
        *,
        user: UserRef | None = None,
        channel_id: int | None = None,
        message: Payload | None = None,
    ) -> ix.FakeInteraction:
        """Dispatch a raw INTERACTION_CREATE of ``kind`` with ``data``; return the interaction."""
        channel_id = channel_id or self.text_channel_id
        interaction = ix.FakeInteraction(
            id=self.world.ids.next(),
            token=ix.fresh_token(),
            type=kind,
            channel_id=channel_id,
            guild_id=self.world.guild_id_of(channel_id),
            payload={},
        )
        interaction.payload = ix.interaction_payload(
            self.world, self.application_id, interaction, self.world.user(user or self.member_user), data
        )
        if message is not None:
            interaction.payload["message"] = message
        self.interactions[interaction.id] = interaction
        await self.dispatch("INTERACTION_CREATE", interaction.payload)
        return interaction

    def _command(self, name: str, kind: int, channel_id: int | None) -> tuple[Payload, Payload | None, int | None]:
        """Return the interaction ``data`` stub, the registered command (if any) and the guild id."""
        guild_id = self.world.guild_id_of(channel_id or self.text_channel_id)
        command = ix.find_command(self.world, name, kind, guild_id)
        data: Payload = {
            "id": command["id"] if command else str(self.world.ids.next()),
            "name": name,
            "type": kind,
        }
        if command and command.get("guild_id"):
            data["guild_id"] = command["guild_id"]
        return data, command, guild_id

    async def send_slash_command(
        self,
        name: str,
        options: Mapping[str, Any] | Sequence[Payload] = (),
        *,
        user: UserRef | None = None,
        channel_id: int | None = None,
    ) -> ix.FakeInteraction:
        """Run ``/name`` with ``{"option": value}`` (types from the registered command) or raw options."""
        data, command, guild_id = self._command(name, 1, channel_id)
        data["options"], resolved = ix.build_options(self.world, command, options or {}, guild_id)
        if resolved:
            data["resolved"] = resolved
        return await self.send_interaction(ix.APPLICATION_COMMAND, data, user=user, channel_id=channel_id)

    async def send_autocomplete(
        self,
        name: str,
        options: Mapping[str, Any],
        focused: str,
        *,
        user: UserRef | None = None,
        channel_id: int | None = None,
    ) -> ix.FakeInteraction:
        """Ask for autocomplete choices of option ``focused`` while typing ``/name``."""
        data, command, _ = self._command(name, 1, channel_id)
        built, _ = ix.build_options(self.world, command, options, None)
        data["options"] = ix.focus(built, focused)
        return await self.send_interaction(ix.AUTOCOMPLETE, data, user=user, channel_id=channel_id)

    async def send_message_command(
        self, name: str, message_id: int, *, user: UserRef | None = None
    ) -> ix.FakeInteraction:
        """Run the message context-menu command ``name`` on a stored message."""
        target = self.world.messages[message_id]
        channel_id = int(target["channel_id"])
        data, _, _ = self._command(name, 3, channel_id)
        data |= {"target_id": target["id"], "resolved": {"messages": {target["id"]: target}}}
        return await self.send_interaction(ix.APPLICATION_COMMAND, data, user=user, channel_id=channel_id)

    async def send_user_command(self, name: str, target: UserRef, *, user: UserRef | None = None) -> ix.FakeInteraction:
        """Run the user context-menu command ``name`` on ``target``."""
        data, _, guild_id = self._command(name, 2, None)
        target_id = int(self.world.user(target)["id"])
        declared = {"options": [{"name": "target", "type": ix.OPTION_USER}]}
        _, resolved = ix.build_options(self.world, declared, {"target": target_id}, guild_id)
        data |= {"target_id": str(target_id), "resolved": resolved}
        return await self.send_interaction(ix.APPLICATION_COMMAND, data, user=user)

    async def _component_interaction(
        self, message_id: int, custom_id: str, extra: Payload, user: UserRef | None
    ) -> ix.FakeInteraction:
        message = self.world.messages[message_id]
        component = ix.find_component(message["components"], custom_id)
        if component is None:
            raise ValueError(f"message {message_id} has no component with custom_id {custom_id!r}")
        data = {"custom_id": custom_id, "component_type": component["type"], **extra}
        channel_id = int(message["channel_id"])
        return await self.send_interaction(
            ix.MESSAGE_COMPONENT, data, user=user, channel_id=channel_id, message=message
        )

    async def click_button(self, message_id: int, custom_id: str, *, user: UserRef | None = None) -> ix.FakeInteraction:
        """Click the button ``custom_id`` on a stored message."""
        return await self._component_interaction(message_id, custom_id, {}, user)

    async def choose(
        self, message_id: int, custom_id: str, values: Sequence[str], *, user: UserRef | None = None
    ) -> ix.FakeInteraction:
        """Pick ``values`` in the select menu ``custom_id`` on a stored message."""
        return await self._component_interaction(message_id, custom_id, {"values": list(values)}, user)

    async def submit_modal(
        self,
        values: Mapping[str, Any],
        *,
        opened_by: ix.FakeInteraction | None = None,
        user: UserRef | None = None,
    ) -> ix.FakeInteraction:
        """Submit the modal the bot showed (for ``opened_by``, else the latest) as ``{custom_id: value}``."""
        shown = [
            r for r in self.recorder.interaction_responses
            if r.type == MODAL and (opened_by is None or r.interaction_id == opened_by.id)
        ]  # fmt: skip
        if not shown:
            raise ValueError("the bot has not shown a modal")
        modal, origin = shown[-1].data, self.interactions[shown[-1].interaction_id]
        data = {"custom_id": modal["custom_id"], "components": ix.modal_answer(modal["components"], values)}
        message = origin.payload.get("message")
        return await self.send_interaction(
            ix.MODAL_SUBMIT, data, user=user, channel_id=origin.channel_id, message=message
        )
