"""How one record's evidence adds up to its score, and how high that score can be before it is known.

``raw_score`` combines the pieces of :mod:`records.matching.evidence` into the matcher's score (the
weights below). ``ceiling`` bounds that score from above for every member of a template from what
is cheap to know first: the template's length, the paste's frame file names and lines and, once
aligned, how much of the template's text the message holds. The matcher scores the candidates best
bound first and skips those whose bound cannot come near the best score found: comparing a template's
text exactly (its pattern, a fuzzy ratio) and every member's evidence was most of a paste's time.

The bound must never be below the score: ``ceiling`` takes, for each piece it does not compute, the
most that piece can give (tested against ``raw_score`` on random evidence).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from records.matching.evidence import Evidence, FrameHint, near_line, path_agrees
from records.matching.folding import is_other_backend
from records.matching.index import IndexEntry

# Weights of the evidence in the combined score; they add up to 1. Line agreement says which version
# raised it; "explained" (how much of the message is the template's own text) breaks ties between
# templates that both fit, in favour of the more specific one.
W_TEXT, W_CLASS, W_FRAME, W_REPO, W_LINE, W_EXPLAINED = 0.70, 0.12, 0.12, 0.02, 0.08, 0.02
GENERIC_TEXT_FACTOR = 0.4
# transformers' modular_*.py files are the sources its modeling_*.py files are generated from; they
# never run, so a paste's error comes from the generated copy whenever both raise the same message.
MODULAR_PENALTY = 0.08
# transformers 4.x kept TensorFlow and Flax copies of many checks; pastes come from PyTorch far more
# often, so without a frame in the copy the PyTorch original goes first.
OTHER_BACKEND_PENALTY = 0.03
# The paste's raising frame is this record's file and line and the class agrees: the paste shows the
# raise statement itself. When the template has too little text to compare ("{message}.", "{key}"), or
# the paste has none (a traceback cut after 'raise ValueError('), that is the evidence, and it outranks
# a text match raised at another line.
SITE_SCORE = 0.96
SITE_LITERAL_CHARS = 12
# The paste quotes the template as the source writes it, placeholders and all ('raise ValueError(f"Can't
# find a valid checkpoint at {checkpoint_path}")'): the code line of the raise tells look-alike
# templates of two files apart ("... at {resume_from_checkpoint}" is trainer.py's), like a frame would.
W_SOURCE = 0.04


def raw_score(entry: IndexEntry, evidence: Evidence, literal_chars: int, *, generic: bool, quoted: bool) -> float:
    """Return one record's combined score (0-1, unclamped) from its evidence."""
    return _raw(entry.file_path, evidence, literal_chars, generic=generic, quoted=quoted)


def unpenalized_score(evidence: Evidence, literal_chars: int, *, generic: bool, quoted: bool) -> float:
    """Return ``raw_score`` of a record whose path costs it nothing: the most a record with this evidence scores."""
    return _raw(None, evidence, literal_chars, generic=generic, quoted=quoted)


def _raw(file_path: str | None, evidence: Evidence, literal_chars: int, *, generic: bool, quoted: bool) -> float:
    text_weight = W_TEXT
    if generic and evidence.frame <= 0:
        text_weight *= GENERIC_TEXT_FACTOR  # Python says this too: only a frame can make it ours
    raw = text_weight * evidence.text + W_CLASS * evidence.error_class + W_FRAME * evidence.frame
    raw += W_REPO * evidence.repo + W_LINE * evidence.same_line + W_EXPLAINED * evidence.explained
    if file_path and "/modular_" in file_path:
        raw -= MODULAR_PENALTY
    if is_other_backend(file_path) and evidence.frame <= 0:
        raw -= OTHER_BACKEND_PENALTY
    at_site = evidence.frame >= 1.0 and evidence.same_line and evidence.error_class > 0
    if at_site and literal_chars < SITE_LITERAL_CHARS:
        raw = max(raw, SITE_SCORE)
    if quoted:
        raw += W_SOURCE
    return raw


@dataclass(frozen=True, slots=True)
class FrameNames:
    """A paste's frames as the ceilings read them: their paths, the raising line, the files' last names.

    ``path_agrees`` (a frame and a record naming the same file) implies the same last path part: a
    set lookup of that part rules out most members before any path is compared.
    """

    paths: tuple[str, ...] = ()  # innermost last, as ``FrameHint.package_paths``
    raising_line: int | None = None
    names: frozenset[str] = frozenset()
    # file path -> its frame evidence: a paste's candidates share a few files (many templates each)
    _seen: dict[str, float] = field(default_factory=dict, compare=False)

    @classmethod
    def of(cls, hint: FrameHint | None) -> FrameNames:
        """Return the frame names of a paste's frames (none when it has no frames)."""
        if hint is None or not hint.package_paths:
            return cls()
        return cls(hint.package_paths, hint.raising_line, frozenset(map(_frame_file_name, hint.package_paths)))

    def frame(self, file_path: str | None) -> float:
        """Return ``frame_evidence`` for a record in ``file_path`` where it is positive, else 0."""
        if not file_path or file_path.rpartition("/")[2] not in self.names:
            return 0.0
        frame = self._seen.get(file_path)
        if frame is None:
            frame = 1.0 if path_agrees(self.paths[-1], file_path) else 0.0
            if not frame and any(path_agrees(p, file_path) for p in self.paths):
                frame = 0.5
            self._seen[file_path] = frame
        return frame


def ceiling(
    members: Sequence[IndexEntry],
    text: float,
    literal_chars: int,
    frames: FrameNames,
    *,
    exact: bool = True,
    framed: Sequence[IndexEntry] | None = None,
) -> float:
    """Return an upper bound of ``raw_score`` over ``members`` (x100, as ranks are) when their text is at most ``text``.

    Class, repository, "explained" and a quoted raise statement are taken at their best, a frame
    against the record at 0; frame and line agreement and the penalties of a member's own path are
    as in ``raw_score``. Not ``exact``: members in no file of the paste's frames share one bound
    without their penalties (one set lookup each, for a first pass over every candidate). Empty
    ``members`` give minus infinity. ``framed``: the members in a file of the frames' names, when the
    caller has them by name (``TemplateGroup.in_files``): a check copied into 444 files then costs the
    frames' few files, not a look at every copy.
    """
    names = frames.names
    unframed = _unframed(text)
    if framed is None and exact:
        # A member in no frame's file is bound by ``_unframed`` (less its penalties): once the bound found
        # is that high, the rest of them (200 copies of a check in model files) cannot raise it.
        best = -math.inf
        for entry in members:
            if best < unframed or (entry.file_path and entry.file_path.rpartition("/")[2] in names):
                best = max(best, _member_ceiling(entry, text, literal_chars, frames))
        return best * 100
    if framed is None:
        framed = [e for e in members if e.file_path and e.file_path.rpartition("/")[2] in names]
    best = max((_member_ceiling(e, text, literal_chars, frames) for e in framed), default=-math.inf)
    if len(framed) < len(members):
        if not exact:
            return max(best, unframed) * 100
        for entry in members:  # as above, the members in frame files already counted
            if best >= unframed:
                break
            if not (entry.file_path and entry.file_path.rpartition("/")[2] in names):
                best = max(best, _member_ceiling(entry, text, literal_chars, frames))
    return best * 100


def unframed_ceiling(text: float) -> float:
    """Return ``ceiling`` of members in no file of the paste's frames, their penalties left out."""
    return _unframed(text) * 100


def _unframed(text: float) -> float:
    return W_TEXT * text + W_CLASS + W_REPO + W_EXPLAINED + W_SOURCE


def _member_ceiling(entry: IndexEntry, text: float, literal_chars: int, frames: FrameNames) -> float:
    frame = frames.frame(entry.file_path)
    same_line = frame >= 1.0 and any(near_line(frames.raising_line, line) for _, line in entry.release_lines())
    raw = W_TEXT * text + W_CLASS + W_FRAME * frame + W_REPO + W_LINE * same_line + W_EXPLAINED
    if entry.file_path and "/modular_" in entry.file_path:
        raw -= MODULAR_PENALTY
    if frame <= 0 and is_other_backend(entry.file_path):
        raw -= OTHER_BACKEND_PENALTY
    if same_line and literal_chars < SITE_LITERAL_CHARS:
        raw = max(raw, SITE_SCORE)
    return raw + W_SOURCE


def _frame_file_name(path: str) -> str:
    """Return the last part of a frame's path as ``path_agrees`` reads it (its leading ``./`` dropped).

    Whenever ``path_agrees(frame, file)``, this is ``file``'s last part: one path ends with the other
    after a slash, or they are equal.
    """
    return path.lstrip("./").rpartition("/")[2]
