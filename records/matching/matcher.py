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
from dataclasses import dataclass, field
from functools import cache, lru_cache, partial
from typing import Literal

from rapidfuzz import fuzz, utils

from records.extraction import ExtractedError, Extraction, extract
from records.extraction.model import KIND_CANDIDATE
from records.matching.align import Alignment, align
from records.matching.answers import (
    Match,
    Scored,
    SiteMembers,
    fold_answers,
    join_curated,
    join_reworded,
    newest_first,
    one_per_record,
    site_answer,
)
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
    near_line,
    short_class,
    text_ceiling,
    text_ceiling_unaligned,
    text_evidence,
)
from records.matching.folding import (
    ModelNames,
    library_preference,
    named_libraries,
    named_models,
    squashed_literal,
)
from records.matching.generic import generic_in, generic_owners, is_generic
from records.matching.index import (
    Candidate,
    IndexEntry,
    MatchIndex,
    TemplateFacts,
    TemplateGroup,
)
from records.matching.kin import MIXED_FILES, NO_OPENING
from records.matching.scoring import FrameNames, ceiling, raw_score, unframed_ceiling, unpenalized_score
from records.matching.template import Template
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
    scored: dict[int, list[Scored]] = field(default_factory=dict)  # slot -> its members scored


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

    def _answers(self, found: list[Candidate], scored: list[list[Scored]], question: _Question) -> list[Match]:
        """Return the answers of the scored candidates: one per raise site, joined and folded, best first."""
        groups: dict[str, SiteMembers] = {}
        for candidate, items in zip(found, scored, strict=True):
            for item in items:
                groups.setdefault(candidate.group.site_key(item.entry), SiteMembers()).members.append(item)
        answers = [site_answer(group, question.hint, question.versions) for group in groups.values()]
        if len(answers) <= 1:
            return answers  # one raise site: nothing to join or fold it with
        framed = [any(m.evidence.frame > 0 or m.quoted for m in group.members) for group in groups.values()]
        answers, framed = join_curated(answers, framed, self.thresholds.margin)
        answers, framed = join_reworded(answers, framed, self.thresholds.margin)
        repos = [(entry.repo if (entry := self.index.get(a.location_id)) else None) for a in answers]
        named = question.libraries | named_libraries(question.paste)
        folded = fold_answers(answers, framed, repos, question.names, named, margin=self.thresholds.margin)
        answers = one_per_record(folded)
        # Equal ranks (two libraries' wordings of one check, no frame to tell): the library the paste
        # names first, then the preferred one (``LIBRARY_PREFERENCE``), then by id for a stable order.
        libraries_of = {a.id: (entry.repo if (entry := self.index.get(a.location_id)) else None) for a in answers}
        answers.sort(key=lambda m: (-m.rank, library_preference(libraries_of[m.id], named), m.id))
        return answers

    def _scored(self, found: list[Candidate], question: _Question) -> list[list[Scored]]:
        """Score the candidates that can change the answer, best bound first; return each one's members.

        A candidate is skipped (no members) when its ceiling (``records.matching.scoring``) is a margin
        or more below the best rank found, or below ``floor``: it can then be neither the answer nor
        offered beside it. Answers of other candidates fold or join with it only when their texts are
        kin (``_kin_of_scored``): every candidate kin to one scored is scored too, so folding and joining
        see the answers they would see without skipping. A curated record with no line joins the located
        site whose text it opens whatever their scores (``join_curated``): such a candidate and those
        that could host it are always scored, first (each template once per question).
        """
        error, hint, floor = question.error, question.hint, question.floor
        facts = self.index.facts_of(c.slot for c in found)
        # Copies of a check far below the one a frame picks are left out (``_score_members``), unless a
        # curated text naming no line is among the candidates: it joins a host whatever their scores.
        below = None if not self.prune or any(f.unlocated_curated for f in facts) else 2 * self.thresholds.margin

        frames = FrameNames.of(hint)

        def score(k: int, alignment: Alignment | None = None) -> list[Scored]:
            candidate = found[k]
            items = question.scored.get(candidate.slot)
            if items is None:
                quoted = quotes_source(candidate.group.text, question.paste)
                items = self._score_template(candidate, error, hint, quoted, alignment, below=below, frames=frames)
                question.scored[candidate.slot] = items
            return items

        scored: list[list[Scored] | None] = [None] * len(found)
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

    def _raised_at_frame(
        self, error: ExtractedError, keep: Callable[[TemplateGroup], bool] | None = None
    ) -> list[Candidate]:
        """Return the templates raised at the raising frame's line or a line or two apart, by line.

        ``keep``: only the templates it accepts, the others not even made candidates.
        """
        frame = error.raising_frame
        if frame is None or frame.line is None:
            return []
        lines = range(frame.line - LINE_TOLERANCE, frame.line + LINE_TOLERANCE + 1)
        return self.index.at_lines(frame.path.rpartition("/")[2], lines, keep)

    def _site_candidates(self, error: ExtractedError) -> list[Candidate]:
        """Return the templates raised at the raising frame's line and those their answers could become one with.

        Those are the templates of the same literal text, of the same opening where one of the two names
        a release (``_kin_of_scored``), and the curated ones naming no line whose text one of them opens
        in the same file (``_curated_and_hosts``): looked up in the whole index, as no words searched it.
        """
        frame = error.raising_frame
        if frame is None or frame.line is None:
            return []
        path, raising = frame.package_path or frame.path, frame.line
        agrees = agreeing_with(path)
        found = self._raised_at_frame(error, lambda group: _raised_there(group, path, agrees, raising))
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
        return sorted(one_per_record(found), key=lambda m: (-m.rank, m.id))[:limit]

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
    ) -> list[Scored]:
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
) -> list[Scored]:
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
    in_frames: dict[int, Scored] = {}
    for k, m in enumerate(members):
        if m.file_path and m.file_path.rpartition("/")[2] in frame_files:
            release = _nearest_release(m, raising, framed)
            in_frames[k] = _score(release, text, error, hint, generic_in(owners, m.repo), quoted=quoted, site=m)
    picked = _picked_ranks(in_frames.values()) if below is not None and not quoted else {}
    # A member in no frame's file has no frame or line evidence of its own: its evidence is that of
    # every such member of its class and repository, with a file or without (``frame_evidence``): a
    # check copied into 200 model files is gathered once or twice, not 200 times.
    shared: dict[tuple[str | None, str | None, bool], Evidence | None] = {}
    scored: list[Scored] = []
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


def _picked_ranks(items: Iterable[Scored]) -> dict[tuple[str | None, str | None], float]:
    """Return the best rank of each class and repository among members a frame points to (``fold_answers``'s pick)."""
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
) -> Scored:
    return _scored_with(entry, gather(entry, text, error.error_class, hint), text, generic, quoted=quoted, site=site)


def _scored_with(
    entry: IndexEntry, evidence: Evidence, text: TextEvidence, generic: bool, *, quoted: bool, site: IndexEntry | None
) -> Scored:
    raw = raw_score(entry, evidence, text.literal_chars, generic=generic, quoted=quoted)
    return Scored(entry, round(max(0.0, min(1.0, raw)) * 100, 1), raw * 100, evidence, quoted, site)


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


def _decided_at_site(found: list[Candidate], scored: list[list[Scored]]) -> bool:
    """Tell whether the best answer is the raise statement the paste shows, with no other template to weigh.

    The raising frame is the record's file and line, the class agrees and the template's pattern matches
    the whole message: the paste was raised there. A template raised anywhere else lacks the line's
    evidence, so it could at most come within the margin of that answer, as another reading of the
    same words; the frame has already said which one raised it. A template of little literal text
    ("{message}", "Invalid {x}") or of words Python prints itself fits too many messages to decide.
    """
    best: tuple[float, Candidate, Scored] | None = None
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
        versions=newest_first(release for m in mined for release, _ in m.release_lines()),
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
