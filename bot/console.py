"""``tracebot console``: paste an error in the terminal and see the reply the bot would post.

A paste is one submission, blank lines included: on a terminal the console turns on bracketed
paste, so whatever is pasted between the terminal's markers is taken whole (Enter sends it). Typed
or piped text ends at two empty lines in a row, or Ctrl-D. After a list of candidates, typing a
number shows that one. When the bot would post nothing, the console says so, and why.

The reply is built by the same builders the bot uses (``bot.views.answer_reply``) and drawn with
rich: the embed as a panel (its Discord markdown kept line for line), the components as a row of
buttons. ``/error ID``, ``/search WORDS``, ``/triage [STATUS]`` and ``/triage show ID`` work at the
prompt; Ctrl-D on an empty prompt ends it.
"""

from __future__ import annotations

import asyncio
import re
import sys
import termios
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from typing import IO, TextIO, TypeVar

import discord
from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.text import Text

from bot.embeds import search_embed
from bot.engine import Answer, Engine
from bot.triage_service import TriageService, parse_report_id
from bot.views import ReplyContent, answer_reply, record_reply
from bot.views.answer import pasted_message, shipped_for
from records.errors import TracebotError
from records.matching import Match

HELP = (
    "Paste an error or traceback: a paste is taken whole, blank lines included, where the terminal supports "
    "bracketed paste (press Enter after it). Otherwise, or when typing, end it with two empty lines or Ctrl-D. "
    "After a list of candidates, type a number to see one. Commands: /error ID, /search WORDS, "
    "/triage [new|linked|dismissed], /triage show ID, /help, /quit. Ctrl-D on an empty prompt quits."
)
PROMPT = "paste› "
SILENT = {
    "not_an_error": "The bot would stay silent: that does not look like a Python error. Paste the traceback, "
    "ideally all of it.",
    "unmatched": "The bot would stay silent: that looks like an error, but no record explains it yet. It would "
    "queue the paste for triage (redacted, grouped with the same error) for the maintainers to review.",
}
COMMANDS = frozenset({"/error", "/search", "/triage", "/help", "/quit", "/exit"})
PASTE_START, PASTE_END = "\x1b[200~", "\x1b[201~"  # what a terminal wraps a bracketed paste in
BRACKETED_ON, BRACKETED_OFF = "\x1b[?2004h", "\x1b[?2004l"
END_BLANK_LINES = 2
SEARCH_RESULTS = 10
TRIAGE_ROWS = 15
TRIAGE_SAMPLES = 2
PICKED_NOTE = "picked from the closest matches"
_INLINE = re.compile(r"\*\*([^*\n]+)\*\*|`([^`\n]+)`")
_BROKEN_FENCE = "`\u200b``"
T = TypeVar("T")


class PasteReader:
    """Turns lines of input into submissions: a paste whole, or a prompt command on its own line.

    A bracketed paste (between ``ESC[200~`` and ``ESC[201~``) is one submission however many blank
    lines it holds. Other text ends at two empty lines in a row or at end of input (Ctrl-D on a
    terminal, which then goes on reading). A first line that is a prompt command or a number stands
    alone. ``read`` returns None at end of input with nothing read.
    """

    def __init__(self, read_line: Callable[[], str]) -> None:
        self.read_line = read_line

    def read(self) -> str | None:
        """Return the next submission, or None at end of input."""
        lines: list[str] = []
        pasting = False
        blanks = 0
        while True:
            raw = self.read_line()
            if raw == "":
                return _joined(lines) if lines or pasting else None
            line = raw.rstrip("\r\n")
            if PASTE_START in line:
                before, _, line = line.partition(PASTE_START)
                if before.strip():
                    lines.append(before)
                pasting = True
            if pasting:
                if PASTE_END in line:
                    inside, _, after = line.partition(PASTE_END)
                    lines.append(inside + after)
                    return _joined(lines)
                lines.append(line)
                continue
            if not lines and not line.strip():
                continue  # Enter on an empty prompt
            if not lines and is_single_line(line):
                return line.strip()
            blanks = blanks + 1 if not line.strip() else 0
            if blanks >= END_BLANK_LINES:
                return _joined(lines)
            lines.append(line)


def is_single_line(line: str) -> bool:
    """Return whether a first line is a whole submission: a prompt command, or a candidate's number."""
    word = line.strip().split(" ", 1)[0]
    return word in COMMANDS or word.isdigit()


def _joined(lines: list[str]) -> str:
    return "\n".join(lines).strip("\n")


def discord_text(markdown: str) -> RenderableType:
    """Draw the Discord markdown embeds use, line for line: code blocks (never wrapped), quotes, **bold**."""
    pieces: list[RenderableType] = []
    prose, code = Text(), Text(no_wrap=True, overflow="ellipsis", style="cyan")
    in_code = False
    for line in markdown.split("\n"):
        if line.startswith("```"):
            if in_code:
                code.rstrip()
                pieces.append(code)
                code = Text(no_wrap=True, overflow="ellipsis", style="cyan")
            else:
                prose.rstrip()
                pieces.append(prose)
                prose = Text()
            in_code = not in_code
        elif in_code:
            code.append(line.replace(_BROKEN_FENCE, "```") + "\n")
        elif line.startswith("> "):
            prose.append("│ " + line[2:] + "\n", style="dim italic")
        else:
            _inline(prose, line)
            prose.append("\n")
    for text in (prose, code):
        text.rstrip()
        pieces.append(text)
    return Group(*(p for p in pieces if not isinstance(p, Text) or p.plain))


def _inline(text: Text, line: str) -> None:
    position = 0
    for found in _INLINE.finditer(line):
        text.append(line[position : found.start()])
        bold, code = found.group(1), found.group(2)
        if bold is not None:
            text.append(bold, style="bold")
        else:
            text.append(f"`{code}`", style="cyan")
        position = found.end()
    text.append(line[position:])


def embed_renderable(embed: discord.Embed) -> RenderableType:
    """Draw an embed as a rich panel: title, description, each field's name on its own line, footer."""
    parts: list[RenderableType] = [Text(embed.title or "", style="bold")]
    if embed.description:
        parts += [Text(), discord_text(embed.description)]
    for field in embed.fields:
        parts += [Text(), Text(field.name or "", style="bold"), discord_text(field.value or "")]
    if embed.footer.text:
        parts += [Text(), Text(embed.footer.text, style="dim")]
    colour = f"#{embed.colour.value:06x}" if embed.colour is not None else "white"
    return Panel(Group(*parts), border_style=colour)


def components_text(view: discord.ui.View) -> Text:
    """Draw a view's buttons as one line of bracketed labels; links and menus say how to use them here."""
    labels, notes = [], []
    for item in view.children:
        inner = getattr(item, "item", item)  # dynamic items wrap the real component
        if isinstance(inner, discord.ui.Button):
            emoji = f"{inner.emoji} " if inner.emoji else ""
            labels.append(f"[{emoji}{inner.label}]")
            if inner.url:
                notes.append(inner.url)
        elif isinstance(inner, discord.ui.Select):
            notes.append(f"Type a number (1-{len(inner.options)}) to see that one; /error ID shows any record.")
    return Text("\n".join(["  ".join(labels), *notes]), style="cyan")


def render_reply(content: ReplyContent) -> RenderableType:
    """Draw a reply the way the bot would post it."""
    return Group(embed_renderable(content.embed), components_text(content.view))


class ConsoleSession:
    """Reads pastes and commands, prints replies."""

    def __init__(
        self,
        engine: Engine,
        out: Console,
        read_line: Callable[[], str],
        triage: TriageService | None = None,
        *,
        prompt: bool = False,
    ) -> None:
        self.engine, self.out, self.triage, self.prompt = engine, out, triage, prompt
        self.reader = PasteReader(read_line)
        self.last: Answer | None = None  # the last ambiguous answer, whose candidates a number picks

    async def run(self) -> int:
        """Answer until /quit or end of input; return the exit status."""
        self.out.print(HELP, style="dim", markup=False)
        while True:
            if self.prompt:
                self.out.print(PROMPT, end="", markup=False)
            text = await in_thread(self.reader.read)
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
        elif command.isdigit() and not rest:
            await self.pick(int(command))
        else:
            await self.answer(text)

    async def answer(self, text: str) -> None:
        """Print the reply the bot would post to a paste, or say why it would post none."""
        answer = await self.engine.answer(text)
        content = answer_reply(answer, author_id=0)
        if content is None:
            self.out.print(SILENT.get(answer.result.status, "The bot would stay silent."), markup=False)
            return
        self.last = answer if content.status == "ambiguous" else None
        self.out.print(render_reply(content))

    async def pick(self, number: int) -> None:
        """Show the candidate with that number from the last list."""
        matches: tuple[Match, ...] = self.last.result.matches if self.last is not None else ()
        if not matches:
            self.out.print("There is no list to pick from: paste an error first.", markup=False)
            return
        if not 1 <= number <= len(matches):
            self.out.print(f"Pick a number from 1 to {len(matches)}.", markup=False)
            return
        assert self.last is not None
        match = matches[number - 1]
        record = self.last.record(match.id)
        if record is None:
            stored = await self.engine.records.get(match.id)
            if stored is None:
                self.out.print("That record is no longer available.", markup=False)
                return
            record = stored.record
        content = record_reply(
            record, match, author_id=0, note=PICKED_NOTE, pasted=pasted_message(self.last),
            shipped=shipped_for(record, self.last.shipped),
        )  # fmt: skip
        self.out.print(render_reply(content))

    async def show_record(self, ident: str) -> None:
        """Print one record as the bot's /error shows it."""
        stored = await self.engine.records.get(ident) if ident else None
        if stored is None:
            self.out.print(f"No record has the id or slug {ident!r}. Try /search WORDS.", markup=False)
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
            self.out.print(f"triage: {exc}", markup=False)

    async def _triage_list(self, status: str | None) -> None:
        if status not in (None, "new", "linked", "dismissed"):
            raise ValueError("status must be new, linked or dismissed")
        assert self.triage is not None
        groups = await self.triage.reports(status, TRIAGE_ROWS)  # type: ignore[arg-type]
        if not groups:
            self.out.print("No triage reports" + (f" with status {status}." if status else "."))
        for group in groups:
            self.out.print(
                f"#{group.id:<5} {group.status:<9} {group.count:>6}  {group.error_class}: {group.masked[:90]}",
                markup=False,
            )

    async def _triage_report(self, report_id: int) -> None:
        assert self.triage is not None
        report = await self.triage.show(report_id)
        group = report.group
        self.out.print(
            f"#{group.id} {group.status}, seen {group.count} times ({group.first_seen} .. {group.last_seen})",
            markup=False,
        )
        self.out.print(f"{group.error_class}: {group.masked}", markup=False)
        for sample in report.samples[:TRIAGE_SAMPLES]:
            self.out.print(Panel(Text(sample.text), title=f"sample {sample.created_at}", expand=False))


async def in_thread(function: Callable[[], T]) -> T:
    """Run a blocking read in a daemon thread, so that Ctrl-C or the end of the loop never waits on it."""
    loop = asyncio.get_running_loop()
    future: asyncio.Future[T] = loop.create_future()

    def settle(value: T | None, error: BaseException | None) -> None:
        if future.done():  # the awaiting task was cancelled
            return
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(value)  # type: ignore[arg-type]

    def target() -> None:
        value: T | None = None
        error: BaseException | None = None
        try:
            value = function()
        except BaseException as exc:  # handed to the awaiting task, which re-raises it
            error = exc
        with suppress(RuntimeError):  # the loop is closed: nobody waits for this line any more
            loop.call_soon_threadsafe(settle, value, error)

    threading.Thread(target=target, name="console-input", daemon=True).start()
    return await future


@contextmanager
def pastes_whole(stdin: TextIO, stdout: IO[str]) -> Iterator[bool]:
    """Turn on the terminal's bracketed paste while the console runs; yield whether it is on.

    The terminal echoes what it is sent, markers included: ECHOCTL off keeps them from showing
    as ``^[[200~``. Both settings are restored on the way out, however the console ends.
    """
    try:
        interactive = stdin.isatty() and stdout.isatty()
        saved = termios.tcgetattr(stdin.fileno()) if interactive else None
    except (termios.error, OSError, ValueError):  # not a terminal after all: pastes end at two empty lines
        saved = None
    if saved is None:
        yield False
        return
    quiet = list(saved)
    quiet[3] &= ~termios.ECHOCTL
    termios.tcsetattr(stdin.fileno(), termios.TCSANOW, quiet)
    stdout.write(BRACKETED_ON)
    stdout.flush()
    try:
        yield True
    finally:
        stdout.write(BRACKETED_OFF)
        stdout.flush()
        termios.tcsetattr(stdin.fileno(), termios.TCSADRAIN, saved)


async def run_console(
    engine: Engine, stdin: TextIO | None = None, out: Console | None = None, triage: TriageService | None = None
) -> int:
    """Run the console on the terminal (or the given streams); return the exit status."""
    source = stdin if stdin is not None else sys.stdin
    console = out or Console()
    with pastes_whole(source, console.file) as on_terminal:
        session = ConsoleSession(engine, console, source.readline, triage, prompt=on_terminal)
        return await session.run()
