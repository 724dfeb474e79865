"""Templates whose answers can become one answer, looked up across the whole index.

The matcher folds the answers of templates with the same literal text (one check raised in several
files, or written with other placeholder names), joins those of one file that open alike (a check
reworded between releases) and shows a curated record that names no line on the located site whose
text it opens. Among a paste's few dozen candidates it finds these by comparing their facts. A paste
whose raising frame decides the answer is scored on the templates raised at that line alone, so their
kin come from here instead: the index's per-template checksums sorted once (NumPy, a few milliseconds
at 100k templates, no Python loop over them), each lookup a binary search, made again after the
templates change.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

NO_OPENING = -1  # the kin key of a template with a shorter opening (crc32 keys are never negative)
MIXED_FILES = "/"  # the file name of a template raised in files of several names (no file name holds a "/")


@dataclass(frozen=True, slots=True, eq=False)  # arrays: compared by identity
class _Sorted:
    """Keys in ascending order and the slot holding each, for a binary search of a key's slots."""

    keys: npt.NDArray[np.int64]
    slots: npt.NDArray[np.int32]  # 4 bytes a template: 12 MB less for the three tables at a million
    shared: npt.NDArray[np.bool_]  # per slot of the index: another slot of this table holds its key

    @classmethod
    def of(cls, keys: npt.NDArray[np.int64], slots: npt.NDArray[np.int32], size: int) -> _Sorted:
        order = np.argsort(keys, kind="stable")  # stable: the slots of one key stay ascending
        keys, slots = keys[order], slots[order]
        repeated = keys[1:] == keys[:-1]
        shared = np.zeros(size, dtype=bool)
        shared[slots[1:][repeated]] = shared[slots[:-1][repeated]] = True
        return cls(keys, slots, shared)

    def slots_of(self, key: int, slot: int | None = None) -> list[int]:
        """Return the slots holding ``key``, ascending; ``slot``: one of them, which most keys have alone."""
        if slot is not None and not self.shared[slot]:
            return [slot]  # a boolean read instead of a binary search (a NumPy call costs microseconds)
        low, high = np.searchsorted(self.keys, (key, key + 1))
        slots: list[int] = self.slots[low:high].tolist()
        return slots


@dataclass(frozen=True, slots=True, eq=False)
class KinTable:
    """Slots by literal-text and opening checksum, and the curated templates that name no line."""

    texts: _Sorted
    openings: _Sorted
    versioned_openings: _Sorted  # the same, of the templates with a mined member naming its release
    file_names: Sequence[str]  # per slot (the index's list): only answers in one file are one check reworded
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
        texts = np.frombuffer(text_keys, dtype=np.int64)
        openings = np.frombuffer(opening_keys, dtype=np.int64)
        with_opening = np.flatnonzero(openings != NO_OPENING).astype(np.int32)
        with_release = with_opening[np.frombuffer(versioned, dtype=np.int8)[with_opening] != 0]
        curated: dict[str, list[int]] = {}
        for slot in np.flatnonzero(np.frombuffer(unlocated, dtype=np.int8)).tolist():
            curated.setdefault(file_names[slot], []).append(slot)
        size = len(texts)
        return cls(
            _Sorted.of(texts, np.arange(size, dtype=np.int32), size),
            _Sorted.of(openings[with_opening], with_opening, size),
            _Sorted.of(openings[with_release], with_release, size),
            file_names,
            {name: tuple(slots) for name, slots in curated.items()},
        )

    def same_text(self, slot: int, text_key: int) -> list[int]:
        """Return the slots of the templates whose literal text has this checksum (``slot``'s, itself included)."""
        return self.texts.slots_of(text_key, slot)

    def same_opening(self, slot: int, opening_key: int, file_names: Iterable[str], *, versioned: bool) -> list[int]:
        """Return the templates of ``slot``'s opening checksum raised in files of these names or of several names.

        Only answers of which one names a release can join (``_reworded``): for a template that names
        none (``versioned`` false), only those that do.
        """
        if opening_key == NO_OPENING:
            return []
        if versioned:
            slots = self.openings.slots_of(opening_key, slot)
        else:  # ``slot`` is not among those that name a release
            slots = self.versioned_openings.slots_of(opening_key) if len(self.versioned_openings.keys) else []
        wanted = {*file_names, MIXED_FILES}
        names = self.file_names
        return [slot for slot in slots if names[slot] in wanted]

    def curated_beside(self, file_name: str) -> tuple[int, ...]:
        """Return the curated templates naming no line that a template raised in ``file_name`` could host.

        Those of the same file name or of several; every one for a template of several file names.
        """
        if file_name == MIXED_FILES:
            return tuple(slot for slots in self.curated.values() for slot in slots)
        return self.curated.get(file_name, ()) + self.curated.get(MIXED_FILES, ())
