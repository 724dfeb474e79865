"""Find error occurrences in a cleaned text by jumping between anchor lines.

One regex finds the next line that could matter (a traceback header, a frame, a pytest or log line, a
word like 'Error'); the lines in between are never looked at in Python, which keeps a 100 KB paste of
chat cheap. At an anchor the right block parser runs, or the single-line readers: pytest summary,
log record, warnings line, lone exception line, error quoted in a sentence.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Sequence

from records.extraction.common import MAX_MESSAGE_LINES, Located, collect_loose_message, join_message, next_nonblank
from records.extraction.lines import (
    ERROR_LEVELS,
    HEADER,
    indent_of,
    is_strict_class,
    looks_like_code,
    make_frame,
    parse_location,
    parse_log_line,
    split_exception_line,
)
from records.extraction.model import (
    KIND_EXCEPTION_LINE,
    KIND_INLINE,
    KIND_LOG,
    ExtractedError,
)
from records.extraction.pytest_output import parse_pytest, parse_summary, starts_pytest
from records.extraction.traceback import parse_traceback, starts_traceback

# Grouped by first character and without '^', so that the regex engine can skip every position whose
# character starts no alternative; each alternative is a literal or a class with a bounded repeat.
_ANCHOR_RE = re.compile(
    r"Traceback \(most recent call last\)|File [\"~/\\<.A-Za-z]|Cell In\[|Input In \[|<ipython-input-"
    r'|\.py(?:x?:\d| in |", line )|>:\d|'
    r"E(?:  |rror|xception|RROR|\d{4} )|F(?:AILED |ATAL|\d{4} )|Warning"
    r"|Interrupt|S(?:topIteration|ystemExit)|GeneratorExit|CRITICAL"
)
# Why these caps: a real paste has a few dozen anchor lines (a long torchrun traceback a few hundred);
# more is a log dump, whose last lines are the ones that matter. They bound the work in Python.
MAX_ANCHORS = 600
MAX_FOUND = 200
_MAX_COLONS = 20  # ': ' occurrences examined per line when looking for an inline error
_MAX_SPANS = 20  # inline code spans examined per line
_SPAN_FOLLOWERS = frozenset(".,;:!?)]\"'")
_QUOTE_CLOSERS = {'"': '"', "'": "'", "“": "”", "‘": "’", "(": ")", "[": "]", "`": "`", "*": "*"}
# Words before a class that show it is being discussed ("ValueError vs TypeError: which?"), not hit.
_DISCUSSION_WORDS = frozenset({"vs", "vs.", "or", "and", "between", "catch", "catching", "except", "raise"})
_SHELL_COMMANDS = ("python ", "python3 ", "$ ", "pip ")
_RAISES_HEADINGS = frozenset({"Raises:", "Raises", "Raise:", "Exceptions:"})
# An exception's repr with one string argument, ending the line: 'OSError('...')', 'KeyError("x")'.
_REPR_RE = re.compile(r"""([A-Za-z_][\w.]{0,200})\((['"])((?:[^\\\n]|\\.){1,4000}?)\2\)[.,;]?\s*\Z""")
_MAX_LABEL_CHARS = 80  # 'error: ' or 'Exception during processing: ' before a repr
_DATA_OPENERS = ("{", "[")  # a log record that opens JSON or a list


def scan(text: str) -> list[Located]:
    """Return every error found in ``text`` with the index of the line it ended on."""
    lines = text.split("\n")
    found: list[Located] = []
    pos = 0  # offset of lines[index]
    index = 0
    for start in _anchor_lines(text)[-MAX_ANCHORS:]:
        if start < pos:
            continue  # inside a block already read
        index += text.count("\n", pos, start)
        end, errors = _dispatch(lines, index)
        found.extend(errors)
        pos = start + sum(map(len, lines[index:end])) + (end - index)
        index = end
    return found[-MAX_FOUND:]


def _anchor_lines(text: str) -> list[int]:
    """Return the offsets of the lines holding an anchor, one per line, in order."""
    starts: list[int] = []
    pos = 0
    while (match := _ANCHOR_RE.search(text, pos)) is not None:
        starts.append(text.rfind("\n", pos, match.start()) + 1 or pos)
        pos = text.find("\n", match.end()) + 1
        if pos == 0:
            break
    return starts


def _dispatch(lines: Sequence[str], index: int) -> tuple[int, list[Located]]:
    """Parse what starts at ``lines[index]``; always consume at least that line."""
    line = lines[index]
    text = line.strip()
    if starts_traceback(text):
        end, found = parse_traceback(lines, index)
    elif starts_pytest(line, text):
        end, found = parse_pytest(lines, index)
    else:
        end, found = _single_line(lines, index, text)
    return max(end, index + 1), found


def _single_line(lines: Sequence[str], index: int, text: str) -> tuple[int, list[Located]]:
    """Read the one-line forms: summary, log record, warnings line, lone or quoted exception."""
    summary = parse_summary(text)
    if summary is not None:
        return index + 1, [(index, summary)]
    log = parse_log_line(text)
    if log is not None:
        level, message = log
        if level in ERROR_LEVELS:
            return _log_error(lines, index, message)
        text = message  # a warning or info record may still quote an exception
    error = _warnings_line(text)
    if error is not None:
        return index + 1, [(index, error)]
    return _exception_or_inline(lines, index, text)


def _log_error(lines: Sequence[str], index: int, message: str) -> tuple[int, list[Located]]:
    """Make an error of a log record, unless a traceback follows and says it better.

    The record's message goes on over the lines after it that continue it (a logged message of several
    lines, or one rich wrapped at the terminal's edge), up to a blank line, another record or chat.
    """
    nxt = next_nonblank(lines, index + 1)
    if not message or (nxt is not None and HEADER in lines[nxt]):
        return index + 1, []
    split = split_exception_line(message, strict=True)
    if split is None:
        quoted = inline_errors(message)
        split = quoted[0] if quoted else None
    error_class, text = split if split is not None else (None, message)
    end = index + 1
    if not text.startswith(_DATA_OPENERS):
        # A record that opens data ('error_handler:{' then JSON) leaves its lines to be read on their own.
        end, text = collect_loose_message(lines, index + 1, text)
    return end, [(end - 1, ExtractedError(error_class, join_message([text]), (), KIND_LOG))]


def _warnings_line(text: str) -> ExtractedError | None:
    """Read 'path.py:12: UserWarning: msg' (warnings module) or 'path.py:12: Error: msg' (--tb=line)."""
    location = parse_location(text)
    if location is None:
        return None
    path, line, tail = location
    split = split_exception_line(tail, strict=True)
    if split is None:
        return None
    frame = make_frame(path, line, None)
    return ExtractedError(split[0], join_message([split[1]]), (frame,), KIND_EXCEPTION_LINE)


def _exception_or_inline(lines: Sequence[str], index: int, text: str) -> tuple[int, list[Located]]:
    """Read a lone exception line (with its continuation), else errors quoted inside prose."""
    lone = _sole_span(text)
    split = split_exception_line(lone, strict=True)
    if split is None and indent_of(lines[index]) == 0 and is_strict_class(lone):
        split = (lone, "")  # Python prints a bare class when the message is empty ('MemoryError')
    if split is not None:
        if _in_raises_section(lines, index):
            return index + 1, []  # documentation of an exception, not an occurrence
        end, message = collect_loose_message(lines, index + 1, split[1])
        error = ExtractedError(split[0], message, (), KIND_EXCEPTION_LINE)
        return end, [(end - 1, error)]
    represented = exception_repr(lone)
    if represented is not None:
        return index + 1, [(index, ExtractedError(*represented, (), KIND_EXCEPTION_LINE))]
    if looks_like_code(text) and not text.startswith(_SHELL_COMMANDS):
        # An error quoted after a shell command ('python run.py ValueError: ...') counts, and so does an
        # exception line glued after its raise statement.
        return index + 1, [(index, ExtractedError(*split, (), KIND_INLINE)) for split in _after_raise(text)]
    quoted = inline_errors(text)
    if len(quoted) == 1 and quoted[0][1].endswith(":"):
        end, message = _indented_continuation(lines, index + 1, quoted[0][1])
        return end, [(end - 1, ExtractedError(quoted[0][0], message, (), KIND_INLINE))]
    errors = [(index, ExtractedError(cls, join_message([msg]), (), KIND_INLINE)) for cls, msg in quoted]
    return index + 1, errors


def _indented_continuation(lines: Sequence[str], start: int, first: str) -> tuple[int, str]:
    """Join to a quoted message that announces more (it ends in ':') the indented lines that follow it.

    'actual error: RuntimeError: Error(s) in loading state_dict for DTNet:' then tab-indented lines: Python
    indents the rest of such a message, and chat typed after it is not indented.
    """
    parts = [first]
    end = min(len(lines), start + MAX_MESSAGE_LINES)
    i = start
    while i < end and lines[i][:1] in (" ", "\t") and lines[i].strip():
        parts.append(lines[i].strip())
        i += 1
    return i, join_message(parts)


def exception_repr(text: str) -> tuple[str, str] | None:
    """Read an exception printed as its repr, ``OSError('Error no file named ...')``, as class and message.

    Logs and ``print(repr(e))`` show errors this way. The repr is the whole line, or follows a label
    ('error: ValueError("...")'); only those two places are tried, so a long line costs one pass each.
    """
    starts = [0]
    label = text.find(": ")
    if 0 < label < _MAX_LABEL_CHARS:
        starts.append(label + 2)
    for start in starts:
        found = _REPR_RE.match(text, start)
        if found is not None and is_strict_class(found.group(1)):
            return found.group(1), _repr_message(found.group(1), found.group(2), found.group(3))
    return None


def _repr_message(name: str, quote: str, inner: str) -> str:
    """Return what Python prints after 'Class: ' for an exception whose repr holds this one string."""
    try:
        value = ast.literal_eval(f"{quote}{inner}{quote}")
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return join_message([inner])
    if not isinstance(value, str):
        return join_message([inner])  # b'...' reads as bytes
    if name.rpartition(".")[2] == "KeyError":
        return repr(value)  # str(KeyError('x')) is the key's repr: "'x'"
    return join_message(value.split("\n"))


def _after_raise(text: str) -> list[tuple[str, str]]:
    """Read the exception line glued after a raise statement on one line (an issue title, a flattened copy).

    'raise AttributeError(f"...") AttributeError: 'Model' object has no attribute 'x'': the last line
    follows a closing parenthesis of the statement.
    """
    close = text.find(") ") if text.startswith("raise ") else -1
    for _ in range(_MAX_COLONS):
        if close < 0:
            break
        split = split_exception_line(text[close + 2 :].strip(), strict=True)
        if split is not None and split[1]:
            return [split]
        close = text.find(") ", close + 2)
    return []


def _sole_span(text: str) -> str:
    """Return the inside of a line that is one inline code span, else the line."""
    if len(text) > 2 and text[0] == "`" and text[-1] == "`" and text.count("`") == 2:
        return text[1:-1].strip()
    return text


def _in_raises_section(lines: Sequence[str], index: int) -> bool:
    """Tell whether an indented 'ValueError: ...' line belongs to a docstring's 'Raises:' section."""
    indent = indent_of(lines[index])
    if indent == 0:
        return False
    for k in range(index - 1, max(-1, index - 20), -1):
        line = lines[k]
        if not line.strip():
            return False
        if indent_of(line) < indent:
            return line.strip() in _RAISES_HEADINGS
    return False


def inline_errors(text: str) -> list[tuple[str, str]]:
    """Find 'Class: message' quoted in prose: in inline code spans, else once unquoted."""
    if "`" not in text:
        return _unquoted(text)
    found = _quoted_with_inner_backticks(text)
    if found:
        return found
    parts = text.split("`", 2 * _MAX_SPANS + 1)
    for k in range(1, len(parts) - 1, 2):  # closed spans only
        split = split_exception_line(parts[k].strip(), strict=True)
        if split is not None and split[1]:
            found.append(split)
    # No span holds the error: it is written in the sentence, and its own inline code stays in it.
    return found or _unquoted(text)


def _quoted_with_inner_backticks(text: str) -> list[tuple[str, str]]:
    """Read `Class: message` spans whose message itself holds backticks (transformers' often do).

    A span opened before an exception class closes at the first backtick that leaves an even number of
    backticks inside it and is followed by white space, punctuation or the end of the line.
    """
    ticks = [i for i, char in enumerate(text) if char == "`"][: 4 * _MAX_SPANS]
    found: list[tuple[str, str]] = []
    k = 0
    while k < len(ticks) - 1:
        close = _closing_tick(text, ticks, k)
        inner = text[ticks[k] + 1 : ticks[close]] if close is not None else ""
        split = split_exception_line(inner.strip(), strict=True) if "`" in inner else None
        if split is not None and split[1]:
            found.append(split)
            k = close + 1 if close is not None else k + 1
        else:
            k += 1
    return found


def _closing_tick(text: str, ticks: list[int], start: int) -> int | None:
    for j in range(start + 1, len(ticks), 2):  # an odd count of ticks between would leave one open
        after = text[ticks[j] + 1 : ticks[j] + 2]
        if (not after or after.isspace() or after in _SPAN_FOLLOWERS) and not text[ticks[j] - 1].isspace():
            return j
    return None


def _unquoted(text: str) -> list[tuple[str, str]]:
    """Find the first 'SomeError: message' inside a sentence; the message runs to the line's end."""
    colon = text.find(": ")
    for _ in range(_MAX_COLONS):
        if colon < 0:
            break
        error = _error_before(text, colon)
        if error is not None:
            return [error]
        colon = text.find(": ", colon + 2)
    return []


def _unglued(token: str) -> str:
    """Return the ASCII tail of a token that glues a class to text in another script ('报错：ValueError')."""
    if token.isascii():
        return token
    last = max(i for i, char in enumerate(token) if not char.isascii())
    return token[last + 1 :].lstrip(":") or token  # '报错:RuntimeError': the colon after the other script


def _error_before(text: str, colon: int) -> tuple[str, str] | None:
    """Read the class named just before ``text[colon]`` and the message after it."""
    before = text[max(0, colon - 200) : colon]
    words = before.split()
    if not words:
        return None
    token = _unglued(words[-1])
    if before[-1:].isspace() and (before[-2:-1].isspace() or not is_strict_class(token)):
        return None  # 'ValueError : msg' (one space, as some people type it) counts; 'word : x' does not
    opener = token[0] if token[0] in _QUOTE_CLOSERS else ""
    name = token.lstrip(opener) if opener else token  # '**OSError' (bold) as well as '`OSError'
    if not is_strict_class(name) or (len(words) > 1 and words[-2].lower() in _DISCUSSION_WORDS):
        return None
    message = text[colon + 2 :].strip()
    if opener and _QUOTE_CLOSERS[opener] in message:
        message = message[: message.rfind(_QUOTE_CLOSERS[opener])].rstrip(_QUOTE_CLOSERS[opener]).strip()
    return (name, message) if message else None
