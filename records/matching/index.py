"""Candidate generation without scanning every record: an inverted index over rare template words.

Records are grouped by their message template (the same text raised in several files or versions
is one template with several members). Each template is posted under the few rarest words of its
literal parts (rarity counted over all templates) and its first words. A query looks up the words of
the pasted message and ranks the templates whose posted words it contains, by the share of the
template's posted weight the paste holds plus the share of the paste's weight the template holds (a
whole message, or the first sentence of a long one); only those few dozen are scored exactly, and
the paste's frames then choose among each template's members. Because templates are posted under
rare words only, posting lists stay short even at a million records.

The ranking is a sparse sum over posting lists, and it runs on NumPy: each posting list is a sorted
``array`` of slots (appended in slot order, so it stays sorted), read as a NumPy view without a copy.
The rare words' lists are concatenated and summed per slot (``unique`` + ``bincount``); a common
word only adds weight to the slots found so far (``searchsorted`` into its list), and the best are
taken with ``argpartition``. The result is the one the pure-Python walk gave (same sums in the same
order, same ties), at a fraction of the cost: the walk over dense lists was most of the candidate
step's time at 100k records (6.7 ms a message before, 1.3 ms after, on the shared synthetic set).

A paste whose traceback shows its raise statement needs no word search at all: the matcher scores the
templates raised at the raising frame's line first (``at_lines``, with their kin from ``kin``) and
answers from them when one is that statement. On the shared synthetic set, where every paste shows
it, that made ``tracebot ask --batch`` four times faster than any change to this step had.

Libraries measured instead, on the same set (100k records, machine loaded, 1-min load 8-9):

- an Aho-Corasick automaton (``ahocorasick_rs``) over the 3,447 posted words finds a message's
  words in 5 us against 28 us for ``message_words``, but finding words is about 1% of a paste; the
  sum over posting lists is the cost, and the automaton also finds words inside longer words;
- RE2's ``Set`` over every record's pattern took 17.6 s to compile and 364 ms to match one message
  (20 ms at 10k): its automaton outgrows memory and falls back to the slow engine, and it answers
  only whole-message matches, never a fragment or a cut-off message;
- a bitmap over the slots for each word posted for more than a 32nd of the templates (36 words,
  0.4 MB at 100k records), looked up instead of searched: 0.05 ms a paste less (of 0.6 for the whole
  candidate step), for bitmaps to keep in step with every upsert; not taken;
- tantivy and SQLite FTS5 were not measured: both rank by BM25, not by the shares of a template's
  and a paste's posted words each holds of the other (the ranking thresholds were chosen on), and FTS5 would put a
  database query (SQL, outside ``storage/``) into every match.
"""

from __future__ import annotations

import math
import sys
import zlib
from array import array
from collections import Counter
from collections.abc import Callable, Iterable, Sequence, Set
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from records.matching.align import squash
from records.matching.kin import MIXED_FILES, NO_OPENING, KinTable
from records.matching.template import (
    Template,
    cause_text,
    leading_words,
    literal_key,
    literal_words,
    message_words,
    parse_template,
)
from records.model import Record

WORDS_PER_TEMPLATE = 6
OPENING_WORDS = 3  # extra words posted from the opening of a template (its first words)
# A word posted for more templates than this says little about which one a paste is (too common).
MAX_POSTING = 50_000
# Words are visited rarest first. Once candidates exist, a word posted for more templates than this
# only adds weight to the candidates already found instead of walking its whole posting list.
DENSE_POSTING = 512
# Two templates of one file and class opening with this many squashed characters in common, raised in
# different versions, are one check reworded (the matcher joins their answers).
REWORDED_OPENING = 40


class IndexEntry(NamedTuple):
    """What the matcher needs of one record (a small slice of it, kept in memory).

    A named tuple, not a frozen dataclass: as immutable, and built four times faster (a frozen
    dataclass sets each field through ``object.__setattr__``), which is a fifth of loading a saved
    index for a one-shot ``tracebot ask``.
    """

    id: str
    error_message: str
    error_class: str | None = None
    message_pattern: str | None = None
    file_path: str | None = None
    line_number: int | None = None
    repo: str | None = None
    curated: bool = True
    library_version: str | None = None
    # An example (a paste a maintainer linked in triage) stands for the record it was linked to.
    alias_of: str | None = None
    # A site of several releases: (release, raising line) of each but the newest (``Record.versions``).
    version_lines: tuple[tuple[str, int], ...] = ()

    @property
    def record_id(self) -> str:
        """The record this entry answers with."""
        return self.alias_of or self.id

    @classmethod
    def from_record(cls, record: Record) -> IndexEntry:
        """Return what the index needs of a full record (as the store's loader gives it)."""
        return intern_entry(
            cls(
                id=record.id,
                error_message=record.error_message,
                error_class=record.error_class,
                message_pattern=record.message_pattern,
                file_path=record.file_path,
                line_number=record.line_number,
                repo=record.repo,
                curated=not record.is_mined,
                library_version=record.library_version,
                version_lines=record.version_lines,
            )
        )

    def release_lines(self) -> tuple[tuple[str | None, int | None], ...]:
        """Return (release, raising line) of every release raising it, newest first (itself first)."""
        return ((self.library_version, self.line_number), *self.version_lines)

    def at_release(self, release: str | None, line: int | None) -> IndexEntry:
        """Return the entry as one of its releases has it (itself for its newest)."""
        if release == self.library_version and line == self.line_number:
            return self
        return self._replace(library_version=release, line_number=line, version_lines=())


@dataclass(slots=True)
class TemplateGroup:
    """One message template and every record that raises it.

    Only the text is kept; the parsed template comes from a cache when a paste needs it, which keeps
    a million templates within memory.
    """

    text: str
    members: list[IndexEntry] = field(default_factory=list)
    posted: tuple[str, ...] = ()
    posted_weight: float = 1.0  # sum of the posted words' weights when posted (coverage denominator)
    # the members by their file's last path part, made when first asked for (``in_file``); None again
    # whenever the members change
    by_file_name: dict[str, list[IndexEntry]] | None = field(default=None, compare=False, repr=False)

    @property
    def template(self) -> Template:
        """The parsed template (cached)."""
        return parse_template(self.text)

    def in_file(self, file_name: str) -> list[IndexEntry]:
        """Return the members raised in a file whose last path part is ``file_name``.

        A check copied into 444 model files is one template of 444 members: a paste's frames name one
        or two files, looked up here instead of among all of them.
        """
        return self._by_file_name().get(file_name, [])

    def in_files(self, file_names: Set[str]) -> list[IndexEntry]:
        """Return the members raised in files whose last path parts are among ``file_names`` (none for "")."""
        by_name = self._by_file_name()
        return [member for name in by_name.keys() & file_names if name for member in by_name[name]]

    def _by_file_name(self) -> dict[str, list[IndexEntry]]:
        if self.by_file_name is None:
            by_name: dict[str, list[IndexEntry]] = {}
            for member in self.members:
                by_name.setdefault(member.file_path.rpartition("/")[2] if member.file_path else "", []).append(member)
            self.by_file_name = by_name
        return self.by_file_name

    def site_key(self, entry: IndexEntry) -> str:
        """Return the key of one member's raise site (same across versions and origins)."""
        # Asked for every member of every candidate of a paste: the literal text is cached by template.
        return f"{entry.repo or ''}|{entry.file_path or ''}|{cause_text(self.text)}"


class Candidate(NamedTuple):
    """A template whose rare words the paste contains, and what share of their weight it contains.

    A named tuple, as ``TemplateFacts``: 48 are made for each paste, and a frozen dataclass took a
    fifth of the candidate step's time to make them.
    """

    group: TemplateGroup
    coverage: float
    slot: int  # the template's place in the index (``MatchIndex.facts``)


class TemplateFacts(NamedTuple):
    """What the matcher asks of a template before comparing it with a paste, kept from the build.

    A named tuple, as ``IndexEntry``: one is made for each candidate of each paste (55 a paste on the
    shared benchmark), and a frozen dataclass took four times as long to make.

    ``text_key`` and ``opening_key`` are checksums of its literal text (``literal_key``, which folding
    compares) and of its squashed opening (which joining rewordings compares): two templates whose
    keys differ can never fold or join. Checksums, not strings, to stay small at a million templates;
    two texts with the same checksum only cost a comparison more.
    """

    literal_chars: int
    text_key: int
    opening_key: int
    unlocated_curated: bool = False  # a curated member names no line (the matcher then scores every candidate)
    file_name: str = MIXED_FILES  # the last path part of every member's file ("" for none), if they share one
    versioned: bool = False  # a mined member names its release: its answers can join a rewording's


def template_facts(template: Template) -> TemplateFacts:
    """Return a template's facts (see ``TemplateFacts``)."""
    key = literal_key(template)
    opening = squash(key)  # the squashed literal text: squashing drops the key's separators as the literal's
    opening_key = _checksum(opening[:REWORDED_OPENING]) if len(opening) >= REWORDED_OPENING else NO_OPENING
    return TemplateFacts(template.literal_chars, _checksum(key), opening_key)


def _checksum(text: str) -> int:
    return zlib.crc32(text.encode("utf-8", "surrogatepass"))  # a record's text may hold a lone surrogate


def intern_entry(entry: IndexEntry) -> IndexEntry:
    """Share repeated strings (classes, paths, repos, versions) between entries to save memory.

    Producers call this as they read entries (the store, the benchmarks); the index keeps what it is
    given, so a million entries exist once, not twice.
    """
    return IndexEntry(
        id=entry.id,
        error_message=entry.error_message,
        error_class=_intern(entry.error_class),
        message_pattern=entry.message_pattern,
        file_path=_intern(entry.file_path),
        line_number=entry.line_number,
        repo=_intern(entry.repo),
        curated=entry.curated,
        library_version=_intern(entry.library_version),
        alias_of=entry.alias_of,
        version_lines=tuple((sys.intern(v), line) for v, line in entry.version_lines),
    )


def _intern(value: str | None) -> str | None:
    return sys.intern(value) if value is not None else None


class MatchIndex:
    """Templates in memory, posted under their rarest literal words."""

    def __init__(self) -> None:
        self._groups: list[TemplateGroup | None] = []
        self._group_of_text: dict[str, int] = {}
        # id -> entry; its slot is its message's (``_group_of_text``): one dict, not two, at 1M records.
        self._entry_of_id: dict[str, IndexEntry] = {}
        # word -> slots of the templates posted under it, ascending (slots only ever grow).
        self._postings: dict[str, array[int]] = {}
        self._denominators = array("d")  # per slot: its posted words' weight (coverage denominator)
        # per slot: its template's facts (``TemplateFacts``), set when the template is first attached
        self._literal_chars = array("I")
        self._text_keys = array("q")
        self._opening_keys = array("q")
        # per slot: 1 once a curated member with no line joined (never reset: a stale 1 only costs time)
        self._unlocated_curated = array("b")
        # per slot: 1 once a mined member with a release joined (never reset, as above)
        self._versioned = array("b")
        self._kin: KinTable | None = None  # made when first asked for, dropped when templates change
        self._file_names: list[str] = []  # per slot: its members' common file name, or MIXED_FILES
        self._df: Counter[str] = Counter()
        # (file name, line) -> slots: a paste's raising frame finds the templates raised there, even
        # those with no word to post ("{message}."). Stale slots are harmless: members are checked.
        self._at_line: dict[tuple[str, int], set[int]] = {}

    @classmethod
    def build(cls, entries: Iterable[IndexEntry]) -> MatchIndex:
        """Build an index (two passes: gather templates and count word rarity, then post them)."""
        index = cls()
        words_of: list[tuple[str, ...]] = []  # tuples: a million frozensets would cost ~600 MB at peak
        for entry in entries:
            slot = index._attach(entry)
            if slot == len(words_of):
                group = index._groups[slot]
                assert group is not None
                index._describe(slot, group.template)
                words = tuple(literal_words(group.template))
                words_of.append(words)
                index._df.update(words)
        for slot, words in enumerate(words_of):
            index._post(slot, words)
        parse_template.cache_clear()  # the build parsed every template once; keep only what pastes use
        return index

    def __len__(self) -> int:
        return len(self._entry_of_id)

    @property
    def template_count(self) -> int:
        """How many distinct templates are indexed."""
        return len(self._group_of_text)

    def get(self, record_id: str) -> IndexEntry | None:
        """Return the entry of a record id, or None."""
        return self._entry_of_id.get(record_id)

    def upsert(self, entries: Sequence[IndexEntry]) -> None:
        """Add new records and replace changed ones (used when an import lands while running)."""
        self._kin = None
        for entry in entries:
            self.remove(entry.id)
            known = entry.error_message in self._group_of_text
            slot = self._attach(entry)
            if not known:
                group = self._groups[slot]
                assert group is not None
                self._describe(slot, group.template)
                words = frozenset(literal_words(group.template))
                self._df.update(words)
                self._post(slot, words)

    def remove(self, record_id: str) -> None:
        """Drop a record; drop its template too when no other record raises it."""
        entry = self._entry_of_id.pop(record_id, None)
        slot = self._group_of_text.get(entry.error_message) if entry is not None else None
        group = self._groups[slot] if slot is not None else None
        if slot is None or group is None:
            return
        self._kin = None
        group.members = [m for m in group.members if m.id != record_id]
        group.by_file_name = None
        if group.members:
            return
        for word in group.posted:
            self._postings[word].remove(slot)
        self._df.subtract(literal_words(group.template))
        del self._group_of_text[group.text]
        self._groups[slot] = None

    def superseded_by(self, entry: IndexEntry) -> list[str]:
        """Return the ids of the per-release mined entries a site entry of several releases replaces.

        Those are of the same repository, file, class and message, mined, with no release lines of
        their own (the store deletes them when the site record arrives: ``retire_superseded``).
        """
        slot = self._group_of_text.get(entry.error_message)
        group = self._groups[slot] if slot is not None else None
        if group is None or not entry.version_lines:
            return []
        same = (entry.repo, entry.file_path, entry.error_class)
        stale = (m.id for m in group.members if m.id != entry.id and (m.repo, m.file_path, m.error_class) == same)
        return [
            i for i in dict.fromkeys(stale) if (e := self._entry_of_id.get(i)) and not e.curated and not e.version_lines
        ]

    def candidates(self, message: str, limit: int = 40) -> list[Candidate]:
        """Return up to ``limit`` templates whose rare words the message contains, best covered first.

        A template's rank is the weight of its posted words the message holds, over the weight of all
        its posted words, plus the same weight over that of all the message's posted words (its
        ``coverage`` is the first share). Words are taken rarest first; a word posted for more than
        ``MAX_POSTING`` templates counts for nothing, and one posted for more than ``DENSE_POSTING``
        never brings in a template of its own while a rarer word can (it only adds weight).
        """
        words = [w for w in message_words(message) if w in self._postings]
        words.sort(key=lambda w: len(self._postings[w]))
        usable = [w for w in words if len(self._postings[w]) <= MAX_POSTING]
        seeding = [w for w in usable if 0 < len(self._postings[w]) <= DENSE_POSTING]
        adding = [w for w in usable if len(self._postings[w]) > DENSE_POSTING]
        if not seeding and adding and adding[-1] is words[-1]:
            # Only common words: the most common one, when it is the last word, brings its templates.
            seeding, adding = [adding[-1]], []
        if not seeding or limit <= 0:
            return []
        slots, first_seen, got = self._seed(seeding)
        for word in adding:
            posting = _view(self._postings[word])
            # The place each found slot would take in the word's list; "clip" reads one past the end as
            # the last entry, which then differs from the slot (the list holds no slot that large).
            got[posting.take(posting.searchsorted(slots), mode="clip") == slots] += self._weight(word)
        # Two shares, added: of the template's posted weight the paste holds (a whole message pasted),
        # and of the paste's weight the template holds (a first sentence of a long message, whose
        # template is mostly words the paste lacks, yet holds every word the paste has).
        pasted = sum(self._weight(w) for w in usable)
        key = got / np.frombuffer(self._denominators, dtype=np.float64)[slots] + got / pasted
        best = _best(key, first_seen, limit)
        groups = self._groups
        result: list[Candidate] = []
        for slot, weight in zip(slots[best].tolist(), got[best].tolist(), strict=True):
            group = groups[slot]
            if group is not None:
                result.append(Candidate(group, min(weight / group.posted_weight, 1.0), slot))
        return result

    def _seed(self, words: list[str]) -> tuple[npt.NDArray[np.uint32], npt.NDArray[np.intp], npt.NDArray[np.float64]]:
        """Sum the weights of ``words`` per slot over their posting lists.

        Returns the slots found (ascending), where each was first seen in the words' order (ties are
        broken by it, rarest word first), and each slot's summed weight (added in the words' order).
        """
        postings = [_view(self._postings[w]) for w in words]
        flat = np.concatenate(postings)
        weights = np.repeat(np.array([self._weight(w) for w in words]), np.array([len(p) for p in postings]))
        # ``np.unique(..., return_index=True, return_inverse=True)``, by hand: its wrapper cost ten times
        # the sort for the few hundred slots a paste finds. A stable sort keeps each slot's first place
        # first; ``bincount`` adds each slot's weights one after the other in the words' order, as the
        # walk did (``add.reduceat`` sums a long run pairwise: the last bit of a sum may differ).
        order = flat.argsort(kind="stable")
        ordered = flat[order]
        first = np.concatenate(([True], ordered[1:] != ordered[:-1]))
        sums = np.bincount(np.cumsum(first) - 1, weights=weights[order]).astype(np.float64, copy=False)
        starts = np.flatnonzero(first)
        return ordered[starts], order[starts], sums

    def at_line(self, file_name: str, line: int) -> list[Candidate]:
        """Return the templates raised at ``line`` of a file named ``file_name`` (any directory)."""
        return self.at_slots(sorted(self._at_line.get((file_name, line), ())))

    def at_lines(
        self, file_name: str, lines: Iterable[int], keep: Callable[[TemplateGroup], bool] | None = None
    ) -> list[Candidate]:
        """Return the templates raised at any of ``lines`` of a file named ``file_name``, by line, each once.

        ``keep``: only the templates it accepts (a file name is shared by copies of a file in many packages).
        """
        at_line, slots = self._at_line, {}
        for line in lines:
            slots.update(dict.fromkeys(sorted(at_line.get((file_name, line), ()))))
        if keep is None:
            return self.at_slots(slots)
        groups = self._groups
        return [Candidate(group, 1.0, slot) for slot in slots if (group := groups[slot]) is not None and keep(group)]

    def facts(self, slot: int) -> TemplateFacts:
        """Return the facts of the template at ``slot`` (kept from the build: no parsing)."""
        return self.facts_of((slot,))[0]

    def facts_of(self, slots: Iterable[int]) -> list[TemplateFacts]:
        """Return ``facts`` of each slot: one call for a paste's candidates (``facts`` each was a fifth of scoring)."""
        chars, texts, openings = self._literal_chars, self._text_keys, self._opening_keys
        unlocated, names, versioned = self._unlocated_curated, self._file_names, self._versioned
        return [
            TemplateFacts(chars[s], texts[s], openings[s], bool(unlocated[s]), names[s], bool(versioned[s]))
            for s in slots
        ]

    def at_slots(self, slots: Iterable[int]) -> list[Candidate]:
        """Return the templates at ``slots`` as candidates (those removed since left out)."""
        groups = self._groups
        return [Candidate(group, 1.0, slot) for slot in slots if (group := groups[slot]) is not None]

    def kin(self) -> KinTable:
        """Return the templates that share a literal text or an opening, and the curated ones naming no line."""
        if self._kin is None:
            self._kin = KinTable.build(
                self._text_keys,
                self._opening_keys,
                self._file_names,
                unlocated=self._unlocated_curated,
                versioned=self._versioned,
            )
        return self._kin

    def _attach(self, entry: IndexEntry) -> int:
        """Put an entry in its template's group (creating the group); return the group's slot."""
        slot = self._group_of_text.get(entry.error_message)
        name = sys.intern(entry.file_path.rpartition("/")[2]) if entry.file_path else ""
        if slot is None:
            slot = len(self._groups)
            self._groups.append(TemplateGroup(entry.error_message))
            self._denominators.append(1.0)
            self._literal_chars.append(0)
            self._text_keys.append(0)
            self._opening_keys.append(NO_OPENING)
            self._unlocated_curated.append(0)
            self._versioned.append(0)
            self._file_names.append(name)
            self._group_of_text[entry.error_message] = slot
        group = self._groups[slot]
        assert group is not None
        group.members.append(entry)  # a site of several releases stays one member (``release_lines``)
        group.by_file_name = None
        if entry.curated and entry.line_number is None:
            self._unlocated_curated[slot] = 1
        if not entry.curated and entry.library_version:
            self._versioned[slot] = 1
        if self._file_names[slot] != name:
            self._file_names[slot] = MIXED_FILES  # never set back: a stale mix only costs a closer look
        self._entry_of_id[entry.id] = entry
        if entry.file_path:
            for line in _lines(entry):
                self._at_line.setdefault((entry.file_path.rpartition("/")[2], line), set()).add(slot)
        return slot

    def _attach_saved(self, entries: Sequence[IndexEntry], slots: Sequence[int], texts: Sequence[str]) -> None:
        """Attach a saved build's entries to the slots it lists: what ``_attach`` does one by one, faster.

        Raises ValueError when the slots are not the ones a build gives (each new template takes the
        next slot, every template has a member, no template twice).
        """
        groups = [TemplateGroup(text) for text in texts]
        self._groups = list(groups)
        self._group_of_text = {text: slot for slot, text in enumerate(texts)}
        self._file_names = [""] * len(texts)
        self._unlocated_curated = array("b", bytes(len(texts)))
        self._versioned = array("b", bytes(len(texts)))
        names, unlocated, versioned, at_line = self._file_names, self._unlocated_curated, self._versioned, self._at_line
        opened = 0  # slots seen so far: a build opens them in order
        for entry, slot in zip(entries, slots, strict=True):
            path, line = entry.file_path, entry.line_number
            name = sys.intern(path.rpartition("/")[2]) if path else ""
            if slot == opened:
                opened += 1
                names[slot] = name
            elif not 0 <= slot < opened:
                raise ValueError(f"entry {entry.id} takes slot {slot} before slot {opened} was opened")
            elif names[slot] != name:
                names[slot] = MIXED_FILES
            groups[slot].members.append(entry)
            if entry.curated and line is None:
                unlocated[slot] = 1
            if not entry.curated and entry.library_version:
                versioned[slot] = 1
            if path:
                for raised_at in _lines(entry):
                    at_line.setdefault((name, raised_at), set()).add(slot)
        if opened != len(texts) or len(self._group_of_text) != len(texts):
            raise ValueError("the entries do not fill the listed templates once each")
        self._entry_of_id = {entry.id: entry for entry in entries}

    def _describe(self, slot: int, template: Template) -> None:
        facts = template_facts(template)
        self._literal_chars[slot] = facts.literal_chars
        self._text_keys[slot] = facts.text_key
        self._opening_keys[slot] = facts.opening_key

    def _post(self, slot: int, words: Iterable[str]) -> None:
        group = self._groups[slot]
        assert group is not None
        rarity = lambda w: (self._df[w], -len(w), w)  # noqa: E731
        rare = sorted(words, key=rarity)[:WORDS_PER_TEMPLATE]
        # Pastes often hold only the start of a long message (cut off, or its first sentence before a
        # long value): post its first words too, so that the start alone finds it. The first words, not
        # the rarest of a longer opening: a paste of the first clause holds those and no others.
        rare += leading_words(group.template, OPENING_WORDS, frozenset(rare))
        group.posted = tuple(sys.intern(w) for w in rare)  # one string per word, shared by every template
        group.posted_weight = sum(self._weight(w) for w in group.posted) or 1.0
        self._denominators[slot] = group.posted_weight
        for word in group.posted:
            self._postings.setdefault(sys.intern(word), array("I")).append(slot)

    def _weight(self, word: str) -> float:
        return math.log(1 + len(self._group_of_text) / (1 + self._df[word]))


def _lines(entry: IndexEntry) -> list[int]:
    """Return the lines an entry's releases raise it at (the newest's first)."""
    first = [entry.line_number] if entry.line_number is not None else []
    return first + [line for _, line in entry.version_lines]


def _view(posting: array[int]) -> npt.NDArray[np.uint32]:
    """Return a posting list as a NumPy array sharing its memory (no copy)."""
    return np.frombuffer(posting, dtype=np.uint32)


def _best(key: npt.NDArray[np.float64], first_seen: npt.NDArray[np.intp], limit: int) -> npt.NDArray[np.intp]:
    """Return the positions of the ``limit`` largest keys, largest first, ties in order first seen.

    ``heapq.nlargest`` over the slots in the order they were found gave this order; ``argpartition``
    finds the cut in linear time, and only the keys at or above it are sorted.
    """
    if len(key) > limit:
        cut = key[np.argpartition(-key, limit - 1)[limit - 1]]
        kept = np.flatnonzero(key >= cut)
    else:
        kept = np.arange(len(key))
    order = kept[np.lexsort((first_seen[kept], -key[kept]))]
    return order[:limit]
