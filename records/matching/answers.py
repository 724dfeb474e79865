"""From scored records to answers: one per raise site, with curated text, rewordings and copies joined.

A raise site's records (its releases, a curated record of the same site) make one ``Match``
(``site_answer``): the curated text if any, located at the release whose line the traceback shows.
Then a curated record that names no line joins the located site whose text it opens
(``join_curated``), a check reworded between releases joins its other wording (``join_reworded``) and
copies of one check in several files fold into one answer (``fold_answers``, ``records.matching.folding``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from operator import itemgetter

from records.matching.evidence import Evidence, FrameHint, library_of, near_line, same_line, short_class
from records.matching.folding import ModelNames, Site, fold, fold_reason, representative_key, squashed_literal
from records.matching.index import REWORDED_OPENING, IndexEntry
from records.matching.template import parse_template, segments_in_order
from records.versions import version_key

_RELEASE = itemgetter(0)  # of a (release, raising line) pair


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


@dataclass
class Scored:
    """One record scored for a paste: its score, its rank and the evidence behind them."""

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


@dataclass
class SiteMembers:
    """The scored records of one raise site (its releases, a curated record of it), answered as one."""

    members: list[Scored] = field(default_factory=list)

    @property
    def score(self) -> float:
        """The best shown score of its records."""
        return max(m.score for m in self.members)

    @property
    def rank(self) -> float:
        """The best rank of its records."""
        return max(m.rank for m in self.members)


def one_per_record(answers: Iterable[Match]) -> list[Match]:
    """Keep the best answer per record: a linked example and its record are one answer, not two."""
    best: dict[str, Match] = {}
    for answer in answers:
        if answer.id not in best or answer.rank > best[answer.id].rank:
            best[answer.id] = answer
    return list(best.values())


def join_curated(answers: list[Match], framed: list[bool], margin: float = 0.0) -> tuple[list[Match], list[bool]]:
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
                _worded_as(host, answer),
                score=max(host.score, answer.score),
                rank=max(host.rank, answer.rank),
                member_ids=tuple(dict.fromkeys((*answer.member_ids, *host.member_ids))),
            )
    return kept, kept_framed


def join_reworded(answers: list[Match], framed: list[bool], margin: float) -> tuple[list[Match], list[bool]]:
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
        # The text of a curated wording is shown (as ``site_answer`` does), at the better fit's location.
        text = answer if answer.curated and not other.curated else other
        kept[host] = replace(
            _worded_as(other, text),
            member_ids=tuple(dict.fromkeys((*other.member_ids, *answer.member_ids))),
            versions=newest_first((*other.versions, *answer.versions)),
            line_versions=tuple(dict.fromkeys((*other.line_versions, *answer.line_versions))),
        )
        kept_framed[host] = kept_framed[host] or frame
    return kept, kept_framed


def _worded_as(located: Match, text: Match) -> Match:
    """Return ``located`` showing the record and words of ``text`` (a curated wording, or the one kept)."""
    return replace(
        located, id=text.id, error_class=text.error_class, error_message=text.error_message, curated=text.curated
    )


def _reworded(kept: Match, other: Match, margin: float) -> bool:
    """Tell whether ``other`` is ``kept``'s raise site in other versions, reworded (see ``join_reworded``)."""
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


def fold_answers(
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


def site_answer(group: SiteMembers, hint: FrameHint | None, versions: Mapping[str, str]) -> Match:
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
    entries = [*(entry for entry, _ in releases), *(m.entry for m in curated)]
    located = min(entries, key=lambda entry: _location_key(entry, hint, versions))
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
        versions_seen = newest_first(release for m in sited for release, _ in m.releases)
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


def _site_of_releases(member: Scored, hint: FrameHint | None, versions: Mapping[str, str]) -> Match:
    """Return ``site_answer`` of a group of one record (the common case: no curated text to fold with a mined one).

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


def newest_first(releases: Iterable[str | None]) -> tuple[str, ...]:
    """Return the distinct releases, newest first."""
    distinct = {release for release in releases if release}
    return tuple(sorted(distinct, key=version_key, reverse=True))


def _located_release(member: Scored, versions: Mapping[str, str]) -> IndexEntry:
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
