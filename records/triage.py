"""Triage observations: what may be kept of a paste that no record explains yet.

``observe(text)`` turns raw paste text into an ``Observation`` in a fixed order: cap the input,
clean it (control characters, invisible and bidi characters, lone surrogates), **redact** it, cut it
to the configured length, then extract the error and fingerprint it. Nothing before redaction is
kept, so a sample, a masked message or a log line built from an observation never holds a secret.
A paste that is mostly binary junk, or shows no error, becomes a ``Skipped`` with its reason.

``example_template`` turns a masked message into a ``{}`` template the matcher reads, and
``draft_record`` gives a record skeleton in the published JSON form, prefilled from a group.
Its errors (``UnknownReport``, ``UnknownRecord``) are in ``records.errors`` with all the others.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from records._re2 import Match, Pattern, compile_pattern, encodable
from records.extraction import ExtractedError, Frame, extract
from records.extraction.clean import clean_for_extraction
from records.fingerprint import PLACEHOLDERS, fingerprint, normalize_text
from records.limits import MAX_INPUT_CHARS, TriageLimits
from records.matching.template import parse_template
from records.redact import PERSONAL_KINDS, Redaction, redact

__all__ = [
    "MAX_INPUT_CHARS",
    "GroupFacts",
    "Observation",
    "PasteOrigin",
    "Skipped",
    "TriageLimits",
    "credential_kinds",
    "cut",
    "draft_record",
    "example_template",
    "observe",
    "split_rule",
    "unwrap",
    "usable_example",
]

MAX_MASKED_CHARS = 1_000
MAX_DETAIL_CHARS = 500
MAX_LIBRARIES = 12
# Share of control, replacement or surrogate characters above which a paste is binary junk.
JUNK_SHARE = 0.10
CUT_MARK = "\n[…]\n"
# A template with less literal text than this would match too much; it is not used as an example.
MIN_EXAMPLE_LITERAL = 10

_JUNK = dict.fromkeys(
    [*range(0x00, 0x09), 0x0B, 0x0C, *range(0x0E, 0x20), *range(0x7F, 0xA0), 0xFFFD, *range(0xD800, 0xE000)]
)
_SURROGATES = dict.fromkeys(range(0xD800, 0xE000), "\ufffd")
_PLACEHOLDER = re.compile(r"\[REDACTED:[a-z_]+\]|<(?:" + "|".join(PLACEHOLDERS) + r")(?: in [\w.-]+)?>")
_SLUG_JUNK = re.compile(r"[^a-z0-9]+")
_REGEX_SYNTAX = re.compile(r"[\\.^$|?*+()\[\]{}]")


@dataclass(frozen=True, slots=True)
class PasteOrigin:
    """Where a paste came from: plain Discord ids, never Discord objects."""

    channel_id: int
    author_id: int
    guild_id: int | None = None
    message_id: int | None = None
    jump_url: str | None = None
    source: str = "unmatched"  # or "not_helpful"
    record_id: str | None = None  # the record a not-helpful answer showed


@dataclass(frozen=True, slots=True)
class Observation:
    """A redacted, grouped reading of one paste, safe to store and to log."""

    key: str
    error_class: str  # short class name, '' when none was printed
    masked: str
    sample: str
    libraries: dict[str, str | None] = field(default_factory=dict)
    secret_kinds: tuple[str, ...] = ()
    truncated: bool = False
    frame: str = ""  # the innermost library frame (``package/path.py:function``), '' when none
    loose_key: str = ""  # the key without the frame ('' means the same as ``key``)
    detail: str = ""  # the redacted message before masking, for the rules a split adds

    @property
    def live_secret(self) -> bool:
        """True when the paste carried a credential (its author should be warned)."""
        return bool(self.secret_kinds)

    @property
    def parts(self) -> dict[str, str]:
        """The parts a split rule can tell samples apart by."""
        return {"frame": self.frame, "message": self.detail}


@dataclass(frozen=True, slots=True)
class Skipped:
    """A paste that is not kept, and why (it may still have carried a credential)."""

    reason: str
    secret_kinds: tuple[str, ...] = ()

    @property
    def live_secret(self) -> bool:
        """True when the paste carried a credential (its author should be warned)."""
        return bool(self.secret_kinds)


def observe(text: str, *, paste_chars: int = 8_000, sample_chars: int = 1_500) -> Observation | Skipped:
    """Redact, cut, extract and fingerprint a paste; say why when it cannot be kept."""
    capped = _cap_input(text)
    if _junk_share(capped) > JUNK_SHARE:
        # Not kept, but its author may still need a warning about a credential in it.
        return Skipped("binary", _secret_kinds(redact(capped.translate(_JUNK))))
    # Inline code is kept as extraction keeps it: Python's own backtick quotes are part of a message,
    # and unwrapping them as markdown pairs the wrong backticks when a terminal wrapped the line.
    redaction = _redact(clean_for_extraction(capped.translate(_SURROGATES)))
    kinds = _secret_kinds(redaction)
    if not redaction.text.strip():
        return Skipped("empty", kinds)
    body = _unbold(cut(redaction.text, paste_chars))
    extraction = extract(body)
    primary = extraction.primary
    if primary is None or not extraction.is_error:
        return Skipped("no error", kinds)
    error = unwrap(extraction.errors, primary)
    if not error.message and _is_wrapper(primary):
        error = _told_before(body) or error
    if not error.message:
        error = _told_elsewhere(error, extraction.fragments, body)
    found = fingerprint(error.error_class, _without_span_end(error.message), error.frames)
    return Observation(
        key=found.key,
        error_class=found.error_class,
        masked=found.masked[:MAX_MASKED_CHARS],
        frame=found.frame,
        loose_key=found.loose_key,
        detail=normalize_text(error.message)[:MAX_DETAIL_CHARS],
        sample=cut(body, sample_chars),
        libraries=_libraries(extraction.libraries, primary.frames, extraction.versions),
        secret_kinds=kinds,
        truncated=len(text) > MAX_INPUT_CHARS or len(body) < len(redaction.text),
    )


# Wrapper errors say that another error happened and carry it: the paste is grouped by the error they
# wrap when it shows it. Drawn from the real-paste set: torchrun, datasets, torch DataParallel and
# DataLoader workers, transformers' lazy imports; `[rankN]:` prefixes are read by extraction itself.
WRAPPER_CLASSES = frozenset({"ChildFailedError", "DatasetGenerationError", "Original"})
_CAUGHT = compile_pattern(r"^Caught ([A-Za-z_][\w.]*) in (?:replica \d+ on device \d+|DataLoader worker process \d+)")
_FAILED_IMPORT = compile_pattern(
    r"^Failed to import [\w.]+ because of the following error \(look up to see its traceback\):\n"
)
# Fragments that are frames, carets, progress bars, log lines or a shell prompt (`(env) user@host:~$
# cmd`, typed after a traceback cut off before its last line), not what the error said.
_NOT_A_MESSAGE = compile_pattern(
    r'^(?:File |[\^~])|%\||", line \d|Traceback \(most recent call last\)|^\d{4}-\d\d-\d\d'
    r"|^(?:\(?[\w.-]+\)\s*)?[\w.-]+@[\w.-]+:[~/]"
    # torchrun's report around a child's failure: rules, its heading, its `key : value` lines.
    r"|^={5,}|Root Cause \(first observed failure\)|^(?:time|host|rank|exitcode|error_file)\s+:"
    # The sentences that join the tracebacks of a chain.
    r"|^The above exception was the direct cause|^During handling of the above exception"
)
# A process's prefix on every line (torchrun's `[rank3]: `): what follows it is what the line says.
_LINE_PREFIX = r"^(?:\[(?:default)?rank\d+\]:\s?)?"
# ComfyUI logs the message of the error it caught before the traceback, which pastes often cut off.
_COMFY_EXCEPTION = compile_pattern(rf"(?m){_LINE_PREFIX}!!! Exception during processing !!! (.+)$")
_TORCHRUN_FAILED = compile_pattern(rf"(?m){_LINE_PREFIX}[=\s]*(\S+) FAILED")
_TRACEBACK_START = "Traceback (most recent call last)"


def unwrap(errors: tuple[ExtractedError, ...], primary: ExtractedError) -> ExtractedError:
    """Return the error a wrapper carries (shown elsewhere in the paste or in its message), else the primary."""
    wrappers = [e for e in (primary, *errors) if _is_wrapper(e) and e.message]
    if not primary.error_class and not primary.message:
        told = [e for e in errors if e is not primary and not _is_wrapper(e) and e.message]
        if told:
            return told[-1]
    if not _is_wrapper(primary) and (primary.message or not wrappers):
        return primary
    inner = [e for e in errors if not _is_wrapper(e)]
    told = [e for e in inner if e.message]
    if told:
        return told[-1]
    reduced, informative = _reduced(wrappers[-1]) if wrappers else (primary, False)
    # A wrapper that names what it caught beats an inner traceback cut off before its last line; a
    # wrapper that only says "something failed" does not.
    if informative or not inner:
        return reduced
    return inner[-1]


def _told_elsewhere(error: ExtractedError, fragments: tuple[ExtractedError, ...], body: str) -> ExtractedError:
    """Give a traceback cut off before its exception line the message the paste tells elsewhere, if any."""
    if _is_wrapper(error) and (failed := _first(_TORCHRUN_FAILED, body)):
        # torchrun's report: only the script stays the same from run to run (not time, host, rank, pid).
        return ExtractedError(error.error_class, f"{failed.group(1)} FAILED", error.frames, error.kind)
    if said := _first(_COMFY_EXCEPTION, body):
        return ExtractedError(None, said.group(1).strip(), error.frames, error.kind)
    for fragment in fragments:
        text = " ".join(fragment.message.split())
        if len(text.split()) >= 3 and not _says_wrapped(fragment.message) and not _first(_NOT_A_MESSAGE, text):
            # A fragment takes the class of the paste's last error; a wrapper's is not the fragment's.
            cls = None if _is_wrapper(ExtractedError(fragment.error_class, "")) else fragment.error_class
            return ExtractedError(cls, fragment.message, error.frames, error.kind)
    if error.frames and not any(frame.library for frame in error.frames):
        # Nothing but the user's frames: the innermost one is all there is to tell this paste by.
        last = error.frames[-1]
        return ExtractedError(None, f"(cut off) in {last.path.rsplit('/', 1)[-1]}:{last.function}", error.frames)
    return error


def _without_span_end(message: str) -> str:
    """Drop the closing backtick of an error pasted as inline code (`ValueError: ...`), left unpaired."""
    if message.endswith("`") and message.count("`") % 2:
        return message[:-1].rstrip()
    return message


def _told_before(body: str) -> ExtractedError | None:
    """Return the error told before a wrapper's traceback (a log line, a cut traceback's message), if any.

    A child process or a dataset script prints what failed, then the wrapper's traceback says only
    that something failed (torchrun's ``ChildFailedError``, ``DatasetGenerationError``): the paste is
    grouped by what was told before it, as it is when the wrapper is not pasted.
    """
    start = body.rfind(_TRACEBACK_START)
    if start <= 0:
        return None
    head_text = body[:start]
    head = extract(head_text)
    primary = head.primary
    if primary is None or not head.is_error:
        return None
    error = unwrap(head.errors, primary)
    if not error.message:
        error = _told_elsewhere(error, head.fragments, head_text)
    return error if error.message and not _is_wrapper(error) else None


def _is_wrapper(error: ExtractedError) -> bool:
    cls = (error.error_class or "").rsplit(".", 1)[-1]
    return cls in WRAPPER_CLASSES or _says_wrapped(error.message)


def _says_wrapped(message: str) -> bool:
    """Tell whether a message is a wrapper's (it caught an error in a worker, or failed to import)."""
    return bool(_first(_CAUGHT, message) or _first(_FAILED_IMPORT, message))


def _first(pattern: Pattern, text: str) -> Match | None:
    return next(iter(pattern.finditer(encodable(text))), None)


def _reduced(error: ExtractedError) -> tuple[ExtractedError, bool]:
    """Keep what a wrapper says about the error it carries; tell whether that names the error."""
    if caught := _first(_CAUGHT, error.message):
        return ExtractedError(caught.group(1), error.message.split("\n", 1)[0], error.frames, error.kind), True
    if _first(_FAILED_IMPORT, error.message):
        inner = error.message.split("\n", 1)[1]
        return ExtractedError("ImportError", inner, error.frames, error.kind), True
    if failed := _first(_TORCHRUN_FAILED, error.message):
        # The rest (time, host, rank, pid) differs on every run.
        return ExtractedError(error.error_class, f"{failed.group(1)} FAILED", error.frames, error.kind), False
    # What else a bare wrapper says is about the run, not the error.
    return ExtractedError(error.error_class, "", error.frames, error.kind), False


# An error line in markdown bold, as GitHub issues and Discord show it: `**ValueError: ...** more`.
_BOLD_ERROR = compile_pattern(rf"(?m){_LINE_PREFIX}(\*\*|__)[A-Za-z_][\w.]*(?:Error|Exception|Warning|Exit|Interrupt):")


def _unbold(text: str) -> str:
    """Drop the bold markers around an error line, so that extraction reads it as the final line."""
    if "**" not in text and "__" not in text:
        return text
    lines = text.split("\n")
    for n, line in enumerate(lines):
        found = _first(_BOLD_ERROR, line)
        if found is not None:
            marker = found.group(1)
            start = found.start(1)
            lines[n] = line[:start] + line[start + len(marker) :].replace(marker, "", 1)
    return "\n".join(lines)


def cut(text: str, limit: int) -> str:
    """Cut text to ``limit`` characters, keeping its head and, mostly, its tail (where errors are)."""
    if len(text) <= limit:
        return text
    room = max(0, limit - len(CUT_MARK))
    head = room // 4
    return text[:head] + CUT_MARK + text[len(text) - (room - head) :]


def _cap_input(text: str) -> str:
    """Keep whole lines of an oversized paste's head and tail, so no cut leaves part of a secret.

    A cut inside a line could keep a token's prefix, or a password without the label that lets the
    redactor recognise it; a cut inside a private key could keep its body without its BEGIN line.
    """
    if len(text) <= MAX_INPUT_CHARS:
        return text
    head = text[: MAX_INPUT_CHARS // 4]
    head = head[: head.rfind("\n") + 1]
    tail = text[len(text) - (MAX_INPUT_CHARS - len(head)) :]
    tail = tail[tail.find("\n") + 1 :] if "\n" in tail else ""
    return head + CUT_MARK + _without_orphan_key_end(tail)


def _without_orphan_key_end(tail: str) -> str:
    """Drop the start of a tail that ends a PEM block whose BEGIN line was cut away."""
    end = tail.find("-----END")
    begin = tail.find("-----BEGIN")
    if end < 0 or 0 <= begin < end:
        return tail
    line_end = tail.find("\n", end)
    return tail[line_end + 1 :] if line_end >= 0 else ""


def _junk_share(text: str) -> float:
    """Return the share of control, replacement and surrogate characters in text."""
    if not text:
        return 0.0
    return (len(text) - len(text.translate(_JUNK))) / len(text)


def _redact(text: str) -> Redaction:
    """Redact text; also catch a secret disguised by look-alike or full-width letters."""
    first = redact(text)
    if first.text.isascii():
        return first
    # Folding is per line so the sample keeps its lines; only used when it reveals a hidden secret.
    folded = "\n".join(normalize_text(line) for line in first.text.split("\n"))
    second = redact(folded)
    if not second.findings:
        return first
    return Redaction(second.text, first.findings + second.findings)


def credential_kinds(text: str) -> tuple[str, ...]:
    """Return the kinds of credentials a paste carries (as triage would find them), values never."""
    return observe(text).secret_kinds


def _secret_kinds(redaction: Redaction) -> tuple[str, ...]:
    return tuple(sorted({f.kind for f in redaction.findings if f.kind not in PERSONAL_KINDS}))


def _libraries(
    libraries: tuple[str, ...], frames: tuple[Frame, ...], versions: dict[str, str]
) -> dict[str, str | None]:
    """Return library -> version hints from the frames and the versions the paste prints."""
    names = set(libraries) | {f.library for f in frames if f.library} | set(versions)
    return {name: versions.get(name) for name in sorted(names)[:MAX_LIBRARIES]}


def example_template(masked: str) -> str:
    """Turn a masked message into a ``{}`` template: each placeholder a hole, braces escaped."""
    pieces: list[str] = []
    position = 0
    for match in _PLACEHOLDER.finditer(masked):
        pieces.append(_escape_braces(masked[position : match.start()]))
        pieces.append("{" + _hole_name(match.group()) + "}")
        position = match.end()
    pieces.append(_escape_braces(masked[position:]))
    return "".join(pieces)


def usable_example(template: str) -> bool:
    """Tell whether a template has enough literal text to stand for a record."""
    return parse_template(template).literal_chars >= MIN_EXAMPLE_LITERAL


def _escape_braces(text: str) -> str:
    return text.replace("{", "{{").replace("}", "}}")


def _hole_name(placeholder: str) -> str:
    return "redacted" if placeholder.startswith("[") else placeholder.strip("<>").split(" ", 1)[0]


SPLIT_PARTS = ("frame", "message")


def split_rule(
    chosen: Sequence[Mapping[str, str]], rest: Sequence[Mapping[str, str]]
) -> tuple[str, tuple[str, ...]] | None:
    """Return the part (frame, then message) whose values tell the chosen samples from the rest, or None.

    Every chosen sample must have a value for the part, and none of the rest may share one: the rule
    then sends future pastes with those values where the chosen samples went.
    """
    for part in SPLIT_PARTS:
        values = {parts.get(part, "") for parts in chosen}
        others = {parts.get(part, "") for parts in rest}
        if "" not in values and not values & others:
            return part, tuple(sorted(values))
    return None


class GroupFacts(Protocol):
    """What ``draft_record`` needs of a triage group."""

    @property
    def fingerprint(self) -> str:
        """The group's fingerprint key."""
        ...

    @property
    def error_class(self) -> str:
        """The exception class the group's pastes show."""
        ...

    @property
    def masked(self) -> str:
        """The message with its values masked."""
        ...

    @property
    def libraries(self) -> dict[str, str | None]:
        """The libraries (and versions) seen in the group's pastes."""
        ...


def draft_record(group: GroupFacts) -> dict[str, Any]:
    """Return a record skeleton in the published envelope form, prefilled from a triage group."""
    template = example_template(group.masked)
    segments = parse_template(template).segments
    record: dict[str, Any] = {
        "id": f"triage-{group.fingerprint}",
        "repo": None,
        "slug": _slug(group.error_class, group.masked),
        "errorCode": None,
        "errorMessage": template or group.masked or "(no message)",
        "messagePattern": _pattern(segments) if usable_example(template) and len(segments) > 1 else None,
        "errorType": None,
        "errorClass": group.error_class or None,
        "httpStatus": None,
        "severity": "error",
        "filePath": None,
        "lineNumber": None,
        "documentation": "",
        "triggerScenarios": "",
        "commonSituations": "",
        "solutions": [],
        "exampleFix": None,
        "preventionTips": [],
        "tags": sorted(group.libraries),
        "schemaVersion": 2,
    }
    return {"record": record, "datasetVersion": None}


def _pattern(segments: tuple[str, ...]) -> str:
    """Return a ``messagePattern``: the literal segments escaped, a lazy group for each hole."""
    return "(.+?)".join(_escape_regex(segment) for segment in segments)


def _escape_regex(text: str) -> str:
    """Escape regex syntax only, so the pattern stays readable (spaces and quotes as they are)."""
    return _REGEX_SYNTAX.sub(r"\\\g<0>", text)


def _slug(error_class: str, masked: str) -> str:
    words = _SLUG_JUNK.sub("-", _PLACEHOLDER.sub(" ", f"{error_class} {masked}").lower()).strip("-")
    if len(words) <= 60:
        return words or "triage"
    return words[:60].rsplit("-", 1)[0]
