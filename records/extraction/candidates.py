"""Guess error messages that carry no class and no structure, for fuzzy matching only.

Candidates are made only when nothing structured was found (or a traceback was cut off before its
message), from the places a person puts a bare error message: a short code block with no code in it,
the text after 'error:' or a label such as '**Exception Message:**', an inline code span holding a
phrase, and each paragraph that reads as a message (an opening line of chat is left out, so 'it fails
with:' then the message gives the message). A message is often quoted without its class, cut off or
re-wrapped: candidates are fragments to match, never proof of an error, so they never make
``is_error`` true; the matcher decides what they are.
"""

from __future__ import annotations

import json
import re

from records.extraction.clean import clean_paste, is_progress_bar
from records.extraction.common import MAX_MESSAGE_LINES, join_message, reads_as_chat
from records.extraction.lines import (
    HEADER,
    is_chain_separator,
    looks_like_code,
    parse_frame_line,
    parse_log_line,
    split_exception_line,
)
from records.extraction.model import KIND_CANDIDATE, ExtractedError

# 'error:' in a sentence; and what ComfyUI prints before a node's error ('!!! Exception during processing !!!
# <message>', and before 2024 'Error occurred when executing KSampler:' then the message). One character
# class opens every alternative, so the engine skips the other characters of a long paste quickly.
_ERROR_PHRASE_RE = re.compile(
    r"[Ee!](?:(?<=[Ee])(?:rror|RROR|xception)(?: [Mm]essage)?(?:\*\*)?[:：]"
    r"|(?<=E)rror occurred when executing [\w .-]{1,80}:"
    r"|(?<=!)!! Exception during processing !!!)"
)
# '报错' (an error was reported), '错误' (error), '异常' (exception), '出错' (went wrong), then a colon, maybe
# after a few words ('程序报错(infer.py)：<message>').
_CJK_PHRASE_RE = re.compile(r"(?:报错|错误|异常|出错)[^:：\n]{0,80}[:：]")
# A JSON string field a server returns an error in: '{"error": "Error no file named ..."}'.
_JSON_FIELD_RE = re.compile(
    r'"(?:error|message|detail|exception|msg)"\s{0,4}:\s{0,4}"((?:[^"\\\n]|\\.){12,4000})"', re.I
)
_FENCE = "```"
_MAX_FENCES = 20
_MAX_BLOCK_LINES = 5
_MAX_HITS = 5  # phrase and span matches examined: candidates are a fallback, not a search
_MAX_PARAGRAPHS = 40  # paragraphs examined, the last ones (where a paste's error usually is)
MAX_CANDIDATES = 8  # each costs the matcher an index look-up and a few dozen scorings
_MIN_WORDS = 3
_MAX_SPAN_CHARS = 500
# List markers and emphasis a chat message wraps a quoted error in ('- **Message:** ...').
_DECORATION = " \t-*>•_"
_MAX_TAG_CHARS = 30  # an issue title's '[Bug]' tag
_NO_DIGITS = str.maketrans("", "", "0123456789")
_MARKERS = frozenset("^~ ")  # the carets Python 3.11 prints under the failing expression
# A shell prompt and the command typed at it: '(env) user@host:~/dir$ python x.py', 'C:\\dir>python x.py'
# (a prompt's opening parenthesis is often left out of the copy: 'base) ubuntu@vm:~ ...').
_PROMPT_RE = re.compile(r"(?:\(?[\w.-]{1,60}\) ?)?(?:[\w.-]{1,64}@[\w.-]{1,64}:\S{0,300}|[A-Za-z]:\\[^>\n]{0,300}>)")
_QUIET_LEVELS = frozenset({"INFO", "DEBUG", "TRACE", "NOTICE"})  # a log line that reports, not fails


def find_candidates(raw: str, cleaned: str) -> list[ExtractedError]:
    """Return message-like candidates from code blocks, 'error:' phrases, code spans and paragraphs."""
    messages = [
        *_from_phrases(cleaned),
        *_from_fences(raw),
        *_from_json(cleaned),
        *_from_spans(cleaned),
        *_from_paragraphs(cleaned),
    ]
    seen: set[str] = set()
    found: list[ExtractedError] = []
    for message in messages:
        if message and message not in seen and len(found) < MAX_CANDIDATES:
            seen.add(message)
            found.append(ExtractedError(None, message, (), KIND_CANDIDATE))
    return found


def _from_fences(raw: str) -> list[str]:
    """Return the text of short code blocks that hold prose or output rather than code."""
    parts = raw.split(_FENCE, 2 * _MAX_FENCES + 1)
    found: list[str] = []
    for k in range(1, len(parts) - 1, 2):  # closed blocks only
        tag, newline, body = parts[k].partition("\n")
        block = [line.strip() for line in clean_paste(body if newline else tag).split("\n")]
        block = [line for line in block if line]
        if 0 < len(block) <= _MAX_BLOCK_LINES and not any(map(_not_message, block)):
            found.append(join_message(block))
    return found


def _from_phrases(text: str) -> list[str]:
    """Return what follows 'error:' in a sentence (and its continuation lines), or the next lines."""
    found: list[str] = []
    for match in _phrases(text):
        line_end = text.find("\n", match.end())
        line_end = len(text) if line_end < 0 else line_end
        first = text[match.end() : line_end].strip(_DECORATION + "`")
        # Nothing after the phrase: the next line is what it introduces, even one ending in '!' ('cpu!').
        lines = _message_lines(text[line_end + 1 :], introduced=not first)
        block = [first, *lines] if first else lines
        if block and not _not_message(block[0]):
            found.append(join_message(block))
    return found


def _phrases(text: str) -> list[re.Match[str]]:
    """Return the first phrases that introduce a message: 'error:', and in Chinese text '报错：' and the like."""
    hits = [
        match
        for match, _ in zip(_ERROR_PHRASE_RE.finditer(text), range(_MAX_HITS), strict=False)
        # 'ValueError:' is a class, read elsewhere; only the word 'error' counts here.
        if not text[match.start() - 1 : match.start()].isalnum()
    ]
    if not text.isascii():
        hits.extend(match for match, _ in zip(_CJK_PHRASE_RE.finditer(text), range(_MAX_HITS), strict=False))
        hits.sort(key=lambda match: match.start())
    return hits


def _message_lines(text: str, *, introduced: bool = False) -> list[str]:
    """Return the lines at the start of ``text`` up to a blank line, code or chat.

    introduced: a phrase ending the line before introduces the first line, which is then no chat.
    """
    lines: list[str] = []
    for line in text.lstrip("\n").split("\n", MAX_MESSAGE_LINES)[:MAX_MESSAGE_LINES]:
        stripped = line.strip()
        chat = reads_as_chat(stripped) and not (introduced and not lines)
        if not stripped or _not_message(stripped) or chat:
            break
        lines.append(stripped)
    return lines


def _from_json(text: str) -> list[str]:
    """Return the text of an 'error', 'message' or 'detail' field of JSON a server or log printed."""
    found: list[str] = []
    for match, _ in zip(_JSON_FIELD_RE.finditer(text), range(_MAX_HITS), strict=False):
        try:
            value = json.loads(f'"{match.group(1)}"')
        except ValueError:
            continue
        if isinstance(value, str) and len(value.split()) >= _MIN_WORDS:
            found.append(join_message(value.split("\n")))
    return found


def _from_spans(text: str) -> list[str]:
    """Return inline code spans (backticks paired in order on each line) that hold a phrase."""
    found: list[str] = []
    for line in text.split("\n"):
        if "`" not in line:
            continue
        parts = line.split("`")
        for k in range(1, len(parts) - 1, 2):  # closed spans only
            inner = parts[k].strip()
            if len(inner) <= _MAX_SPAN_CHARS and len(inner.split()) >= _MIN_WORDS and not _not_message(inner):
                found.append(join_message([inner]))
            if len(found) >= _MAX_HITS:
                return found
    return found


def _from_paragraphs(text: str) -> list[str]:
    """Return each run of message-like lines, split at blank lines, code, data and chat; longest first."""
    found: list[str] = []
    for paragraph in text.split("\n\n")[-_MAX_PARAGRAPHS:]:
        run: list[str] = []
        for raw in [*paragraph.split("\n"), ""]:
            line = _undecorated(raw)
            if run and _shape(line) == _shape(run[0]):
                found.append(join_message(run))  # a log printing the same error again: one message each
                run = []
            if line and not _not_message(line) and not reads_as_chat(line) and len(run) < MAX_MESSAGE_LINES:
                run.append(line)
                continue
            if len(" ".join(run).split()) >= _MIN_WORDS:
                found.append(join_message(run))
            run = []
    return sorted(found, key=len, reverse=True)


def _shape(line: str) -> str:
    """Return a line with its digits dropped: the same message logged twice with other numbers agrees."""
    return line.translate(_NO_DIGITS)


def _undecorated(line: str) -> str:
    """Strip list markers, emphasis, an issue title's '[Bug]:' tag and a short '**Label:**' prefix."""
    line = line.strip().strip(_DECORATION)
    if line.startswith("[") and 0 < line.find("]") <= _MAX_TAG_CHARS:
        line = line[line.find("]") + 1 :].lstrip(":： ").lstrip("<").strip()  # '[Bug]: ...', '[BUG/Help] <...'
    label, colon, rest = line.partition(":")
    if colon and rest and len(label.split()) <= 3 and (label.endswith("*") or rest.startswith("*")):
        return rest.strip(_DECORATION)  # '**Exception Message:** text'
    return line


def _not_message(text: str) -> bool:
    """Tell whether a line is code, data, a URL, a structured error or a traceback's own line."""
    return (
        looks_like_code(text)
        or text.startswith(("http://", "https://", "www.", "{", "[", "<"))
        or split_exception_line(text, strict=True) is not None
        or _traceback_line(text)
        or _PROMPT_RE.match(text) is not None
        or _quiet_log_line(text)
        or is_progress_bar(text)
    )


def _quiet_log_line(text: str) -> bool:
    """Tell whether a line is logged at a level that reports progress (INFO, DEBUG), not a failure."""
    parsed = parse_log_line(text)
    return parsed is not None and parsed[0] in _QUIET_LEVELS


def _traceback_line(text: str) -> bool:
    """Tell whether a line is a traceback's header, frame, chain separator or caret marker."""
    return HEADER in text or is_chain_separator(text) or parse_frame_line(text) is not None or _MARKERS.issuperset(text)
