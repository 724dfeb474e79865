"""REST routes for interactions: callbacks, followup webhooks, and application commands."""

from __future__ import annotations

import time
from typing import Any

from aiohttp import web

from tests.fakediscord.api import (
    API,
    BODY,
    ApiError,
    body_of,
    fake_of,
    json_response,
    no_content,
    snowflake,
    uploads_of,
)
from tests.fakediscord.interactions import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    FakeInteraction,
    callback_message_type,
)
from tests.fakediscord.messages import EPHEMERAL, apply_edit, new_bot_message
from tests.fakediscord.recording import InteractionResponse
from tests.fakediscord.validation import Problem, check_choices, check_commands, check_message, check_modal

routes = web.RouteTableDef()
Payload = dict[str, Any]
LOADING = 1 << 7
PONG, MESSAGE, DEFERRED, DEFERRED_UPDATE, UPDATE, CHOICES, MODAL = 1, 4, 5, 6, 7, 8, 9
ALLOWED_CALLBACKS = {
    APPLICATION_COMMAND: {MESSAGE, DEFERRED, MODAL},
    MESSAGE_COMPONENT: {MESSAGE, DEFERRED, DEFERRED_UPDATE, UPDATE, MODAL},
    AUTOCOMPLETE: {CHOICES},
    MODAL_SUBMIT: {MESSAGE, DEFERRED, DEFERRED_UPDATE, UPDATE},
}
WEBHOOK = "/webhooks/{application_id}/{token}"


def _interaction_for_callback(request: web.Request) -> FakeInteraction:
    fake = fake_of(request)
    interaction = fake.interactions.get(snowflake(request, "interaction_id"))
    if interaction is None or interaction.token != request.match_info["token"]:
        raise ApiError(404, 10062, "Unknown interaction")
    if time.monotonic() - interaction.created > fake.interaction_timeout:
        raise ApiError(404, 10062, "Unknown interaction")
    if interaction.acknowledged:
        raise ApiError(400, 40060, "Interaction has already been acknowledged.")
    return interaction


def _check_callback(request: web.Request, interaction: FakeInteraction, kind: int, data: Payload) -> None:
    if kind not in ALLOWED_CALLBACKS.get(interaction.type, set()):
        problem = Problem(("type",), "INTERACTION_RESPONSE_TYPE_INVALID", f"Response type {kind} is not valid here")
        fake_of(request).check(request, [problem])
    if kind in (MESSAGE, UPDATE):
        problems = check_message(data, ("data",))
    elif kind == CHOICES:
        problems = check_choices(data)
    elif kind == MODAL:
        problems = check_modal(data)
    else:
        problems = []
    fake_of(request).check(request, problems)


@routes.post(API + "/interactions/{interaction_id}/{token}/callback")
async def interaction_callback(request: web.Request) -> web.Response:
    """Accept the first answer to an interaction (types 1, 4-9)."""
    fake, interaction, body = fake_of(request), _interaction_for_callback(request), body_of(request)
    kind, data = body.get("type"), body.get("data") or {}
    if not isinstance(kind, int) or kind == PONG:
        raise ApiError(
            400,
            50035,
            "Invalid Form Body",
            {"type": {"_errors": [{"code": "BASE_TYPE_CHOICES", "message": "Invalid response type"}]}},
        )
    _check_callback(request, interaction, kind, data)
    message = await _callback_effect(request, interaction, kind, data)
    interaction.response_type = kind
    fake.recorder.interaction_responses.append(InteractionResponse(interaction.id, "callback", kind, data, message))
    await fake.recorder.notify()
    if request.query.get("with_response") not in ("1", "true", "True"):
        return no_content()
    return json_response(_callback_answer(interaction, kind, message))


async def _callback_effect(
    request: web.Request, interaction: FakeInteraction, kind: int, data: Payload
) -> Payload | None:
    """Create or edit the message an answer implies; return it."""
    fake = fake_of(request)
    if kind in (MESSAGE, DEFERRED):
        body = data if kind == MESSAGE else {"flags": (data.get("flags") or 0) | LOADING}
        message = _interaction_message(request, interaction, body)
        interaction.original_message_id = int(message["id"])
        await fake.publish(message, silent=bool(message["flags"] & EPHEMERAL))
        return message
    if kind == UPDATE:
        message = _component_message(request, interaction)
        apply_edit(fake.world, message, data, uploads_of(request))
        await fake.dispatch("MESSAGE_UPDATE", message)
        return message
    return None


def _interaction_message(request: web.Request, interaction: FakeInteraction, body: Payload) -> Payload:
    fake = fake_of(request)
    message = new_bot_message(fake.world, interaction.channel_id, fake.bot_user, body, uploads_of(request))
    message["type"] = callback_message_type(interaction)
    message["webhook_id"] = str(fake.application_id)
    message["application_id"] = str(fake.application_id)
    user = interaction.payload.get("member", {}).get("user") or interaction.payload.get("user")
    message["interaction_metadata"] = {
        "id": str(interaction.id),
        "type": interaction.type,
        "user": user,
        "authorizing_integration_owners": interaction.payload["authorizing_integration_owners"],
    }
    return message


def _component_message(request: web.Request, interaction: FakeInteraction) -> Payload:
    message_id = int((interaction.payload.get("message") or {}).get("id", 0))
    message = fake_of(request).world.messages.get(message_id)
    if message is None:
        raise ApiError(
            400,
            50035,
            "Invalid Form Body",
            {"type": {"_errors": [{"code": "INTERACTION_NO_MESSAGE", "message": "This interaction has no message"}]}},
        )
    return message


def _callback_answer(interaction: FakeInteraction, kind: int, message: Payload | None) -> Payload:
    answer: Payload = {
        "interaction": {
            "id": str(interaction.id),
            "type": interaction.type,
            "response_message_loading": kind == DEFERRED,
            "response_message_ephemeral": bool(message and message["flags"] & EPHEMERAL),
        },
        "resource": {"type": kind},
    }
    if message is not None:
        answer["interaction"]["response_message_id"] = message["id"]
        answer["resource"]["message"] = message
    return answer


def _interaction_for_webhook(request: web.Request) -> FakeInteraction:
    fake = fake_of(request)
    if snowflake(request, "application_id") != fake.application_id:
        raise ApiError(404, 10015, "Unknown Webhook")
    interaction = fake.interaction_by_token(request.match_info["token"])
    if interaction is None or not interaction.acknowledged:
        raise ApiError(404, 10015, "Unknown Webhook")
    return interaction


@routes.post(API + WEBHOOK)
async def followup(request: web.Request) -> web.Response:
    """Send a followup message for an acknowledged interaction."""
    fake, interaction, body = fake_of(request), _interaction_for_webhook(request), body_of(request)
    fake.check(request, check_message(body))
    message = _interaction_message(request, interaction, body)
    interaction.followup_ids.append(int(message["id"]))
    await fake.publish(message, silent=bool(message["flags"] & EPHEMERAL))
    fake.recorder.interaction_responses.append(InteractionResponse(interaction.id, "followup", None, body, message))
    await fake.recorder.notify()
    return json_response(message) if request.query.get("wait") in ("1", "true", "True") else no_content()


def _webhook_message(request: web.Request, interaction: FakeInteraction) -> Payload:
    raw = request.match_info["message_id"]
    if raw == "@original":
        message_id = interaction.original_message_id or int((interaction.payload.get("message") or {}).get("id", 0))
    else:
        message_id = int(raw) if raw.isdigit() else 0
    message = fake_of(request).world.messages.get(message_id)
    if message is None:
        raise ApiError(404, 10008, "Unknown Message")
    return message


@routes.get(API + WEBHOOK + "/messages/{message_id}")
async def get_webhook_message(request: web.Request) -> web.Response:
    """Return an interaction's original response or a followup."""
    return json_response(_webhook_message(request, _interaction_for_webhook(request)))


@routes.patch(API + WEBHOOK + "/messages/{message_id}")
async def edit_webhook_message(request: web.Request) -> web.Response:
    """Edit an interaction's original response (filling a deferred one) or a followup."""
    fake, interaction, body = fake_of(request), _interaction_for_webhook(request), body_of(request)
    message = _webhook_message(request, interaction)
    fake.check(request, check_message(body))
    apply_edit(fake.world, message, body, uploads_of(request))
    message["flags"] &= ~LOADING
    kind = "edit_original" if request.match_info["message_id"] == "@original" else "edit_followup"
    fake.recorder.interaction_responses.append(InteractionResponse(interaction.id, kind, None, body, message))
    await fake.dispatch("MESSAGE_UPDATE", message, silent=bool(message["flags"] & EPHEMERAL))
    return json_response(message)


@routes.delete(API + WEBHOOK + "/messages/{message_id}")
async def delete_webhook_message(request: web.Request) -> web.Response:
    """Delete an interaction's original response or a followup."""
    message = _webhook_message(request, _interaction_for_webhook(request))
    await fake_of(request).remove_message(int(message["id"]))
    return no_content()


def _command_scope(request: web.Request) -> int | None:
    fake = fake_of(request)
    if snowflake(request, "application_id") != fake.application_id:
        raise ApiError(403, 50001, "Missing Access")
    if "guild_id" not in request.match_info:
        return None
    guild_id = snowflake(request, "guild_id")
    if guild_id not in fake.world.guilds:
        raise ApiError(403, 50001, "Missing Access")
    return guild_id


def _register(request: web.Request, scope: int | None, command: Payload) -> Payload:
    """Store one command, keeping the id of an existing command with the same name and type."""
    fake = fake_of(request)
    commands = fake.world.commands.setdefault(scope, [])
    kind = command.get("type", 1)
    old = next((c for c in commands if c["name"] == command["name"] and c["type"] == kind), None)
    stored = {
        "id": old["id"] if old else str(fake.world.ids.next()),
        "application_id": str(fake.application_id),
        "version": str(fake.world.ids.next()),
        "type": kind,
        "description": "",
        "options": [],
        "default_member_permissions": None,
        "nsfw": False,
        **command,
    }
    if scope is not None:
        stored["guild_id"] = str(scope)
    if old:
        commands.remove(old)
    commands.append(stored)
    return stored


@routes.get(API + "/applications/{application_id}/commands")
@routes.get(API + "/applications/{application_id}/guilds/{guild_id}/commands")
async def list_commands(request: web.Request) -> web.Response:
    """Return the registered global or guild commands."""
    return json_response(fake_of(request).world.commands.get(_command_scope(request), []))


@routes.put(API + "/applications/{application_id}/commands")
@routes.put(API + "/applications/{application_id}/guilds/{guild_id}/commands")
async def overwrite_commands(request: web.Request) -> web.Response:
    """Replace every global or guild command (what ``CommandTree.sync`` does)."""
    fake, scope = fake_of(request), _command_scope(request)
    commands = request.get(BODY) or []
    fake.check(request, check_commands(commands))
    fake.world.commands[scope] = []
    return json_response([_register(request, scope, command) for command in commands])


@routes.post(API + "/applications/{application_id}/commands")
@routes.post(API + "/applications/{application_id}/guilds/{guild_id}/commands")
async def upsert_command(request: web.Request) -> web.Response:
    """Create or replace one command."""
    fake, scope, body = fake_of(request), _command_scope(request), body_of(request)
    fake.check(request, check_commands([body]))
    return json_response(_register(request, scope, body), status=201)
