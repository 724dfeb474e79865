"""The matcher: seeds answered, statuses decided, versions folded, examples honoured."""

from __future__ import annotations

import json
import random
from functools import cache

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from benchmarks.evalset import EVAL_DIR, shipped_matcher, shipped_records
from benchmarks.pastes import render_message
from records.extraction import extract
from records.matching import IndexEntry, Matcher, MatchIndex
from records.matching.evidence import text_evidence
from records.matching.matcher import _hint, _score, _score_members
from records.matching.template import parse_template
from records.model import Record
from records.versions import version_key
from tests.conftest import SEED_IDS
from tests.records.matching.sites import mined, traceback_at


def _hard_cases() -> list[dict[str, str]]:
    lines = (EVAL_DIR / "hard.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


@pytest.mark.parametrize("case", _hard_cases(), ids=lambda c: c["id"])
def test_seed_errors_pasted_as_users_do_get_the_seed_records(case: dict[str, str]) -> None:
    result = shipped_matcher().match(case["text"])
    assert result.status == "matched"
    assert result.matches[0].id == case["expect"]


def test_seed_answer_folds_mined_versions_and_points_at_the_frame_version() -> None:
    paste = (
        "Traceback (most recent call last):\n"
        '  File "/opt/conda/lib/python3.10/site-packages/transformers/generation/utils.py", line 1523, in generate\n'
        "ValueError: assisted generation is not supported with stateful models, such as MambaForCausalLM"
    )
    best = shipped_matcher().match(paste).matches[0]
    assert best.id == SEED_IDS["stateful"]  # curated text wins
    # Every shipped release that raises it (4.42 added the check), newest first.
    assert len(best.versions) == 41 and (best.versions[0], best.versions[-1]) == ("5.24.0", "4.42.4")
    assert list(best.versions) == sorted(best.versions, key=version_key, reverse=True)
    assert (best.file_path, best.line_number) == ("src/transformers/generation/utils.py", 1523)
    assert best.located_version == "5.12.1"  # the newest of the two releases raising it at line 1523


def test_the_versions_whose_raise_line_the_traceback_shows_are_named() -> None:
    frame = '  File "/opt/conda/lib/python3.10/site-packages/transformers/generation/utils.py", line {}, in generate\n'
    message = "ValueError: assisted generation is not supported with stateful models, such as MambaForCausalLM"
    matcher = shipped_matcher()
    assert matcher.match(frame.format(1523) + message).matches[0].line_versions == ("5.12.1", "4.57.6")
    assert matcher.match(frame.format(1888) + message).matches[0].line_versions == ("5.24.0",)
    assert matcher.match(frame.format(700) + message).matches[0].line_versions == ()  # no release's line
    assert matcher.match(message).matches[0].line_versions == ()  # no traceback


def test_without_a_frame_the_newest_version_locates_the_answer() -> None:
    best = (
        shipped_matcher()
        .match("ValueError: assisted generation is not supported with stateful models, such as X")
        .matches[0]
    )
    assert best.id == SEED_IDS["stateful"]
    assert best.line_number == 1888  # transformers 5.24.0


def test_removed_error_still_answers_from_its_seed_and_case_matters() -> None:
    matcher = shipped_matcher()
    assert matcher.match("RuntimeError: assisted decoding requires a cache").matches[0].id == SEED_IDS["cache"]
    capital = matcher.match("RuntimeError: Assisted decoding requires a cache").matches[0]
    assert capital.id != SEED_IDS["cache"] and capital.versions == ("5.24.0",)


def _two_files_index() -> Matcher:
    message = "the widget configuration {name} cannot be combined with legacy sprockets"
    return Matcher(MatchIndex.build([
        IndexEntry(id="a", error_message=message, error_class="ValueError", file_path="src/lib/alpha.py", line_number=10, repo="o/lib"),
        IndexEntry(id="b", error_message=message, error_class="ValueError", file_path="src/lib/beta.py", line_number=20, repo="o/lib"),
    ]))  # fmt: skip


def test_same_message_in_two_files_without_a_frame_folds_into_one_answer() -> None:
    result = _two_files_index().match(
        "ValueError: the widget configuration 'x' cannot be combined with legacy sprockets"
    )
    assert result.status == "matched"
    (answer,) = result.matches
    assert set(answer.member_ids) == {"a", "b"}
    assert {answer.file_path, *answer.other_files} == {"src/lib/alpha.py", "src/lib/beta.py"}
    assert "raised in 2 files, the same check" in answer.why[-1]


def test_a_frame_decides_between_files() -> None:
    paste = (
        'Traceback (most recent call last):\n  File "/venv/lib/python3.11/site-packages/lib/beta.py", line 20, in f\n'
        "ValueError: the widget configuration 'x' cannot be combined with legacy sprockets"
    )
    result = _two_files_index().match(paste)
    assert result.status == "matched" and result.matches[0].id == "b"


@pytest.mark.parametrize(
    ("text", "status"),
    [
        ("how do I fix errors in my model?", "not_an_error"),
        ("```py\nraise ValueError('x must be positive')\n```", "not_an_error"),
        ("KeyError: 'totally_unknown_key_name'", "unmatched"),
        ("IndexError: list index out of range", "unmatched"),  # transformers raises it too, but so does Python
    ],
)
def test_statuses(text: str, status: str) -> None:
    assert shipped_matcher().match(text).status == status


def test_linked_example_answers_as_its_record() -> None:
    index = MatchIndex.build([IndexEntry(id="rec", error_message="totally different record text here")])
    example = IndexEntry(id="rec~ex1", error_message="frobnicator exploded at {n} volts", error_class="OSError",
                         alias_of="rec")  # fmt: skip
    index.upsert([example])
    result = Matcher(index).match("OSError: frobnicator exploded at 42 volts")
    assert result.matches and result.matches[0].id == "rec"


@pytest.mark.parametrize(
    "text",
    [
        "ValueError: frobnicator exploded at 42 volts",  # the same words, another class: another error
        "frobnicator exploded at 42 volts",  # the sentence alone, as chat
        "hey, my frobnicator exploded at 42 volts yesterday, any idea?",
    ],
)
def test_a_linked_example_answers_only_its_class_and_never_chat(text: str) -> None:
    index = MatchIndex.build([IndexEntry(id="rec", error_message="totally different record text here")])
    example = IndexEntry(id="rec~ex1", error_message="frobnicator exploded at {n} volts", error_class="OSError",
                         alias_of="rec")  # fmt: skip
    index.upsert([example])
    result = Matcher(index).match(text)
    assert result.status in {"unmatched", "not_an_error"} and not result.matches


def test_index_upsert_and_remove() -> None:
    index = MatchIndex.build([IndexEntry(id="one", error_message="alpha bravo charlie delta")])
    matcher = Matcher(index)
    index.upsert([IndexEntry(id="two", error_message="echo foxtrot golf hotel", error_class="ValueError")])
    assert matcher.match("ValueError: echo foxtrot golf hotel").matches[0].id == "two"
    index.upsert([IndexEntry(id="two", error_message="india juliet kilo lima", error_class="ValueError")])
    assert matcher.match("ValueError: echo foxtrot golf hotel").status == "unmatched"
    assert matcher.match("ValueError: india juliet kilo lima").matches[0].id == "two"
    index.remove("two")
    assert index.get("two") is None and len(index) == 1


def test_search_finds_records_by_words() -> None:
    hits = shipped_matcher().search("assisted generation stateful", 5)
    assert hits[0].id == SEED_IDS["stateful"]


# The shipped records are read when the first test that needs them runs, not at collection: every
# xdist worker collects every module, and reading them costs each about a second.
@cache
def _mined_ids() -> list[str]:
    return [r.id for r in shipped_records() if r.origin == "mined" and "/modular_" not in (r.file_path or "")]


@cache
def _records_by_id() -> dict[str, Record]:
    return {r.id: r for r in shipped_records()}


def _traceback_of(record: Record, seed: int) -> str:
    """Paste a record's rendered message as the last line of a traceback raised at its own line."""
    message = render_message(record.error_message, random.Random(seed))
    return (
        'Traceback (most recent call last):\n  File "/venv/lib/python3.11/site-packages/'
        f'{(record.file_path or "").removeprefix("src/")}", line {record.line_number}, in f\n'
        f"{record.error_class}: {message}"
    )


# Messages holding a blank line: extraction once cut them there, and their long templates then
# scored too low to match their own rendering (issue 14). The first five are pinned as examples.
BLANK_LINE_IDS = (
    "a4a64a75a3c5231c", "b35ebeb2a54ff9bf", "38cfc9f8b6ba7670", "b6b4d22fcd36c783", "3c72cd71693ee013",
    "ff1ef41470c158c9", "66c55afadf7e593d", "a5cf5cf1c083a2b2", "496c56e2aba88605", "568ed50d79d44d01",
    # raised only by releases before 5.24 (4.30-5.14)
    "035c07bb4a9688e7", "0a1af312f97eee4a", "2b0206ecfd0801b3", "62114478011634e0", "632784a3986ab38b",
    "6868d496bf48c0ae", "906b9f3660535baf", "a4acbcfef1ff0172", "d81593b76474d3d4", "efea0422205903fc",
    "f84df42fa8697880",
)  # fmt: skip
# Its paragraph after the blank line is a shell command ("\t$ pip install -e .[modelcreation]"): read, as
# on real pastes, as something typed after the error; its first paragraph alone still answers it.
COMMAND_AFTER_BLANK = frozenset({"906b9f3660535baf"})


@settings(max_examples=60)
@given(record_id=st.deferred(lambda: st.sampled_from(_mined_ids())), seed=st.integers(0, 10_000))
@example(record_id=BLANK_LINE_IDS[0], seed=0)
@example(record_id=BLANK_LINE_IDS[1], seed=1)
@example(record_id=BLANK_LINE_IDS[2], seed=2)
@example(record_id=BLANK_LINE_IDS[3], seed=3)
@example(record_id=BLANK_LINE_IDS[4], seed=4)
def test_a_records_own_rendered_message_matches_it(record_id: str, seed: int) -> None:
    record = _records_by_id()[record_id]
    paste = _traceback_of(record, seed)
    result = shipped_matcher().match(paste)
    assert result.matches, paste
    assert record.id in result.matches[0].member_ids


def _blank_line_records(transformers: bool) -> list[Record]:
    return [
        r
        for r in shipped_records()
        if r.origin == "mined" and "\n\n" in r.error_message and (r.repo == "huggingface/transformers") == transformers
    ]


def test_the_shipped_messages_with_blank_lines_are_the_known_ones() -> None:
    assert {r.id for r in _blank_line_records(transformers=True)} == set(BLANK_LINE_IDS)


def test_the_other_libraries_messages_with_blank_lines_are_extracted_whole() -> None:
    others = _blank_line_records(transformers=False)
    assert len(others) >= 12  # accelerate, datasets, diffusers, peft and torch raise some
    cut = set()
    for record in others:
        result = shipped_matcher().match(_traceback_of(record, 0))
        assert result.error is not None
        # Whole (not cut at a blank line); a line's indentation may go (accelerate indents a list of shapes).
        expected, words = render_message(record.error_message, random.Random(0)).split(), result.error.message.split()
        assert expected[: len(words)] == words, record.id
        if words != expected:
            cut.add(record.id)
        assert result.matches and record.id in result.matches[0].member_ids, record.id
    # Those whose paragraph after a blank line is code (datasets' example usage, torch's example
    # __getitems__, peft's "unexpected_keys=..."): read, as on real pastes, as code typed after the error.
    # Their first paragraph alone still answers them (above).
    assert cut == {"957c1062b00a3d3a", "e13f80607b1ae987", "f73894826aa304c1"}


@pytest.mark.parametrize("record_id", BLANK_LINE_IDS)
def test_a_message_with_blank_lines_is_extracted_whole_and_matches_its_record(record_id: str) -> None:
    record = _records_by_id()[record_id]
    paste = _traceback_of(record, 0)
    result = shipped_matcher().match(paste)
    assert result.error is not None
    rendered = render_message(record.error_message, random.Random(0)).strip()
    if record_id in COMMAND_AFTER_BLANK:
        assert result.error.message == rendered.split("\n\n", 1)[0]
    else:
        assert result.error.message == rendered
    assert result.status == "matched"
    assert record.id in result.matches[0].member_ids


def test_members_outside_the_frames_score_as_each_would_alone() -> None:
    """Evidence shared by members in no frame's file is keyed by what it reads: class, repository, a file."""
    message = "the widget configuration {name} cannot be combined with legacy sprockets"
    members = [
        IndexEntry(id="framed", error_message=message, error_class="ValueError", file_path="src/lib/delta.py",
                   line_number=40, repo="o/lib", curated=False, version_lines=(("1.0", 30),)),
        IndexEntry(id="alpha", error_message=message, error_class="ValueError", file_path="src/lib/alpha.py",
                   line_number=10, repo="o/lib", curated=False),
        IndexEntry(id="gamma", error_message=message, error_class="ValueError", file_path="src/lib/models/gamma.py",
                   line_number=12, repo="o/lib", curated=False),
        IndexEntry(id="other-class", error_message=message, error_class="TypeError", file_path="src/lib/beta.py",
                   line_number=20, repo="o/lib", curated=False),
        IndexEntry(id="no-file", error_message=message, error_class="ValueError", repo="o/lib", curated=False),
        IndexEntry(id="other-repo", error_message=message, error_class="ValueError", file_path="src/lib/alpha.py",
                   line_number=10, repo="o/other", curated=False),
    ]  # fmt: skip
    paste = (
        'Traceback (most recent call last):\n  File "/venv/lib/python3.11/site-packages/lib/delta.py", line 30, in f\n'
        "ValueError: the widget configuration 'x' cannot be combined with legacy sprockets"
    )
    error = extract(paste).primary
    assert error is not None
    hint = _hint(error, frozenset({"lib"}))
    template = parse_template(message)
    text = text_evidence(template, None, error.message)
    together = _score_members(members, text, error, hint, template, quoted=False)
    alone = [_score(together[0].entry, text, error, hint, False, quoted=False, site=members[0])]
    alone += [_score(m, text, error, hint, False, quoted=False, site=m) for m in members[1:]]
    assert [(s.entry, s.rank, s.evidence) for s in together] == [(s.entry, s.rank, s.evidence) for s in alone]
    assert together[0].entry.line_number == 30 and together[0].evidence.same_line  # the 1.0 release's line
    assert len({s.evidence for s in together[1:]}) == 4  # four kinds of unframed evidence


def _copies(count: int) -> list[IndexEntry]:
    message = "You must specify exactly one of the widget's inputs or its embeddings"
    return [mined(f"m{k}", message, f"lib/models/m{k}/modeling_m{k}.py", 10) for k in range(count)]


def test_copies_far_below_the_one_a_frame_picks_are_left_out_of_scoring() -> None:
    """The copy in the raising frame's file is scored; the 29 others, which folding drops, are not."""
    members = [*_copies(30), mined("other-repo", _copies(1)[0].error_message, "x/y.py", 3)._replace(repo="o/x")]
    paste = traceback_at("lib/models/m7/modeling_m7.py", 10) + "ValueError: " + members[0].error_message
    error = extract(paste).primary
    assert error is not None
    hint, template = _hint(error, frozenset({"lib"})), parse_template(members[0].error_message)
    text = text_evidence(template, None, error.message)
    kept = _score_members(members, text, error, hint, template, quoted=False, below=12.0)
    assert [item.entry.id for item in kept] == ["m7", "other-repo"]  # another repository's copy is another cause
    assert len(_score_members(members, text, error, hint, template, quoted=False)) == 31  # nothing left out
    quoted = _score_members(members, text, error, hint, template, quoted=True, below=12.0)
    assert len(quoted) == 31  # a quoted raise statement frames every copy: folding keeps them all
    matcher = Matcher(MatchIndex.build(members))
    assert matcher.match(paste).matches == Matcher(matcher.index, prune=False).match(paste).matches


def test_without_a_frame_every_copy_of_a_check_is_still_folded_into_the_answer() -> None:
    members = _copies(30)
    (answer,) = Matcher(MatchIndex.build(members)).match("ValueError: " + members[0].error_message).matches
    assert len(answer.member_ids) == 30 and len(answer.other_files) == 29
