"""Accuracy of the matcher on the labelled evaluation sets (``make eval``).

One row per set:

- ``generated``: pastes made from records; top-1 against the label (any record of the same text when
  the paste has no frame).
- ``hard``: hand-written cases with an expected record or status.
- ``real``: real transformers pastes from GitHub issues, labelled by hand with the raising file and
  template. Right means the best answer (matched, or first of an ambiguous list) has the label's class,
  template and file, or, when the paste shows no frame in the raising file, any file that raises the
  same class and template (``alsoRaisedIn``, or a shipped record of an older release); the label's
  site in the wording of other releases (``Rewordings``) is right too. The share right is also given
  among the pastes whose raise site exists in the shipped records: as labelled (``inShipped``), and as checked against the
  records (a shipped record raises the label's template in its file; some labelled sites have none,
  such as ``raise KeyError(key)``, whose message is a bare variable the miner does not keep).
- ``raised``: errors raised by running each shipped version; right means the same file and, when the
  paste's raising-frame line is a shipped record's line of that version only, the same version. Also
  given among the cases whose raise site has a shipped record (the miner skips some, e.g. ``assert``).
- ``foreign`` and ``chat``: real errors of other libraries (at most 3% may be matched to a transformers
  record; a curated record of their own library may answer them, and ``own library answered`` counts
  how many of the errors of a library with shipped records are) and real chat (must get no answer);
  ``foreign-hw`` and ``chat-hw`` are the hand-written ones (at most 1% matched, none answered).

``python -m benchmarks.evaluate --failures real`` prints every miss of a set; ``--misses`` prints each
miss of the real set among the positives whose raise site is shipped, with the errors the matcher tried
and a cause (``miss_cause``); ``--sweep`` shows how the statuses move with the thresholds.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from benchmarks.evalset import EVAL_DIR, raised_cases, real_cases, shipped_records
from records.extraction import ExtractedError, Extraction
from records.matching import IndexEntry, Match, Matcher, MatchIndex, MatchResult, Thresholds
from records.matching.evidence import library_of, library_of_repo, path_agrees, short_class
from records.matching.folding import squashed_literal
from records.matching.index import REWORDED_OPENING
from records.matching.matcher import TRIED_FRAGMENTS, TRIED_OTHERS
from records.matching.template import literal_key, parse_template
from records.model import Record

ANSWERED = ("matched", "ambiguous")
SETS = ("generated", "hard", "real", "ecosystem", "raised", "foreign", "chat", "foreign-hw", "chat-hw")


def entry_of(record: Record) -> IndexEntry:
    """Return the index entry of a record (as the store would give it)."""
    return IndexEntry.from_record(record)


def load_cases(name: str) -> list[dict[str, Any]]:
    """Read one evaluation file of ``tests/data/eval``."""
    path = EVAL_DIR / f"{name}.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


@dataclass
class Tally:
    """Counts for one set."""

    total: int = 0
    top1: int = 0
    top3: int = 0
    statuses: Counter[str] = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)
    # Named sub-counts (hits, cases), e.g. right among the positives whose raise site is shipped.
    parts: dict[str, list[int]] = field(default_factory=dict)

    def count(self, name: str, hit: bool) -> None:
        """Count one case of a named sub-count."""
        part = self.parts.setdefault(name, [0, 0])
        part[0] += hit
        part[1] += 1

    def share(self, name: str) -> float:
        """Return the share of hits of a named sub-count (1.0 when it has no cases)."""
        hits, cases = self.parts.get(name, [0, 0])
        return hits / cases if cases else 1.0

    def row(self, name: str) -> str:
        """Format one table row."""

        def pct(n: int) -> str:
            return f"{100 * n / self.total:6.1f}%" if self.total else "     - "

        s = self.statuses
        extra = "  ".join(f"{label} {h}/{n} {100 * h / n:5.1f}%" for label, (h, n) in self.parts.items() if n)
        return (f"{name:<10} {self.total:>5} {pct(self.top1)} {pct(s['matched'])} {pct(s['ambiguous'])} "
                f"{pct(s['unmatched'] + s['not_an_error'])}  {extra}").rstrip()  # fmt: skip


def _ranked_ids(result: MatchResult) -> list[set[str]]:
    return [set(m.member_ids) | {m.id} for m in result.matches]


def _shown(result: MatchResult) -> str:
    """Describe the answers of a result in one line, for failure lists."""
    answers = ", ".join(f"{m.id} {m.file_path} {m.score:.0f}" for m in result.matches[:3])
    error = result.error or result.extraction.primary
    said = f"{error.error_class}: {error.message[:120]!r}" if error else "nothing extracted"
    return f"{result.status} [{answers}] from {said}"


def score_labelled(matcher: Matcher, case: dict[str, Any], tally: Tally) -> None:
    """Match one generated or hand-written case and count it."""
    result = matcher.match(case["text"])
    tally.total += 1
    tally.statuses[result.status] += 1
    accept = set(case.get("accept") or ([case["expect"]] if case.get("expect") else []))
    ranked = _ranked_ids(result)
    if accept:
        hit1 = bool(ranked) and bool(ranked[0] & accept) and result.status in ANSWERED
        tally.top1 += hit1
        tally.top3 += any(ids & accept for ids in ranked[:3])
        if not hit1:
            tally.failures.append(f"{case['id']} ({case.get('kind')}): {_shown(result)} want {case['expect']}")
    elif case.get("status"):
        ok = result.status in case["status"].split("|")
        tally.top1 += ok
        tally.top3 += ok
        if not ok:
            tally.failures.append(f"{case['id']}: {_shown(result)} want {case['status']}")


def _has_template(matcher: Matcher, match: Match, template: str) -> bool:
    """Tell whether one of the records folded into an answer raises ``template`` (white space aside)."""
    want = literal_key(parse_template(template))
    for member in match.member_ids:
        entry = matcher.index.get(member)
        if entry is not None and literal_key(parse_template(entry.error_message)) == want:
            return True
    return False


def _frame_in(extraction: Extraction, file_path: str) -> bool:
    """Tell whether the paste shows a frame inside ``file_path``."""
    frames = (f for error in extraction.errors for f in error.frames)
    return any(path_agrees(f.package_path or f.path, file_path) for f in frames)


Raisers = Mapping[tuple[str | None, str], frozenset[str]]


def raisers_of(records: Iterable[Record]) -> Raisers:
    """Return the files that raise each (class, template literal) in any shipped release.

    The labels' ``alsoRaisedIn`` list the files that raise a paste's text in the releases the labeller
    checked; a shipped release older than those may raise it in one more file (a check that moved), and
    an answer there is as right when the paste shows no frame in the labelled file.
    """
    files: dict[tuple[str | None, str], set[str]] = {}
    for r in records:
        if r.file_path:
            files.setdefault((short_class(r.error_class), literal_key(parse_template(r.error_message))), set()).add(
                r.file_path
            )
    return {key: frozenset(paths) for key, paths in files.items()}


class Rewordings:
    """Which shipped records are one raise site reworded between releases, as the matcher joins them.

    Two records of one file and class, raised in disjoint releases, whose texts open alike for
    ``REWORDED_OPENING`` squashed characters, are one check whose wording changed (transformers 4.48
    added a paragraph to "The checkpoint you are trying to load has model type ..."). An answer with
    the other wording of the labelled site names the same file and check: right.
    """

    def __init__(self, records: Iterable[Record]) -> None:
        self.by_id: dict[str, Record] = {}
        self.by_site: dict[tuple[str | None, str | None, str], list[Record]] = {}
        for r in records:
            self.by_id[r.id] = r
            key = (r.file_path, short_class(r.error_class), literal_key(parse_template(r.error_message)))
            self.by_site.setdefault(key, []).append(r)

    def joins(self, match: Match, case: dict[str, Any]) -> bool:
        """Tell whether an answer holds a rewording, in other releases, of the labelled raise site."""
        key = (case.get("filePath"), short_class(case.get("errorClass")), literal_key(parse_template(case["template"])))
        labelled = self.by_site.get(key, [])
        members = [self.by_id[m] for m in match.member_ids if m in self.by_id]
        return any(_reworded_site(site, member) for site in labelled for member in members)


def _reworded_site(a: Record, b: Record) -> bool:
    if a.file_path != b.file_path or short_class(a.error_class) != short_class(b.error_class):
        return False
    releases_a, releases_b = _releases(a), _releases(b)
    if not (releases_a and releases_b) or releases_a & releases_b:
        return False
    opening_a, opening_b = squashed_literal(a.error_message), squashed_literal(b.error_message)
    return len(opening_a) >= REWORDED_OPENING and opening_a[:REWORDED_OPENING] == opening_b[:REWORDED_OPENING]


def _releases(record: Record) -> set[str]:
    listed = {v.version for v in record.versions}
    return listed or ({record.library_version} if record.library_version else set())


def real_right(
    matcher: Matcher,
    case: dict[str, Any],
    result: MatchResult,
    raisers: Raisers | None = None,
    rewordings: Rewordings | None = None,
) -> bool:
    """Tell whether a real paste got its labelled raise site (see the module docstring)."""
    best = result.best
    if result.status not in ANSWERED or best is None or not case.get("template"):
        return False
    if short_class(best.error_class) != short_class(case.get("errorClass")):
        return False
    if not _has_template(matcher, best, case["template"]):
        return rewordings is not None and best.file_path == case["filePath"] and rewordings.joins(best, case)
    if best.file_path == case["filePath"]:
        return True
    if _frame_in(result.extraction, case["filePath"]):
        return False
    key = (short_class(case.get("errorClass")), literal_key(parse_template(case["template"])))
    elsewhere = {*(case.get("alsoRaisedIn") or []), *(raisers or {}).get(key, ())}
    return best.file_path in elsewhere


class RealScorer:
    """Scores the real set; checks against the records which labelled raise sites are shipped."""

    def __init__(self, records: list[Record]) -> None:
        self.sites = {(r.file_path, literal_key(parse_template(r.error_message))) for r in records}
        self.raisers = raisers_of(records)
        self.rewordings = Rewordings(records)

    def shipped(self, case: dict[str, Any]) -> bool:
        """Tell whether a shipped record raises the label's template in the label's file (or an alsoRaisedIn)."""
        key = literal_key(parse_template(case.get("template") or ""))
        files = [case.get("filePath"), *(case.get("alsoRaisedIn") or [])]
        return bool(case.get("template")) and any((f, key) in self.sites for f in files)

    def __call__(self, matcher: Matcher, case: dict[str, Any], tally: Tally) -> None:
        """Match one real transformers paste and count it."""
        result = matcher.match(case["text"])
        tally.total += 1
        tally.statuses[result.status] += 1
        right = real_right(matcher, case, result, self.raisers, self.rewordings)
        tally.top1 += right
        if case.get("inShipped"):
            tally.count("inShipped right", right)
        if self.shipped(case):
            tally.count("record shipped right", right)
        if not right:
            shipped = "shipped" if self.shipped(case) else "no such record" if case.get("inShipped") else "not shipped"
            tally.failures.append(f"{case['id']} ({shipped}): {_shown(result)} want {case.get('filePath')}")


def _raising_line(extraction: Extraction, file_path: str) -> int | None:
    """Return the line of the innermost frame inside ``file_path``, if the paste shows one."""
    frames = [f for error in extraction.errors for f in error.frames]
    return next((f.line for f in reversed(frames) if path_agrees(f.package_path or f.path, file_path)), None)


class RaisedScorer:
    """Scores the raised set: it needs the shipped raise lines of each version to judge the version."""

    def __init__(self, records: list[Record]) -> None:
        self.versions_at: dict[tuple[str | None, int | None], set[str | None]] = {}
        for r in records:
            self.versions_at.setdefault((r.file_path, r.line_number), set()).add(r.library_version)
            for release, line in r.version_lines:  # a site of several releases: each one's line
                self.versions_at.setdefault((r.file_path, line), set()).add(release)

    def _shipped(self, case: dict[str, Any]) -> bool:
        """Tell whether a shipped record sits at the case's raise site (in any version, a line or two off)."""
        line = case.get("lineNumber") or 0
        return any((case["filePath"], line + d) in self.versions_at for d in range(-2, 3))

    def __call__(self, matcher: Matcher, case: dict[str, Any], tally: Tally) -> None:
        """Match one raised paste and count it."""
        result = matcher.match(case["text"])
        tally.total += 1
        tally.statuses[result.status] += 1
        if not case.get("raisedByTransformers", True):
            tally.count("not ours answered", result.status in ANSWERED)
            return
        best = result.best
        right = result.status in ANSWERED and best is not None and best.file_path == case["filePath"]
        line = _raising_line(result.extraction, case["filePath"])
        # The line says which version raised it when that version, and no other, has a record there.
        if self.versions_at.get((case["filePath"], line)) == {case["version"]}:
            version_ok = best is not None and best.located_version == case["version"]
            tally.count("version right", right and version_ok)
            right = right and version_ok
        tally.top1 += right
        tally.count("right", right)
        if self._shipped(case):
            tally.count("shipped site right", right)
        if not right:
            shipped = "shipped site" if self._shipped(case) else "no shipped record there"
            tally.failures.append(
                f"{case['id']} ({case['version']}, {shipped}): {_shown(result)} want {case['filePath']}"
            )


def score_chat(matcher: Matcher, case: dict[str, Any], tally: Tally) -> None:
    """Match one paste of chat, which must get no answer."""
    result = matcher.match(case["text"])
    tally.total += 1
    tally.statuses[result.status] += 1
    tally.top1 += result.status not in ANSWERED
    if result.status in ANSWERED:
        tally.failures.append(f"{case['id']}: {_shown(result)}")


# The foreign sets' library labels spelled otherwise than the package (``library_of`` gives the package's).
_REPOSITORY_NAMES = {"flash-attn": "flash_attn", "sentence-transformers": "sentence_transformers"}


class ForeignScorer:
    """Scores errors of other libraries; checks against the records which of those libraries are shipped."""

    def __init__(self, records: list[Record]) -> None:
        self.libraries = {library_of_repo(r.repo) for r in records if r.repo}

    def __call__(self, matcher: Matcher, case: dict[str, Any], tally: Tally) -> None:
        """Match one error of another library: it must not be answered with a transformers record.

        The matched column counts answers from any record; a record of the paste's own library (torch,
        accelerate, ...) may rightly explain it, so only transformers answers count as wrong. An error of
        a library the project ships records of (curated ones today) is a positive too: ``own library
        answered`` counts those answered (matched, or ambiguous with it first) by a record of that library.
        """
        result = matcher.match(case["text"])
        tally.total += 1
        tally.statuses[result.status] += 1
        entry = matcher.index.get(result.best.id) if result.best is not None else None
        ours = entry is not None and (entry.repo or "").lower().endswith("/transformers")
        wrong = result.status == "matched" and ours
        tally.top1 += not wrong
        tally.count("matched to transformers", wrong)
        library = _REPOSITORY_NAMES.get(case.get("library") or "", case.get("library"))
        if library in self.libraries:
            own = entry is not None and library_of(entry) == library and result.status in ANSWERED
            tally.count("own library answered", own)
        if result.status in ANSWERED:
            tally.failures.append(
                f"{case['id']} ({'transformers' if ours else entry and entry.repo}): {_shown(result)}"
            )


def tried_errors(extraction: Extraction) -> list[ExtractedError]:
    """Return the errors of a paste in the order the matcher tries them (primary, others, fragments)."""
    if extraction.primary is None:
        return []
    others = [e for e in extraction.errors if e is not extraction.primary]
    return [extraction.primary, *others[-TRIED_OTHERS:], *extraction.fragments[:TRIED_FRAGMENTS]]


def miss_cause(matcher: Matcher, case: dict[str, Any], result: MatchResult, scorer: RealScorer) -> str:
    """Say why a real paste was missed, in the words of the classes of failure of issue 10.

    ``no record``: no shipped record raises the label's template in its file; ``nothing extracted``;
    ``not a candidate``: the label's template is not among the index's candidates for any error
    tried, nor raised at the raising frame's line; ``wrong answer``: another record came first;
    ``below threshold``: the right record was scored, too low to be answered.
    """
    if not scorer.shipped(case):
        return "no record"
    errors = tried_errors(result.extraction)
    if not errors:
        return "nothing extracted"
    want = literal_key(parse_template(case["template"]))
    if not any(literal_key(c.group.template) == want for e in errors for c in matcher.candidates_of(e)):
        return "not a candidate"
    return "wrong answer" if result.status in ANSWERED else "below threshold"


def print_misses() -> None:
    """Print every miss of the real set among the positives whose raise site is shipped (``--misses``)."""
    records = shipped_records()
    matcher = Matcher(MatchIndex.build(entry_of(r) for r in records))
    scorer = RealScorer(records)
    causes: Counter[str] = Counter()
    for case in real_cases("transformers"):
        result = matcher.match(case["text"])
        if not case.get("inShipped") or real_right(matcher, case, result, scorer.raisers, scorer.rewordings):
            continue
        cause = miss_cause(matcher, case, result, scorer)
        causes[cause] += 1
        print(f"{case['id']} [{cause}] want {case.get('errorClass')} in {case['filePath']}: {case['template'][:100]!r}")
        print(f"    {_shown(result)}")
        for error in tried_errors(result.extraction)[:4]:
            frame = error.raising_frame
            where = f" at {frame.package_path or frame.path}:{frame.line}" if frame else ""
            print(f"    tried {error.kind} {error.error_class}{where}: {error.message[:100]!r}")
    print("causes:", ", ".join(f"{cause} {count}" for cause, count in causes.most_common()))


Scorer = Callable[[Matcher, dict[str, Any], Tally], None]


def _sets(records: list[Record]) -> dict[str, tuple[list[dict[str, Any]], Scorer]]:
    """Return every set's cases and the function that scores them."""
    return {
        "generated": (load_cases("generated"), score_labelled),
        "hard": (load_cases("hard"), score_labelled),
        "real": (real_cases("transformers"), RealScorer(records)),
        "ecosystem": (real_cases("ecosystem"), RealScorer(records)),
        "raised": (raised_cases(), RaisedScorer(records)),
        "foreign": (real_cases("foreign"), ForeignScorer(records)),
        "chat": (real_cases("chat"), score_chat),
        "foreign-hw": (load_cases("foreign"), ForeignScorer(records)),
        "chat-hw": (load_cases("chat"), score_labelled),
    }


def evaluate(matcher: Matcher | None = None, only: tuple[str, ...] = SETS) -> dict[str, Tally]:
    """Run the sets named in ``only``; return their tallies."""
    records = shipped_records()
    if matcher is None:
        matcher = Matcher(MatchIndex.build(entry_of(r) for r in records))
    tallies: dict[str, Tally] = {}
    for name, (cases, scorer) in _sets(records).items():
        if name in only:
            tally = tallies.setdefault(name, Tally())
            for case in cases:
                scorer(matcher, case, tally)
    return tallies


SWEEP_SETS = ("real", "raised", "foreign", "chat", "foreign-hw", "chat-hw")


def sweep() -> None:
    """Print how the real sets move with the thresholds (how ``Thresholds`` was chosen)."""
    index = MatchIndex.build(entry_of(r) for r in shipped_records())
    print("matched ambiguous | real right shipped-right matched | raised right | foreign->tf m+a | chat m+a | hw f c")
    for matched in (50.0, 56.0, 62.0, 70.0, 78.0):
        for ambiguous in (35.0, 45.0, 55.0):
            t = evaluate(Matcher(index, Thresholds(matched=matched, ambiguous=ambiguous)), SWEEP_SETS)
            r, w, f, c = t["real"], t["raised"], t["foreign"], t["chat"]
            print(
                f"{matched:7.0f} {ambiguous:9.0f} | {_pct(r.top1, r):10.1f} {100 * r.share('record shipped right'):13.1f} "
                f"{_pct(r.statuses['matched'], r):7.1f} | {100 * w.share('right'):12.1f} | "
                f"{100 * f.share('matched to transformers'):9.1f} {_pct(_answered(f), f):4.1f} | "
                f"{_pct(_answered(c), c):8.1f} | {_pct(_answered(t['foreign-hw']), t['foreign-hw']):4.1f} "
                f"{_pct(_answered(t['chat-hw']), t['chat-hw']):4.1f}"
            )


def _pct(count: int, tally: Tally) -> float:
    return 100 * count / tally.total if tally.total else 0.0


def _answered(tally: Tally) -> int:
    return tally.statuses["matched"] + tally.statuses["ambiguous"]


def main() -> None:
    """Print the accuracy table, then the misses of the sets asked for."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.evaluate")
    parser.add_argument("--failures", action="append", default=[], choices=SETS, help="print every miss of a set")
    parser.add_argument("--only", action="append", choices=SETS, help="run only these sets")
    parser.add_argument("--sweep", action="store_true", help="print the threshold table")
    parser.add_argument("--misses", action="store_true", help="print the real set's misses with their causes")
    args = parser.parse_args()
    if args.sweep:
        sweep()
        return
    if args.misses:
        print_misses()
        return
    tallies = evaluate(only=tuple(args.only or SETS))
    print(f"{'set':<10} {'n':>5} {'top-1':>7} {'matched':>7} {'ambig.':>7} {'unmatch':>7}  sub-counts")
    for name, tally in tallies.items():
        print(tally.row(name))
    for name, tally in tallies.items():
        shown = tally.failures if name in args.failures else tally.failures[:5]
        for failure in shown:
            print(f"  miss [{name}] {failure}")


if __name__ == "__main__":
    main()
