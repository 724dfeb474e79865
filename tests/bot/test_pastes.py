"""Paste links: which are read, their raw addresses, and the fetcher's allow-list, size cap and timeout."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
from aiohttp import web
from aiohttp.test_utils import TestServer

from bot.pastes import PasteFetcher, find_links, paste_gg_text, raw_url
from bot.settings import DEFAULT_PASTE_HOSTS

TRACEBACK = "Traceback (most recent call last):\nKeyError: 'x'\n"


def test_find_links_keeps_allowed_hosts_only_and_at_most_three() -> None:
    text = (
        "see https://pastebin.com/abc, also <https://evil.example/x> and https://gist.github.com/u/1. "
        "https://mclo.gs/q https://paste.gg/p/a/b https://pastebin.com/abc"
    )
    assert find_links(text, DEFAULT_PASTE_HOSTS) == [
        "https://pastebin.com/abc",
        "https://gist.github.com/u/1",
        "https://mclo.gs/q",
    ]
    assert find_links("http://[bad", DEFAULT_PASTE_HOSTS) == []


@pytest.mark.parametrize(
    ("url", "raw"),
    [
        ("https://gist.github.com/alice/0123abcd", "https://gist.githubusercontent.com/alice/0123abcd/raw"),
        ("https://gist.github.com/0123abcd", "https://gist.github.com/0123abcd/raw"),
        ("https://gist.githubusercontent.com/a/b/raw/c/f.txt", "https://gist.githubusercontent.com/a/b/raw/c/f.txt"),
        ("https://pastebin.com/XyZ12", "https://pastebin.com/raw/XyZ12"),
        ("https://pastebin.com/raw/XyZ12", "https://pastebin.com/raw/XyZ12"),
        ("https://hastebin.com/ucaqiqe.py", "https://hastebin.com/raw/ucaqiqe"),
        (
            "https://www.toptal.com/developers/hastebin/ucaqiqe.py",
            "https://www.toptal.com/developers/hastebin/raw/ucaqiqe",
        ),
        ("https://paste.gg/p/anonymous/5f2e", "https://api.paste.gg/v1/pastes/5f2e?full=true"),
        ("https://mclo.gs/AbCd", "https://api.mclo.gs/1/raw/AbCd"),
        ("http://127.0.0.1:8080/raw/p1", "http://127.0.0.1:8080/raw/p1"),
    ],
)
def test_raw_url(url: str, raw: str) -> None:
    assert raw_url(url).url == raw


def test_paste_gg_json_is_unwrapped() -> None:
    body = json.dumps({"result": {"files": [{"content": {"value": "a"}}, {"content": {"value": "b"}}]}})
    assert paste_gg_text(body) == "a\n\nb"
    assert paste_gg_text("<html>") is None and raw_url("https://paste.gg/p/x/y").paste_gg_json


RELEASE = web.AppKey("release", asyncio.Event)


async def _slow(request: web.Request) -> web.Response:
    # Answers only when the fixture lets go: a handler still asleep when the test's loop closed left
    # its connection to be collected in a later test (an "unclosed transport" error there).
    await request.app[RELEASE].wait()
    return web.Response(text=TRACEBACK)


async def _streamed(request: web.Request) -> web.StreamResponse:
    response = web.StreamResponse()
    await response.prepare(request)
    for _ in range(10):
        await response.write(b"x" * 1000)
    return response


def _answer(response: web.StreamResponse | str | int) -> Any:
    async def handler(_request: web.Request) -> web.StreamResponse:
        if isinstance(response, str):
            return web.Response(text=response)
        if isinstance(response, int):
            return web.Response(status=response)
        return response

    return handler


async def _redirect_away(_request: web.Request) -> web.Response:
    raise web.HTTPFound("https://evil.example/x")


async def _redirect_home(_request: web.Request) -> web.Response:
    raise web.HTTPFound("/raw/ok")


@pytest.fixture(name="server")
async def server_fixture() -> AsyncIterator[TestServer]:
    """A loopback paste site: raw text, a big paste, a streamed one, a slow one, redirects."""
    app = web.Application()
    app.router.add_get("/raw/ok", _answer(TRACEBACK))
    app.router.add_get("/raw/big", _answer("x" * 5000))
    app.router.add_get("/raw/streamed", _streamed)
    app.router.add_get("/raw/slow", _slow)
    app.router.add_get("/raw/missing", _answer(404))
    app.router.add_get("/go/elsewhere", _redirect_away)
    app.router.add_get("/go/home", _redirect_home)
    app[RELEASE] = asyncio.Event()
    server = TestServer(app, host="127.0.0.1")
    await server.start_server()
    yield server
    app[RELEASE].set()
    await server.close()


@pytest.fixture(name="fetcher")
async def fetcher_fixture() -> AsyncIterator[PasteFetcher]:
    """A fetcher allowing the loopback server, capped at 2,000 bytes and two seconds.

    Two, not half a second: the slow paste never answers, and a loopback answer on a machine loaded
    by other jobs must never take as long as the cap.
    """
    async with aiohttp.ClientSession() as session:
        yield PasteFetcher(session, hosts=["127.0.0.1"], max_bytes=2000, timeout=2.0)


async def test_fetch_reads_allowed_pastes_and_follows_local_redirects(
    server: TestServer, fetcher: PasteFetcher
) -> None:
    assert await fetcher.fetch(str(server.make_url("/raw/ok"))) == TRACEBACK
    assert await fetcher.fetch(str(server.make_url("/go/home"))) == TRACEBACK
    assert fetcher.links(f"log: {server.make_url('/raw/ok')}") == [str(server.make_url("/raw/ok"))]


@pytest.mark.parametrize("path", ["/raw/big", "/raw/streamed", "/raw/slow", "/raw/missing", "/go/elsewhere"])
async def test_fetch_refuses_big_slow_missing_and_redirected_pastes(
    server: TestServer, fetcher: PasteFetcher, path: str
) -> None:
    assert await fetcher.fetch(str(server.make_url(path))) is None


async def test_fetch_never_contacts_a_host_off_the_list(fetcher: PasteFetcher) -> None:
    assert await fetcher.fetch("https://evil.example/raw/x") is None
