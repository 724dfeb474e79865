"""A site of several releases in the index: one entry, each release's line, the release a traceback shows."""

from __future__ import annotations

from records.matching import IndexEntry, Matcher, MatchIndex, persist
from records.model import Record

MESSAGE = "input_ids must be a tensor of rank {rank}, not a {kind} of the rank you gave"
SITE = IndexEntry(
    id="site1", error_message=MESSAGE, error_class="ValueError", file_path="src/transformers/core.py",
    line_number=100, repo="huggingface/transformers", curated=False, library_version="5.24.0",
    version_lines=(("4.57.6", 120), ("4.36.2", 90)),
)  # fmt: skip


def _paste(line: int | None) -> str:
    error = "ValueError: input_ids must be a tensor of rank 2, not a list of the rank you gave"
    if line is None:
        return error
    return (
        "Traceback (most recent call last):\n"
        f'  File "/venv/lib/python3.11/site-packages/transformers/core.py", line {line}, in check\n'
        f"    raise ValueError(\n{error}"
    )


def test_the_answer_is_located_at_the_release_whose_line_the_traceback_shows() -> None:
    matcher = Matcher(MatchIndex.build([SITE]))
    for line, release in ((120, "4.57.6"), (100, "5.24.0"), (90, "4.36.2")):
        (answer,) = matcher.match(_paste(line)).matches
        assert (answer.id, answer.line_number, answer.located_version) == ("site1", line, release)
        assert answer.line_versions == (release,)
        assert answer.member_ids == ("site1",)  # one record, whichever release
    (answer,) = matcher.match(_paste(None)).matches
    assert (answer.line_number, answer.located_version, answer.line_versions) == (100, "5.24.0", ())
    assert answer.versions == ("5.24.0", "4.57.6", "4.36.2")


def test_an_older_release_s_line_finds_the_site_by_its_frame() -> None:
    index = MatchIndex.build([SITE])
    assert [c.group.text for c in index.at_line("core.py", 120)] == [MESSAGE]
    assert len(index) == 1  # one record in the index, not one per release


def test_a_saved_index_keeps_each_release_s_line() -> None:
    index = MatchIndex.build([SITE])
    loaded = persist.loads(persist.dumps(index, "r1"), "r1")
    assert loaded is not None
    assert persist.entries(loaded) == [SITE]
    assert Matcher(loaded).match(_paste(120)).matches[0].located_version == "4.57.6"


def test_removing_a_site_removes_every_release_of_it() -> None:
    index = MatchIndex.build([SITE])
    index.remove("site1")
    assert Matcher(index).match(_paste(120)).matches == ()


def test_an_entry_from_a_record_carries_its_older_releases_lines() -> None:
    record = Record.model_validate(
        {
            "id": "site1",
            "errorMessage": MESSAGE,
            "libraryVersion": "5.24.0",
            "lineNumber": 100,
            "origin": "mined",
            "versions": [
                {"version": "5.24.0", "lineNumber": 100},
                {"version": "4.57.6", "lineNumber": 120},
                {"version": "4.30.2"},
            ],
        }
    )
    assert IndexEntry.from_record(record).version_lines == (("4.57.6", 120),)  # a release with no line: none


def test_a_site_of_many_releases_is_one_member_of_its_template() -> None:
    index = MatchIndex.build([SITE])
    (candidate,) = index.candidates("input_ids must be a tensor of rank 2, not a list of the rank you gave")
    assert candidate.group.members == [SITE]  # its releases are not copied into the template's members


def test_releases_at_one_line_are_all_named_and_the_newest_of_them_locates() -> None:
    site = SITE._replace(version_lines=(("5.12.1", 120), ("4.57.6", 120), ("4.36.2", 90)))
    (answer,) = Matcher(MatchIndex.build([site])).match(_paste(121)).matches  # a line off: the raise's message line
    assert answer.line_versions == ("5.12.1", "4.57.6")
    assert (answer.line_number, answer.located_version) == (120, "5.12.1")


def test_a_frame_in_another_file_at_a_release_s_line_locates_nothing() -> None:
    paste = _paste(120).replace("transformers/core.py", "transformers/other.py")
    (answer,) = Matcher(MatchIndex.build([SITE])).match(paste).matches
    assert (answer.line_number, answer.located_version, answer.line_versions) == (100, "5.24.0", ())


def test_the_release_a_paste_prints_locates_the_answer_without_a_frame() -> None:
    paste = f"transformers version: 4.36.2\n{_paste(None)}"
    (answer,) = Matcher(MatchIndex.build([SITE])).match(paste).matches
    assert (answer.line_number, answer.located_version) == (90, "4.36.2")
