"""Shared pieces of the REST routes: errors, JSON answers, body parsing, lookups."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from aiohttp import BodyPartReader, web

from tests.fakediscord.messages import Upload
from tests.fakediscord.validation import Problem, form_errors

if TYPE_CHECKING:
    from tests.fakediscord.server import FakeDiscord

API = "/api/v10"
FAKE: web.AppKey[FakeDiscord] = web.AppKey("fake_discord")
BODY: web.RequestKey[Any] = web.RequestKey("body")
UPLOADS: web.RequestKey[list[Upload]] = web.RequestKey("uploads")
SENT_JSON: web.ResponseKey[Any] = web.ResponseKey("sent_json")
MAX_PARTS = 20
Payload = dict[str, Any]


class ApiError(Exception):
    """An error answer in Discord's shape: ``{"message": ..., "code": ...}``."""

    def __init__(self, status: int, code: int, message: str, errors: Payload | None = None) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status = status
        self.body: Payload = {"message": message, "code": code}
        if errors is not None:
            self.body["errors"] = errors

    def response(self) -> web.Response:
        """Render the error as an HTTP answer."""
        return json_response(self.body, status=self.status)


def invalid_form_body(problems: list[Problem]) -> ApiError:
    """Build Discord's ``50035 Invalid Form Body`` error for ``problems``."""
    return ApiError(400, 50035, "Invalid Form Body", form_errors(problems))


def json_response(data: Any, *, status: int = 200) -> web.Response:
    """Answer with JSON, keeping the data on the response for the request log."""
    # Exactly "application/json" (no charset): discord.py compares the header verbatim.
    body = json.dumps(data).encode()
    response = web.Response(status=status, body=body, headers={"Content-Type": "application/json"})
    response[SENT_JSON] = data
    return response


def no_content() -> web.Response:
    """Answer 204 No Content."""
    return web.Response(status=204)


def fake_of(request: web.Request) -> FakeDiscord:
    """Return the server a request arrived at."""
    return request.app[FAKE]


def body_of(request: web.Request) -> Payload:
    """Return the request's JSON (or ``payload_json``) body, ``{}`` when absent."""
    body = request.get(BODY)
    return body if isinstance(body, dict) else {}


def uploads_of(request: web.Request) -> list[Upload]:
    """Return the files of a multipart request."""
    uploads: list[Upload] = request.get(UPLOADS, [])  # Request.get is untyped; the key says list[Upload]
    return uploads


def snowflake(request: web.Request, name: str) -> int:
    """Read a snowflake path parameter; a malformed one is a 404 like on Discord."""
    value = request.match_info[name]
    if not value.isdigit():
        raise ApiError(404, 0, "404: Not Found")
    return int(value)


async def read_body(request: web.Request) -> tuple[Any, list[Upload]]:
    """Parse a JSON or multipart (``payload_json`` + ``files[n]``) body."""
    if not request.can_read_body:
        return None, []
    if request.content_type == "multipart/form-data":
        return await _read_multipart(request)
    raw = await request.read()
    return _loads(raw.decode() if raw else ""), []


def _loads(text: str) -> Any:
    if not text:
        return None
    try:
        return json.loads(text)
    except ValueError:
        raise ApiError(400, 50109, "The request body contains invalid JSON.") from None


async def _read_multipart(request: web.Request) -> tuple[Any, list[Upload]]:
    reader = await request.multipart()
    body: Any = None
    uploads: list[Upload] = []
    for _ in range(MAX_PARTS):
        part = await reader.next()
        if part is None:
            break
        if not isinstance(part, BodyPartReader):
            continue
        data = await part.read()
        if part.name == "payload_json":
            body = _loads(bytes(data).decode())
        elif part.filename:
            content_type = part.headers.get("Content-Type", "application/octet-stream")
            uploads.append(Upload(part.name or "", part.filename, bytes(data), content_type))
    return body, uploads
