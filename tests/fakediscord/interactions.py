"""Build INTERACTION_CREATE payloads and track each interaction's answer."""

from __future__ import annotations

import secrets
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tests.fakediscord.state import World

Payload = dict[str, Any]

# Interaction types and option types, from the Discord documentation.
APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 2, 3, 4, 5
OPTION_USER, OPTION_CHANNEL, OPTION_ROLE, OPTION_ATTACHMENT = 6, 7, 8, 11
_PY_OPTION_TYPES: dict[type, int] = {bool: 5, int: 4, float: 10, str: 3}


@dataclass
class FakeInteraction:
    """An interaction the fake Discord sent, and how the bot answered it."""

    id: int
    token: str
    type: int
    channel_id: int
    guild_id: int | None
    payload: Payload
    created: float = field(default_factory=time.monotonic)
    response_type: int | None = None
    original_message_id: int | None = None
    followup_ids: list[int] = field(default_factory=list)

    @property
    def acknowledged(self) -> bool:
        """Return whether the callback route has been answered."""
        return self.response_type is not None


def interaction_payload(
    world: World, app_id: int, interaction: FakeInteraction, user: Payload, data: Payload
) -> Payload:
    """Build the full INTERACTION_CREATE body for ``interaction``."""
    channel = world.channel(interaction.channel_id)
    payload: Payload = {
        "id": str(interaction.id),
        "application_id": str(app_id),
        "type": interaction.type,
        "data": data,
        "channel": channel,
        "channel_id": channel["id"],
        "token": interaction.token,
        "version": 1,
        "app_permissions": str((1 << 51) - 1),
        "locale": "en-US",
        "entitlements": [],
        "authorizing_integration_owners": {"0": str(interaction.guild_id or 0)},
        "context": 0 if interaction.guild_id else 1,
        "attachment_size_limit": 10 * 1024 * 1024,
    }
    member = world.member(interaction.guild_id, int(user["id"]))
    if interaction.guild_id is not None and member is not None:
        payload |= {"guild_id": str(interaction.guild_id), "guild_locale": "en-US"}
        payload["guild"] = {"id": str(interaction.guild_id), "locale": "en-US", "features": []}
        # Discord sends the member's computed permissions; bots check them at run time.
        permissions = world.member_permissions(interaction.guild_id, int(user["id"]))
        payload["member"] = member | {"permissions": str(permissions)}
    else:
        payload["user"] = user
    return payload


def find_command(world: World, name: str, kind: int, guild_id: int | None) -> Payload | None:
    """Find a registered command by name and type, guild commands first."""
    for scope in (guild_id, None):
        for command in world.commands.get(scope, []):
            if command["name"] == name and command.get("type", 1) == kind:
                return command
    return None


def build_options(
    world: World,
    command: Payload | None,
    options: Mapping[str, Any] | Sequence[Payload],
    guild_id: int | None,
) -> tuple[list[Payload], Payload]:
    """Turn ``{"name": value}`` into option payloads (types from the registered command) and ``resolved``."""
    if not isinstance(options, Mapping):
        return list(options), {}
    declared = {o["name"]: o for o in (command or {}).get("options", [])}
    resolved: Payload = {}
    built = []
    for name, value in options.items():
        kind = declared.get(name, {}).get("type") or _PY_OPTION_TYPES.get(type(value), 3)
        built.append({"name": name, "type": kind, "value": _resolve(world, guild_id, kind, value, resolved)})
    return built, resolved


def _resolve(world: World, guild_id: int | None, kind: int, value: Any, resolved: Payload) -> Any:
    """Add users, channels and roles named by an option to ``resolved``; return the wire value."""
    if kind not in (OPTION_USER, OPTION_CHANNEL, OPTION_ROLE):
        return value
    snowflake = int(value["id"]) if isinstance(value, dict) else int(value)
    if kind == OPTION_USER:
        resolved.setdefault("users", {})[str(snowflake)] = world.users[snowflake]
        member = world.member(guild_id, snowflake)
        if member is not None:
            resolved.setdefault("members", {})[str(snowflake)] = {k: v for k, v in member.items() if k != "user"}
    elif kind == OPTION_CHANNEL:
        channel = world.channel(snowflake)
        resolved.setdefault("channels", {})[str(snowflake)] = channel | {"permissions": str((1 << 51) - 1)}
    else:
        role = next(r for r in world.roles[guild_id or 0] if r["id"] == str(snowflake))
        resolved.setdefault("roles", {})[str(snowflake)] = role
    return str(snowflake)


def focus(options: list[Payload], focused: str) -> list[Payload]:
    """Mark one option as the focused one, as an autocomplete interaction does."""
    marked = []
    for option in options:
        copy = dict(option)
        if copy["name"] == focused:
            copy |= {"focused": True, "value": str(copy.get("value", ""))}
        marked.append(copy)
    return marked


def find_component(components: list[Payload], custom_id: str) -> Payload | None:
    """Find a component by custom id anywhere in a component tree."""
    for component in components:
        if component.get("custom_id") == custom_id:
            return component
        children = list(component.get("components") or [])
        children += [component[key] for key in ("component", "accessory") if isinstance(component.get(key), dict)]
        found = find_component(children, custom_id)
        if found is not None:
            return found
    return None


def modal_answer(components: list[Payload], values: Mapping[str, str]) -> list[Payload]:
    """Mirror a modal's layout (rows or labels) with the submitted text input values."""
    answer = []
    for component in components:
        if component.get("type") == 1:
            inner = [_submitted(child, values) for child in component.get("components", [])]
            answer.append({"type": 1, "components": inner})
        elif component.get("type") == 18 and isinstance(component.get("component"), dict):
            answer.append(
                {
                    "type": 18,
                    "id": component.get("id", 0),
                    "component": _submitted(component["component"], values),
                }
            )
    return answer


def _submitted(component: Payload, values: Mapping[str, str]) -> Payload:
    custom_id = component.get("custom_id", "")
    if component.get("type") == 4:
        return {
            "type": 4,
            "id": component.get("id", 0),
            "custom_id": custom_id,
            "value": values.get(custom_id, ""),
        }
    return {
        "type": component.get("type"),
        "id": component.get("id", 0),
        "custom_id": custom_id,
        "values": list(values.get(custom_id, [])),
    }


def callback_message_type(interaction: FakeInteraction) -> int:
    """Return the message type Discord gives an interaction's response message."""
    return 20 if interaction.type == APPLICATION_COMMAND else 0


def fresh_token() -> str:
    """Return an interaction token like Discord's (opaque, URL-safe)."""
    return "aW50ZXJhY3Rpb24" + secrets.token_urlsafe(48)
