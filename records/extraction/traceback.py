"""Parse a traceback block (CPython, IPython or rich), chained exceptions included.

A block starts at a 'Traceback (most recent call last)' header or at a frame line (pastes often
begin mid-traceback, and SyntaxError has no header) and runs to the exception line and its message.
Lines indented deeper than the block's base are code excerpts; the first line back at the base that
is not a frame is the exception line. When no such line comes (the paste was cut off), the frames
seen so far still make an error, with an empty message.
"""

from __future__ import annotations

from collections.abc import Sequence

from records.extraction.common import (
    MAX_FRAMES,
    MAX_MESSAGE_LINES,
    Located,
    collect_message,
    ends_message,
    join_message,
    next_nonblank,
)
from records.extraction.lines import (
    HEADER,
    RawFrame,
    arrow_line_number,
    indent_of,
    is_arrow,
    is_box_line,
    is_chain_separator,
    is_class_name,
    is_rule,
    make_frames,
    parse_frame_line,
    split_exception_line,
)
from records.extraction.model import KIND_TRACEBACK, ExtractedError

MAX_SOURCE_LINES = 12  # code lines kept under the last frame (IPython quotes a few around the raise)
_NOISE_PREFIXES = ("[Previous line repeated", "[... skipping", "...", "^", "~", "+-", "+--")


def parse_traceback(lines: Sequence[str], start: int) -> tuple[int, list[Located]]:
    """Parse the traceback block starting at ``lines[start]``; return the next index and the errors."""
    return _TracebackParser(lines, start).run()


def starts_traceback(text: str) -> bool:
    """Tell whether a stripped line can start a traceback block."""
    return HEADER in text or parse_frame_line(text) is not None


class _TracebackParser:
    """A small state machine over the lines of one traceback block."""

    def __init__(self, lines: Sequence[str], start: int) -> None:
        self.lines = lines
        self.i = start
        self.base = 0  # indentation of the header and of the exception line
        self.style = "cpython"  # IPython and rich put blank lines and unindented markers between frames
        self.frames: list[RawFrame] = []
        self.header_class: str | None = None  # IPython prints the class in its header line
        self.pending = False  # a header or frames seen, no exception line yet
        self.code_lines_left = 0  # unindented code lines still allowed after a frame (lost indentation)
        self.source: list[str] = []  # code lines quoted under the last frame
        self.found: list[Located] = []

    def run(self) -> tuple[int, list[Located]]:
        """Consume lines until the block ends."""
        while self.i < len(self.lines) and self._step(self.lines[self.i]):
            pass
        self._flush_cut_off()
        return self.i, self.found

    def _step(self, line: str) -> bool:
        """Consume one line (or a few); return False when the block ends before ``line``."""
        text = line.strip()
        if not text:
            return self._blank()
        if HEADER in text:
            self._header(line, text)
            return True
        if is_chain_separator(text):
            self._flush_cut_off()
            self.i += 1
            return True
        raw = parse_frame_line(text)
        if raw is not None:
            self._frame(line, raw)
            return True
        if self._is_code(line, text):
            self.i += 1
            return True
        return self._exception_line(text)

    def _header(self, line: str, text: str) -> None:
        """Start a new traceback at a header line, noting IPython's class-in-header form."""
        self._flush_cut_off()
        before = text[: text.find(HEADER)].strip()
        # torch re-raises a worker's error with 'Original Traceback (most recent call last):' in its message.
        self.header_class = before if is_class_name(before) and before != "Original" else None
        if self.header_class is not None:
            self.style = "ipython"
        self.base = indent_of(line)
        self.pending = True
        self.i += 1

    def _frame(self, line: str, raw: RawFrame) -> None:
        """Record a frame; the first frame of a headerless block sets the base indentation."""
        if not self.pending:
            self.base = max(0, indent_of(line) - 2) if raw.style == "cpython" else indent_of(line)
        if raw.style != "cpython":
            self.style = raw.style
        self.frames.append(raw)
        self.pending = True
        self.code_lines_left = 1
        self.source = []
        self.i += 1

    def _is_code(self, line: str, text: str) -> bool:
        """Tell whether ``line`` is a code excerpt, a marker or decoration rather than the last line."""
        code = self._classify_code(line, text)
        if code and self.frames and len(self.source) < MAX_SOURCE_LINES:
            self.source.append(text)
        return code

    def _classify_code(self, line: str, text: str) -> bool:
        """Classify one line for ``_is_code``."""
        if text.startswith(_NOISE_PREFIXES) or is_rule(text) or is_box_line(text):
            return True
        if not self.pending:
            return False
        if indent_of(line) > self.base:
            return True
        if is_arrow(text):
            self._number_last_frame(text)
            return True
        if self.code_lines_left and split_exception_line(text, strict=False) is None and not _wrapped_last_line(text):
            self.code_lines_left -= 1  # the frame's code line, pasted without its indentation
            return True
        return False

    def _number_last_frame(self, text: str) -> None:
        """Give the last frame the line number an IPython arrow shows (old IPython omits it)."""
        if self.frames and self.frames[-1].line is None:
            self.frames[-1] = self.frames[-1]._replace(line=arrow_line_number(text))

    def _blank(self) -> bool:
        """Skip blank lines inside the block; in CPython output they only precede what continues it."""
        nxt = next_nonblank(self.lines, self.i)
        if nxt is None:
            return False
        if self.style == "cpython" and self.pending and not _continues_block(self.lines[nxt].strip()):
            return False
        self.i = nxt
        return True

    def _exception_line(self, text: str) -> bool:
        """Read the exception line and its message, then continue only into a chained traceback."""
        split = split_exception_line(text, strict=False) if self.pending else None
        if split is None and self.pending:
            split = _unwrapped_last_line(text)
        if split is None:
            return False  # not ours: the traceback was cut off before its last line
        end, message = collect_message(self.lines, self.i + 1, split[1])
        end, message = self._paragraphs_before_chain(end, message)
        # An empty message ('NotImplementedError:') leaves the raise statement quoted above it to say more.
        self._emit(split[0], message, end - 1, "" if message else self._quoted_source())
        self.i = end
        nxt = next_nonblank(self.lines, self.i)
        if nxt is None or not _starts_next_traceback(self.lines[nxt].strip()):
            return False
        self.i = nxt
        return True

    def _paragraphs_before_chain(self, end: int, message: str) -> tuple[int, str]:
        """Take further message paragraphs (after blank lines) when a chained traceback follows them.

        Some messages hold blank lines (huggingface_hub's); only the chain separator after them shows
        they are message rather than chat typed after the paste.
        """
        parts = [message]
        i = end
        limit = min(len(self.lines), end + MAX_MESSAGE_LINES)
        while i < limit:
            text = self.lines[i].strip()
            if is_chain_separator(text) or HEADER in text:
                return i, join_message(parts)
            if text and ends_message(text):
                break
            parts.append(text)
            i += 1
        return end, message

    def _emit(self, error_class: str | None, message: str, at: int, source: str = "") -> None:
        """Record one error from the frames gathered so far and reset for a chained traceback."""
        frames = make_frames(self.frames[-MAX_FRAMES:])
        self.found.append((at, ExtractedError(error_class, message, frames, KIND_TRACEBACK, source)))
        self.source = []
        self.frames = []
        self.header_class = None
        self.pending = False
        self.code_lines_left = 0

    def _flush_cut_off(self) -> None:
        """Record a traceback that ended without an exception line, if one is open."""
        if self.pending:
            self._emit(self.header_class, "", max(0, self.i - 1), self._quoted_source())

    def _quoted_source(self) -> str:
        """Return the code quoted under the last frame when it may hold the message, else ""."""
        source = "\n".join(self.source)
        # The raise statement, or the message's string literals when the paste cut the raise line.
        quotes = "raise" in source or '"' in source or "'" in source
        return source if quotes else ""


def _wrapped_last_line(text: str) -> bool:
    """Tell whether ``text`` is an exception line wrapped in backticks or emphasis (``_unwrapped_last_line``)."""
    return text.startswith(("`", "**", "__")) and _unwrapped_last_line(text) is not None


def _unwrapped_last_line(text: str) -> tuple[str, str] | None:
    """Split a last line wrapped in backticks or markdown emphasis, strictly, else None."""
    if text.startswith("`"):
        return _in_backticks(text)
    if text.startswith(("**", "__")):
        return _in_emphasis(text)
    return None


def _in_emphasis(text: str) -> tuple[str, str] | None:
    """Split a last line the person put in bold (``**ValueError: msg.** more``), strictly, else None.

    GitHub issues often bold the error line; every marker of that kind on the line is markup, not message.
    """
    return split_exception_line(text.replace(text[:2], "").strip(), strict=True)


def _in_backticks(text: str) -> tuple[str, str] | None:
    """Split a last line the person wrapped in backticks (```ValueError: ...```), strictly, else None.

    GitHub and Discord render a line pasted as inline code this way; the class must still be a class.
    """
    inner = text[1:-1] if text.endswith("`") and len(text) > 1 else text[1:]
    return split_exception_line(inner.strip(), strict=True)


def _continues_block(text: str) -> bool:
    """Tell whether a line after a blank one still belongs to an open CPython traceback."""
    return (
        HEADER in text
        or is_chain_separator(text)
        or parse_frame_line(text) is not None
        or split_exception_line(text, strict=True) is not None
    )


def _starts_next_traceback(text: str) -> bool:
    """Tell whether a line after an exception message starts a chained or following traceback."""
    return HEADER in text or is_chain_separator(text) or is_rule(text) or parse_frame_line(text) is not None
