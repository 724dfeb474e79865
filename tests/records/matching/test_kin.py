"""The kin table: templates that share a literal text or an opening, and curated ones naming no line."""

from __future__ import annotations

from array import array

from records.matching.index import IndexEntry, MatchIndex
from records.matching.kin import MIXED_FILES, NO_OPENING, KinTable

OPENING = "Expected {n} tokens for the attention mask, got {m} in the batch"  # 40 squashed letters and more


def _index(*entries: IndexEntry) -> MatchIndex:
    return MatchIndex.build(entries)


def _mined(id: str, message: str, path: str, version: str | None = "1.0") -> IndexEntry:
    return IndexEntry(
        id=id, error_message=message, file_path=path, line_number=1, curated=False, library_version=version
    )


def test_templates_of_one_literal_text_are_kin_whatever_their_placeholders_and_files() -> None:
    index = _index(
        _mined("a", "the widget {name} cannot be combined with sprockets", "src/lib/alpha.py"),
        _mined("b", "the widget {other} cannot be combined with sprockets", "src/lib/beta.py"),
        _mined("c", "the gadget {name} cannot be combined with sprockets", "src/lib/alpha.py"),
    )
    kin = index.kin()
    assert kin.same_text(0, index.facts(0).text_key) == [0, 1]
    assert kin.same_text(2, index.facts(2).text_key) == [2]  # a text no other template has


def test_openings_are_kin_within_a_file_name_or_templates_of_several_names() -> None:
    index = _index(
        _mined("a", OPENING, "src/lib/alpha.py"),
        _mined("b", OPENING + "; pad it", "src/lib/alpha.py"),
        _mined("c", OPENING + "; or cut it", "src/lib/beta.py"),
        _mined("d1", OPENING + "; or both", "src/lib/alpha.py"),
        _mined("d2", OPENING + "; or both", "src/lib/gamma.py"),  # d's template: files of several names
    )
    kin, key = index.kin(), index.facts(0).opening_key
    assert index.facts(3).file_name == MIXED_FILES
    assert sorted(kin.same_opening(0, key, ["alpha.py"], versioned=True)) == [0, 1, 3]
    assert sorted(kin.same_opening(0, key, ["beta.py"], versioned=True)) == [2, 3]
    assert sorted(kin.same_opening(0, key, ["alpha.py", "beta.py"], versioned=True)) == [0, 1, 2, 3]


def test_a_template_naming_no_release_is_kin_only_to_openings_that_name_one() -> None:
    index = _index(
        _mined("a", OPENING, "src/lib/alpha.py", version=None),
        _mined("b", OPENING + "; pad it", "src/lib/alpha.py"),
        _mined("c", OPENING + "; or cut it", "src/lib/alpha.py", version=None),
    )
    kin, key = index.kin(), index.facts(0).opening_key
    assert kin.same_opening(0, key, ["alpha.py"], versioned=False) == [1]  # joining needs a release on one side
    assert kin.same_opening(0, key, ["alpha.py"], versioned=True) == [0, 1, 2]


def test_short_openings_are_nobody_s_kin() -> None:
    index = _index(_mined("a", "Short {x}", "src/a.py"), _mined("b", "Short {y}", "src/a.py"))
    assert index.facts(0).opening_key == NO_OPENING
    assert index.kin().same_opening(0, NO_OPENING, ["a.py"], versioned=True) == []
    assert index.kin().same_text(0, index.facts(0).text_key) == [0, 1]  # the same literal text all the same


def test_curated_templates_naming_no_line_are_found_beside_their_file_or_any_for_several() -> None:
    index = _index(
        IndexEntry(id="c1", error_message="curated one", file_path="src/lib/alpha.py"),
        IndexEntry(id="c2", error_message="curated two"),
        IndexEntry(id="c3", error_message="curated three", file_path="src/lib/beta.py"),
        IndexEntry(id="c3b", error_message="curated three", file_path="src/lib/gamma.py"),
        IndexEntry(id="located", error_message="curated four", file_path="src/lib/alpha.py", line_number=3),
    )
    kin = index.kin()
    assert kin.curated_beside("alpha.py") == (0, 2)  # its own file's and the one of several names
    assert kin.curated_beside("") == (1, 2)
    assert sorted(kin.curated_beside(MIXED_FILES)) == [0, 1, 2]


def test_the_table_is_made_again_after_the_templates_change() -> None:
    index = _index(_mined("a", "the widget {name} cannot be combined with sprockets", "src/lib/alpha.py"))
    key = index.facts(0).text_key
    assert index.kin().same_text(0, key) == [0]
    index.upsert([_mined("b", "the widget {x} cannot be combined with sprockets", "src/lib/beta.py")])
    assert index.kin().same_text(0, key) == [0, 1]
    index.remove("b")
    # A removed template's slot may stay listed; it is no candidate any more.
    assert [candidate.slot for candidate in index.at_slots(index.kin().same_text(0, key))] == [0]


def test_an_index_with_no_template_has_an_empty_table() -> None:
    empty = array("q")
    table = KinTable.build(empty, empty, [], unlocated=array("b"), versioned=array("b"))
    assert table.same_opening(0, NO_OPENING, ["a.py"], versioned=True) == []
    assert table.curated_beside(MIXED_FILES) == ()
