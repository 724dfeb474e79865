"""``FakeDiscord``: an aiohttp server speaking enough of Discord's REST API and gateway for discord.py.

Start it, point discord.py at ``api_url`` and ``gateway_url``, then drive it from a test::

    async with FakeDiscord() as fake:
        ...  # run the bot against fake.api_url / fake.gateway_url
        await fake.create_message(fake.text_channel_id, fake.member_user, "Traceback ...")
        request = await fake.wait_for_request(lambda r: r.is_("POST", "/channels/{channel_id}/messages"))
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from aiohttp import web
from aiohttp.typedefs import Handler

from tests.fakediscord import interactions as ix
from tests.fakediscord import limits
from tests.fakediscord.api import API, BODY, FAKE, SENT_JSON, UPLOADS, ApiError, invalid_form_body, read_body
from tests.fakediscord.events import EventsMixin
from tests.fakediscord.gateway import PRIVILEGED, RECONNECT, Gateway
from tests.fakediscord.recording import InteractionResponse, RecordedRequest, Recorder, Violation
from tests.fakediscord.rest_channels import routes as channel_routes
from tests.fakediscord.rest_interactions import routes as interaction_routes
from tests.fakediscord.rest_misc import routes as misc_routes
from tests.fakediscord.state import Cast, StoredFile, World, seed_world
from tests.fakediscord.validation import Problem

log = logging.getLogger(__name__)
Payload = dict[str, Any]
DEFAULT_TOKEN = "fake-bot-token.NjQ.tracebot"
_NO_AUTH_PREFIXES = ("/interactions/", "/webhooks/")


# What the waits below allow by default: a bound against a bot that never acts, not a speed target (a
# loaded machine at nice 19 can hold a healthy bot back for seconds; every wait ends when it acts).
WAIT_BOUND = 30.0


class FakeDiscord(EventsMixin):
    """A Discord-compatible server on loopback, with helpers to drive and inspect it."""

    def __init__(
        self,
        *,
        token: str = DEFAULT_TOKEN,
        heartbeat_interval_ms: int = 41_250,
        interaction_timeout: float = 3.0,
    ) -> None:
        self.token = token
        self.interaction_timeout = interaction_timeout
        self.allowed_privileged_intents = PRIVILEGED
        self.world = World()
        self.cast: Cast = seed_world(self.world)
        self.recorder = Recorder()
        self.limits = limits.RateLimits()
        self.gateway = Gateway(self, heartbeat_interval_ms=heartbeat_interval_ms)
        self.interactions: dict[int, ix.FakeInteraction] = {}
        self.unknown_routes: list[str] = []
        self.errors: list[str] = []
        self.base_url = ""
        self._runner: web.AppRunner | None = None

    # -- lifecycle -------------------------------------------------------------------------

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> None:
        """Listen on ``host`` (loopback) at ``port`` (0 picks a free one)."""
        app = web.Application(middlewares=[self._middleware])
        app[FAKE] = self
        app.router.add_get("/gateway", self.gateway.handle)
        app.add_routes(channel_routes)
        app.add_routes(interaction_routes)
        app.add_routes(misc_routes)  # last: it holds the catch-all
        self._runner = web.AppRunner(app, shutdown_timeout=1.0, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port)
        await site.start()
        bound_port = self._runner.addresses[0][1]
        self.base_url = f"http://{host}:{bound_port}"
        self.world.base_url = self.base_url
        log.debug("fake discord listening on %s", self.base_url)

    async def stop(self) -> None:
        """Close every gateway socket and stop listening."""
        await self.gateway.close_all()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeDiscord:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.stop()

    @property
    def api_url(self) -> str:
        """Return the REST base, e.g. ``http://127.0.0.1:PORT/api/v10``."""
        return self.base_url + API

    @property
    def gateway_url(self) -> str:
        """Return the gateway URL, e.g. ``ws://127.0.0.1:PORT/gateway``."""
        return self.base_url.replace("http://", "ws://", 1) + "/gateway"

    # -- the cast of the default world -------------------------------------------------------

    @property
    def bot_user(self) -> Payload:
        """Return the bot's user payload."""
        return self.cast.bot

    @property
    def application_id(self) -> int:
        """Return the application id (the bot user's id, as on Discord)."""
        return int(self.cast.bot["id"])

    @property
    def owner_user(self) -> Payload:
        """Return the guild owner (has the Maintainer role)."""
        return self.cast.owner

    @property
    def member_user(self) -> Payload:
        """Return an ordinary guild member."""
        return self.cast.member

    @property
    def guild_id(self) -> int:
        """Return the guild's id."""
        return self.cast.guild_id

    @property
    def text_channel_id(self) -> int:
        """Return the ``#help`` text channel's id."""
        return self.cast.text_channel_id

    @property
    def forum_channel_id(self) -> int:
        """Return the ``#python-help`` forum channel's id."""
        return self.cast.forum_channel_id

    @property
    def thread_id(self) -> int:
        """Return the id of a forum post (public thread) in ``#python-help``."""
        return self.cast.thread_id

    @property
    def maintainer_role_id(self) -> int:
        """Return the Maintainer role's id."""
        return self.cast.maintainer_role_id

    def ready_payload(
        self, session_id: str, shard: list[int] | None = None, guilds: list[int] | None = None
    ) -> Payload:
        """Build the READY event for a new session (echoing ``shard``; ``guilds``: the shard's, else all)."""
        ready = {
            "v": 10,
            "user": self.bot_user | {"verified": True, "mfa_enabled": False, "email": None},
            "guilds": [{"id": str(g), "unavailable": True} for g in (self.world.guilds if guilds is None else guilds)],
            "session_id": session_id,
            "session_type": "normal",
            "resume_gateway_url": self.gateway_url,
            "application": {"id": str(self.application_id), "flags": self.application_payload()["flags"]},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "user_settings": {},
            "_trace": ["fakediscord"],
        }
        if shard is not None:
            ready["shard"] = shard
        return ready

    def application_payload(self) -> Payload:
        """Build the bot's application object."""
        # GATEWAY_PRESENCE_LIMITED | GATEWAY_GUILD_MEMBERS_LIMITED | GATEWAY_MESSAGE_CONTENT_LIMITED
        flags = (1 << 13) | (1 << 15) | (1 << 19)
        return {
            "id": str(self.application_id),
            "name": self.bot_user["username"],
            "icon": None,
            "description": "",
            "summary": "",
            "type": None,
            "bot": self.bot_user,
            "bot_public": True,
            "bot_require_code_grant": False,
            "verify_key": "0" * 64,
            "owner": self.owner_user,
            "team": None,
            "flags": flags,
            "interactions_endpoint_url": None,
            "redirect_uris": [],
            "tags": [],
            "approximate_guild_count": len(self.world.guilds),
        }

    # -- HTTP plumbing ------------------------------------------------------------------------

    @web.middleware
    async def _middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        if request.path == "/gateway":
            return await handler(request)
        route = self._route_of(request)
        record = RecordedRequest(request.method, request.path, route, None, dict(request.query))
        try:
            record.json, uploads = await read_body(request)
            request[BODY], request[UPLOADS] = record.json, uploads
            record.files = [(u.field, u.filename, len(u.data)) for u in uploads]
            response = await self._answer(request, handler, route)
        except ApiError as exc:
            response = exc.response()
        except Exception as exc:
            # A bug in the fake: answer 400 so discord.py fails fast instead of retrying a 500.
            log.exception("fakediscord failed on %s %s", request.method, request.path)
            self.errors.append(f"{request.method} {request.path}: {exc!r}")
            response = ApiError(400, 0, f"fakediscord internal error: {exc!r}").response()
        record.status, record.response = response.status, response.get(SENT_JSON)
        await self.recorder.add_request(record)
        return response

    def _route_of(self, request: web.Request) -> str:
        """Return the route template without the API prefix, e.g. ``/channels/{channel_id}/messages``."""
        resource = request.match_info.route.resource
        canonical = resource.canonical if resource is not None else request.path
        if canonical.endswith("{tail}"):
            return request.path.removeprefix(API)
        return canonical.removeprefix(API)

    async def _answer(self, request: web.Request, handler: Handler, route: str) -> web.StreamResponse:
        if not request.path.startswith(API + "/"):
            return await handler(request)
        if not route.startswith(_NO_AUTH_PREFIXES) and request.headers.get("Authorization") != f"Bot {self.token}":
            raise ApiError(401, 0, "401: Unauthorized")
        rule = self.limits.take(request.method, route)
        if rule is not None:
            return limits.too_many_requests(rule, route)
        response = await handler(request)
        response.headers.update(limits.ok_headers(route))
        return response

    def check(self, request: web.Request, problems: list[Problem]) -> None:
        """Record ``problems`` as violations and raise Discord's 400 if there are any."""
        for problem in problems:
            field = ".".join(str(part) for part in problem.path)
            self.recorder.violations.append(
                Violation(request.method, self._route_of(request), field, problem.code, problem.message)
            )
        if problems:
            raise invalid_form_body(problems)

    # -- switches --------------------------------------------------------------------------

    def rate_limit(
        self,
        route: str,
        *,
        method: str = "POST",
        count: int = 1,
        retry_after: float = 0.25,
        is_global: bool = False,
    ) -> limits.RateLimitRule:
        """Answer the next ``count`` requests of ``method route`` (``"*"`` matches any) with 429."""
        return self.limits.add(method, route, count, retry_after, is_global=is_global)

    def add_paste(self, text: str, paste_id: str | None = None) -> str:
        """Serve ``text`` at ``/raw/<paste_id>`` and return its URL."""
        paste_id = paste_id or f"p{self.world.ids.next()}"
        self.world.pastes[paste_id] = StoredFile(f"{paste_id}.txt", text.encode())
        return f"{self.base_url}/raw/{paste_id}"

    def dm_channel_id(self, user: Payload | int) -> int:
        """Return the id of the bot's DM channel with ``user`` (created on first use)."""
        return int(self.world.open_dm(self.world.user(user))["id"])

    async def reconnect(self) -> None:
        """Ask every connected client to reconnect and RESUME (opcode 7)."""
        await self.gateway.send_op(RECONNECT)

    # -- views and waits ----------------------------------------------------------------------

    @property
    def requests(self) -> list[RecordedRequest]:
        """Return every HTTP request so far, in arrival order."""
        return self.recorder.requests

    @property
    def violations(self) -> list[Violation]:
        """Return every payload refused with 400 Invalid Form Body."""
        return self.recorder.violations

    @property
    def interaction_responses(self) -> list[InteractionResponse]:
        """Return every accepted callback, followup and response edit."""
        return self.recorder.interaction_responses

    def sent_messages(self, channel_id: int | None = None) -> list[Payload]:
        """Return the bot's messages (channel sends, interaction responses, followups), oldest first."""
        bot_id = self.bot_user["id"]
        return [
            message
            for message in self.world.messages.values()
            if message["author"]["id"] == bot_id and (channel_id is None or int(message["channel_id"]) == channel_id)
        ]

    async def wait_for_request(
        self,
        predicate: Callable[[RecordedRequest], bool],
        timeout: float = WAIT_BOUND,  # noqa: ASYNC109 - a bounded wait is the API
        *,
        start: int = 0,
    ) -> RecordedRequest:
        """Return the first request (index ``start`` on) matching ``predicate``; wait up to ``timeout``."""

        def probe() -> RecordedRequest | None:
            return next((r for r in self.requests[start:] if predicate(r)), None)

        return await self.recorder.wait_until(probe, timeout, "a matching request")

    async def wait_for_sent_message(
        self,
        predicate: Callable[[Payload], bool] | None = None,
        *,
        channel_id: int | None = None,
        timeout: float = WAIT_BOUND,  # noqa: ASYNC109
        start: int = 0,
    ) -> Payload:
        """Return the first bot message (index ``start`` on) matching ``predicate``, within ``timeout``."""

        def probe() -> Payload | None:
            found = self.sent_messages(channel_id)[start:]
            return next((m for m in found if predicate is None or predicate(m)), None)

        return await self.recorder.wait_until(probe, timeout, "a message from the bot")

    async def wait_for_interaction_response(
        self,
        interaction: ix.FakeInteraction,
        timeout: float = WAIT_BOUND,  # noqa: ASYNC109
        *,
        kind: str = "callback",
    ) -> InteractionResponse:
        """Return the first response of ``kind`` to ``interaction``; wait up to ``timeout``."""

        def probe() -> InteractionResponse | None:
            found = (r for r in self.interaction_responses if r.interaction_id == interaction.id and r.kind == kind)
            return next(found, None)

        return await self.recorder.wait_until(probe, timeout, f"a {kind} to interaction {interaction.id}")

    async def wait_until_ready(self, timeout: float = WAIT_BOUND) -> None:  # noqa: ASYNC109
        """Wait until a client has identified (READY sent)."""
        await self.recorder.wait_until(lambda: self.gateway.ready_count() > 0 or None, timeout, "a client to identify")

    async def wait_for_gateway_frame(self, op: int, timeout: float = WAIT_BOUND) -> Payload:  # noqa: ASYNC109
        """Return the first frame with opcode ``op`` the client sent; wait up to ``timeout``."""
        frames = self.recorder.gateway_frames
        return await self.recorder.wait_until(
            lambda: next((f for f in frames if f.get("op") == op), None),
            timeout,
            f"a gateway frame with op {op}",
        )

    async def wait_until_disconnected(self, timeout: float = WAIT_BOUND) -> None:  # noqa: ASYNC109
        """Wait until no gateway connection is open."""
        await self.recorder.wait_until(lambda: not self.gateway.connections or None, timeout, "clients to disconnect")

    def interaction_by_token(self, token: str) -> ix.FakeInteraction | None:
        """Return the interaction with this token, if any."""
        return next((i for i in self.interactions.values() if i.token == token), None)
