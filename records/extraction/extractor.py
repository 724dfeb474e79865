"""Read a whole paste: cap it, clean it, split interleaved ranks, scan, then rank what was found."""

from __future__ import annotations

import logging
import re

from records.extraction.candidates import find_candidates
from records.extraction.clean import clean_for_extraction
from records.extraction.common import Located, join_message
from records.extraction.model import (
    KIND_CANDIDATE,
    KIND_EXCEPTION_LINE,
    KIND_INLINE,
    KIND_LOG,
    KIND_PYTEST,
    KIND_TRACEBACK,
    ExtractedError,
    Extraction,
)
from records.extraction.pytest_output import summary_covers
from records.extraction.scan import scan
from records.extraction.versions import find_versions

log = logging.getLogger(__name__)

# Why 64,000: Discord messages stop at 4,000 characters and longer pastes arrive as message.txt
# attachments; a full torchrun traceback from eight ranks is ~40 KB. Beyond that a paste is a log
# dump, and its tail (where Python prints the final exception) is what matters, so the tail is kept.
MAX_PASTE_CHARS = 64_000
# Why 2,000 lines: each line read costs a few microseconds at worst, and a real traceback, even eight
# interleaved torchrun ranks of one, fits in a few hundred; a paste of more lines is a log dump.
MAX_PASTE_LINES = 2_000
MAX_ERRORS = 50  # errors reported per paste: the primary and the others nearest the end

# torchrun, and accelerate's --tee, prefix every line of each worker's output with its rank.
_RANK_PREFIX_RE = re.compile(r"^\[(?:rank|default)\d{1,6}\]: ?", re.MULTILINE)
# The same prefix further along a rank's line: an issue title or a log that lost its newlines
# ('[rank2]: max_cache_length = ... [rank2]: AttributeError: ...') holds several lines in one.
_GLUED_RANK_RE = re.compile(r"[ \t]+(?=\[(?:rank|default)\d{1,6}\]: )")

# Python 3.11's ExceptionGroup tracebacks draw each sub-exception inside a '|' margin.
_GROUP_HEADER = "Exception Group Traceback (most recent call last)"
_GROUP_MARGIN_RE = re.compile(r"^ {0,40}(?:\| ?){1,20}", re.MULTILINE)

# 'raise ValueError(' and the string literals after it; each part is a bounded run of one class.
_RAISED_CLASS_RE = re.compile(r"[A-Za-z_][\w.]{0,200}(?=\()")
_STRING_RE = re.compile(
    r'"((?:[^"\\\n]|\\.){0,2000})"|\'((?:[^\'\\\n]|\\.){0,2000})\''
    r'|"((?:[^"\\\n]|\\.){1,2000})$|\'((?:[^\'\\\n]|\\.){1,2000})$',  # a string cut at the line's end
    re.MULTILINE,
)
# A quoted source line's margin: a box edge, a current-line marker, its number, the box's inner edge.
_SOURCE_MARGIN_RE = re.compile(r"^[│┃|]? {0,4}(?:❱|-{0,8}>)? {0,4}\d{1,9} {0,4}[│┃|]?[ │┃|]{0,80}")
_LITERAL_LINE_RE = re.compile(r"""[rRbBuUfF]{0,2}["']""")  # a line of a message's implicit concatenation
_ESCAPES = (("\\n", "\n"), ("\\t", " "), ('\\"', '"'), ("\\'", "'"), ("\\\\", "\\"))
_MARKED_LINE_RE = re.compile(r"^[│┃|]? {0,4}(?:❱|-{1,8}>) {0,4}\d")

_TIERS = {KIND_TRACEBACK: 4, KIND_PYTEST: 4, KIND_LOG: 3, KIND_EXCEPTION_LINE: 3, KIND_INLINE: 1}
# Launchers re-raise a worker's failure as their own; the worker's error is the one to explain.
_WRAPPER_CLASSES = frozenset({"ChildFailedError", "CalledProcessError"})


def extract(text: str) -> Extraction:
    """Find every Python error occurrence in pasted chat text and pick the one to explain."""
    truncated = len(text) > MAX_PASTE_CHARS
    if truncated:
        text = text[-MAX_PASTE_CHARS:]
    cleaned = clean_for_extraction(text)
    tail, cut = _last_lines(cleaned)
    found = _attach_cut_off(_dedupe(_scan_streams(_flatten_exception_groups(tail))))
    primary = _choose_primary(found)
    fragments: tuple[ExtractedError, ...] = ()
    if primary is None:
        candidates = find_candidates(text, tail)
        errors = tuple(candidates[:MAX_ERRORS])
        primary = errors[0] if errors else None
    else:
        errors = _ordered(found, primary)
        open_end = _open_end(found, primary)
        if open_end is not None:
            fragments = (*_from_source(open_end), *_with_frames(find_candidates(text, tail), open_end))
    libraries = sorted({frame.library for error in errors for frame in error.frames if frame.library})
    log.debug("extracted %d errors from %d characters", len(errors), len(text))
    return Extraction(
        errors=errors,
        primary=primary,
        is_error=any(error.kind != KIND_CANDIDATE for error in errors),
        libraries=tuple(libraries),
        versions=find_versions(cleaned),
        truncated=truncated or cut,
        fragments=fragments,
    )


def _last_lines(text: str) -> tuple[str, bool]:
    """Keep the last MAX_PASTE_LINES lines of ``text``; tell whether any were dropped."""
    parts = text.rsplit("\n", MAX_PASTE_LINES)
    if len(parts) <= MAX_PASTE_LINES:
        return text, False
    return "\n".join(parts[1:]), True


def _flatten_exception_groups(text: str) -> str:
    """Remove the '| ' margins of an ExceptionGroup traceback, so its parts read as plain ones."""
    if _GROUP_HEADER not in text:
        return text
    return _GROUP_MARGIN_RE.sub("", text)


def _scan_streams(text: str) -> list[Located]:
    """Scan ``text``, first splitting interleaved rank-prefixed output into one stream per rank."""
    if _RANK_PREFIX_RE.search(text) is None:
        return scan(text)
    streams: dict[str, tuple[list[str], list[int]]] = {}
    for number, whole in enumerate(text.split("\n")):
        for line in _GLUED_RANK_RE.split(whole) if _RANK_PREFIX_RE.match(whole) else (whole,):
            prefix = _RANK_PREFIX_RE.match(line)
            key = prefix.group(0).strip() if prefix else ""
            lines, origins = streams.setdefault(key, ([], []))
            lines.append(line[prefix.end() :] if prefix else line)
            origins.append(number)
    found: list[Located] = []
    for lines, origins in streams.values():
        found.extend((origins[index], error) for index, error in scan("\n".join(lines)))
    return sorted(found, key=lambda item: item[0])


def _dedupe(found: list[Located]) -> list[Located]:
    """Drop repeats: identical errors (one per rank) and frameless mentions of a full traceback."""
    seen: set[ExtractedError] = set()
    unique: list[Located] = []
    for index, error in found:
        if error not in seen:
            seen.add(error)
            unique.append((index, error))
    full = [error for _, error in unique if error.frames]
    return [(index, error) for index, error in unique if error.frames or not _covered(error, full)]


def _is_cut_off(error: ExtractedError) -> bool:
    """Tell whether an error is a traceback cut off before its exception line.

    A header with no frame and no exception line after it is one too: ComfyUI prints its
    '!!! Exception during processing !!! <message>' line, then the traceback, which pastes often cut
    right after 'Traceback (most recent call last):'.
    """
    return error.kind == KIND_TRACEBACK and not error.message and (bool(error.frames) or error.error_class is None)


def _open_end(found: list[Located], primary: ExtractedError) -> ExtractedError | None:
    """Return the traceback cut off before its exception line that ends the paste's chain, if any.

    That is the primary when it is cut off; else the last traceback of a chain, cut off after its
    first frames or at its header ('During handling ... another exception occurred:' and no more).
    Its error was raised last, so its message may be the one the paste quotes before or after the
    frames (ComfyUI prints '!!! Exception during processing !!! <message>' first); without frames of
    its own it borrows those of the error it was raised while handling.
    """
    if _is_cut_off(primary):
        return primary
    last = found[-1][1]
    if len(found) < 2 or last.kind != KIND_TRACEBACK or last.message or last.error_class is not None:
        return None
    return ExtractedError(None, "", last.frames or primary.frames, KIND_TRACEBACK, last.source)


def _attach_cut_off(found: list[Located]) -> list[Located]:
    """Join a traceback cut off before its last line with the message quoted just before or after it.

    People paste the frames and quote the error apart (the message first, or the last line in another
    code block, or inline after the frames): the frames and that message are one error.
    """
    result = list(found)
    k = 0
    while k < len(result):
        index, error = result[k]
        partner = _message_partner(result, k) if _is_cut_off(error) else None
        if partner is not None:
            other = result[partner][1]
            merged = ExtractedError(other.error_class or error.error_class, other.message, error.frames, KIND_TRACEBACK)
            result[k] = (index, merged)
            del result[partner]
            k = min(k, partner)
        k += 1
    return result


def _message_partner(found: list[Located], k: int) -> int | None:
    """Return the position of the frameless error right after (else right before) ``found[k]``."""
    header_class = found[k][1].error_class
    for j in (k + 1, k - 1):
        if 0 <= j < len(found):
            other = found[j][1]
            agrees = header_class is None or other.error_class in (None, header_class)
            if not other.frames and other.message and agrees:
                return j
    return None


def _from_source(cut_off: ExtractedError) -> list[ExtractedError]:
    """Read the class and the message's literal text (maybe none) from the raise statement a cut-off traceback quotes.

    The statement is the one at the line IPython or rich marks as current ('❱ 1184', '---> 1184'),
    else the first; a rich box's margins and line numbers are dropped, and a string the box cut at
    its right edge counts up to the cut.
    """
    source = _code_of(_from_marked_line(cut_off.source))
    raise_at = source.find("raise ")
    if raise_at < 0:
        return _from_literal_lines(source, cut_off)
    statement = source[raise_at + len("raise ") :]
    name = _RAISED_CLASS_RE.match(statement)
    if name is None:
        return []
    # With no literal ('raise ValueError(' and the paste cut), the class and the raising line still tell.
    return [ExtractedError(name.group(0), _literal_text(statement), cut_off.frames, KIND_CANDIDATE)]


def _from_literal_lines(source: str, cut_off: ExtractedError) -> list[ExtractedError]:
    """Read a message from quoted source lines that are only its string literals (the raise line elided)."""
    lines = [line.strip() for line in source.split("\n") if line.strip()]
    if lines and not _LITERAL_LINE_RE.match(lines[-1]):
        lines.pop()  # the line the paste was cut in
    if not lines or not all(_LITERAL_LINE_RE.match(line) for line in lines):
        return []
    message = _literal_text("\n".join(lines))
    return [ExtractedError(None, message, cut_off.frames, KIND_CANDIDATE)] if message else []


def _literal_text(code: str) -> str:
    """Join the string literals of ``code``, their escapes read as Python reads them (a newline escape, a quote)."""
    literals = [next(g for g in m.groups() if g is not None) for m in _STRING_RE.finditer(code)]
    text = " ".join(literals)
    for escape, char in _ESCAPES:
        text = text.replace(escape, char)
    return join_message([text])


def _from_marked_line(source: str) -> str:
    """Return the quoted source from the line marked as current ('❱', '--->'), else all of it."""
    lines = source.split("\n")
    marked = next((k for k, line in enumerate(lines) if _MARKED_LINE_RE.match(line)), 0)
    return "\n".join(lines[marked:])


def _code_of(source: str) -> str:
    """Drop a rich box's margins, current-line markers and line numbers from each quoted source line."""
    return "\n".join(_SOURCE_MARGIN_RE.sub("", line).rstrip(" │┃") for line in source.split("\n"))


def _with_frames(candidates: list[ExtractedError], cut_off: ExtractedError) -> list[ExtractedError]:
    """Give classless candidates the frames of a cut-off traceback: they may be its message."""
    return [ExtractedError(cut_off.error_class, c.message, cut_off.frames, KIND_CANDIDATE) for c in candidates]


def _covered(error: ExtractedError, full: list[ExtractedError]) -> bool:
    """Tell whether a frameless error repeats one that has frames."""
    return error.error_class is not None and any(summary_covers(error, other) for other in full)


def _choose_primary(found: list[Located]) -> ExtractedError | None:
    """Pick the error to explain: strongest evidence, then not a launcher wrapper, then the last."""
    if not found:
        return None
    return max(found, key=_priority)[1]


def _priority(item: Located) -> tuple[int, bool, bool, int]:
    """Rank an error for primary choice (higher is better)."""
    index, error = item
    tier = _TIERS.get(error.kind, 0)
    if tier == 4 and error.error_class is None and not error.message:
        tier = 2  # a traceback cut off before its last line
    last = (error.error_class or "").rpartition(".")[2]
    return tier, last not in _WRAPPER_CLASSES, not last.endswith("Warning"), index


def _ordered(found: list[Located], primary: ExtractedError) -> tuple[ExtractedError, ...]:
    """Return the primary first, then the other errors in text order, capped at MAX_ERRORS."""
    others = [error for _, error in found if error is not primary]
    return (primary, *others[-(MAX_ERRORS - 1) :])
