"""Read the raw text behind paste-site links: allow-listed hosts only, with a size cap and a timeout.

People paste long tracebacks to gist, pastebin, hastebin, paste.gg or mclo.gs and post the link.
``find_links`` picks the links of allowed hosts out of a message (pure); ``raw_url`` turns a page
link into the address of its raw text (pure); ``PasteFetcher`` downloads it. Nothing is fetched from
a host that is not on the allow-list, redirects included, and a paste over the cap is not read.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Protocol

import aiohttp
import yarl

from records.errors import PasteTooLarge
from records.text import decode_bytes

log = logging.getLogger(__name__)

MAX_LINKS = 3
MAX_REDIRECTS = 3
_CHUNK = 64 * 1024
_URL = re.compile(r"https?://[^\s<>|`\"'()\[\]{}]+", re.IGNORECASE)
# Hosts our own rewrites point at: always allowed as fetch targets, never matched in messages.
RAW_HOSTS = frozenset({"gist.githubusercontent.com", "api.paste.gg", "api.mclo.gs", "www.toptal.com"})


class PasteSource(Protocol):
    """Where the paste listener gets the text behind links (injected; tests use a fake)."""

    def links(self, text: str) -> list[str]:
        """Return the paste links in a message that will be read."""
        ...

    async def fetch(self, url: str) -> str | None:
        """Return the raw text behind a link, or None when it cannot or may not be read."""
        ...


@dataclass(frozen=True, slots=True)
class RawTarget:
    """Where a paste's raw text is, and whether it comes wrapped in paste.gg's JSON API."""

    url: str
    paste_gg_json: bool = False


def find_links(text: str, hosts: Collection[str], limit: int = MAX_LINKS) -> list[str]:
    """Return up to ``limit`` distinct links in ``text`` whose host is on the allow-list."""
    found: list[str] = []
    for match in _URL.finditer(text):
        url = match.group(0).rstrip(".,;:!?")
        host = (yarl.URL(url).host or "").lower() if _parses(url) else ""
        if host in hosts and url not in found:
            found.append(url)
            if len(found) == limit:
                break
    return found


def _parses(url: str) -> bool:
    try:
        yarl.URL(url)
    except ValueError:
        return False
    return True


def _gist(parts: list[str], url: str) -> str | None:
    if not parts or "raw" in parts:
        return None
    return f"https://gist.githubusercontent.com/{parts[0]}/{parts[1]}/raw" if len(parts) > 1 else f"{url}/raw"


def _one_id(base: str) -> Callable[[list[str], str], str | None]:
    def rewrite(parts: list[str], _url: str) -> str | None:
        return f"{base}{parts[0].split('.')[0]}" if len(parts) == 1 else None

    return rewrite


def _toptal(parts: list[str], _url: str) -> str | None:
    if parts[:2] == ["developers", "hastebin"] and len(parts) == 3:
        return f"https://www.toptal.com/developers/hastebin/raw/{parts[2].split('.')[0]}"
    return None


def _paste_gg(parts: list[str], _url: str) -> str | None:
    if len(parts) >= 2 and parts[0] == "p":
        return f"https://api.paste.gg/v1/pastes/{parts[2] if len(parts) > 2 else parts[1]}?full=true"
    return None


_REWRITES: dict[str, Callable[[list[str], str], str | None]] = {
    "gist.github.com": _gist,
    "pastebin.com": _one_id("https://pastebin.com/raw/"),
    "hastebin.com": _one_id("https://hastebin.com/raw/"),
    "toptal.com": _toptal,
    "www.toptal.com": _toptal,
    "paste.gg": _paste_gg,
    "mclo.gs": _one_id("https://api.mclo.gs/1/raw/"),
}


def raw_url(url: str) -> RawTarget:
    """Return where the raw text of a paste page lives (known sites are rewritten; others kept)."""
    parsed = yarl.URL(url)
    host = (parsed.host or "").lower()
    rewrite = _REWRITES.get(host)
    raw = rewrite([p for p in parsed.path.split("/") if p], url) if rewrite else None
    return RawTarget(raw, host == "paste.gg") if raw else RawTarget(url)


def paste_gg_text(body: str) -> str | None:
    """Return the text of every file in a paste.gg API answer, or None if it is not one."""
    try:
        files = json.loads(body)["result"]["files"]
        return "\n\n".join(str(f["content"]["value"]) for f in files)
    except (ValueError, KeyError, TypeError):
        return None


class PasteFetcher:
    """Downloads pastes over a shared aiohttp session (created and closed by the entry point)."""

    def __init__(
        self, session: aiohttp.ClientSession, *, hosts: Collection[str], max_bytes: int, timeout: float
    ) -> None:
        self._session = session
        self.hosts = frozenset(h.lower() for h in hosts)
        self.max_bytes = max_bytes
        self.timeout = timeout

    def links(self, text: str) -> list[str]:
        """Return the allow-listed paste links in ``text``."""
        return find_links(text, self.hosts)

    async def fetch(self, url: str) -> str | None:
        """Return the raw text behind ``url``, or None (not allowed, too big, slow, or failed)."""
        host = yarl.URL(url).host or "?"
        if host.lower() not in self.hosts:
            return None
        target = raw_url(url)
        try:
            async with asyncio.timeout(self.timeout):
                body = await self._get(target.url)
        except (aiohttp.ClientError, TimeoutError, PasteTooLarge, ValueError) as exc:
            log.info("paste on %s not read: %s", host, type(exc).__name__)
            return None
        if body is None:
            return None
        return paste_gg_text(body) if target.paste_gg_json else body

    async def _get(self, url: str) -> str | None:
        for _ in range(MAX_REDIRECTS + 1):
            async with self._session.get(url, allow_redirects=False) as response:
                if response.status in (301, 302, 303, 307, 308):
                    url = str(response.url.join(yarl.URL(response.headers.get("Location", ""))))
                    if (yarl.URL(url).host or "").lower() not in self.hosts | RAW_HOSTS:
                        return None
                    continue
                if response.status != 200:
                    return None
                return await self._read_capped(response)
        return None

    async def _read_capped(self, response: aiohttp.ClientResponse) -> str:
        if response.content_length is not None and response.content_length > self.max_bytes:
            raise PasteTooLarge
        data = bytearray()
        async for chunk in response.content.iter_chunked(_CHUNK):
            data += chunk
            if len(data) > self.max_bytes:
                raise PasteTooLarge
        return decode_bytes(data)
