"""The laid-out answer: which text goes in which section, what counts as generated, which versions to name."""

from __future__ import annotations

import pytest

from bot.engine import shipped_versions
from bot.render.reply import later_without, not_raised_later_note, or_list, release_runs, reply_parts
from records.matching import IndexEntry
from tests.bot.samples import CURATED, MINED, PASTED, match


def test_a_curated_record_keeps_its_text_where_it_is() -> None:
    parts = reply_parts(CURATED, match(CURATED.id), pasted=PASTED)
    assert parts.title == "ValueError: " + PASTED and parts.template == CURATED.error_message
    assert parts.meaning == CURATED.documentation and parts.trigger == CURATED.trigger_scenarios
    assert parts.condition is None and parts.comment is None and not parts.mined
    assert parts.versions == ("4.57.6", "5.24.0") and parts.score == 97.4


def test_a_mined_record_shows_its_condition_and_comment_unless_they_were_generated() -> None:
    parts = reply_parts(MINED)
    assert (
        parts.condition == "if videos is not None" and parts.comment == "# videos are not supported by this processor"
    )
    assert parts.meaning is None and parts.trigger is None and parts.has_explanation
    generated = MINED.model_copy(
        update={
            "documentation": "Images only.",
            "trigger_scenarios": "Passing videos.",
            "generated": ["documentation", "triggerScenarios"],
        }
    )
    parts = reply_parts(generated)
    assert parts.meaning == "Images only." and parts.trigger == "Passing videos." and parts.condition is None
    assert parts.generated == ("what it means", "when it happens")
    assert parts.generated_note() == "explanation generated from the source"


def test_a_generated_field_that_is_empty_is_not_named() -> None:
    record = MINED.model_copy(update={"solutions": ["Drop it."], "generated": ["solutions", "exampleFix"]})
    assert reply_parts(record).generated == ("solutions",)


@pytest.mark.parametrize(
    ("versions", "shipped", "not_raised"),
    [((), ("5.24.0", "4.57.6"), ("5.24.0", "4.57.6")), (("5.24.0",), ("5.24.0", "4.57.6"), ()), ((), (), ())],
)
def test_not_raised_names_the_shipped_versions(
    versions: tuple[str, ...], shipped: tuple[str, ...], not_raised: tuple[str, ...]
) -> None:
    assert reply_parts(CURATED, match(CURATED.id, versions=versions), shipped=shipped).not_raised == not_raised


@pytest.mark.parametrize(
    ("versions", "shipped", "later"),
    [
        (("4.57.6",), ("5.24.0", "4.57.6"), ("5.24.0",)),  # only the older release raises it
        (("4.57.6", "5.24.0"), ("5.24.0", "4.57.6"), ()),  # the newest raises it too
        (("4.44.2",), ("4.57.6", "4.36.0", "5.24.0"), ("5.24.0", "4.57.6")),  # newest first; older ones left out
        (("4.10.0",), ("4.9.0",), ()),  # compared as versions, not as text
        ((), ("5.24.0",), ()),  # no version raises it: nothing to say of later ones
    ],
)
def test_later_shipped_versions_that_do_not_raise_it_are_named(
    versions: tuple[str, ...], shipped: tuple[str, ...], later: tuple[str, ...]
) -> None:
    assert later_without(versions, shipped) == later
    assert reply_parts(MINED, match(MINED.id, versions=versions), shipped=shipped).not_raised_later == later


def test_a_record_shown_without_a_match_says_nothing_of_later_versions() -> None:
    # A record looked up by id is one version's; the other versions of its site are other records.
    assert (
        reply_parts(MINED.model_copy(update={"library_version": "4.57.6"}), shipped=("5.24.0",)).not_raised_later == ()
    )


def test_an_answer_folded_from_several_files_says_nothing_of_later_versions() -> None:
    folded = match(MINED.id, versions=("4.57.6",), other_files=("src/transformers/models/b/modeling_b.py",))
    assert reply_parts(MINED, folded, shipped=("5.24.0", "4.57.6")).not_raised_later == ()


def test_the_releases_the_traceback_matches_are_named_with_their_library() -> None:
    record = MINED.model_copy(update={"repo": "huggingface/transformers"})
    one = reply_parts(record, match(MINED.id, line_versions=("4.57.6",)))
    both = reply_parts(record, match(MINED.id, line_versions=("4.57.6", "5.24.0")))
    assert one.traceback_matches == "transformers 4.57.6" and both.traceback_matches == "transformers 5.24.0 and 4.57.6"
    assert reply_parts(record, match(MINED.id)).traceback_matches is None
    assert reply_parts(MINED, match(MINED.id, line_versions=("1.0",))).traceback_matches == "1.0"  # no repository


def test_the_versions_are_named_after_their_library() -> None:
    record = MINED.model_copy(update={"repo": "huggingface/transformers"})
    assert reply_parts(record, match(MINED.id)).versions_text == "transformers 4.57.6, 5.24.0"
    assert reply_parts(MINED, match(MINED.id)).versions_text == "4.57.6, 5.24.0"  # no repository: versions alone


def test_the_note_on_later_versions_says_what_upgrading_does() -> None:
    assert not_raised_later_note(("5.24.0",)) == (
        "Not raised as is by 5.24.0, which is newer: the check was reworded, moved or removed there, "
        "so upgrading changes this error or ends it."
    )
    assert not_raised_later_note(("5.24.0", "5.0.0")).startswith(
        "Not raised as is by 5.24.0 or 5.0.0, which are newer:"
    )


def test_shipped_versions_are_the_mined_versions_of_each_repository_newest_first() -> None:
    entries = [
        IndexEntry(id="a", error_message="m", repo="hf/t", curated=False, library_version="4.57.6"),
        IndexEntry(id="b", error_message="m", repo="hf/t", curated=False, library_version="5.24.0"),
        IndexEntry(id="c", error_message="m", repo="hf/t", curated=True, library_version="9.9.9"),
        IndexEntry(id="d", error_message="m", repo=None, curated=False, library_version="1.0"),
    ]
    assert shipped_versions(entries) == {"hf/t": ("5.24.0", "4.57.6")}
    later = [IndexEntry(id="e", error_message="m", repo="hf/t", curated=False, library_version="5.0.0rc1")]
    assert shipped_versions(later, {"hf/t": ("5.24.0", "4.57.6")}) == {"hf/t": ("5.24.0", "5.0.0rc1", "4.57.6")}


def test_or_list() -> None:
    assert [or_list(x) for x in ([], ["a"], ["a", "b"], ["a", "b", "c"])] == ["", "a", "a or b", "a, b or c"]


def test_runs_of_shipped_releases_read_as_ranges() -> None:
    shipped = ["4.30.2", "4.31.0", "4.32.1", "4.57.6", "5.0.0", "5.1.0", "5.2.0", "5.24.0"]
    assert release_runs(["4.30.2", "4.31.0", "4.32.1", "5.0.0", "5.1.0", "5.2.0"], shipped) == [
        "5.0.0-5.2.0",
        "4.30.2-4.32.1",
    ]
    assert release_runs(["4.30.2", "4.31.0", "4.32.1", "5.0.0"], shipped) == ["5.0.0", "4.30.2-4.32.1"]  # 4.57.6 not
    assert release_runs(["4.57.6", "5.24.0"], shipped) == ["4.57.6", "5.24.0"]  # no range to make: as given
    assert release_runs(["9.9", "1.0"]) == ["9.9", "1.0"]  # nothing shipped


def test_many_newer_releases_without_the_check_name_the_first_of_them() -> None:
    note = not_raised_later_note(("5.24.0", "5.1.0", "5.0.0"), "transformers")
    assert note.startswith("Not raised as is from transformers 5.0.0 on (the first newer shipped release):")
