"""A built matching index saved to a file beside the database and loaded back, data only.

Building the index parses every record's message template (about 0.3 s for the shipped records,
plus 0.2-0.3 s reading its entries from the store): more than half of a one-shot ``tracebot ask``.
Loading what a build produced (each template's posted words and weights, the word counts, the
entries) skips both.

The file is data only, so a file beside the database can never run code: a first line naming the
format, a JSON header and a JSON body (no pickle). It can never be stale either: the header holds
a digest of the matching code (every module of this package, so any change to how an index is
built or read makes old files unusable) and the record set's revision the caller gives (the store's
revision token); a file whose header differs from what the reader expects, or whose body does not
hash to the header's digest, is not used. It is written to a temporary file and renamed over the
old one, so a reader sees a whole file or none, and two writers at once leave one whole file; the
temporary files of writers killed before their rename are removed by the next save.

This module reads and sets the index's internals (``MatchIndex`` keeps them private); its tests
compare a loaded index with a freshly built one attribute by attribute, so a field added to the
index and not saved here fails them.
"""

from __future__ import annotations

import contextlib
import gc
import glob
import hashlib
import json
import logging
import os
import sys
import tempfile
import time
from array import array
from collections import Counter
from functools import cache
from itertools import starmap
from pathlib import Path
from typing import Any

from records.matching.index import IndexEntry, MatchIndex

log = logging.getLogger(__name__)

FORMAT = "tracebot-index 1"
# A temporary file this old is a killed writer's: even a million records are written in less.
LEFTOVER_SECONDS = 600
# The entry fields saved per entry, in order; the message is saved once per template (``slot``).
_ALL_FIELDS = IndexEntry._fields
_FIELDS = tuple(name for name in _ALL_FIELDS if name != "error_message")
_INTERNED = frozenset({"error_class", "file_path", "repo", "library_version"})  # as intern_entry does
# Columns with few distinct values (34 classes, 9 repos, a pattern per template at 13,571 records) are
# saved as a table of their values and each entry's position in it: the file is a third the size, and
# loading reads, hashes, parses and interns a third as much. Their entries then share one string.
_TABULATED = ("error_class", "message_pattern", "file_path", "repo", "library_version")


class IndexFileError(ValueError):
    """An index file that cannot be used: damaged, truncated, or not an index file."""


@cache
def code_digest() -> str:
    """Return a digest of the matching package's source: an index saved by other code is not loaded."""
    digest = hashlib.sha256(FORMAT.encode())
    for module in sorted(Path(__file__).parent.glob("*.py")):
        digest.update(module.name.encode() + b"\0" + module.read_bytes() + b"\0")
    return digest.hexdigest()


def dumps(index: MatchIndex, revision: str) -> bytes:
    """Return an index as file contents for the record set at ``revision``."""
    body = json.dumps(_state(index), ensure_ascii=False, separators=(",", ":")).encode()
    header = {"code": code_digest(), "revision": revision, "sha256": hashlib.sha256(body).hexdigest()}
    return b"%s\n%s\n%s" % (FORMAT.encode(), json.dumps(header).encode(), body)


def loads(data: bytes, revision: str) -> MatchIndex | None:
    """Return the index in file contents, or None when it is of another revision or other code.

    Raises ``IndexFileError`` when the contents are damaged or not an index file.
    """
    magic, _, rest = data.partition(b"\n")
    header_line, _, body = rest.partition(b"\n")
    if magic != FORMAT.encode():
        raise IndexFileError("not a tracebot index file (or of another format)")
    try:
        header = json.loads(header_line)
    except ValueError as exc:
        raise IndexFileError(f"damaged header: {exc}") from None
    if not isinstance(header, dict) or header.get("code") != code_digest() or header.get("revision") != revision:
        return None
    if hashlib.sha256(body).hexdigest() != header.get("sha256"):
        raise IndexFileError("damaged or truncated body (its digest differs from the header's)")
    # The load makes some 100,000 objects that all live on: the cyclic collector's passes over them,
    # which find nothing to free, took half its time.
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _restore(json.loads(body))
    except (ValueError, TypeError, KeyError, IndexError, AttributeError, RecursionError) as exc:
        raise IndexFileError(f"malformed body: {exc!r}") from None
    finally:
        if collecting:
            gc.enable()


def save(index: MatchIndex, path: Path, revision: str) -> bool:
    """Write an index to ``path`` atomically; return False when it could not be written (logged)."""
    data = dumps(index, revision)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)  # a server's index lives in a cache folder
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=path.name + ".", suffix=".tmp")
    except OSError as exc:  # a read-only directory: every load then builds, as before
        log.debug("index not saved to %s: %s", path, exc)
        return False
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.chmod(temporary, 0o644)  # mkstemp makes it 0600: readers may be other users
        os.replace(temporary, path)
    except OSError as exc:
        log.debug("index not saved to %s: %s", path, exc)
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        return False
    _remove_leftovers(path)
    return True


def _remove_leftovers(path: Path) -> None:
    """Delete temporary files that writers killed before their rename left (older than a writer takes)."""
    too_old = time.time() - LEFTOVER_SECONDS
    for leftover in path.parent.glob(f"{glob.escape(path.name)}.*.tmp"):
        with contextlib.suppress(OSError):  # another writer's rename or cleanup got there first
            if leftover.stat().st_mtime < too_old:
                leftover.unlink()


def load(path: Path, revision: str) -> MatchIndex | None:
    """Return the index saved at ``path`` for ``revision``, or None when missing, stale or damaged."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    try:
        return loads(data, revision)
    except IndexFileError as exc:
        # Silently (info): the caller builds the index as it would without a file, and saves it anew.
        log.info("ignoring the index file %s: %s; it will be rebuilt", path, exc)
        return None


def entries(index: MatchIndex) -> list[IndexEntry]:
    """Return every entry of an index, in the order they were added."""
    return list(index._entry_of_id.values())


def _state(index: MatchIndex) -> dict[str, Any]:
    groups = [group for group in index._groups if group is not None]
    if len(groups) != len(index._groups) or sum(len(g.members) for g in groups) != len(index._entry_of_id):
        raise ValueError("only a freshly built index can be saved (this one was changed after its build)")
    slot_of = index._group_of_text
    listed = entries(index)
    words = list(index._postings)
    number = {word: n for n, word in enumerate(words)}
    return {
        "texts": [group.text for group in groups],
        "posted": [[number[word] for word in group.posted] for group in groups],
        "weights": [group.posted_weight for group in groups],
        "denominators": index._denominators.tolist(),
        "literal_chars": index._literal_chars.tolist(),
        "text_keys": index._text_keys.tolist(),
        "opening_keys": index._opening_keys.tolist(),
        "posting_words": words,
        "posting_lengths": [len(index._postings[word]) for word in words],
        "posting_slots": [slot for word in words for slot in index._postings[word]],
        "df_words": list(index._df),
        "df_counts": list(index._df.values()),
        "slots": [slot_of[entry.error_message] for entry in listed],
        "entries": {name: _column(name, [getattr(entry, name) for entry in listed]) for name in _FIELDS},
    }


def _restore(state: dict[str, Any]) -> MatchIndex:
    index = MatchIndex()
    texts: list[str] = state["texts"]
    slots: list[int] = state["slots"]
    index._attach_saved(_entries(state["entries"], [texts[slot] for slot in slots]), slots, texts)
    index._df = Counter(dict(zip(state["df_words"], state["df_counts"], strict=True)))
    words = [sys.intern(word) for word in state["posting_words"]]
    flat, start = state["posting_slots"], 0
    for word, length in zip(words, state["posting_lengths"], strict=True):
        index._postings[word] = array("I", flat[start : start + length])
        start += length
    index._denominators = array("d", state["denominators"])
    index._literal_chars = array("I", state["literal_chars"])
    index._text_keys = array("q", state["text_keys"])
    index._opening_keys = array("q", state["opening_keys"])
    per_slot = (index._denominators, index._literal_chars, index._text_keys, index._opening_keys)
    if any(len(column) != len(texts) for column in per_slot) or start != len(flat):
        raise ValueError("the posting lists, weights or template facts do not fit the templates")
    for group, posted, weight in zip(index._groups, state["posted"], state["weights"], strict=True):
        assert group is not None  # checked above: every slot holds a template
        group.posted, group.posted_weight = tuple(map(words.__getitem__, posted)), float(weight)
    return index


def _column(name: str, values: list[Any]) -> Any:
    """Return one entry field's values as saved: a table and positions for the ``_TABULATED`` ones."""
    if name not in _TABULATED:
        return values
    table = list(dict.fromkeys(values))
    position = {value: n for n, value in enumerate(table)}
    return {"values": table, "at": [position[value] for value in values]}


def _values(name: str, saved: Any) -> list[Any]:
    """Return one entry field's values from its saved form (``_column``'s inverse)."""
    if name not in _TABULATED:
        return list(saved)
    table, at = list(saved["values"]), saved["at"]
    if name in _INTERNED:
        table = [sys.intern(value) if value is not None else None for value in table]
    if at and min(at) < 0:  # a negative position would silently read the table from its end
        raise ValueError(f"a negative position in the {name} column")
    return list(map(table.__getitem__, at))


def _entries(saved: dict[str, Any], messages: list[str]) -> list[IndexEntry]:
    """Return the saved entries, in the order the build attached them."""
    columns = {name: _values(name, saved[name]) for name in _FIELDS}
    columns["error_message"] = messages
    # JSON gives lists; the entry holds tuples of (release, line), releases interned as intern_entry does.
    columns["version_lines"] = [
        tuple((sys.intern(str(v)), int(line)) for v, line in lines) if lines else ()
        for lines in columns["version_lines"]
    ]
    # Positional arguments in the fields' order: keyword arguments cost a third of a load.
    return list(starmap(IndexEntry, zip(*(columns[name] for name in _ALL_FIELDS), strict=True)))
