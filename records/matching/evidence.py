"""Evidence that a pasted error is a given record, each piece scored on its own.

The pieces are combined in :mod:`records.matching.matcher`; keeping them apart makes each one easy to
test and lets the ``why`` of a match say which evidence carried it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache

from rapidfuzz import fuzz, utils

from records.matching.align import Alignment, align, is_first_clause
from records.matching.index import IndexEntry
from records.matching.patterns import derived_pattern, fits_whole, pattern_evidence
from records.matching.template import Template

# Old names Python keeps as aliases of OSError; a record may say either.
CLASS_ALIASES = {"EnvironmentError": "OSError", "IOError": "OSError", "WindowsError": "OSError"}
# The fuzzy comparison sees at most this much of a message (its head and its tail): rapidfuzz is
# quadratic, and a longer message holds a dump (a tensor repr, a list of configs) in a placeholder.
# The literal text is aligned over the whole message, in linear time (``records.matching.align``).
FUZZY_CHARS = 1200
# From this many literal characters found in order (squashed), a piece of a template is telling
# evidence on its own: chance does not line up 45 letters of a sentence. A piece never scores as high
# as a whole message, so a whole message of another template wins over a piece of this one.
FRAGMENT_CHARS = 45
FRAGMENT_CEILING = 0.9
# A message that is its template's whole first sentence ("Can't load tokenizer for 'x'", the rest of
# the template after ". If you were trying ...") is a piece the person chose, not a cut: from this many
# letters in one run it is as telling as a longer run. On the real set the two shipped-site pastes of a
# short first sentence alone hold 20 and 29 letters (24 loses the first); 16 and 12 gain no right
# answer, and make a generated paste a choice (16) and match one more foreign error (12).
CLAUSE_CHARS = 20
OUTSIDE_WEIGHT = 0.5
# A message retyped by hand ("trunction=True") or re-rendered by a chat window (a link title put
# before its URL) loses a piece of its literal text here and there: the alignment then has holes,
# yet the words read almost the same. From this much of the literal text found in order and this
# fuzzy likeness, the text counts as their product rather than as a contradiction.
# Below a piece found whole (``FRAGMENT_CEILING``): of two templates, the one the message holds without
# holes goes first.
RETYPED_COVERED, RETYPED_FUZZY, RETYPED_CEILING = 0.7, 0.8, 0.85
# Below this many literal characters a template says little (e.g. "Invalid {x}").
SPECIFIC_CHARS = 28
LINE_TOLERANCE = 2
# An alignment no message can better: every literal character found in order, nothing outside.
_PERFECT = Alignment(1.0, FRAGMENT_CHARS, True)


@dataclass(frozen=True, slots=True)
class FrameHint:
    """The frames of a paste, as the matcher needs them."""

    package_paths: tuple[str, ...]  # innermost last; path relative to site-packages, or the raw path
    raising_line: int | None
    libraries: frozenset[str] = field(default_factory=frozenset)


@dataclass(frozen=True, slots=True)
class Evidence:
    """Each piece of evidence for one record, in [−1, 1]."""

    text: float
    pattern: float
    segments: float
    fuzzy: float
    explained: float
    error_class: float
    frame: float
    repo: float
    same_line: bool

    def reasons(self, entry: IndexEntry) -> list[str]:
        """Say in words which evidence counted."""
        why: list[str] = []
        if self.pattern >= 1.0:
            why.append("pattern matches the whole message")
        elif self.pattern > 0:
            why.append("pattern matches inside the message")
        why.append(f"{round(self.segments * 100)}% of the template's literal text found in order")
        if self.error_class > 0:
            why.append(f"class {entry.error_class} agrees")
        elif self.error_class < 0:
            why.append(f"class differs from {entry.error_class}")
        if self.frame >= 1.0:
            why.append(f"raising frame is {entry.file_path}")
        elif self.frame > 0:
            why.append(f"a frame is in {entry.file_path}")
        elif self.frame < 0:
            why.append("frames point to another file of the library")
        if self.same_line:
            why.append(f"line {entry.line_number} agrees")
        return why


# The string helpers below run for every candidate record of every paste (300,000 calls in the
# evaluation sets) on few distinct values: a bounded cache answers most, and stays small in a bot
# that reads pastes for months.
@lru_cache(maxsize=4096)
def short_class(name: str | None) -> str | None:
    """Return the last dotted part of a class name, with old aliases resolved."""
    if not name:
        return None
    last = name.rsplit(".", 1)[-1].strip()
    return CLASS_ALIASES.get(last, last)


def class_evidence(pasted: str | None, recorded: str | None) -> float:
    """1 when the classes agree, −1 when they differ, 0 when either is unknown."""
    a, b = short_class(pasted), short_class(recorded)
    if a is None or b is None:
        return 0.0
    return 1.0 if a == b else -1.0


@lru_cache(maxsize=16384)
def path_agrees(frame_path: str, file_path: str) -> bool:
    """Whether a frame's path and a record's repository path name the same file."""
    return agreeing_with(frame_path)(file_path)


def agreeing_with(frame_path: str) -> Callable[[str], bool]:
    """Return ``path_agrees`` of one frame's path, for the many records' paths a paste's frame is compared with."""
    frame_path = frame_path.lstrip("./")
    suffix = "/" + frame_path

    def agrees(file_path: str) -> bool:
        return file_path.endswith(suffix) or frame_path.endswith("/" + file_path) or frame_path == file_path

    return agrees


def frame_evidence(hint: FrameHint | None, entry: IndexEntry) -> float:
    """1 when the raising frame is the record's file, 0.5 for another frame, −0.5 against, else 0."""
    if hint is None or not hint.package_paths or not entry.file_path:
        return 0.0
    if path_agrees(hint.package_paths[-1], entry.file_path):
        return 1.0
    if any(path_agrees(p, entry.file_path) for p in hint.package_paths):
        return 0.5
    library = library_of(entry)
    # The paste shows the library's own frames, and none of them is this record's file.
    return -0.5 if library and library in hint.libraries else 0.0


def library_of(entry: IndexEntry) -> str | None:
    """Return the library a record belongs to: the name of its repository, lower-case."""
    return library_of_repo(entry.repo) if entry.repo else None


# Repositories whose importable package has another name than theirs: pastes print the package
# (``site-packages/torch/...``, ``torch==2.5.1``), and frames and versions are compared by it.
_PACKAGE_OF_REPO = {"pytorch": "torch", "flash-attention": "flash_attn"}


@lru_cache(maxsize=1024)
def library_of_repo(repo: str) -> str | None:
    """Return the library of a repository ("owner/name") as pastes name it: its package, lower-case.

    ``huggingface/transformers`` is ``transformers``, ``pytorch/pytorch`` is ``torch``,
    ``huggingface/sentence-transformers`` is ``sentence_transformers``; None for no owner.
    """
    if "/" not in repo:
        return None
    name = repo.rsplit("/", 1)[-1].lower()
    return _PACKAGE_OF_REPO.get(name, name.replace("-", "_"))


@dataclass(frozen=True, slots=True)
class TextEvidence:
    """How well a message reads as one template (computed once per template)."""

    text: float
    pattern: float
    segments: float
    fuzzy: float
    explained: float  # share of the message that is the template's literal text (specificity)
    found_chars: int = 0  # literal characters found in order (squashed)
    consistent: bool = False  # nothing missing between found segments (a whole message or a piece)
    literal_chars: int = 0  # the template's literal characters: how much text there is to compare (0: no message)
    clause: bool = False  # the message is the template's whole first sentence (``is_first_clause``)

    @property
    def telling(self) -> bool:
        """Whether the text alone says which template this is: a long run of it in order, or its first sentence."""
        return self.consistent and (self.found_chars >= FRAGMENT_CHARS or self.clause)


def text_evidence(
    template: Template, pattern: str | None, message: str, alignment: Alignment | None = None
) -> TextEvidence:
    """Score a message against a template: its pattern, its literal parts in order, and fuzzy text.

    ``alignment`` is ``align(template.segments, message)`` when the caller has it already.
    """
    if alignment is None:
        alignment = align(template.segments, message)
    segments = alignment.covered
    # A record without a pattern (the page form has none) gets one from its template; patterns are
    # case-sensitive, which tells "Assisted decoding..." from "assisted decoding..." apart.
    # Below half the literal text neither pattern can match anyway; skip compiling them. The derived
    # pattern tolerates white space the paste lost (tabs, re-wrapped lines) that a stored one may not.
    pattern_score = 0.0
    if segments >= 0.5:
        whole = fits_whole(template.segments, message)  # as the derived pattern's program, without one
        pattern_score = 1.0 if whole else pattern_evidence(derived_pattern(template.segments), message)
        if pattern and pattern_score < 1.0:
            pattern_score = max(pattern_score, pattern_evidence(pattern, message))
    fuzzy = fuzz.token_sort_ratio(
        template.literal, _condensed(message), processor=utils.default_process, score_cutoff=30
    )
    text, clause = _text(
        template.segments, template.literal_chars, message, alignment, pattern=pattern_score, fuzzy=fuzzy
    )
    return TextEvidence(
        text,
        pattern_score,
        segments,
        fuzzy / 100,
        min(1.0, template.literal_chars / max(1, len(message.strip()))),
        alignment.found_chars,
        alignment.consistent,
        comparable_chars(template.literal_chars, message),
        clause,
    )


def comparable_chars(literal_chars: int, message: str) -> int:
    """Return how much text a template and a message have to compare: none when the message is empty.

    A traceback cut right after its raise statement ('raise ValueError(') has no message: as for a template
    of too little text, the raising frame's line is then the evidence (``records.matching.scoring``).
    """
    return literal_chars if message.strip() else 0


def text_ceiling(template: Template, message: str, alignment: Alignment) -> float:
    """Return the most ``text_evidence(...).text`` can be, given the alignment: pattern and fuzzy text at best.

    The alignment costs a fraction of the pattern and the fuzzy comparison; a template whose ceiling
    cannot come near the best candidate's score is never compared further (``records.matching.scoring``).
    """
    pattern = 1.0 if alignment.covered >= 0.5 else 0.0
    return _text(template.segments, template.literal_chars, message, alignment, pattern=pattern, fuzzy=100.0)[0]


@lru_cache(maxsize=4096)  # asked for every candidate; few lengths recur
def text_ceiling_unaligned(literal_chars: int) -> float:
    """Return the most ``text_evidence(...).text`` can be for a template of ``literal_chars``, whatever the message."""
    return _text((), literal_chars, "", _PERFECT, pattern=1.0, fuzzy=100.0)[0]


def _text(
    segments: tuple[str, ...], literal_chars: int, message: str, alignment: Alignment, *, pattern: float, fuzzy: float
) -> tuple[float, bool]:
    """Combine the pieces of text evidence (``fuzzy`` in percent) into its score; say whether a first sentence.

    The score never falls as ``pattern`` or ``fuzzy`` grow, which ``text_ceiling`` relies on.
    """
    covered = alignment.covered
    whole = 0.45 * pattern + 0.40 * covered + 0.15 * fuzzy / 100
    if covered < 1.0:
        whole *= covered if alignment.consistent else covered**2  # text missing inside is worse
    if alignment.replaced and covered >= RETYPED_COVERED and fuzzy >= 100 * RETYPED_FUZZY:
        whole = max(whole, min(RETYPED_CEILING, covered * fuzzy / 100))
    piece = 0.0
    clause = False
    if alignment.consistent:
        # A message cut off, or quoted in part, covers only part of its template, and that is the
        # paste's doing: what counts is how long a run of the template's text it is, in order.
        piece = FRAGMENT_CEILING * min(1.0, alignment.found_chars / FRAGMENT_CHARS)
        clause = piece < FRAGMENT_CEILING and is_first_clause(segments, message, CLAUSE_CHARS)
        if clause:
            piece = FRAGMENT_CEILING
    specificity = min(1.0, literal_chars / SPECIFIC_CHARS)
    # Message text beyond a template's first or last words is not explained by it: of two templates
    # that both fit, the one that reaches the end of a cut-off message goes first.
    return max(whole, piece) * (0.6 + 0.4 * specificity) * (1.0 - OUTSIDE_WEIGHT * alignment.outside), clause


def _condensed(message: str) -> str:
    """Return the message, or its head and tail when a long placeholder value makes it long."""
    if len(message) <= FUZZY_CHARS:
        return message
    half = FUZZY_CHARS // 2
    return f"{message[:half]} {message[-half:]}"


def gather(entry: IndexEntry, text: TextEvidence, error_class: str | None, hint: FrameHint | None) -> Evidence:
    """Add one record's own evidence (class, frames, repository, line) to its template's text evidence."""
    library = library_of(entry)
    return Evidence(
        text=text.text,
        pattern=text.pattern,
        segments=text.segments,
        fuzzy=text.fuzzy,
        explained=text.explained,
        error_class=class_evidence(error_class, entry.error_class),
        frame=frame_evidence(hint, entry),
        repo=1.0 if hint and library and library in hint.libraries else 0.0,
        same_line=same_line(hint, entry),
    )


def same_line(hint: FrameHint | None, entry: IndexEntry) -> bool:
    """Whether the raising frame's line is this record's raise line (the version that raised it).

    Python reports a multi-line ``raise`` at its first or its message line, so a line or two apart
    still counts.
    """
    if hint is None or hint.raising_line is None or entry.line_number is None or not entry.file_path:
        return False
    if not hint.package_paths or not path_agrees(hint.package_paths[-1], entry.file_path):
        return False
    return near_line(hint.raising_line, entry.line_number)


def near_line(raising_line: int | None, line: int | None) -> bool:
    """Tell whether a raise at ``line`` is reported at ``raising_line`` (a line or two apart, see ``same_line``)."""
    return raising_line is not None and line is not None and abs(raising_line - line) <= LINE_TOLERANCE
