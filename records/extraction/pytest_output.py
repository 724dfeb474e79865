"""Parse pytest failure output: location lines, code excerpts, 'E   ' lines and summary lines.

pytest prints each failure as entries ('path.py:12: in func' in the short style, a code excerpt then
'path.py:12: ' in the long style) followed by 'E' lines holding the exception; in the long style the
last location line names the class ('path.py:12: ValueError'). A failure ends at the next section
header, at a '====' or '----' rule, or at anything else once its 'E' lines were read.
"""

from __future__ import annotations

from collections.abc import Sequence

from records.extraction.common import Located, join_message
from records.extraction.lines import (
    HEADER,
    is_chain_separator,
    is_class_name,
    is_e_line,
    is_rule,
    make_frame,
    parse_frame_line,
    parse_location,
    split_exception_line,
)
from records.extraction.model import KIND_PYTEST, ExtractedError, Frame

_SUMMARY_PREFIXES = ("FAILED ", "ERROR ")
_ELLIPSIS = ("...", "…")
_MAX_LOOSE_LINES = 8
_MAX_EXCERPT_LINES = 80  # lines looked back for the 'def' of a long-style test function


def starts_pytest(line: str, text: str) -> bool:
    """Tell whether a line (raw and stripped) can start a pytest failure block."""
    if is_e_line(line):
        return True
    location = parse_location(text)
    return location is not None and _location_kind(location[2]) != "message"


def parse_pytest(lines: Sequence[str], start: int) -> tuple[int, list[Located]]:
    """Parse the pytest failure block at ``lines[start]``; return the next index and the errors."""
    return _PytestParser(lines, start).run()


def parse_summary(text: str) -> ExtractedError | None:
    """Parse a short-summary line 'FAILED tests/x.py::test_a - ValueError: msg' (or 'ERROR ...')."""
    if not text.startswith(_SUMMARY_PREFIXES):
        return None
    node, sep, rest = text.partition(" - ")
    node_id = node.partition(" ")[2]
    if not sep or not rest.strip() or not (".py" in node_id or "::" in node_id):
        return None
    split = split_exception_line(rest.strip(), strict=False)
    if split is None:
        return ExtractedError(None, join_message([rest]), (), KIND_PYTEST)
    return ExtractedError(split[0], join_message([split[1]]), (), KIND_PYTEST)


def summary_covers(summary: ExtractedError, full: ExtractedError) -> bool:
    """Tell whether a frameless mention repeats ``full`` (summary messages are cut with '...')."""
    if summary.error_class != full.error_class:
        return False
    short = summary.message
    for mark in _ELLIPSIS:
        short = short.removesuffix(mark)
    return full.message.startswith(short.rstrip())


def _location_kind(tail: str) -> str:
    """Classify the text after 'path:12:': 'entry', 'class' (last long entry) or 'message'."""
    if not tail or tail.startswith("in "):
        return "entry"
    if is_class_name(tail):
        return "class"
    return "message"  # 'Name: msg' is a warnings line or --tb=line output, read elsewhere


class _PytestParser:
    """A small state machine over the lines of one pytest failure block."""

    def __init__(self, lines: Sequence[str], start: int) -> None:
        self.lines = lines
        self.i = start
        self.frames: list[Frame] = []
        self.e_lines: list[str] = []
        self.last_def = _def_above(lines, start)  # function of the code excerpt, for long-style entries
        self.loose_lines = 0
        self.found: list[Located] = []

    def run(self) -> tuple[int, list[Located]]:
        """Consume lines until the block ends."""
        while self.i < len(self.lines) and self._step(self.lines[self.i]):
            pass
        self._emit(None)
        return self.i, self.found

    def _step(self, line: str) -> bool:
        """Consume one line; return False when the block ends before it."""
        if is_e_line(line):
            self.e_lines.append(line[1:])
            self.i += 1
            return True
        text = line.strip()
        location = parse_location(text)
        if location is not None:
            return self._location(*location)
        if HEADER in text or parse_frame_line(text) is not None:
            return False  # a plain traceback follows (captured output, --tb=native)
        if is_chain_separator(text) or text.startswith("___"):
            self._emit(None)  # the next failure, or the next exception of a chain
        elif text.startswith(("===", "---")) or (is_rule(text) and not text.startswith("_ _")):
            return False  # a '=== short test summary ===' section or '--- Captured ---' output
        elif line[:1] not in ("", " ", "\t", ">") and not self._loose_line(text):
            return False  # other output after the failure, or prose around a stray location line
        self._note_def(text)
        self.i += 1
        return True

    def _loose_line(self, text: str) -> bool:
        """Accept a few unindented lines (locals with --showlocals) before a failure's E lines."""
        if self.e_lines or split_exception_line(text, strict=True) is not None:
            return False
        self.loose_lines += 1
        return self.loose_lines <= _MAX_LOOSE_LINES

    def _note_def(self, text: str) -> None:
        """Remember the function a long-style code excerpt shows, to name its entry."""
        name = _def_name(text)
        if name is not None:
            self.last_def = name

    def _location(self, path: str, line: int, tail: str) -> bool:
        """Read a location line: a frame, or the last frame with the exception's class."""
        kind = _location_kind(tail)
        if kind == "message":
            return False
        if kind == "entry" and self.e_lines:
            self._emit(None)  # a new failure (short style) starts after the previous one's E lines
        function = tail[3:].strip() if tail.startswith("in ") else self.last_def
        self.frames.append(make_frame(path, line, function or None))
        self.last_def = None
        self.loose_lines = 0
        self.i += 1
        if kind == "class":
            self._emit(tail)
        return True

    def _emit(self, location_class: str | None) -> None:
        """Record the failure read so far, if any."""
        if not self.e_lines and not self.frames:
            return
        error_class, message = _interpret_e_lines(self.e_lines, location_class)
        error = ExtractedError(error_class, message, tuple(self.frames), KIND_PYTEST)
        self.found.append((max(0, self.i - 1), error))
        self.frames = []
        self.e_lines = []


def _def_name(text: str) -> str | None:
    """Return the function a 'def name(' line (possibly marked with '>') defines."""
    code = text.lstrip("> ")
    for prefix in ("def ", "async def "):
        if code.startswith(prefix):
            return code[len(prefix) :].partition("(")[0].strip() or None
    return None


def _def_above(lines: Sequence[str], start: int) -> str | None:
    """Find the 'def' of the code excerpt printed above a block's first location line."""
    for k in range(start - 1, max(-1, start - _MAX_EXCERPT_LINES), -1):
        text = lines[k].strip()
        if text.startswith(("___", "===", "_ _")) or parse_location(text) is not None:
            return None
        name = _def_name(text)
        if name is not None:
            return name
    return None


def _interpret_e_lines(e_lines: Sequence[str], location_class: str | None) -> tuple[str | None, str]:
    """Read class and message from 'E' lines; plain assertion text takes the location's class."""
    texts = [text.strip() for text in e_lines]
    while texts and not texts[-1]:
        texts.pop()
    if not texts:
        return location_class, ""
    split = split_exception_line(texts[0], strict=False)
    if split is None:
        return location_class, join_message(texts)
    return split[0], join_message([split[1], *texts[1:]])
