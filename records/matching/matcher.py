"""From pasted text to the record that explains it, and how sure we are.

``Matcher.match(text)`` extracts the errors in the paste, asks the index for a few dozen candidate
records, scores each on every piece of evidence, folds records of the same raise site (a curated
record and the versions it was mined from) into one answer, and decides the status:

- ``matched``: one answer, confident;
- ``ambiguous``: several answers close together (the same message raised in several files and no
  frame to decide), best first;
- ``unmatched``: the paste is an error but no record is good enough (it goes to triage);
- ``not_an_error``: ordinary chat.

A traceback usually shows where its error was raised: the raising frame's file and line. The
templates raised there, and those their answers fold or join with (``records.matching.kin``), are
scored first. When the best of them is that raise statement (the paste's class, the whole message
fitting its pattern), the answer is taken from them and no word search is made (``_decided_at_site``):
a template raised anywhere else lacks the line's evidence, and the frame has said which one raised it.
The answers are those the word search gives on every evaluation set (``test_matcher_site``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache, lru_cache, partial
from operator import itemgetter
from typing import Literal

from rapidfuzz import fuzz, utils

from records.extraction import ExtractedError, Extraction, extract
from records.extraction.model import KIND_CANDIDATE
from records.matching.align import Alignment, align
from records.matching.evidence import (
    LINE_TOLERANCE,
    SPECIFIC_CHARS,
    Evidence,
    FrameHint,
    TextEvidence,
    agreeing_with,
    class_evidence,
    comparable_chars,
    gather,
    library_of,
    near_line,
    same_line,
    short_class,
    text_ceiling,
    text_ceiling_unaligned,
    text_evidence,
)
from records.matching.folding import (
    ModelNames,
    Site,
    fold,
    fold_reason,
    library_preference,
    named_libraries,
    named_models,
    representative_key,
    squashed_literal,
)
from records.matching.generic import generic_in, generic_owners, is_generic
from records.matching.index import (
    REWORDED_OPENING,
    Candidate,
    IndexEntry,
    MatchIndex,
    TemplateFacts,
    TemplateGroup,
)
from records.matching.kin import MIXED_FILES, NO_OPENING
from records.matching.scoring import FrameNames, ceiling, raw_score, unframed_ceiling, unpenalized_score
from records.matching.template import Template, parse_template, segments_in_order
from records.versions import version_key

Status = Literal["matched", "ambiguous", "unmatched", "not_an_error"]
# Templates scored for a paste's primary error. 24 sufficed for transformers alone; with the libraries
# around it (three times the templates, many sharing its words) the real set's right answer fell to
# places 25-40 for 2 of its 198 shipped positives (``make eval``: 187/198 at 24, 188 at 32, 189 at 40),
# and with 53 transformers releases (their rewordings too) to place 41-48 for one more (188 at 40).
CANDIDATES = 48
# For the paste's other errors and fragments, tried only when the primary is not matched: 40 there too
# made real pastes a third slower (4.1 -> 5.5 ms) and answered none more.
FALLBACK_CANDIDATES = 24
TRIED_OTHERS, TRIED_FRAGMENTS = 12, 12  # errors of one paste tried beside its primary
MAX_NAMED_CHARS = 64_000  # the paste's tail searched for model class names (extraction's limit)
MAX_QUERY_CHARS = 500
# Ranks are sums of floats added in another order by the ceilings: a candidate is skipped only when its
# ceiling is below the cut by more than rounding could ever make up.
PRUNE_SLACK = 1e-6
_RELEASE = itemgetter(0)  # of a (release, raising line) pair
SCORE_ROUNDING = 0.1  # a score is its rank rounded to one decimal: 44.96 shows as 45.0


@dataclass(frozen=True, slots=True)
class Thresholds:
    """Score cut-offs (0-100), chosen on the evaluation set (``python -m benchmarks.evaluate --sweep``).

    ``matched`` needs the best answer at or above ``matched`` and at least ``margin`` ahead of the
    next; anything at or above ``ambiguous`` is offered as a choice. A paste with no exception class
    and no traceback (kind ``candidate``) only counts when its text evidence alone is near certain
    (``classless_text``) or is a long run of the template's text in order (``TextEvidence.telling``).

    Chosen on the real sets (``python -m benchmarks.evaluate --sweep``: 352 transformers pastes, 67
    foreign errors and 91 chat pastes from GitHub issues, 548 errors raised by running each shipped
    version), not the generated one. Figures of 2026-12-01 (after pieces, retyped messages, reworded
    versions, quoted raise statements, templates posted under their first words and first sentences read
    as pieces): whether the best answer is right (matched, or first of a choice) does not move with
    ``matched`` from 50 to 78 (real: 84.4%, raised: 97.8% throughout); what moves is how many right
    answers are offered as a choice instead (76.4% of real pastes matched at 56, 73.3% at 62, 60.8% at
    70, 38.6% at 78) and how many matches are wrong: 18 of 273 at 50, 17 of 269 at 56, 16 of 258 at 62,
    11 of 214 at 70. Eleven of the 17 at 56 are pastes of a wording no shipped record raises, eight of
    them answered with the same check in the same file as a shipped version words it; 78 would make
    nearly every answer a choice. 56 keeps a wrong match per 16 answers; 50 adds one.
    ``ambiguous`` at 35 gives no more real pastes right than 45 but offers a choice for 14.9% of the
    hand-written foreign errors (11.7% at 45, all answered by curated records of their own library,
    none by transformers'); 55 loses 1.7 points of real pastes right. No real chat is answered and no
    foreign error is matched to a transformers record anywhere in the table, so those targets do not
    bind; 56 and 45 sit inside the plateau.
    """

    matched: float = 56.0
    ambiguous: float = 45.0
    margin: float = 6.0
    classless_text: float = 0.9


@dataclass(frozen=True, slots=True)
class Match:
    """One answer: the record to show, its score and why."""

    id: str
    score: float
    error_class: str | None
    error_message: str
    file_path: str | None
    line_number: int | None
    location_id: str
    versions: tuple[str, ...]
    why: tuple[str, ...]
    member_ids: tuple[str, ...] = ()
    rank: float = 0.0  # unclamped score used for ordering; not shown
    other_files: tuple[str, ...] = ()  # files raising the same check, folded into this answer
    line_versions: tuple[str, ...] = ()  # versions whose raise line is the paste's raising line, newest first
    located_version: str | None = None  # the release whose line ``line_number`` is (a site of several releases)
    curated: bool = False  # the text shown is a curated record's (written by the team, not mined)


@dataclass(frozen=True, slots=True)
class MatchResult:
    """The outcome of matching one paste."""

    status: Status
    matches: tuple[Match, ...]
    extraction: Extraction
    error: ExtractedError | None = None  # the extracted error the answer is for

    @property
    def best(self) -> Match | None:
        """The best answer, if any."""
        return self.matches[0] if self.matches else None


@dataclass
class _Scored:
    entry: IndexEntry
    score: float  # 0-100, shown
    rank: float  # unclamped, orders answers whose shown score is the same (e.g. both 100)
    evidence: Evidence
    quoted: bool = False  # the paste quotes this template's raise statement (``quotes_source``)
    # The entry of every release of the site; ``entry`` is the release scored (the one whose raise line
    # is the paste's raising line, if any).
    site: IndexEntry | None = None

    @property
    def releases(self) -> tuple[tuple[str | None, int | None], ...]:
        """Return (release, raising line) of every release of the site, newest first."""
        return (self.site or self.entry).release_lines()


@dataclass(slots=True)
class _Question:
    """One extracted error to answer and what the paste around it says; each template is scored for it once."""

    error: ExtractedError
    hint: FrameHint | None
    libraries: frozenset[str]
    versions: Mapping[str, str]
    names: ModelNames  # model class names the paste prints (``named_models``), or how to read them
    paste: str
    floor: float  # answers bound below it may be left out
    scored: dict[int, list[_Scored]] = field(default_factory=dict)  # slot -> its members scored


@dataclass
class _Group:
    members: list[_Scored] = field(default_factory=list)

    @property
    def score(self) -> float:
        return max(m.score for m in self.members)

    @property
    def rank(self) -> float:
        return max(m.rank for m in self.members)


class Matcher:
    """Matches pasted text against an index of records."""

    def __init__(
        self, index: MatchIndex, thresholds: Thresholds | None = None, *, prune: bool = True, site_first: bool = True
    ) -> None:
        self.index = index
        self.thresholds = thresholds or Thresholds()
        self.prune = prune  # skip candidates that cannot change the answer (``_scored``); off to compare
        # Score the templates raised at the raising frame's line first, and search no words when one of
        # them is decided there (``_decided_at_site``); off to compare.
        self.site_first = site_first and prune

    def match(self, text: str) -> MatchResult:
        """Return the status and the best answers for a paste."""
        extraction = extract(text)
        if extraction.primary is None:
            return MatchResult("not_an_error", (), extraction)
        others = [e for e in extraction.errors if e is not extraction.primary]
        # A paste of thousands of chained errors must cost a bounded time: the primary, the errors
        # nearest the end (Python prints the cause last) and the first fragments are what can answer.
        ordered = [extraction.primary, *others[-TRIED_OTHERS:], *extraction.fragments[:TRIED_FRAGMENTS]]
        names = cache(partial(named_models, text[-MAX_NAMED_CHARS:]))  # read when a fold first needs them
        fallback: MatchResult | None = None
        for error in ordered:
            limit = CANDIDATES if error is extraction.primary else FALLBACK_CANDIDATES
            result = self._match_error(error, extraction, names, text[-MAX_NAMED_CHARS:], limit)
            if result.status == "matched":
                return result
            if fallback is None or _rank(result.status) > _rank(fallback.status):
                fallback = result
        assert fallback is not None
        return fallback

    def score_error(
        self,
        error: ExtractedError,
        libraries: frozenset[str],
        versions: Mapping[str, str] | None = None,
        names: ModelNames = frozenset(),
        paste: str = "",
        *,
        limit: int = CANDIDATES,
        floor: float = -math.inf,
    ) -> list[Match]:
        """Return every answer for one extracted error, best first (no status decision).

        ``versions`` are library versions the paste prints; ``names`` the class names it prints
        (``named_models``, or a function reading them when first needed), which pick a model's file
        among copies of the same check; ``paste`` the pasted text, which may quote a template's raise
        statement itself (``quotes_source``). Answers whose rank is bound below ``floor`` may be left
        out (``_match_error`` shows none of them).
        """
        question = _Question(error, _hint(error, libraries), libraries, versions or {}, names, paste, floor)
        if self.site_first and floor > -math.inf:
            found = self._site_candidates(error)
            scored = self._scored(found, question)
            if found and _decided_at_site(found, scored):
                return self._answers(found, scored, question)
        found = self._candidates(error, limit)
        return self._answers(found, self._scored(found, question), question)

    def _answers(self, found: list[Candidate], scored: list[list[_Scored]], question: _Question) -> list[Match]:
        """Return the answers of the scored candidates: one per raise site, joined and folded, best first."""
        groups: dict[str, _Group] = {}
        for candidate, items in zip(found, scored, strict=True):
            for item in items:
                groups.setdefault(candidate.group.site_key(item.entry), _Group()).members.append(item)
        answers = [_answer(group, question.hint, question.versions) for group in groups.values()]
        if len(answers) <= 1:
            return answers  # one raise site: nothing to join or fold it with
        framed = [any(m.evidence.frame > 0 or m.quoted for m in group.members) for group in groups.values()]
        answers, framed = _join_curated(answers, framed, self.thresholds.margin)
        answers, framed = _join_reworded(answers, framed, self.thresholds.margin)
        repos = [(entry.repo if (entry := self.index.get(a.location_id)) else None) for a in answers]
        named = question.libraries | named_libraries(question.paste)
        folded = _fold(answers, framed, repos, question.names, named, margin=self.thresholds.margin)
        answers = _one_per_record(folded)
        # Equal ranks (two libraries' wordings of one check, no frame to tell): the library the paste
        # names first, then the preferred one (``LIBRARY_PREFERENCE``), then by id for a stable order.
        libraries_of = {a.id: (entry.repo if (entry := self.index.get(a.location_id)) else None) for a in answers}
        answers.sort(key=lambda m: (-m.rank, library_preference(libraries_of[m.id], named), m.id))
        return answers

    def _scored(self, found: list[Candidate], question: _Question) -> list[list[_Scored]]:
        """Score the candidates that can change the answer, best bound first; return each one's members.

        A candidate is skipped (no members) when its ceiling (``records.matching.scoring``) is a margin
        or more below the best rank found, or below ``floor``: it can then be neither the answer nor
        offered beside it. Answers of other candidates fold or join with it only when their texts are
        kin (``_kin_of_scored``): every candidate kin to one scored is scored too, so folding and joining
        see the answers they would see without skipping. A curated record with no line joins the located
        site whose text it opens whatever their scores (``_join_curated``): such a candidate and those
        that could host it are always scored, first (each template once per question).
        """
        error, hint, floor = question.error, question.hint, question.floor
        facts = self.index.facts_of(c.slot for c in found)
        # Copies of a check far below the one a frame picks are left out (``_score_members``), unless a
        # curated text naming no line is among the candidates: it joins a host whatever their scores.
        below = None if not self.prune or any(f.unlocated_curated for f in facts) else 2 * self.thresholds.margin

        frames = FrameNames.of(hint)

        def score(k: int, alignment: Alignment | None = None) -> list[_Scored]:
            candidate = found[k]
            items = question.scored.get(candidate.slot)
            if items is None:
                quoted = quotes_source(candidate.group.text, question.paste)
                items = self._score_template(candidate, error, hint, quoted, alignment, below=below, frames=frames)
                question.scored[candidate.slot] = items
            return items

        scored: list[list[_Scored] | None] = [None] * len(found)
        if not self.prune:
            return [score(k) for k in range(len(found))]
        best = float("-inf")
        for k in sorted(_curated_and_hosts(found, facts)):
            scored[k] = score(k)
            best = max([best, *(item.rank for item in scored[k] or ())])
        first = _first_ceilings(found, facts, frames, blank=not error.message.strip())
        for k in sorted(range(len(found)), key=lambda k: -first[k]):
            if first[k] + PRUNE_SLACK < max(best - self.thresholds.margin, floor):
                break  # the rest are bounded lower still
            if scored[k] is not None:
                continue
            template = found[k].group.template
            alignment = align(template.segments, error.message)
            limit = ceiling(found[k].group.members, text_ceiling(template, error.message, alignment),
                            comparable_chars(template.literal_chars, error.message), frames,
                            framed=_in_frame_files(found[k].group, facts[k], frames))  # fmt: skip
            if limit + PRUNE_SLACK < max(best - self.thresholds.margin, floor):
                continue
            items = scored[k] = score(k, alignment)
            best = max([best, *(item.rank for item in items)])
        for k in _kin_of_scored(facts, [items is not None for items in scored]):
            scored[k] = score(k)
        return [items or [] for items in scored]

    def candidates_of(self, error: ExtractedError) -> list[Candidate]:
        """Return the templates scored for one extracted error (for the evaluation's miss causes)."""
        return self._candidates(error)

    def _candidates(self, error: ExtractedError, limit: int = CANDIDATES) -> list[Candidate]:
        """Return up to ``limit`` templates the message's words find, then those raised at the raising frame's line."""
        found = self.index.candidates(error.message, limit)
        seen = {c.slot for c in found}
        return found + [c for c in self._raised_at_frame(error) if c.slot not in seen]

    def _raised_at_frame(self, error: ExtractedError) -> list[Candidate]:
        """Return the templates raised at the raising frame's line or a line or two apart, by line."""
        frame = error.raising_frame
        if frame is None or frame.line is None:
            return []
        lines = range(frame.line - LINE_TOLERANCE, frame.line + LINE_TOLERANCE + 1)
        return self.index.at_lines(frame.path.rpartition("/")[2], lines)

    def _site_candidates(self, error: ExtractedError) -> list[Candidate]:
        """Return the templates raised at the raising frame's line and those their answers could become one with.

        Those are the templates of the same literal text, of the same opening where one of the two names
        a release (``_kin_of_scored``), and the curated ones naming no line whose text one of them opens
        in the same file (``_curated_and_hosts``): looked up in the whole index, as no words searched it.
        """
        frame = error.raising_frame
        if frame is None or frame.line is None:
            return []
        path = frame.package_path or frame.path
        agrees = agreeing_with(path)
        found = [c for c in self._raised_at_frame(error) if _raised_there(c.group, path, agrees, frame.line)]
        if not found:
            return found
        kin = self.index.kin()
        seen = {c.slot for c in found}
        joined: list[int] = []  # of the same text, or the same opening where one of the two names a release
        curated: list[tuple[int, str]] = []
        for candidate, fact in zip(found, self.index.facts_of(c.slot for c in found), strict=True):
            files = _file_names(candidate) if fact.file_name == MIXED_FILES else (fact.file_name,)
            joined += kin.same_text(candidate.slot, fact.text_key)
            joined += kin.same_opening(candidate.slot, fact.opening_key, files, versioned=fact.versioned)
            if beside := kin.curated_beside(fact.file_name):
                opening = squashed_literal(candidate.group.text)
                curated += [(slot, opening) for slot in beside]
        for slot in joined:
            if slot not in seen:
                seen.add(slot)
                found += self.index.at_slots((slot,))
        for slot, opening in curated:
            hosted = self.index.at_slots((slot,)) if slot not in seen else []
            if hosted and opening.startswith(squashed_literal(hosted[0].group.text)):
                seen.add(slot)
                found += hosted
        return found

    def search(self, query: str, limit: int = 25) -> list[Match]:
        """Return the records whose message best fits free text (``/search``), best first."""
        query = query.strip()[:MAX_QUERY_CHARS]
        sites: dict[str, list[IndexEntry]] = {}
        scores: dict[str, float] = {}
        for candidate in self.index.candidates(query, limit * 4):
            # A query is a fragment: rank by how much of it the template holds, and by index coverage.
            text = fuzz.partial_token_set_ratio(
                query, candidate.group.template.literal, processor=utils.default_process, score_cutoff=0
            )
            for member in candidate.group.members:
                key = candidate.group.site_key(member)
                sites.setdefault(key, []).append(member)
                scores[key] = round(text * (0.5 + 0.5 * candidate.coverage), 1)
        found = [_search_match(members, scores[key]) for key, members in sites.items()]
        return sorted(_one_per_record(found), key=lambda m: (-m.rank, m.id))[:limit]

    def _match_error(
        self, error: ExtractedError, extraction: Extraction, names: ModelNames, paste: str, limit: int
    ) -> MatchResult:
        libraries = frozenset(extraction.libraries)
        # An answer scored below ``ambiguous`` is never shown, nor is any answer when the best is: a
        # candidate that cannot reach it changes nothing (most of an unmatched paste's time).
        floor = self.thresholds.ambiguous - SCORE_ROUNDING
        answers = self.score_error(error, libraries, extraction.versions, names, paste, limit=limit, floor=floor)
        status, shown = self._decide(error, extraction, answers)
        return MatchResult(status, tuple(shown), extraction, error)

    def _decide(
        self, error: ExtractedError, extraction: Extraction, answers: list[Match]
    ) -> tuple[Status, list[Match]]:
        limits = self.thresholds
        no_answer: Status = "unmatched" if extraction.is_error else "not_an_error"
        if not answers:
            return no_answer, []
        best = answers[0]
        close = [a for a in answers if a.score >= limits.ambiguous and best.rank - a.rank < limits.margin]
        if best.score >= limits.matched and len(close) == 1:
            return "matched", [best]
        if best.score >= limits.ambiguous:
            return "ambiguous", close[:5]
        return no_answer, []

    def _score_template(
        self,
        candidate: Candidate,
        error: ExtractedError,
        hint: FrameHint | None,
        quoted: bool = False,
        alignment: Alignment | None = None,
        *,
        below: float | None = None,
        frames: FrameNames | None = None,
    ) -> list[_Scored]:
        group = candidate.group
        pattern = next((m.message_pattern for m in group.members if m.message_pattern), None)
        text = text_evidence(group.template, pattern, error.message, alignment)
        if error.error_class is None and not error.frames and not self._text_suffices(text):
            return []  # a bare phrase, no class, no frame: only its text can say it is this record
        members = [m for m in group.members if m.alias_of is None or example_applies(m, error)]
        return _score_members(members, text, error, hint, group.template, quoted=quoted, below=below, frames=frames)

    def _text_suffices(self, text: TextEvidence) -> bool:
        """Tell whether text evidence alone is enough: near certain, or a long run of the template in order."""
        return text.text >= self.thresholds.classless_text or text.telling


def _score_members(
    members: Sequence[IndexEntry],
    text: TextEvidence,
    error: ExtractedError,
    hint: FrameHint | None,
    template: Template,
    *,
    quoted: bool,
    below: float | None = None,
    frames: FrameNames | None = None,
) -> list[_Scored]:
    """Score every member of a template: a site of several releases once, at the release that fits best.

    The releases of a site (53 for a transformers site) share its id, file, class and repository:
    their evidence differs only in whether the raising frame's line is theirs. Scored as the release
    whose line is nearest that line (the newest of those as near), else as its newest release. Scoring
    each release made a paste of a check raised in 444 files cost 80 ms.

    ``below``: the members in no frame's file whose score cannot come within ``below`` of a member of
    their class and repository that a frame points to are left out. Folding keeps only the copy of a
    check the frame picks, and answers that far below it are neither shown nor joined to one shown
    (``_scored`` passes twice the margin when no curated text could join them): a paste framed in one
    of 444 model files then builds one answer, not 444.
    """
    raising = hint.raising_line if hint is not None else None
    frame_files = (frames or FrameNames.of(hint)).names  # ``frames``: the hint's, when the caller has them
    framed = frame_files if raising is not None else frozenset()
    owners = generic_owners(template)
    in_frames: dict[int, _Scored] = {}
    for k, m in enumerate(members):
        if m.file_path and m.file_path.rpartition("/")[2] in frame_files:
            release = _nearest_release(m, raising, framed)
            in_frames[k] = _score(release, text, error, hint, generic_in(owners, m.repo), quoted=quoted, site=m)
    picked = _picked_ranks(in_frames.values()) if below is not None and not quoted else {}
    # A member in no frame's file has no frame or line evidence of its own: its evidence is that of
    # every such member of its class and repository, with a file or without (``frame_evidence``): a
    # check copied into 200 model files is gathered once or twice, not 200 times.
    shared: dict[tuple[str | None, str | None, bool], Evidence | None] = {}
    scored: list[_Scored] = []
    for k, m in enumerate(members):
        if (item := in_frames.get(k)) is not None:
            scored.append(item)
            continue
        generic, key = generic_in(owners, m.repo), (m.error_class, m.repo, bool(m.file_path))
        if key not in shared:
            gathered = gather(m, text, error.error_class, hint)
            pick = picked.get((m.repo, short_class(m.error_class)))
            bound = unpenalized_score(gathered, text.literal_chars, generic=generic, quoted=quoted) * 100
            shared[key] = None if pick is not None and below is not None and bound < pick - below else gathered
        if (evidence := shared[key]) is not None:
            scored.append(_scored_with(m, evidence, text, generic, quoted=quoted, site=m))
    return scored


def _picked_ranks(items: Iterable[_Scored]) -> dict[tuple[str | None, str | None], float]:
    """Return the best rank of each class and repository among members a frame points to (``_fold``'s pick)."""
    picked: dict[tuple[str | None, str | None], float] = {}
    for item in items:
        if item.evidence.frame > 0:
            cause = (item.entry.repo, short_class(item.entry.error_class))
            picked[cause] = max(picked.get(cause, -math.inf), item.rank)
    return picked


def _nearest_release(entry: IndexEntry, raising: int | None, framed: frozenset[str]) -> IndexEntry:
    """Return the release of a site whose line is nearest ``raising`` (within the tolerance), else the site.

    Only a site in a file of the paste's frames (``framed``: their last path parts) can be raised there.
    """
    if raising is None or not entry.version_lines or not entry.file_path:
        return entry
    if entry.file_path.rpartition("/")[2] not in framed:
        return entry
    lines = entry.release_lines()
    near = [
        (abs(raising - line), k) for k, (_, line) in enumerate(lines) if line is not None and near_line(raising, line)
    ]
    if not near:
        return entry
    release, line = lines[min(near)[1]]
    return entry.at_release(release, line)


def _score(
    entry: IndexEntry,
    text: TextEvidence,
    error: ExtractedError,
    hint: FrameHint | None,
    generic: bool,
    *,
    quoted: bool,
    site: IndexEntry | None = None,
) -> _Scored:
    return _scored_with(entry, gather(entry, text, error.error_class, hint), text, generic, quoted=quoted, site=site)


def _scored_with(
    entry: IndexEntry, evidence: Evidence, text: TextEvidence, generic: bool, *, quoted: bool, site: IndexEntry | None
) -> _Scored:
    raw = raw_score(entry, evidence, text.literal_chars, generic=generic, quoted=quoted)
    return _Scored(entry, round(max(0.0, min(1.0, raw)) * 100, 1), raw * 100, evidence, quoted, site)


def _first_ceilings(
    found: list[Candidate], facts: list[TemplateFacts], frames: FrameNames, *, blank: bool = False
) -> list[float]:
    """Bound each candidate's rank before its text is compared: text at best, members in a frame's file looked at.

    blank: the message is empty, so no template has text to compare (``comparable_chars``).
    """
    names = frames.names
    unframed: dict[int, float] = {}  # literal chars -> the bound of a template no frame's file raises
    bounds: list[float] = []
    for candidate, fact in zip(found, facts, strict=True):
        chars, name = fact.literal_chars, fact.file_name
        if name != MIXED_FILES and name not in names:  # every member is in a file no frame names: none visited
            bound = unframed.get(chars)
            if bound is None:
                bound = unframed[chars] = unframed_ceiling(text_ceiling_unaligned(chars))
        else:
            site_chars = 0 if blank else chars
            framed = _in_frame_files(candidate.group, fact, frames)
            bound = ceiling(
                candidate.group.members, text_ceiling_unaligned(chars), site_chars, frames, exact=False, framed=framed
            )
        bounds.append(bound)
    return bounds


def _in_frame_files(group: TemplateGroup, fact: TemplateFacts, frames: FrameNames) -> Sequence[IndexEntry] | None:
    """Return the members of a check copied into many more files than the paste has frames that are in a frame's file.

    Looked up by file name (``TemplateGroup.in_files``) instead of among every copy; None for any other
    template, whose few members ``ceiling`` reads faster itself.
    """
    if fact.file_name != MIXED_FILES or len(group.members) <= 4 * len(frames.names):
        return None
    return group.in_files(frames.names)


def _curated_and_hosts(found: list[Candidate], facts: list[TemplateFacts]) -> set[int]:
    """Return the candidates with a curated member that names no line, and those that could host it.

    A host (``_host_of``) is raised in the curated record's file and its text starts with the curated
    one's: a file name shared, or one of them of mixed files, and the squashed literal opening alike.
    """
    openers = [k for k, fact in enumerate(facts) if fact.unlocated_curated]
    forced = set(openers)
    for k in openers:
        opening, name = squashed_literal(found[k].group.text), facts[k].file_name
        for j, candidate in enumerate(found):
            same_file = MIXED_FILES in (name, facts[j].file_name) or facts[j].file_name == name
            if j not in forced and same_file and squashed_literal(candidate.group.text).startswith(opening):
                forced.add(j)
    return forced


def _kin_of_scored(facts: list[TemplateFacts], scored: list[bool]) -> list[int]:
    """Return the skipped candidates whose answers could fold or join with a scored one's.

    Folding takes answers of the same literal text (``cause_text``); joining, answers opening alike
    of which one has versions (``_reworded``). Keys are checksums: two texts with the same one only
    cost a candidate scored more.
    """
    texts = {fact.text_key for fact, done in zip(facts, scored, strict=True) if done}
    openings: dict[int, bool] = {}  # a scored candidate's opening -> whether one opening so has versions
    for fact, done in zip(facts, scored, strict=True):
        if done and fact.opening_key != NO_OPENING:
            openings[fact.opening_key] = openings.get(fact.opening_key, False) or fact.versioned
    return [
        k
        for k, (fact, done) in enumerate(zip(facts, scored, strict=True))
        if not done and (fact.text_key in texts or _joins(fact, openings))
    ]


def _joins(fact: TemplateFacts, openings: dict[int, bool]) -> bool:
    """Tell whether a candidate's answers could join a scored one's: the same opening, and one has versions."""
    versioned = openings.get(fact.opening_key)
    return versioned is not None and (versioned or fact.versioned)


def _raised_there(group: TemplateGroup, path: str, agrees: Callable[[str], bool], raising: int) -> bool:
    """Tell whether a template is raised in the file at ``path`` (``agrees``: not only one of its name) at that line."""
    members = group.members
    if len(members) > 1:  # a check copied into many files: only those of the frame's file name can be it
        members = group.in_file(path.rpartition("/")[2])
    for member in members:
        if agrees(member.file_path or "") and (
            near_line(raising, member.line_number) or any(near_line(raising, n) for _, n in member.version_lines)
        ):
            return True
    return False


def _file_names(candidate: Candidate) -> set[str]:
    """Return the last path parts of the files a template's members raise it in."""
    return {m.file_path.rpartition("/")[2] if m.file_path else "" for m in candidate.group.members}


def _decided_at_site(found: list[Candidate], scored: list[list[_Scored]]) -> bool:
    """Tell whether the best answer is the raise statement the paste shows, with no other template to weigh.

    The raising frame is the record's file and line, the class agrees and the template's pattern matches
    the whole message: the paste was raised there. A template raised anywhere else lacks the line's
    evidence, so it could at most come within the margin of that answer, as another reading of the
    same words; the frame has already said which one raised it. A template of little literal text
    ("{message}", "Invalid {x}") or of words Python prints itself fits too many messages to decide.
    """
    best: tuple[float, Candidate, _Scored] | None = None
    for candidate, items in zip(found, scored, strict=True):
        for item in items:
            if best is None or item.rank > best[0]:
                best = (item.rank, candidate, item)
    if best is None:
        return False
    _, candidate, item = best
    evidence, template = item.evidence, candidate.group.template
    at_site = evidence.frame >= 1.0 and evidence.same_line and evidence.error_class > 0 and evidence.pattern >= 1.0
    return at_site and template.literal_chars >= SPECIFIC_CHARS and not is_generic(template, item.entry.repo)


@lru_cache(maxsize=64)  # one paste's errors share candidates; 64 pastes of at most 64 KB held
def quotes_source(template: str, paste: str) -> bool:
    """Tell whether ``paste`` holds ``template`` word for word, placeholders included (its raise line)."""
    return "{" in template and len(template) <= len(paste) and template in paste


def _search_match(members: list[IndexEntry], score: float) -> Match:
    """One search hit per raise site: the curated record if any, else the newest version."""
    mined = sorted((m for m in members if not m.curated), key=lambda m: version_key(m.library_version))
    shown = next((m for m in members if m.curated), None) or mined[-1]
    located = mined[-1] if mined else shown
    return Match(
        id=shown.record_id, score=score, error_class=shown.error_class, error_message=shown.error_message,
        file_path=located.file_path, line_number=located.line_number, location_id=located.record_id,
        versions=_newest_first(release for m in mined for release, _ in m.release_lines()),
        why=("words of the query",), member_ids=tuple(dict.fromkeys(m.record_id for m in members)), rank=score,
        curated=shown.curated,
        located_version=located.library_version,
    )  # fmt: skip


def example_applies(entry: IndexEntry, error: ExtractedError) -> bool:
    """Tell whether a linked triage example may answer ``error``: only an error of its class, never chat.

    An example is one paste a maintainer vouched for, its values masked: the same words with another
    class are another error, and the sentence alone in chat is no error at all.
    """
    if error.kind == KIND_CANDIDATE or error.error_class is None:
        return False
    return entry.error_class is None or class_evidence(error.error_class, entry.error_class) > 0


def _rank(status: Status) -> int:
    return {"not_an_error": 0, "unmatched": 1, "ambiguous": 2, "matched": 3}[status]


def _hint(error: ExtractedError, libraries: frozenset[str]) -> FrameHint | None:
    if not error.frames:
        return None if not libraries else FrameHint((), None, libraries)
    paths = tuple(f.package_path or f.path for f in error.frames)
    return FrameHint(paths, error.frames[-1].line, libraries | {f.library for f in error.frames if f.library})


def _one_per_record(answers: Iterable[Match]) -> list[Match]:
    """Keep the best answer per record: a linked example and its record are one answer, not two."""
    best: dict[str, Match] = {}
    for answer in answers:
        if answer.id not in best or answer.rank > best[answer.id].rank:
            best[answer.id] = answer
    return list(best.values())


def _join_curated(answers: list[Match], framed: list[bool], margin: float = 0.0) -> tuple[list[Match], list[bool]]:
    """Join a curated record that names no line with the mined raise site whose text it opens.

    A curated record may quote only the start of a long message (its first paragraph). Raised in the
    same file with the same class, it is that site: its text is shown, the mined location kept.
    ``margin``: how far below a site whose message is a value alone its text may rank (``_host_of``).
    """
    kept: list[Match] = []
    kept_framed: list[bool] = []
    for answer, frame in zip(answers, framed, strict=True):
        host = None if answer.line_number is not None else _host_of(answer, answers, margin)
        if host is None:
            kept.append(answer)
            kept_framed.append(frame)
    for answer in answers:
        host = None if answer.line_number is not None else _host_of(answer, answers, margin)
        if host is not None:
            k = next(i for i, a in enumerate(kept) if a is host)
            kept[k] = replace(
                host,
                id=answer.id,
                error_class=answer.error_class,
                error_message=answer.error_message,
                curated=answer.curated,
                score=max(host.score, answer.score),
                rank=max(host.rank, answer.rank),
                member_ids=tuple(dict.fromkeys((*answer.member_ids, *host.member_ids))),
            )
    return kept, kept_framed


def _join_reworded(answers: list[Match], framed: list[bool], margin: float) -> tuple[list[Match], list[bool]]:
    """Join the answers that are one raise site whose wording changed between versions.

    Shipped versions raise "Unrecognized model in {x}. Should have a `model_type` key in its {y}." in
    one and the same sentence going on in another, in the same file, with the same class; a curated
    record may keep the wording of an older release no shipped version raises. A paste that both fit
    about as well (within ``margin``) cannot say which version it came from, and two answers of one
    check say nothing more than one: the better one stands for both, with a curated wording's text.
    """
    kept: list[Match] = []
    kept_framed: list[bool] = []
    # Only an answer in the same file can be reworded: looking among those alone keeps a message raised
    # in 444 files from comparing every answer with every other (it was a fifth of a paste's time).
    in_file: dict[str, list[int]] = {}
    # On a tie the wording a shipped version raises stands for the others (it is located, and current).
    for answer, frame in sorted(
        zip(answers, framed, strict=True), key=lambda pair: (-pair[0].rank, not pair[0].versions)
    ):
        same_file = in_file.get(answer.file_path, []) if answer.file_path is not None else []
        host = next((k for k in same_file if _reworded(kept[k], answer, margin)), None)
        if host is None:
            if answer.file_path is not None:
                in_file.setdefault(answer.file_path, []).append(len(kept))
            kept.append(answer)
            kept_framed.append(frame)
            continue
        other = kept[host]
        # The text of a curated wording is shown (as ``_answer`` does), at the better fit's location.
        text = answer if answer.curated and not other.curated else other
        kept[host] = replace(
            other,
            id=text.id,
            error_class=text.error_class,
            error_message=text.error_message,
            curated=text.curated,
            member_ids=tuple(dict.fromkeys((*other.member_ids, *answer.member_ids))),
            versions=_newest_first((*other.versions, *answer.versions)),
            line_versions=tuple(dict.fromkeys((*other.line_versions, *answer.line_versions))),
        )
        kept_framed[host] = kept_framed[host] or frame
    return kept, kept_framed


def _reworded(kept: Match, other: Match, margin: float) -> bool:
    """Tell whether ``other`` is ``kept``'s raise site in other versions, reworded (see ``_join_reworded``)."""
    if kept.file_path is None or kept.file_path != other.file_path or kept.rank - other.rank >= margin:
        return False
    if short_class(kept.error_class) != short_class(other.error_class):
        return False
    # A curated wording no shipped version raises has no versions: disjoint from a shipped one's. Two
    # such wordings cannot be told apart from two checks of one version; they stay apart.
    if not (kept.versions or other.versions) or set(kept.versions) & set(other.versions):
        return False
    a, b = squashed_literal(kept.error_message), squashed_literal(other.error_message)
    if len(a) >= REWORDED_OPENING and len(b) >= REWORDED_OPENING and a[:REWORDED_OPENING] == b[:REWORDED_OPENING]:
        return True
    return _instance_of(kept.error_message, other.error_message) or _instance_of(
        other.error_message, kept.error_message
    )


def _instance_of(general: str, specific: str) -> bool:
    """Tell whether one wording is the other with a value made a placeholder (or the other way round).

    transformers 5.13 raised "expected at least 2 calls to ..., max_new_tokens=2" and 5.15 "expected at
    least {num_new_tokens} calls to ...": every literal part of the general template is, in order, in
    the specific one's literal text. Only a long template is judged, or a few words would fit any text.
    """
    template = parse_template(general)
    if template.holes == 0 or template.literal_chars < REWORDED_OPENING:
        return False
    return segments_in_order(template.segments, parse_template(specific).literal) == 1.0


def _host_of(curated: Match, answers: list[Match], margin: float = 0.0) -> Match | None:
    """Return the located answer in the curated one's file, of its class, whose text starts with its text.

    A site whose message is a value alone ('{message}': a chat template's own words) hosts a text that fits
    the paste about as well as the site does (within ``margin``): one of the values the site raises, the
    one pasted.
    """
    opening = squashed_literal(curated.error_message)
    for other in answers:
        if other is curated or other.line_number is None or other.file_path != curated.file_path:
            continue
        if short_class(other.error_class) != short_class(curated.error_class):
            continue
        hosted = squashed_literal(other.error_message)
        if opening and (hosted.startswith(opening) or (not hosted and other.rank - curated.rank < margin)):
            return other
    return None


def _fold(
    answers: list[Match],
    framed: list[bool],
    repos: list[str | None],
    names: ModelNames,
    libraries: frozenset[str],
    *,
    margin: float | None = None,
) -> list[Match]:
    """Fold answers that are the same check raised in several files into one (``records.matching.folding``)."""
    sites = [
        Site(k, a.file_path, a.error_class, a.error_message, a.rank, framed[k], repos[k], _newest(a.versions))
        for k, a in enumerate(answers)
    ]
    folded: list[Match] = []
    for site, others in fold(sites, names, libraries, margin):
        answer = answers[site.index]
        if others and answer.line_number is None:
            # Located in its own library only: another library's copy of the check is not its line.
            own = sorted((o for o in others if o.repo == site.repo), key=representative_key)
            answer = _located_at(answer, [answers[o.index] for o in own])
        if others:
            members = (*answer.member_ids, *(i for o in others for i in answers[o.index].member_ids))
            files = tuple(dict.fromkeys(o.file_path for o in others if o.file_path and o.file_path != answer.file_path))
            answer = replace(
                answer,
                member_ids=tuple(dict.fromkeys(members)),
                why=(*answer.why, fold_reason(others, site.repo)),
                other_files=files,
            )
        folded.append(answer)
    return folded


def _newest(versions: Sequence[str]) -> tuple[tuple[int, int], ...]:
    """Return the ``version_key`` of the newest of ``versions`` (listed newest first)."""
    return version_key(versions[0]) if versions else ()


def _located_at(answer: Match, others: list[Match]) -> Match:
    """Give a curated answer that names no line the location of the first mined copy that has one."""
    located = next((o for o in others if o.line_number is not None), None)
    if located is None:
        return answer
    return replace(
        answer,
        file_path=located.file_path,
        line_number=located.line_number,
        location_id=located.location_id,
        versions=located.versions,
        line_versions=located.line_versions,
        located_version=located.located_version,
    )


def _answer(group: _Group, hint: FrameHint | None, versions: Mapping[str, str]) -> Match:
    """Fold one raise site's records: curated text first, located at the version that raised it.

    That is the version whose line is nearest the raising frame's, else the version the paste
    prints, else the newest.
    """
    members = group.members
    if len(members) == 1:
        return _site_of_releases(members[0], hint, versions)
    curated = [m for m in members if m.entry.curated]
    mined = sorted((m for m in members if not m.entry.curated), key=lambda m: version_key(m.releases[0][0]))
    # Newest first: of two records raised at the paste's line (lines move between releases), the newer release's.
    located_at = ((_located_release(m, versions), m) for m in reversed(mined))
    releases = sorted(located_at, key=lambda pair: version_key(pair[0].library_version), reverse=True)
    newest_first = [*(entry for entry, _ in releases), *(m.entry for m in curated)]
    located = min(newest_first, key=lambda entry: _location_key(entry, hint, versions))
    # Checks of one file can share their literal text ("... `{key}` should be {rule}` but found {value}"
    # raised for four keys): the words shown are those of the record raised where the answer is located.
    shown = curated[0] if curated else next(m for entry, m in releases if entry is located)
    best = max(members, key=lambda m: (m.rank, m.entry is located))  # on a tie, the why of the located one
    raising = hint.raising_line if hint is not None else None
    # A curated record that carries its releases' lines (a message of no literal text) lists them as a mined site does.
    sited = [*mined, *(m for m in curated if (m.site or m.entry).library_version)]
    on_line = {
        release for m in sited if m.evidence.same_line for release, line in m.releases if near_line(raising, line)
    }
    if len(sited) == 1:  # a site's releases are listed newest first
        versions_seen = tuple(release for release, _ in sited[0].releases if release)
    else:
        versions_seen = _newest_first(release for m in sited for release, _ in m.releases)
    return Match(
        id=shown.entry.record_id,
        score=best.score,
        error_class=shown.entry.error_class,
        error_message=shown.entry.error_message,
        file_path=located.file_path,
        line_number=located.line_number,
        location_id=located.record_id,
        versions=versions_seen,
        why=tuple(best.evidence.reasons(best.entry)),
        member_ids=tuple(dict.fromkeys(m.entry.record_id for m in members)),
        rank=best.rank,
        line_versions=tuple(v for v in versions_seen if v in on_line),
        located_version=located.library_version,
        curated=bool(curated),
    )


def _site_of_releases(member: _Scored, hint: FrameHint | None, versions: Mapping[str, str]) -> Match:
    """Return ``_answer`` of a group of one record (the common case: no curated text to fold with a mined one).

    The same answer, without sorting and comparing members: a message raised in 200 model files
    gives 200 such groups for one paste. A curated record is located where it says, and lists its
    releases only when it carries their lines.
    """
    entry = member.entry
    if entry.curated:
        located, releases = entry, member.releases if (member.site or entry).library_version else ()
    else:
        located, releases = _located_release(member, versions), member.releases  # newest first
    raising = hint.raising_line if hint is not None and member.evidence.same_line else None
    return Match(
        id=entry.record_id,
        score=member.score,
        error_class=entry.error_class,
        error_message=entry.error_message,
        file_path=located.file_path,
        line_number=located.line_number,
        location_id=located.record_id,
        versions=tuple(filter(None, map(_RELEASE, releases))),  # C-level: 53 releases for each of 1,000 copies
        why=tuple(member.evidence.reasons(entry)),
        member_ids=(entry.record_id,),
        rank=member.rank,
        line_versions=_on_line(releases, raising),
        located_version=located.library_version,
        curated=entry.curated,
    )


def _on_line(releases: Sequence[tuple[str | None, int | None]], raising: int | None) -> tuple[str, ...]:
    """Return the releases (listed newest first) whose raise line is reported at ``raising``."""
    if raising is None:
        return ()
    return tuple(release for release, line in releases if release and near_line(raising, line))


def _newest_first(releases: Iterable[str | None]) -> tuple[str, ...]:
    """Return the distinct releases, newest first."""
    distinct = {release for release in releases if release}
    return tuple(sorted(distinct, key=version_key, reverse=True))


def _located_release(member: _Scored, versions: Mapping[str, str]) -> IndexEntry:
    """Return the release of a mined site that locates the answer best (``_location_key``), newest on a tie.

    Scored at the release whose line is nearest the raising frame's, that one; else the release the
    paste prints, else the newest.
    """
    if member.evidence.same_line or member.site is None:
        return member.entry
    library = library_of(member.site) if versions else None
    stated = versions.get(library) if library is not None else None
    if stated is None:
        return member.site
    for release, line in member.releases:
        if release == stated:
            return member.site.at_release(release, line)
    return member.site


def _location_key(entry: IndexEntry, hint: FrameHint | None, versions: Mapping[str, str]) -> tuple[int, bool, bool]:
    """Order a site's records for locating the answer (lowest first): line, printed version, mined."""
    distance = 1_000_000
    if hint is not None and hint.raising_line is not None and entry.line_number and same_line(hint, entry):
        distance = abs(hint.raising_line - entry.line_number)
    library = library_of(entry)
    stated = (
        library is not None and entry.library_version is not None and versions.get(library) == entry.library_version
    )
    return distance, not stated, entry.curated
