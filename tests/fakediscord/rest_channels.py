"""REST routes under ``/channels``: messages, threads, typing, reactions; and DM channels."""

from __future__ import annotations

from typing import Any

from aiohttp import web

from tests.fakediscord import payloads as p
from tests.fakediscord.api import (
    API,
    ApiError,
    body_of,
    fake_of,
    json_response,
    no_content,
    snowflake,
    uploads_of,
)
from tests.fakediscord.messages import apply_edit, attach_reference, is_empty, new_bot_message
from tests.fakediscord.validation import Problem, check_message

routes = web.RouteTableDef()
Payload = dict[str, Any]
HAS_THREAD = 1 << 5
MESSAGE = "/channels/{channel_id}/messages/{message_id}"


def channel_from(request: web.Request) -> int:
    """Return the path's channel id, or raise Discord's Unknown Channel."""
    channel_id = snowflake(request, "channel_id")
    if channel_id not in fake_of(request).world.channels:
        raise ApiError(404, 10003, "Unknown Channel")
    return channel_id


def message_from(request: web.Request) -> Payload:
    """Return the path's message, or raise Discord's Unknown Message."""
    message = fake_of(request).world.message(channel_from(request), snowflake(request, "message_id"))
    if message is None:
        raise ApiError(404, 10008, "Unknown Message")
    return message


@routes.get(API + "/channels/{channel_id}")
async def get_channel(request: web.Request) -> web.Response:
    """Return a channel."""
    return json_response(fake_of(request).world.channel(channel_from(request)))


@routes.post(API + "/channels/{channel_id}/messages")
async def create_message(request: web.Request) -> web.Response:
    """Validate, store and dispatch a message the bot sends."""
    fake, channel_id, body = fake_of(request), channel_from(request), body_of(request)
    fake.check(request, check_message(body))
    if is_empty(body, uploads_of(request)):
        raise ApiError(400, 50006, "Cannot send an empty message")
    message = new_bot_message(fake.world, channel_id, fake.bot_user, body, uploads_of(request))
    reference = body.get("message_reference")
    if reference and not attach_reference(fake.world, message, reference):
        problem = Problem(("message_reference",), "MESSAGE_REFERENCE_UNKNOWN_MESSAGE", "Unknown message")
        fake.check(request, [problem])
    await fake.publish(message)
    return json_response(message)


@routes.get(API + "/channels/{channel_id}/messages")
async def list_messages(request: web.Request) -> web.Response:
    """Return a channel's history, newest first, honouring ``limit``/``before``/``after``."""
    channel_id = channel_from(request)
    limit = min(_query_int(request, "limit", 50), 100)
    before, after = _query_int(request, "before", 1 << 63), _query_int(request, "after", 0)
    found = [
        message
        for mid, message in fake_of(request).world.messages.items()
        if int(message["channel_id"]) == channel_id and after < mid < before
    ]
    return json_response(sorted(found, key=lambda m: int(m["id"]), reverse=True)[:limit])


def _query_int(request: web.Request, name: str, default: int) -> int:
    raw = request.query.get(name)
    if raw is None:
        return default
    if not raw.isdigit():
        fake_of(request).check(request, [Problem((name,), "NUMBER_TYPE_COERCE", f'Value "{raw}" is not int.')])
    return int(raw)


@routes.get(API + MESSAGE)
async def get_message(request: web.Request) -> web.Response:
    """Return one message."""
    return json_response(message_from(request))


@routes.patch(API + MESSAGE)
async def edit_message(request: web.Request) -> web.Response:
    """Edit one of the bot's messages and dispatch MESSAGE_UPDATE."""
    fake, message, body = fake_of(request), message_from(request), body_of(request)
    if message["author"]["id"] != fake.bot_user["id"]:
        raise ApiError(403, 50005, "Cannot edit a message authored by another user")
    fake.check(request, check_message(body))
    apply_edit(fake.world, message, body, uploads_of(request))
    await fake.dispatch("MESSAGE_UPDATE", message)
    return json_response(message)


@routes.delete(API + MESSAGE)
async def delete_message(request: web.Request) -> web.Response:
    """Delete a message and dispatch MESSAGE_DELETE."""
    message = message_from(request)
    await fake_of(request).remove_message(int(message["id"]))
    return no_content()


@routes.post(API + MESSAGE + "/threads")
async def thread_from_message(request: web.Request) -> web.Response:
    """Start a thread on a message (the thread takes the message's id, as on Discord)."""
    fake, message, body = fake_of(request), message_from(request), body_of(request)
    _check_thread_name(request, body)
    if message.get("thread"):
        raise ApiError(400, 160004, "A thread has already been created for this message")
    thread = fake.world.add_thread(
        channel_from(request), int(fake.bot_user["id"]), body["name"], thread_id=int(message["id"])
    )
    message["thread"] = thread
    message["flags"] |= HAS_THREAD
    await fake.dispatch("THREAD_CREATE", thread | {"newly_created": True})
    return json_response(thread)


@routes.post(API + "/channels/{channel_id}/threads")
async def thread_without_message(request: web.Request) -> web.Response:
    """Start a thread in a text channel, or a post (thread plus starter message) in a forum."""
    fake, channel_id, body = fake_of(request), channel_from(request), body_of(request)
    _check_thread_name(request, body)
    is_forum = fake.world.channel(channel_id)["type"] == p.GUILD_FORUM
    starter = body.get("message") or {}
    if is_forum:
        fake.check(request, check_message(starter, ("message",)))
    thread = fake.world.add_thread(channel_id, int(fake.bot_user["id"]), body["name"])
    if not is_forum:
        thread["type"] = body.get("type", p.PRIVATE_THREAD)
        await fake.dispatch("THREAD_CREATE", thread | {"newly_created": True})
        return json_response(thread)
    message = new_bot_message(fake.world, int(thread["id"]), fake.bot_user, starter, uploads_of(request))
    message["id"] = thread["id"]  # a forum post's starter message shares the thread's id
    await fake.dispatch("THREAD_CREATE", thread | {"newly_created": True})
    await fake.publish(message)
    return json_response(thread | {"message": message})


def _check_thread_name(request: web.Request, body: Payload) -> None:
    name = body.get("name") or ""
    if not 1 <= len(name) <= 100:
        problem = Problem(("name",), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
        fake_of(request).check(request, [problem])


@routes.post(API + "/channels/{channel_id}/typing")
async def typing(request: web.Request) -> web.Response:
    """Accept a typing indicator."""
    channel_from(request)
    return no_content()


@routes.put(API + MESSAGE + "/reactions/{emoji}/@me")
async def add_reaction(request: web.Request) -> web.Response:
    """Add the bot's reaction to a message."""
    message, emoji = message_from(request), request.match_info["emoji"]
    reaction = next((r for r in message["reactions"] if r["emoji"]["name"] == emoji), None)
    if reaction is None:
        reaction = {"emoji": {"id": None, "name": emoji}, "count": 0, "me": False}
        message["reactions"].append(reaction)
    if not reaction["me"]:
        reaction |= {"count": reaction["count"] + 1, "me": True}
    return no_content()


@routes.delete(API + MESSAGE + "/reactions/{emoji}/@me")
async def remove_reaction(request: web.Request) -> web.Response:
    """Remove the bot's reaction from a message."""
    message, emoji = message_from(request), request.match_info["emoji"]
    for reaction in message["reactions"]:
        if reaction["emoji"]["name"] == emoji and reaction["me"]:
            reaction |= {"count": reaction["count"] - 1, "me": False}
    message["reactions"] = [r for r in message["reactions"] if r["count"] > 0]
    return no_content()


@routes.post(API + "/users/@me/channels")
async def open_dm(request: web.Request) -> web.Response:
    """Open (or reuse) a DM channel with a user."""
    fake, body = fake_of(request), body_of(request)
    recipient_id = int(body.get("recipient_id") or 0)
    if recipient_id not in fake.world.users:
        fake.check(request, [Problem(("recipient_id",), "NUMBER_TYPE_COERCE", "Value is not snowflake.")])
    return json_response(fake.world.open_dm(fake.world.users[recipient_id]))
