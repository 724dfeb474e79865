"""``tracebot console``: a paste is one submission, blank lines included; numbers pick; silence is said.

Most tests drive the console with a fake input stream; the last ones run ``tracebot console`` on a
real pseudo-terminal and send what a terminal sends for a bracketed paste.
"""

from __future__ import annotations

import io
import os
import pty
import select
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from rich.console import Console

from bot.cli import main
from bot.console import PASTE_END, PASTE_START, PasteReader, run_console
from bot.engine import Answer, Engine
from bot.settings import Settings
from bot.triage_service import TriageService
from records.extraction import extract
from records.matching import Match, MatchResult
from records.model import Record
from records.triage import PasteOrigin
from storage.database import Database
from storage.importer import import_paths
from tests.bot.simbot import CACHE, STATEFUL
from tests.conftest import ROOT, SEED_IDS, SEEDS_JSONL

CHAINED = (
    "Traceback (most recent call last):\n"
    '  File "/home/a/spec.py", line 10, in <module>\n'
    "    cfg = settings['draft']\n"
    "KeyError: 'draft'\n"
    "\n"
    "During handling of the above exception, another exception occurred:\n"
    "\n" + STATEFUL
)
JUPYTER = (
    "---------------------------------------------------------------------------\n"
    "ValueError                                Traceback (most recent call last)\n"
    "Cell In[3], line 1\n"
    "----> 1 model.generate(**inputs, assistant_model=draft)\n"
    "\n"
    "File ~/.venv/lib/python3.11/site-packages/transformers/generation/utils.py:1581, in GenerationMixin.generate(self)\n"
    "   1579 if self._is_stateful:\n"
    "-> 1581     raise ValueError(\n"
    "\n"
    "ValueError: assisted generation is not supported with stateful models, such as MambaForCausalLM\n"
)
PANEL = "╭"  # the top-left corner of each reply drawn


@pytest.fixture(name="engine")
async def engine_fixture(db: Database) -> AsyncIterator[Engine]:
    """An engine over the seed records."""
    await import_paths(db, [SEEDS_JSONL])
    yield await Engine.load(db)


async def run(engine: Engine, typed: str) -> str:
    """Run a console session on ``typed`` and return what it printed."""
    out = io.StringIO()
    status = await run_console(engine, io.StringIO(typed), Console(file=out, width=120, color_system=None))
    assert status == 0
    return out.getvalue()


def submissions(typed: str) -> list[str]:
    """Return what the reader makes of ``typed``, submission by submission."""
    reader, found = PasteReader(io.StringIO(typed).readline), []
    while (text := reader.read()) is not None:
        found.append(text)
    return found


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("a\n\nb\n", ["a\n\nb"]),  # one empty line belongs to the paste
        ("a\n\nb\n\n\nc\n", ["a\n\nb", "c"]),  # two end it
        ("\n\n\na\n", ["a"]),  # Enter on an empty prompt is nothing
        (f"{PASTE_START}a\n\n\n\nb{PASTE_END}\n", ["a\n\n\n\nb"]),  # a bracketed paste is whole
        (f"{PASTE_START}a\nb\n{PASTE_END}\n/help\n", ["a\nb", "/help"]),
        (f"typed {PASTE_START}pasted{PASTE_END} more\n", ["typed \npasted more"]),
        (f"{PASTE_START}/home/a/x.py:3: oops\n{PASTE_END}\n", ["/home/a/x.py:3: oops"]),  # pasted, not a command
        ("/error abc\n/search x y\n2\n", ["/error abc", "/search x y", "2"]),
        ("/home/a/x.py:3: UserWarning: w\nValueError: v\n", ["/home/a/x.py:3: UserWarning: w\nValueError: v"]),
        (f"{PASTE_START}cut short\n", ["cut short"]),  # end of input inside a paste
        ("", []),
    ],
)
def test_paste_reader(typed: str, expected: list[str]) -> None:
    assert submissions(typed) == expected


async def test_a_paste_shows_the_answer_with_its_buttons(engine: Engine) -> None:
    printed = await run(engine, STATEFUL + "\n")
    assert "ValueError: assisted generation is not supported with stateful models, such as MambaForCausalLM" in printed
    assert f"record {SEED_IDS['stateful']}" in printed and "[👍 Helpful]" in printed and "[Source: src/" in printed
    assert "\nhttps://github.com/huggingface/transformers/blob/" in printed


@pytest.mark.parametrize("paste", [CHAINED, JUPYTER], ids=["chained", "jupyter"])
async def test_a_paste_with_blank_lines_gets_one_reply(engine: Engine, paste: str) -> None:
    printed = await run(engine, paste)
    assert printed.count(PANEL) == 1 and f"record {SEED_IDS['stateful']}" in printed


async def test_sections_each_have_their_heading_on_its_own_line(engine: Engine) -> None:
    printed = await run(engine, STATEFUL)
    lines = [line.strip("│ ") for line in printed.splitlines()]
    for heading in ("What it means", "How to fix", "Example fix", "When it happens", "Raised at", "Source"):
        assert heading in lines
    assert lines.index("What it means") < lines.index("How to fix") < lines.index("Raised at") < lines.index("Source")
    assert lines[lines.index("How to fix") + 1].startswith("1. Remove `assistant_model`")


async def test_several_pastes_then_end_of_input(engine: Engine) -> None:
    printed = await run(engine, f"{CACHE}\n\n\nhello there\n\n\nValueError: zeta flux nine\n")
    assert f"record {SEED_IDS['cache']}" in printed
    assert "The bot would stay silent: that does not look like a Python error" in printed
    assert "The bot would stay silent: that looks like an error, but no record explains it yet" in printed
    assert "queue the paste for triage" in printed


async def test_a_curated_record_no_shipped_version_raises(engine: Engine) -> None:
    engine.shipped = {"huggingface/transformers": ("5.24.0", "4.57.6")}
    printed = await run(engine, CACHE + "\n")
    flat = " ".join(printed.replace("│", " ").split())
    assert "Not raised by transformers 5.24.0 or 4.57.6; this record was written for `a597f97485`." in flat


class TwoCandidates:
    """An engine stand-in whose every error is ambiguous between two records (matcher tuning aside)."""

    def __init__(self) -> None:
        self.matches = tuple(
            Match(id=f"twin{n}", score=69.0, error_class="ValueError", error_message="the widget {name} broke",
                  file_path=f"src/w/part{n}.py", line_number=n, location_id=f"twin{n}", versions=(), why=("pattern",))
            for n in (1, 2)
        )  # fmt: skip
        self.records = {
            m.id: Record(id=m.id, error_message=m.error_message, error_class="ValueError") for m in self.matches
        }

    async def answer(self, text: str) -> Answer:
        """Return the two candidates for any paste."""
        extraction = extract(text)
        if extraction.primary is None:
            return Answer(MatchResult("not_an_error", (), extraction), self.records)
        return Answer(MatchResult("ambiguous", self.matches, extraction), self.records)


async def test_a_number_picks_a_candidate_of_the_last_list() -> None:
    out = io.StringIO()
    typed = io.StringIO("3\nValueError: the widget gear broke\n\n\n2\n3\n")
    engine = TwoCandidates()
    assert await run_console(engine, typed, Console(file=out, width=120, color_system=None)) == 0  # type: ignore[arg-type]  # a stand-in with Engine's answer() only
    printed = out.getvalue()
    assert "There is no list to pick from" in printed
    assert "Several records could explain this error" in printed and "Type a number (1-2)" in printed
    assert "1. ValueError: the widget gear broke · `src/w/part1.py:1` · 69%" in printed
    picked = printed.split("Type a number (1-2)", 1)[1]
    assert "ValueError: the widget gear broke" in picked and "record twin2 · match confidence 69%" in picked
    assert "picked from the closest matches" in picked and "Pick a number from 1 to 2." in picked


async def test_prompt_commands(engine: Engine) -> None:
    printed = await run(
        engine, f"/error {SEED_IDS['decompose']}\n/error nope\n/search assisted decoding\n/search\n/help\n/quit\n"
    )
    assert f"record {SEED_IDS['decompose']}" in printed and "No record has the id or slug 'nope'" in printed
    assert "Search: assisted decoding" in printed and "Usage: /search WORDS" in printed
    assert "two empty lines or Ctrl-D" in printed


async def test_triage_without_a_service_points_to_the_command(engine: Engine) -> None:
    assert "tracebot triage" in await run(engine, "/triage\n")


async def test_triage_list_and_show_at_the_prompt(engine: Engine) -> None:
    service = TriageService(engine.db, Settings(_env_file=None).triage, engine=engine)
    origin = PasteOrigin(guild_id=1, channel_id=2, message_id=3, author_id=4, jump_url="https://discord.com/x")
    await service.log_paste("ZorbError: the zorb at /home/alice/x.py failed with code 7", origin)
    out = io.StringIO()
    typed = io.StringIO("/triage new\n/triage show 1\n/triage show 99\n/triage bogus\n")
    assert await run_console(engine, typed, Console(file=out, width=120, color_system=None), triage=service) == 0
    printed = out.getvalue()
    assert "#1" in printed and "ZorbError" in printed and "alice" not in printed  # redacted sample
    assert "no triage report with id 99" in printed
    assert "status must be new, linked or dismissed" in printed


class Terminal:
    """``tracebot console`` on a pseudo-terminal: write what a person's terminal would send, read what it shows."""

    def __init__(self, db_path: Path, cwd: Path) -> None:
        self.master, slave = pty.openpty()
        env = {k: v for k, v in os.environ.items() if not k.startswith(("TRACEBOT_", "DISCORD_"))}
        env |= {"COLUMNS": "120", "LINES": "50", "TERM": "dumb", "PYTHONIOENCODING": "utf-8", "PYTHONPATH": str(ROOT)}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "bot", "console", "--db", str(db_path)],
            stdin=slave, stdout=slave, stderr=slave, cwd=cwd, env=env, start_new_session=True,
        )  # fmt: skip
        os.close(slave)
        self.shown = ""

    def send(self, text: str) -> None:
        """Type or paste ``text`` (a terminal sends Enter as a carriage return)."""
        os.write(self.master, text.replace("\n", "\r").encode())

    def wait_for(self, needle: str, count: int = 1, timeout: float = 60.0) -> str:
        """Read until ``needle`` has been shown ``count`` times; return everything shown so far."""
        deadline = time.monotonic() + timeout
        while self.shown.count(needle) < count:
            left = deadline - time.monotonic()
            assert left > 0, f"{needle!r} not shown {count}x; the terminal shows:\n{self.shown[-3000:]}"
            ready, _, _ = select.select([self.master], [], [], min(left, 1.0))
            if ready:
                try:
                    self.shown += os.read(self.master, 65536).decode("utf-8", "replace")
                except OSError:  # the console exited and the terminal closed
                    break
        return self.shown

    def close(self) -> int:
        """Wait for the console to exit; return its status."""
        try:
            status = self.process.wait(timeout=30)
            self.wait_for("\x1b[?2004l", timeout=30)
            return status
        finally:
            if self.process.poll() is None:
                self.process.kill()
            os.close(self.master)


@pytest.fixture(name="terminal")
def terminal_fixture(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Iterator[Terminal]:
    """The console running on a pseudo-terminal over the seed records."""
    db_path = tmp_path / "console.db"
    assert main(["records", "import", str(SEEDS_JSONL), "--db", str(db_path)]) == 0
    capsys.readouterr()
    terminal = Terminal(db_path, tmp_path)
    try:
        yield terminal
    finally:
        if terminal.process.poll() is None:
            terminal.process.kill()


def test_a_bracketed_paste_on_a_terminal_is_one_submission(terminal: Terminal) -> None:
    terminal.wait_for("Ctrl-D on an empty prompt quits")
    assert "\x1b[?2004h" in terminal.shown  # bracketed paste turned on
    terminal.send(f"{PASTE_START}{CHAINED}\n{PASTE_END}\n")
    shown = terminal.wait_for(f"record {SEED_IDS['stateful']}")
    assert shown.count(PANEL) == 1 and "^[[200~" not in shown  # one reply; the markers are not echoed
    terminal.send("\x04")  # Ctrl-D on an empty prompt
    assert terminal.close() == 0


def test_ctrl_d_ends_a_typed_paste_and_the_console_goes_on(terminal: Terminal) -> None:
    terminal.wait_for("Ctrl-D on an empty prompt quits")
    terminal.send(f"{CACHE}\n\x04")
    terminal.wait_for(f"record {SEED_IDS['cache']}")
    terminal.send("hello there\n\n\n")
    terminal.wait_for("The bot would stay silent")
    terminal.send("/quit\n")
    assert terminal.close() == 0
