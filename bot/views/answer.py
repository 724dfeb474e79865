"""Build what the bot posts for a match result: the embed and its components, as plain values.

``answer_reply`` is shared by the paste listener, the slash commands and the console, so all three
show the same thing. It returns None for results that get no reply (unmatched, not an error).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from urllib.parse import urlsplit

import discord

from bot.embeds import ambiguous_embed, answer_embed, headline, record_from_match
from bot.embeds.answer import location
from bot.embeds.text import clip, inline_code
from bot.engine import Answer
from bot.views.components import DeleteButton, PickSelect, VoteButton
from records.matching import Match
from records.model import Record

SELECT_OPTIONS = 25
OPTION_TEXT = 100
URL_LIMIT = 512
LINK_HOSTS = ("github.com",)  # record files name their links; only these hosts get a button
NO_ANSWER = {
    "not_an_error": "That does not look like a Python error. Paste the traceback, ideally all of it.",
    "unmatched": "That looks like an error, but no record explains it yet.",
    "matched": "No answer.",
    "ambiguous": "No answer.",
}


@dataclass(frozen=True, slots=True)
class ReplyContent:
    """What to post: the embed, the components, and what they show (for the reply's bookkeeping)."""

    status: str
    record_ids: tuple[str, ...]
    embed: discord.Embed
    view: discord.ui.View


def link_allowed(url: str, hosts: Collection[str] = LINK_HOSTS) -> bool:
    """Tell whether ``url`` may be a button: https, short enough, and on one of ``hosts`` (or below one)."""
    if not url.startswith("https://") or len(url) > URL_LIMIT:
        return False
    host = (urlsplit(url).hostname or "").lower()
    return any(host == allowed or host.endswith("." + allowed) for allowed in hosts)


def source_button(record: Record, hosts: Collection[str] = LINK_HOSTS) -> discord.ui.Button[discord.ui.View] | None:
    """Return a link button to the pinned source line, if the record's link is on an allowed host."""
    url = record.github_url or ""
    if not link_allowed(url, hosts):
        return None
    label = clip(f"Source: {location(record.file_path, record.line_number) or 'GitHub'}", 80)
    return discord.ui.Button(style=discord.ButtonStyle.link, url=url, label=label)


def answer_view(
    record: Record, *, author_id: int, deletable: bool = True, link_hosts: Collection[str] = LINK_HOSTS
) -> discord.ui.View:
    """Build Helpful / Not helpful / Delete (unless the answer is ephemeral) and the source link."""
    view = discord.ui.View(timeout=None)
    view.add_item(VoteButton(record.id, helpful=True))
    view.add_item(VoteButton(record.id, helpful=False))
    if deletable:
        view.add_item(DeleteButton(author_id))
    link = source_button(record, link_hosts)
    if link is not None:
        view.add_item(link)
    return view


def pick_options(matches: Sequence[Match], *, pasted: str | None = None) -> list[discord.SelectOption]:
    """Return one menu option per answer (at most 25; ids too long for a value are left out)."""
    options = []
    for match in matches:
        if len(match.id) > OPTION_TEXT:
            continue
        where = location(match.file_path, match.line_number) or "unknown location"
        options.append(
            discord.SelectOption(
                label=headline(match.error_class, match.error_message, OPTION_TEXT, pasted),
                value=match.id,
                description=clip(f"{match.score:.0f}% · {where}", OPTION_TEXT),
            )
        )
        if len(options) == SELECT_OPTIONS:
            break
    return options


def choices_view(
    matches: Sequence[Match], *, author_id: int, deletable: bool = True, pasted: str | None = None
) -> discord.ui.View:
    """Build the record picker under an ambiguous answer (plus Delete unless it is ephemeral)."""
    view = discord.ui.View(timeout=None)
    options = pick_options(matches, pasted=pasted)
    if options:
        view.add_item(PickSelect(author_id, options))
    if deletable:
        view.add_item(DeleteButton(author_id))
    return view


def record_reply(
    record: Record,
    match: Match | None,
    *,
    author_id: int,
    deletable: bool = True,
    note: str | None = None,
    pasted: str | None = None,
    shipped: Sequence[str] = (),
    link_hosts: Collection[str] = LINK_HOSTS,
) -> ReplyContent:
    """Build the reply that shows one record (titled with ``pasted``'s values when it fits the record).

    Its source link is a button only on ``link_hosts``; another host's link is shown as text.
    """
    url = record.github_url or ""
    if url and not link_allowed(url, link_hosts):
        note = " · ".join(n for n in (note, f"source link (not opened from here): {inline_code(url, 300)}") if n)
    embed = answer_embed(record, match, note=note, pasted=pasted, shipped=shipped)
    view = answer_view(record, author_id=author_id, deletable=deletable, link_hosts=link_hosts)
    return ReplyContent("matched", (record.id,), embed, view)


def pasted_message(answer: Answer) -> str | None:
    """Return the message of the error the answer is for, as the paste shows it."""
    error = answer.result.error or answer.result.extraction.primary
    return error.message if error is not None else None


def shipped_for(record: Record, shipped: Mapping[str, tuple[str, ...]]) -> tuple[str, ...]:
    """Return the versions of the record's library that tracebot holds (none without a repository)."""
    return shipped.get(record.repo, ()) if record.repo else ()


def answer_reply(
    answer: Answer, *, author_id: int, deletable: bool = True, link_hosts: Collection[str] = LINK_HOSTS
) -> ReplyContent | None:
    """Build the reply to a match result; None when the result gets no reply."""
    result = answer.result
    pasted = pasted_message(answer)
    if result.status == "matched" and result.matches:
        best = result.matches[0]
        record = answer.record(best.id) or record_from_match(best)
        shipped = shipped_for(record, answer.shipped)
        return record_reply(
            record, best, author_id=author_id, deletable=deletable, pasted=pasted, shipped=shipped,
            link_hosts=link_hosts,
        )  # fmt: skip
    if result.status == "ambiguous" and result.matches:
        view = choices_view(result.matches, author_id=author_id, deletable=deletable, pasted=pasted)
        embed = ambiguous_embed(result.matches, pasted=pasted)
        return ReplyContent("ambiguous", tuple(m.id for m in result.matches), embed, view)
    return None
