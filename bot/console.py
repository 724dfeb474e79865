"""``tracebot console``: paste an error in the terminal and see the reply the bot would post.

The reply is built by the same builders the bot uses (``bot.views.answer_reply``) and drawn with
rich: the embed as a panel, the components as a row of buttons. ``/error ID`` and ``/search WORDS``
work at the prompt, and so do ``/triage [STATUS]`` and ``/triage show ID``; Ctrl-D ends it.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable
from typing import TextIO

import discord
from rich.console import Console, Group, RenderableType
from rich.markdown import Markdown
from rich.panel import Panel
from rich.text import Text

from bot.embeds import search_embed
from bot.engine import Engine
from bot.triage_service import TriageService, parse_report_id
from bot.views import ReplyContent, answer_reply, record_reply
from bot.views.answer import NO_ANSWER
from records.errors import TracebotError

HELP = (
    "Paste an error or traceback and end it with an empty line. Commands: /error ID, /search WORDS, "
    "/triage [new|linked|dismissed], /triage show ID, /help, /quit. Ctrl-D quits."
)
SEARCH_RESULTS = 10
TRIAGE_ROWS = 15
TRIAGE_SAMPLES = 2


def embed_renderable(embed: discord.Embed) -> RenderableType:
    """Draw an embed as a rich panel: title, description, fields, footer."""
    parts: list[RenderableType] = []
    if embed.description:
        parts.append(Markdown(embed.description))
    for field in embed.fields:
        parts.append(Text(field.name or "", style="bold"))
        parts.append(Markdown(field.value or ""))
    colour = f"#{embed.colour.value:06x}" if embed.colour is not None else "white"
    return Panel(
        Group(*parts),
        title=Text(embed.title or "", style="bold"),
        title_align="left",
        subtitle=embed.footer.text,
        subtitle_align="left",
        border_style=colour,
    )


def components_text(view: discord.ui.View) -> Text:
    """Draw a view's buttons and menus as one line of bracketed labels."""
    labels = []
    for item in view.children:
        inner = getattr(item, "item", item)  # dynamic items wrap the real component
        if isinstance(inner, discord.ui.Button):
            emoji = f"{inner.emoji} " if inner.emoji else ""
            link = f" {inner.url}" if inner.url else ""
            labels.append(f"[{emoji}{inner.label}{link}]")
        elif isinstance(inner, discord.ui.Select):
            labels.append(f"[▾ {inner.placeholder} ({len(inner.options)} choices; /error ID shows one)]")
    return Text("  ".join(labels), style="cyan")


def render_reply(content: ReplyContent) -> RenderableType:
    """Draw a reply the way the bot would post it."""
    return Group(embed_renderable(content.embed), components_text(content.view))


class ConsoleSession:
    """Reads pastes and commands, prints replies."""

    def __init__(
        self, engine: Engine, out: Console, read_line: Callable[[], str], triage: TriageService | None = None
    ) -> None:
        self.engine, self.out, self.read_line, self.triage = engine, out, read_line, triage

    async def run(self) -> int:
        """Answer until /quit or end of input; return the exit status."""
        self.out.print(HELP, style="dim", markup=False)
        while True:
            text = await self._read_paste()
            if text is None or text.strip() in ("/quit", "/exit"):
                return 0
            if text.strip():
                await self.handle(text)

    async def handle(self, text: str) -> None:
        """Answer one paste or prompt command."""
        command, _, rest = text.strip().partition(" ")
        if command == "/error":
            await self.show_record(rest.strip())
        elif command == "/search":
            await self.search(rest.strip())
        elif command == "/triage":
            await self.show_triage(rest.strip())
        elif command == "/help":
            self.out.print(HELP, markup=False)
        else:
            answer = await self.engine.answer(text)
            content = answer_reply(answer, author_id=0)
            self.out.print(render_reply(content) if content else NO_ANSWER[answer.result.status])

    async def show_record(self, ident: str) -> None:
        """Print one record as the bot's /error shows it."""
        stored = await self.engine.records.get(ident) if ident else None
        if stored is None:
            self.out.print(f"No record has the id or slug {ident!r}. Try /search WORDS.")
            return
        self.out.print(render_reply(record_reply(stored.record, None, author_id=0)))

    async def search(self, query: str) -> None:
        """Print the first page of search results."""
        if not query:
            self.out.print("Usage: /search WORDS")
            return
        matches = await self.engine.search(query, SEARCH_RESULTS)
        embed = search_embed(query, matches, start=1, page_number=1, pages=1, total=len(matches))
        self.out.print(embed_renderable(embed))

    async def show_triage(self, args: str) -> None:
        """``/triage [new|linked|dismissed]`` lists groups by count; ``/triage show ID`` shows one."""
        if self.triage is None:
            self.out.print("Triage is handled by `tracebot triage` (see `tracebot triage --help`).")
            return
        word, _, rest = args.partition(" ")
        try:
            if word == "show":
                await self._triage_report(parse_report_id(rest))
            else:
                await self._triage_list(word or None)
        except (TracebotError, ValueError) as exc:
            self.out.print(f"triage: {exc}")

    async def _triage_list(self, status: str | None) -> None:
        if status not in (None, "new", "linked", "dismissed"):
            raise ValueError("status must be new, linked or dismissed")
        assert self.triage is not None
        groups = await self.triage.reports(status, TRIAGE_ROWS)  # type: ignore[arg-type]
        if not groups:
            self.out.print("No triage reports" + (f" with status {status}." if status else "."))
        for group in groups:
            self.out.print(
                f"#{group.id:<5} {group.status:<9} {group.count:>6}  {group.error_class}: {group.masked[:90]}"
            )

    async def _triage_report(self, report_id: int) -> None:
        assert self.triage is not None
        report = await self.triage.show(report_id)
        group = report.group
        self.out.print(
            f"#{group.id} {group.status}, seen {group.count} times ({group.first_seen} .. {group.last_seen})"
        )
        self.out.print(f"{group.error_class}: {group.masked}")
        for sample in report.samples[:TRIAGE_SAMPLES]:
            self.out.print(Panel(sample.text, title=f"sample {sample.created_at}", expand=False))

    async def _read_paste(self) -> str | None:
        """Read lines until an empty one (a /command needs only its line); None at end of input."""
        lines: list[str] = []
        while True:
            line = await asyncio.to_thread(self.read_line)
            if line == "":  # end of input
                return "\n".join(lines) if lines else None
            line = line.rstrip("\n")
            if not lines and line.startswith("/"):
                return line
            if not line.strip():
                if lines:
                    return "\n".join(lines)
                continue
            lines.append(line)


async def run_console(
    engine: Engine, stdin: TextIO | None = None, out: Console | None = None, triage: TriageService | None = None
) -> int:
    """Run the console on the terminal (or the given streams); return the exit status."""
    source = stdin if stdin is not None else sys.stdin
    session = ConsoleSession(engine, out or Console(), source.readline, triage)
    return await session.run()
