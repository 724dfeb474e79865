"""REST routes for login and lookups (gateway, users, application, guilds), files, and unknown routes."""

from __future__ import annotations

from aiohttp import web

from tests.fakediscord.api import API, ApiError, fake_of, json_response, snowflake
from tests.fakediscord.state import StoredFile

routes = web.RouteTableDef()


@routes.get(API + "/gateway")
async def gateway(request: web.Request) -> web.Response:
    """Return the gateway URL."""
    return json_response({"url": fake_of(request).gateway_url})


@routes.get(API + "/gateway/bot")
async def gateway_bot(request: web.Request) -> web.Response:
    """Return the gateway URL, shard count and session start limit."""
    limit = {"total": 1000, "remaining": 999, "reset_after": 14_400_000, "max_concurrency": 1}
    return json_response({"url": fake_of(request).gateway_url, "shards": 1, "session_start_limit": limit})


@routes.get(API + "/users/@me")
async def current_user(request: web.Request) -> web.Response:
    """Return the bot user (discord.py's login call)."""
    return json_response(fake_of(request).bot_user)


@routes.get(API + "/users/{user_id}")
async def get_user(request: web.Request) -> web.Response:
    """Return a user."""
    user = fake_of(request).world.users.get(snowflake(request, "user_id"))
    if user is None:
        raise ApiError(404, 10013, "Unknown User")
    return json_response(user)


@routes.get(API + "/oauth2/applications/@me")
@routes.get(API + "/applications/@me")
async def current_application(request: web.Request) -> web.Response:
    """Return the bot's application."""
    return json_response(fake_of(request).application_payload())


def _guild_id(request: web.Request) -> int:
    guild_id = snowflake(request, "guild_id")
    if guild_id not in fake_of(request).world.guilds:
        raise ApiError(404, 10004, "Unknown Guild")
    return guild_id


@routes.get(API + "/guilds/{guild_id}")
async def get_guild(request: web.Request) -> web.Response:
    """Return a guild (without channels and members, as the REST API does)."""
    full = fake_of(request).world.guild_create(_guild_id(request))
    dropped = ("channels", "threads", "members", "voice_states", "presences", "joined_at")
    return json_response({key: value for key, value in full.items() if key not in dropped})


@routes.get(API + "/guilds/{guild_id}/channels")
async def guild_channels(request: web.Request) -> web.Response:
    """Return a guild's channels (not threads)."""
    return json_response(fake_of(request).world.guild_create(_guild_id(request))["channels"])


@routes.get(API + "/guilds/{guild_id}/roles")
async def guild_roles(request: web.Request) -> web.Response:
    """Return a guild's roles."""
    return json_response(fake_of(request).world.roles[_guild_id(request)])


@routes.get(API + "/guilds/{guild_id}/members/{user_id}")
async def guild_member(request: web.Request) -> web.Response:
    """Return one guild member."""
    member = fake_of(request).world.member(_guild_id(request), snowflake(request, "user_id"))
    if member is None:
        raise ApiError(404, 10007, "Unknown Member")
    return json_response(member)


def _file_response(stored: StoredFile | None) -> web.Response:
    if stored is None:
        return web.Response(status=404, text="Not Found")
    return web.Response(body=stored.data, headers={"Content-Type": stored.content_type})


@routes.get("/attachments/{channel_id}/{attachment_id}/{filename}")
async def attachment(request: web.Request) -> web.Response:
    """Serve an attachment's bytes, like Discord's CDN."""
    attachment_id = request.match_info["attachment_id"]
    stored = fake_of(request).world.files.get(int(attachment_id)) if attachment_id.isdigit() else None
    if stored is not None and stored.filename != request.match_info["filename"]:
        stored = None
    return _file_response(stored)


@routes.get("/raw/{paste_id}")
async def raw_paste(request: web.Request) -> web.Response:
    """Serve a paste's raw text, standing in for an allow-listed paste site."""
    return _file_response(fake_of(request).world.pastes.get(request.match_info["paste_id"]))


@routes.route("*", API + "/{tail:.*}")
async def unknown_route(request: web.Request) -> web.Response:
    """Record a route this fake does not implement and answer 404."""
    fake_of(request).unknown_routes.append(f"{request.method} {request.path}")
    raise ApiError(404, 0, "Unknown route")
