"""Templates whose answers can become one answer, looked up across the whole index.

The matcher folds the answers of templates with the same literal text (one check raised in several
files, or written with other placeholder names), joins those of one file that open alike (a check
reworded between releases) and shows a curated record that names no line on the located site whose
text it opens. Among a paste's few dozen candidates it finds these by comparing their facts. A paste
whose raising frame decides the answer is scored on the templates raised at that line alone, so their
kin come from here instead: a table of every checksum that more than one template shares, made once
from the index's per-template arrays (tens of milliseconds at 100k templates) and made again after
the templates change.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

NO_OPENING = -1  # the kin key of a template with a shorter opening (crc32 keys are never negative)
MIXED_FILES = "/"  # the file name of a template raised in files of several names (no file name holds a "/")


@dataclass(frozen=True, slots=True)
class KinTable:
    """Slots sharing a literal text or an opening, and the curated templates that name no line."""

    texts: dict[int, tuple[int, ...]]  # a literal-text checksum of several templates -> their slots
    # (opening checksum, file name) -> slots, for an opening several templates share: only answers in one
    # file can be one check reworded, so a template's kin are those of its file name and of mixed names.
    openings: dict[tuple[int, str], tuple[int, ...]]
    versioned_openings: dict[tuple[int, str], tuple[int, ...]]  # the same, of the templates with a release
    curated: dict[str, tuple[int, ...]]  # file name (``MIXED_FILES``: several) -> curated templates naming no line

    @classmethod
    def build(
        cls,
        text_keys: array[int],
        opening_keys: array[int],
        file_names: Sequence[str],
        *,
        unlocated: array[int],
        versioned: array[int],
    ) -> KinTable:
        """Return the table of an index's per-template arrays (``MatchIndex``'s, slot by slot)."""
        openings: dict[tuple[int, str], list[int]] = {}
        for key, slots in _shared(np.frombuffer(opening_keys, dtype=np.int64), skip=NO_OPENING).items():
            for slot in slots:
                openings.setdefault((key, file_names[slot]), []).append(slot)
        with_release = {key: tuple(s for s in slots if versioned[s]) for key, slots in openings.items()}
        curated: dict[str, list[int]] = {}
        for slot in np.flatnonzero(np.frombuffer(unlocated, dtype=np.int8)).tolist():
            curated.setdefault(file_names[slot], []).append(slot)
        return cls(
            _shared(np.frombuffer(text_keys, dtype=np.int64)),
            {key: tuple(slots) for key, slots in openings.items()},
            {key: slots for key, slots in with_release.items() if slots},
            {name: tuple(slots) for name, slots in curated.items()},
        )

    def same_text(self, text_key: int) -> tuple[int, ...]:
        """Return the slots of the templates whose literal text has this checksum (none when only one has)."""
        return self.texts.get(text_key, ())

    def same_opening(self, opening_key: int, file_names: Iterable[str], *, versioned: bool) -> list[int]:
        """Return the templates of this opening checksum raised in files of these names or of several names.

        Only answers of which one names a release can join (``_reworded``): for a template that names
        none (``versioned`` false), only those that do.
        """
        table = self.openings if versioned else self.versioned_openings
        found = list(table.get((opening_key, MIXED_FILES), ()))
        for name in file_names:
            if name != MIXED_FILES:
                found += table.get((opening_key, name), ())
        return found

    def curated_beside(self, file_name: str) -> tuple[int, ...]:
        """Return the curated templates naming no line that a template raised in ``file_name`` could host.

        Those of the same file name or of several; every one for a template of several file names.
        """
        if file_name == MIXED_FILES:
            return tuple(slot for slots in self.curated.values() for slot in slots)
        return self.curated.get(file_name, ()) + self.curated.get(MIXED_FILES, ())


def _shared(keys: npt.NDArray[np.int64], skip: int | None = None) -> dict[int, tuple[int, ...]]:
    """Return each key that several positions hold, with those positions in ascending order."""
    order = np.argsort(keys, kind="stable")  # stable: the positions of one key stay ascending
    ordered = keys[order]
    repeats = np.flatnonzero(ordered[1:] == ordered[:-1])
    if not len(repeats):
        return {}
    shared = np.zeros(len(keys), dtype=bool)
    shared[repeats] = shared[repeats + 1] = True
    table: dict[int, list[int]] = {}
    for key, slot in zip(ordered[shared].tolist(), order[shared].tolist(), strict=True):
        if key != skip:
            table.setdefault(key, []).append(slot)
    return {key: tuple(slots) for key, slots in table.items()}
