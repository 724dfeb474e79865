"""What an answer says, in the order it says it, before any drawing: shared by the embed and the text.

The order is the reader's: the title (the message as their paste shows it), what it means, the
numbered fixes, an example fix, when it happens; then the evidence: where it is raised, the source
lines around the raise, the versions that raise it, and the match confidence.

A mined record carries no explanation of its own: its ``documentation`` is the comment beside the
raise and its ``triggerScenarios`` the condition the raise sits under, unless the record's
``generated`` list names them (text generated from the source, marked as such in the footer).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from records.matching import Match
from records.matching.evidence import library_of_repo
from records.matching.template import parse_template
from records.model import Record
from records.titles import collapse, message_template, readable_template, title
from records.versions import version_key

SOURCE_CONTEXT = (6, 4)  # lines shown before and after the raising line
SOURCE_LINE_CHARS = 200
# Generated fields (camelCase, as the record's ``generated`` list names them) and the section each fills.
GENERATED_SECTIONS = {
    "documentation": "what it means",
    "solutions": "solutions",
    "exampleFix": "example fix",
    "triggerScenarios": "when it happens",
    "commonSituations": "when it happens",
}


@dataclass(frozen=True, slots=True)
class ReplyParts:
    """Every piece of an answer, as plain text, in the order shown; None or empty when absent."""

    record_id: str
    title: str
    template: str | None  # the record's message template, when the title shows the paste's values
    meaning: str | None
    solutions: tuple[str, ...]
    example_fix: str | None
    condition: str | None  # mined: the ``if`` the raise sits under
    comment: str | None  # mined: the comment beside the raise
    trigger: str | None
    situations: str | None
    location: str | None  # ``path:line``
    scope: str | None  # ``Class.function``
    url: str | None
    source: str | None  # the numbered source window, raising line marked
    versions: tuple[str, ...]
    library: str | None  # the name of the record's repository ("transformers"), which the versions are of
    not_raised: tuple[str, ...]  # shipped versions, when none of them raises a curated record's message
    not_raised_later: tuple[str, ...]  # shipped versions newer than every one that raises it, newest first
    traceback_matches: str | None  # "transformers 4.57.6": the releases whose raise line the paste's traceback shows
    written_for: str | None  # the commit or version a curated record was written against
    score: float | None
    why: tuple[str, ...]
    mined: bool
    generated: tuple[str, ...]  # the sections shown whose text was generated from the source
    shipped: tuple[str, ...] = ()  # the shipped releases of the library: runs of them are shown as ranges

    @property
    def versions_text(self) -> str:
        """The versions that raise the message, after their library's name ("transformers 5.24.0, 4.57.6").

        Runs of consecutive shipped releases read as ranges ("transformers 5.0.0-5.24.0, 4.30.2-4.57.6").
        """
        shown = ", ".join(release_runs(self.versions, self.shipped))
        return f"{self.library} {shown}" if self.library else shown

    @property
    def not_raised_text(self) -> str:
        """The shipped versions that do not raise it, after their library's name ("accelerate 1.15.0 or 1.10.1")."""
        shown = or_list(release_runs(self.not_raised, self.shipped))
        return f"{self.library} {shown}" if self.library else shown

    @property
    def has_explanation(self) -> bool:
        """Whether any explanation section (meaning, fixes, example, when) has text."""
        when = (self.condition, self.comment, self.trigger, self.situations)
        return bool(self.meaning or self.solutions or self.example_fix or any(when))

    @property
    def origin(self) -> str:
        """Where the text came from, for the footer."""
        return "mined from source" if self.mined else "curated"

    def generated_note(self) -> str | None:
        """Return the discreet note that says which sections were generated, or None."""
        if not self.generated:
            return None
        shown = {
            "what it means": bool(self.meaning),
            "solutions": bool(self.solutions),
            "example fix": bool(self.example_fix),
            "when it happens": bool(self.trigger or self.situations),
        }
        if all(name in self.generated for name, present in shown.items() if present):
            return "explanation generated from the source"
        return "generated from the source: " + ", ".join(self.generated)


def location(file_path: str | None, line_number: int | None) -> str | None:
    """Return ``path:line`` (or just the path), or None without a path."""
    if not file_path:
        return None
    return f"{file_path}:{line_number}" if line_number else file_path


def generated_fields(record: Record) -> frozenset[str]:
    """Return the camelCase names of the record's fields that were generated (``generated``), if any."""
    value = getattr(record, "generated", None)
    if not isinstance(value, list | tuple | set | frozenset):
        return frozenset()
    return frozenset(v for v in value if isinstance(v, str))


def reply_parts(
    record: Record, match: Match | None = None, *, pasted: str | None = None, shipped: Sequence[str] = ()
) -> ReplyParts:
    """Lay out the answer that shows ``record`` (for ``match``, for a paste whose message is ``pasted``)."""
    mined = record.is_mined
    generated = generated_fields(record)
    meaning, comment = _text(record.documentation), None
    if mined and "documentation" not in generated:
        meaning, comment = None, meaning
    trigger: str | None = _text(record.trigger_scenarios)
    condition: str | None = None
    if mined and "triggerScenarios" not in generated:
        trigger, condition = None, trigger
    shown_title = title(record.error_class, record.error_message, record.message_pattern, pasted)
    versions, not_raised = _versions(record, match, shipped)
    present = {
        "documentation": meaning,
        "solutions": record.solutions,
        "exampleFix": record.example_fix,
        "triggerScenarios": trigger,
        "commonSituations": record.common_situations,
    }
    scope = ".".join(p for p in (record.enclosing_class, record.enclosing_function) if p)
    return ReplyParts(
        record_id=record.id,
        title=shown_title,
        template=_template_line(record),
        meaning=meaning,
        solutions=tuple(s for s in (collapse(s) for s in record.solutions) if s),
        example_fix=record.example_fix.strip("\n") if record.example_fix and record.example_fix.strip() else None,
        condition=collapse(condition) if condition else None,
        comment=comment,
        trigger=trigger,
        situations=_text(record.common_situations),
        location=location(record.file_path, record.line_number),
        scope=scope or None,
        url=record.github_url or None,
        source=source_excerpt(record),
        versions=versions,
        library=_library(record),
        not_raised=not_raised,
        not_raised_later=_not_raised_later(match, versions, shipped),
        traceback_matches=_traceback_matches(record, match, shipped),
        written_for=(record.library_version or record.analyzed_sha) if not_raised else None,
        score=match.score if match is not None else None,
        why=tuple(match.why) if match is not None else (),
        mined=mined,
        generated=tuple(
            dict.fromkeys(GENERATED_SECTIONS[f] for f in GENERATED_SECTIONS if f in generated and present[f])
        ),
        shipped=tuple(shipped),
    )


def _text(value: str | None) -> str | None:
    return value.strip() if value and value.strip() else None


def _template_line(record: Record) -> str | None:
    """Return the message template to show in the body (the title shows values or ``…`` instead)."""
    message, pattern = record.error_message, record.message_pattern
    if message_template(message, pattern).holes == 0:
        return None
    if parse_template(message).holes == 0:  # only the pattern has holes: its readable form says it best
        return readable_template(message, pattern)
    return collapse(message.replace("{{", "{").replace("}}", "}"))


def _versions(record: Record, match: Match | None, shipped: Sequence[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Return the versions that raise the message, and the shipped ones that do not (curated records)."""
    if match is not None and match.versions:
        return tuple(match.versions), ()
    if record.library_version:
        return (record.library_version,), ()
    if match is not None and not record.is_mined and shipped:
        return (), tuple(shipped)
    return (), ()


def later_without(versions: Sequence[str], shipped: Sequence[str]) -> tuple[str, ...]:
    """Return the shipped versions newer than every one of ``versions`` (which raise the message), newest first.

    Those hold no such check as is: it was reworded, moved or removed after the newest that raises it.
    """
    if not versions:
        return ()
    newest = max(map(version_key, versions))
    return tuple(v for v in sorted(shipped, key=version_key, reverse=True) if version_key(v) > newest)


def _not_raised_later(match: Match | None, versions: Sequence[str], shipped: Sequence[str]) -> tuple[str, ...]:
    """Return the later shipped versions that do not raise the answer's check (see later_without).

    Only a match folds every version of the raise site (a record alone knows its own version), and an
    answer folded from several files may be raised by a later version in one of the others: neither says.
    """
    if match is None or match.other_files:
        return ()
    return later_without(versions, shipped)


def _traceback_matches(record: Record, match: Match | None, shipped: Sequence[str] = ()) -> str | None:
    """Name the releases whose raise line is the one the paste's traceback shows ("transformers 4.44.2-4.46.3")."""
    if match is None or not match.line_versions:
        return None
    runs = release_runs(sorted(match.line_versions, key=version_key, reverse=True), shipped)
    shown = runs[0] if len(runs) == 1 else f"{', '.join(runs[:-1])} and {runs[-1]}"
    library = _library(record)
    return f"{library} {shown}" if library else shown


def _library(record: Record) -> str | None:
    """Return the record's library: its repository's name ("transformers" of "huggingface/transformers")."""
    return library_of_repo(record.repo) if record.repo else None


def release_runs(versions: Sequence[str], shipped: Sequence[str] = ()) -> list[str]:
    """Return ``versions``, each run of three or more consecutive ``shipped`` releases as a range, newest first.

    A version not among ``shipped`` stands alone; with no run to make, the versions come as given.
    """
    order = sorted(set(shipped), key=version_key)
    place = {release: n for n, release in enumerate(order)}
    runs: list[list[str]] = []
    for version in sorted(set(versions), key=version_key):
        last = runs[-1][-1] if runs else None
        if last is not None and last in place and version in place and place[version] == place[last] + 1:
            runs[-1].append(version)
        else:
            runs.append([version])
    if all(len(run) < 3 for run in runs):
        return list(dict.fromkeys(versions))  # no range to make: as given (the matcher lists newest first)
    shown = [f"{run[0]}-{run[-1]}" if len(run) >= 3 else ", ".join(reversed(run)) for run in runs]
    return list(reversed(shown))


def not_raised_later_note(later: Sequence[str], library: str | None = None) -> str:
    """Say that the newer shipped versions ``later`` of ``library`` do not raise the message as is (later_without)."""
    if len(later) > 2:  # many releases: the first of them is when it changed
        first = min(later, key=version_key)
        named = f"{library} {first}" if library else first
        return (
            f"Not raised as is from {named} on (the first newer shipped release): the check was reworded, "
            "moved or removed there, so upgrading changes this error or ends it."
        )
    named = f"{library} {or_list(later)}" if library else or_list(later)
    return (
        f"Not raised as is by {named}, which {'is' if len(later) == 1 else 'are'} newer: the check was "
        "reworded, moved or removed there, so upgrading changes this error or ends it."
    )


def source_excerpt(record: Record) -> str | None:
    """Return the source lines around the raising line, numbered, with the raising line marked."""
    if not record.source_code:
        return None
    lines = record.source_code.rstrip("\n").split("\n")
    start = record.source_code_start or 1
    target = record.line_number if record.line_number is not None else start
    before, after = SOURCE_CONTEXT
    first = max(target - before, start)
    last = min(target + after, start + len(lines) - 1)
    if first > last:  # the raising line is not in the stored source: a window would show other code
        return None
    width = len(str(last))
    shown = [
        f"{'>' if number == target else ' '}{number:>{width}}  {lines[number - start][:SOURCE_LINE_CHARS]}"
        for number in range(first, last + 1)
    ]
    return "\n".join(shown)


def or_list(items: Sequence[str]) -> str:
    """Return ``a``, ``a or b``, ``a, b or c``."""
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} or {items[-1]}"
