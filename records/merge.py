"""Fold a curated record and the mined record of the same raise site into the answer people see.

Curated text wins: what it means, the solutions, the example fix. The mined version supplies the
location (the file, line, source lines and pinned link of the release that raises it) and fills any
field the curated record left empty, generated text included. The answer keeps the curated record's
id, and its ``generated`` list names exactly the fields whose text was generated: the curated
record's own generated fields that it kept, and the gaps filled from the mined record's generated text.
"""

from __future__ import annotations

from typing import Any

from records.model import Record

# Fields that say where the error is raised: taken from the version the paste came from.
LOCATION_FIELDS = (
    "file_path", "line_number", "source_code", "source_code_start", "source_code_end", "github_url",
    "analyzed_sha", "library_version", "enclosing_function", "enclosing_class",
)  # fmt: skip


# Never taken from the mined record: they say which record this is and where it came from.
_OWN_FIELDS = frozenset({"id", "origin", "slug", "generated"})


def merge_site(curated: Record, located: Record) -> Record:
    """Return the curated record with the located (mined) record's location and its gaps filled."""
    if curated.id == located.id:
        return curated
    updates: dict[str, Any] = {name: getattr(located, name) for name in LOCATION_FIELDS}
    filled: set[str] = set()
    for name in Record.model_fields:
        if name in updates or name in _OWN_FIELDS:
            continue
        if _empty(getattr(curated, name)) and not _empty(getattr(located, name)):
            updates[name] = getattr(located, name)
            filled.add(_wire_name(name))
    kept = [wire for wire in curated.generated if wire not in filled]
    from_mined = [wire for wire in located.generated if wire in filled]
    updates["generated"] = sorted({*kept, *from_mined})
    return curated.model_copy(update=updates)


def _wire_name(name: str) -> str:
    alias = Record.model_fields[name].alias
    return alias if alias is not None else name


def _empty(value: object) -> bool:
    return value is None or value in ("", [])
