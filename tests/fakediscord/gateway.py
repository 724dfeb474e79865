"""The gateway websocket: HELLO, IDENTIFY/READY, heartbeats, RESUME, and event dispatch.

JSON encoding only. When the client asks for ``compress=zlib-stream`` (discord.py does)
every payload goes out as a binary frame from one shared ``zlib`` stream ending in
``Z_SYNC_FLUSH``; otherwise (no ``compress``, or ``zstd-stream`` which we cannot produce)
frames are plain text, which discord.py also accepts.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import zlib
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

if TYPE_CHECKING:
    from tests.fakediscord.server import FakeDiscord

log = logging.getLogger(__name__)
Payload = dict[str, Any]

# Opcodes and close codes, from the Discord documentation.
DISPATCH, HEARTBEAT, IDENTIFY, PRESENCE, VOICE, RESUME, RECONNECT, MEMBERS, INVALID, HELLO, ACK = (
    0, 1, 2, 3, 4, 6, 7, 8, 9, 10, 11,
)  # fmt: skip
GUILDS, GUILD_MEMBERS, GUILD_MESSAGES, DIRECT_MESSAGES, MESSAGE_CONTENT = 1, 1 << 1, 1 << 9, 1 << 12, 1 << 15
PRIVILEGED = GUILD_MEMBERS | (1 << 8) | MESSAGE_CONTENT
MAX_FRAMES = 100_000
_GUILD_EVENTS = frozenset({"GUILD_CREATE", "THREAD_CREATE", "THREAD_UPDATE", "CHANNEL_CREATE", "CHANNEL_UPDATE"})
_MESSAGE_EVENTS = frozenset({"MESSAGE_CREATE", "MESSAGE_UPDATE", "MESSAGE_DELETE"})


class CloseGateway(Exception):
    """Close the socket with a Discord close code."""

    def __init__(self, code: int, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason


class Connection:
    """One websocket, its compression stream, and the session it carries."""

    def __init__(self, ws: web.WebSocketResponse, *, zlib_stream: bool) -> None:
        self.ws = ws
        self.session: Session | None = None
        self._zlib = zlib.compressobj() if zlib_stream else None
        self._lock = asyncio.Lock()

    async def send(self, payload: Payload) -> None:
        """Encode and send one payload, compressed when the client asked for zlib-stream."""
        text = json.dumps(payload, separators=(",", ":"))
        async with self._lock:
            if self.ws.closed:
                return
            try:
                if self._zlib is None:
                    await self.ws.send_str(text)
                else:
                    frame = self._zlib.compress(text.encode()) + self._zlib.flush(zlib.Z_SYNC_FLUSH)
                    await self.ws.send_bytes(frame)
            except (ConnectionError, RuntimeError):
                # The client hung up between our check and the write; it will resume or is gone.
                log.debug("dropped %s to a closing socket", payload.get("t") or payload.get("op"))


@dataclass
class Session:
    """A gateway session: keeps numbering and buffering events while its socket is gone, for RESUME."""

    session_id: str
    intents: int
    identify: Payload
    conn: Connection | None = None
    seq: int = 0
    sent: deque[Payload] = field(default_factory=lambda: deque(maxlen=1000))
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    async def dispatch(self, event: str, data: Payload) -> None:
        """Number the event, keep it for RESUME, and send it if a socket carries this session."""
        async with self.lock:
            self.seq += 1
            payload = {"op": DISPATCH, "t": event, "s": self.seq, "d": data}
            self.sent.append(payload)
            if self.conn is not None:
                await self.conn.send(payload)

    def owns(self, guild_id: int | None) -> bool:
        """Tell whether this session's shard carries a guild's events (Discord's rule; DMs go to shard 0)."""
        shard = self.identify.get("shard")
        if not shard:
            return True
        shard_id, count = int(shard[0]), int(shard[1])
        return (0 if guild_id is None else (guild_id >> 22) % count) == shard_id

    async def attach(self, conn: Connection, after_seq: int) -> None:
        """Move the session onto ``conn``: replay what came after ``after_seq``, then RESUMED."""
        async with self.lock:
            for payload in [p for p in self.sent if p["s"] > after_seq]:
                await conn.send(payload)
            self.conn, conn.session = conn, self
            self.seq += 1
            await conn.send({"op": DISPATCH, "t": "RESUMED", "s": self.seq, "d": {}})


def shape_for(event: str, data: Payload, intents: int, bot_id: str) -> Payload | None:
    """Return the event as a client with ``intents`` would get it, or ``None`` if it gets nothing."""
    if event in _GUILD_EVENTS and not intents & GUILDS:
        return None
    if event in _MESSAGE_EVENTS:
        needed = GUILD_MESSAGES if data.get("guild_id") else DIRECT_MESSAGES
        if not intents & needed:
            return None
        if event != "MESSAGE_DELETE" and not intents & MESSAGE_CONTENT and not _content_visible(data, bot_id):
            data = data | {"content": "", "embeds": [], "attachments": [], "components": []}
    return data


def _content_visible(message: Payload, bot_id: str) -> bool:
    """Without the MESSAGE_CONTENT intent, Discord still shows DMs, own messages and mentions."""
    if not message.get("guild_id") or message.get("author", {}).get("id") == bot_id:
        return True
    return any(user.get("id") == bot_id for user in message.get("mentions", []))


class Gateway:
    """All gateway connections of one fake Discord."""

    def __init__(self, fake: FakeDiscord, *, heartbeat_interval_ms: int = 41_250) -> None:
        self.fake = fake
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.connections: set[Connection] = set()
        self.sessions: dict[str, Session] = {}
        self.handshakes: list[dict[str, str]] = []
        self.close_codes: list[int | None] = []
        self._ops: dict[int, Callable[[Connection, Any], Awaitable[None]]] = {
            HEARTBEAT: self._heartbeat,
            IDENTIFY: self._identify,
            RESUME: self._resume,
            MEMBERS: self._request_members,
            PRESENCE: self._ignore,
            VOICE: self._ignore,
        }

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        """Serve one websocket until either side closes it."""
        ws = web.WebSocketResponse(autoping=True, max_msg_size=4 * 1024 * 1024)
        await ws.prepare(request)
        self.handshakes.append(dict(request.query))
        if request.query.get("encoding", "json") != "json":
            await ws.close(code=4002, message=b"Only JSON encoding is supported here")
            return ws
        conn = Connection(ws, zlib_stream=request.query.get("compress") == "zlib-stream")
        self.connections.add(conn)
        code = None
        try:
            await conn.send({"op": HELLO, "d": {"heartbeat_interval": self.heartbeat_interval_ms}})
            await self._read_loop(conn)
        except CloseGateway as exc:
            code = exc.code
            await ws.close(code=exc.code, message=exc.reason.encode())
        finally:
            self.connections.discard(conn)
            # Our close code when we closed, else the client's.
            self.close_codes.append(code if code is not None else ws.close_code)
            self._detach(conn)
            await self.fake.recorder.notify()
        return ws

    def _detach(self, conn: Connection) -> None:
        """Leave the session resumable, unless the client closed with 1000/1001, which ends it."""
        session = conn.session
        if session is None or session.conn is not conn:
            return
        session.conn = None
        if conn.ws.close_code in (1000, 1001):
            self.sessions.pop(session.session_id, None)

    async def _read_loop(self, conn: Connection) -> None:
        # Discord drops a socket after ~1.5 heartbeat intervals of silence.
        timeout = self.heartbeat_interval_ms / 1000 * 1.5
        for _ in range(MAX_FRAMES):
            try:
                msg = await conn.ws.receive(timeout=timeout)
            except TimeoutError:
                raise CloseGateway(4009, "Session timed out") from None
            if msg.type != WSMsgType.TEXT:
                return
            await self._on_payload(conn, msg.data)

    async def _on_payload(self, conn: Connection, text: str) -> None:
        try:
            payload = json.loads(text)
        except ValueError:
            raise CloseGateway(4002, "Decode error") from None
        self.fake.recorder.gateway_frames.append(payload)
        await self.fake.recorder.notify()
        handler = self._ops.get(payload.get("op"))
        if handler is None:
            raise CloseGateway(4001, "Unknown opcode")
        if conn.session is None and payload["op"] not in (HEARTBEAT, IDENTIFY, RESUME):
            raise CloseGateway(4003, "Not authenticated")
        await handler(conn, payload.get("d"))

    async def _heartbeat(self, conn: Connection, _data: Any) -> None:
        await conn.send({"op": ACK})

    async def _ignore(self, _conn: Connection, _data: Any) -> None:
        return None

    async def _identify(self, conn: Connection, data: Payload) -> None:
        if conn.session is not None:
            raise CloseGateway(4005, "Already authenticated")
        if data.get("token") != self.fake.token:
            raise CloseGateway(4004, "Authentication failed")
        intents = data.get("intents")
        if not isinstance(intents, int) or intents < 0 or intents >= 1 << 26:
            raise CloseGateway(4013, "Invalid intent(s)")
        if intents & PRIVILEGED & ~self.fake.allowed_privileged_intents:
            raise CloseGateway(4014, "Disallowed intent(s)")
        shard = data.get("shard")
        if shard is not None and not (
            isinstance(shard, list)
            and len(shard) == 2
            and all(isinstance(n, int) for n in shard)
            and 0 <= shard[0] < shard[1]
        ):
            raise CloseGateway(4010, "Invalid shard")
        session = Session(secrets.token_hex(16), intents, data, conn=conn)
        self.sessions[session.session_id] = session
        conn.session = session
        guilds = [guild_id for guild_id in self.fake.world.guilds if session.owns(guild_id)]
        await session.dispatch("READY", self.fake.ready_payload(session.session_id, shard, guilds))
        for guild_id in guilds:
            await session.dispatch("GUILD_CREATE", self.fake.world.guild_create(guild_id))

    async def _resume(self, conn: Connection, data: Payload) -> None:
        session = self.sessions.get(data.get("session_id", ""))
        if session is None or data.get("token") != self.fake.token:
            await conn.send({"op": INVALID, "d": False})
            return
        await session.attach(conn, data.get("seq") or 0)

    async def _request_members(self, conn: Connection, data: Payload) -> None:
        guild_id = int(data["guild_id"])
        members = list(self.fake.world.members.get(guild_id, {}).values())
        if data.get("query"):
            query = str(data["query"]).lower()
            members = [m for m in members if m["user"]["username"].lower().startswith(query)]
        if data.get("user_ids"):
            wanted = {str(uid) for uid in data["user_ids"]}
            members = [m for m in members if m["user"]["id"] in wanted]
        chunk = {"guild_id": str(guild_id), "members": members, "chunk_index": 0, "chunk_count": 1}
        if data.get("nonce"):
            chunk["nonce"] = data["nonce"]
        assert conn.session is not None
        await conn.session.dispatch("GUILD_MEMBERS_CHUNK", chunk)

    async def dispatch(self, event: str, data: Payload) -> int:
        """Queue an event on every live session allowed to see it; return how many sockets got it now."""
        delivered = 0
        bot_id = self.fake.bot_user["id"]
        guild = data.get("guild_id")
        for session in list(self.sessions.values()):
            if not session.owns(int(guild) if guild else None):
                continue
            shaped = shape_for(event, data, session.intents, bot_id)
            if shaped is not None:
                delivered += session.conn is not None
                await session.dispatch(event, shaped)
        return delivered

    async def send_op(self, op: int, data: Any = None) -> None:
        """Send a bare opcode (e.g. RECONNECT) to every connection."""
        for conn in list(self.connections):
            await conn.send({"op": op, "d": data})

    async def close_all(self, code: int = 1001) -> None:
        """Close every socket (used on shutdown)."""
        for conn in list(self.connections):
            await conn.ws.close(code=code, message=b"Server shutting down")

    def ready_count(self) -> int:
        """Return how many sockets carry a session (completed IDENTIFY or RESUME)."""
        return sum(1 for session in self.sessions.values() if session.conn is not None)
