"""Turn message bodies (JSON or ``payload_json`` multipart) into stored messages."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tests.fakediscord.payloads import now_iso
from tests.fakediscord.state import World

Payload = dict[str, Any]
EPHEMERAL = 1 << 6
SUPPRESS_EMBEDS = 1 << 2
_EDITABLE_FLAGS = SUPPRESS_EMBEDS | (1 << 15)
_COPIED_KEYS = ("tts", "nonce", "poll", "sticker_ids")


@dataclass(frozen=True)
class Upload:
    """A file part of a multipart request (``files[n]``)."""

    field: str
    filename: str
    data: bytes
    content_type: str

    @property
    def index(self) -> int | None:
        """Return ``n`` of a ``files[n]`` field, or ``None``."""
        inner = self.field.removeprefix("files[").removesuffix("]")
        return int(inner) if inner.isdigit() else None


def is_empty(body: Payload, uploads: list[Upload]) -> bool:
    """Return whether a new message would have nothing to show (Discord error 50006)."""
    keys = ("content", "embeds", "components", "sticker_ids", "poll")
    return not uploads and not any(body.get(key) for key in keys)


def _attachments(
    world: World, channel_id: int, body: Payload, uploads: list[Upload], kept: list[Payload]
) -> list[Payload]:
    """Resolve ``attachments`` entries to kept attachments and newly uploaded files."""
    by_index = {upload.index: upload for upload in uploads}
    by_id = {attachment["id"]: attachment for attachment in kept}
    entries = body.get("attachments")
    if entries is None:
        entries = [{"id": index} for index in by_index]
    result = []
    for entry in entries:
        known = by_id.get(str(entry.get("id")))
        upload = by_index.get(_as_int(entry.get("id")))
        if known is not None:
            result.append(known)
        elif upload is not None:
            stored = world.store_file(
                channel_id, entry.get("filename") or upload.filename, upload.data, upload.content_type
            )
            stored["description"] = entry.get("description")
            result.append(stored)
    return result


def _as_int(value: object) -> int | None:
    text = str(value)
    return int(text) if text.isdigit() else None


def new_bot_message(world: World, channel_id: int, author: Payload, body: Payload, uploads: list[Upload]) -> Payload:
    """Build a message the bot sends; the caller validates and stores it."""
    message = world.new_message(channel_id, author, body.get("content") or "")
    message["embeds"] = body.get("embeds") or []
    message["components"] = body.get("components") or []
    message["flags"] = body.get("flags") or 0
    message["attachments"] = _attachments(world, channel_id, body, uploads, [])
    for key in _COPIED_KEYS:
        if key in body:
            message[key] = body[key]
    if "allowed_mentions" in body:
        # Not part of a real message object; kept so tests can inspect what the bot asked for.
        message["allowed_mentions"] = body["allowed_mentions"]
    return message


def attach_reference(world: World, message: Payload, reference: Payload) -> bool:
    """Fill ``message_reference`` and ``referenced_message``; return ``False`` if the target is unknown."""
    channel_id = int(reference.get("channel_id") or message["channel_id"])
    target = world.message(channel_id, int(reference["message_id"]))
    if target is None:
        return reference.get("fail_if_not_exists") is False
    message["type"] = 19  # REPLY
    message["message_reference"] = {
        "type": reference.get("type", 0),
        "message_id": target["id"],
        "channel_id": target["channel_id"],
        "guild_id": target.get("guild_id"),
    }
    message["referenced_message"] = target
    return True


def apply_edit(world: World, message: Payload, body: Payload, uploads: list[Upload]) -> Payload:
    """Apply a PATCH body to a stored message in place and return it."""
    channel_id = int(message["channel_id"])
    for key in ("content", "embeds", "components"):
        if key in body:
            message[key] = body[key] if body[key] is not None else ([] if key != "content" else "")
    if "flags" in body and body["flags"] is not None:
        message["flags"] = (message["flags"] & ~_EDITABLE_FLAGS) | (body["flags"] & _EDITABLE_FLAGS)
    if "attachments" in body or uploads:
        message["attachments"] = _attachments(world, channel_id, body, uploads, message["attachments"])
    if "allowed_mentions" in body:
        message["allowed_mentions"] = body["allowed_mentions"]
    world.fill_mentions(message, world.guild_id_of(channel_id))
    message["edited_timestamp"] = now_iso()
    return message
