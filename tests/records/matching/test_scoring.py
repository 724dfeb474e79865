"""Scores from evidence, and the ceilings that let the matcher skip candidates: never below the score."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from benchmarks.evalset import raised_cases, real_cases, shipped_matcher
from benchmarks.evaluate import load_cases
from records.extraction import extract
from records.matching import IndexEntry, Matcher
from records.matching.align import align
from records.matching.evidence import (
    FrameHint,
    TextEvidence,
    gather,
    library_of,
    text_ceiling,
    text_ceiling_unaligned,
    text_evidence,
)
from records.matching.index import TemplateGroup
from records.matching.matcher import Thresholds
from records.matching.scoring import FrameNames, ceiling, raw_score
from records.matching.template import parse_template

PATHS = [
    "src/transformers/modeling_utils.py",
    "src/transformers/models/bert/modeling_bert.py",
    "src/transformers/models/bert/modular_bert.py",
    "src/transformers/models/bert/modeling_tf_bert.py",
    "src/pkg2/models/bert/modeling_bert.py",
    "./modeling_utils.py",
    ".x",
]
FRAMES = [
    "transformers/modeling_utils.py",
    "transformers/models/bert/modeling_bert.py",
    "/home/u/.venv/lib/python3.11/site-packages/pkg2/models/bert/modeling_bert.py",
    "./src/transformers/models/bert/modular_bert.py",
    "/home/u/run.py",
    "a/.x",
]
WORDS = ["model", "config", "the", "of", "must", "be", "token", "pad", "shape", "(", ")", ".", "`", "\n", "is", "x"]

entries = st.builds(
    IndexEntry,
    id=st.just("r"),
    error_message=st.just("m"),
    error_class=st.sampled_from([None, "ValueError", "OSError", "TypeError"]),
    file_path=st.one_of(st.none(), st.sampled_from(PATHS)),
    line_number=st.one_of(st.none(), st.integers(1, 12)),
    repo=st.sampled_from([None, "huggingface/transformers", "acme/big"]),
)
hints = st.one_of(
    st.none(),
    st.builds(
        FrameHint,
        st.lists(st.sampled_from(FRAMES), max_size=4).map(tuple),
        st.one_of(st.none(), st.integers(1, 12)),
        st.frozensets(st.sampled_from(["transformers", "big", "torch"])),
    ),
)
texts = st.floats(0.0, 1.0)


@given(entry=entries, hint=hints, text=texts, slack=texts, chars=st.integers(0, 60), generic=st.booleans(),
       quoted=st.booleans(), pasted=st.sampled_from([None, "ValueError", "OSError"]))  # fmt: skip
def test_a_ceiling_is_never_below_the_score(
    entry: IndexEntry,
    hint: FrameHint | None,
    text: float,
    slack: float,
    chars: int,
    generic: bool,
    quoted: bool,
    pasted: str | None,
) -> None:
    evidence = gather(entry, TextEvidence(text, 0.0, 0.0, 0.0, 1.0, literal_chars=chars), pasted, hint)
    score = raw_score(entry, evidence, chars, generic=generic, quoted=quoted) * 100
    limit = min(1.0, text + slack)  # any text at least the real one
    frames = FrameNames.of(hint)
    exact = ceiling([entry], limit, chars, frames)
    assert score <= exact
    assert exact <= ceiling([entry], limit, chars, frames, exact=False)


@given(entry=entries, hint=hints, text=texts, chars=st.integers(0, 60))
def test_a_ceiling_is_reached_when_every_piece_it_takes_at_best_is_at_best(
    entry: IndexEntry, hint: FrameHint | None, text: float, chars: int
) -> None:
    """The bound is no looser than it says: the class, repository, explanation and quote agreeing, it is the score."""
    library = library_of(entry)
    assume(entry.error_class is not None and library is not None)
    base = hint or FrameHint((), None)
    agreeing = FrameHint(base.package_paths, base.raising_line, base.libraries | {library or ""})
    evidence = gather(entry, TextEvidence(text, 0.0, 0.0, 0.0, 1.0, literal_chars=chars), entry.error_class, agreeing)
    assume(evidence.frame >= 0)  # a frame against the record is taken at 0
    score = raw_score(entry, evidence, chars, generic=False, quoted=True) * 100
    assert score == pytest.approx(ceiling([entry], text, chars, FrameNames.of(agreeing)))


@given(entries=st.lists(entries, max_size=5), hint=hints, text=texts)
def test_the_ceiling_of_several_members_is_the_highest_of_theirs(
    entries: list[IndexEntry], hint: FrameHint | None, text: float
) -> None:
    frames = FrameNames.of(hint)
    assert ceiling(entries, text, 20, frames) == max((ceiling([e], text, 20, frames) for e in entries), default=-1e309)


@given(entries=st.lists(entries, max_size=6), hint=hints, text=texts, exact=st.booleans())
def test_members_in_frame_files_looked_up_by_name_give_the_ceiling_they_give_looked_for(
    entries: list[IndexEntry], hint: FrameHint | None, text: float, exact: bool
) -> None:
    frames = FrameNames.of(hint)
    group = TemplateGroup("a check {x}", list(entries))
    framed = group.in_files(frames.names)
    assert {e.id for e in framed} == {
        e.id for e in entries if e.file_path and e.file_path.rpartition("/")[2] in frames.names
    }
    by_name = ceiling(entries, text, 20, frames, exact=exact, framed=framed)
    assert by_name == ceiling(entries, text, 20, frames, exact=exact)


segments = st.lists(st.sampled_from(WORDS), min_size=1, max_size=8).map(" ".join)
templates = st.lists(segments, min_size=1, max_size=4).map("{v}".join)


@st.composite
def messages(draw: st.DrawFn, template: str) -> str:
    """A message of the template (values filled in, maybe cut or retyped), or any words."""
    kind = draw(st.sampled_from(["filled", "cut", "words", "retyped"]))
    if kind == "words":
        return draw(segments)
    filled = template.replace("{v}", draw(st.sampled_from(["", "42", "LlamaConfig", "a b c", "torch.float16"])))
    if kind == "cut":
        return filled[draw(st.integers(0, len(filled))) : draw(st.integers(0, len(filled)))]
    if kind == "retyped":
        at = draw(st.integers(0, len(filled)))
        return filled[:at] + draw(st.sampled_from(["", "z", "extra words"])) + filled[at + 1 :]
    return filled


@given(data=st.data(), template=templates, pattern=st.sampled_from([None, "^(.+?)$", "^model (.+?)$"]))
def test_the_text_ceiling_is_never_below_the_text_evidence(
    data: st.DataObject, template: str, pattern: str | None
) -> None:
    message = data.draw(messages(template))
    parsed = parse_template(template)
    alignment = align(parsed.segments, message)
    text = text_evidence(parsed, pattern, message, alignment).text
    assert text == text_evidence(parsed, pattern, message).text  # the alignment given is the one it makes
    assert text <= text_ceiling(parsed, message, alignment) <= text_ceiling_unaligned(parsed.literal_chars)


def _answers(matcher: Matcher, text: str) -> tuple[object, ...]:
    result = matcher.match(text)
    shown = [(m.id, m.score, m.rank, m.file_path, m.line_number, m.versions, m.other_files, m.why, m.member_ids)
             for m in result.matches]  # fmt: skip
    return result.status, result.error.message if result.error else None, shown


@cache
def _unpruned() -> Matcher:
    return Matcher(shipped_matcher().index, prune=False)


@cache
def _pruned() -> Matcher:
    """Candidates skipped, all found by words (deciding at the raise site is compared in ``test_matcher_site``)."""
    return Matcher(shipped_matcher().index, site_first=False)


# A fixed third of the real and raised pastes (the raised set repeats each raise site in two versions
# and several shapes), every paste of the others: comparing all 1,631 pastes took a worker 12 s, and
# did not differ once (all compared when skipping was written; `python -m benchmarks.evaluate` gives
# the same accuracy figures with and without it).
SETS: dict[str, Callable[[], list[dict[str, Any]]]] = {
    "real": lambda: real_cases("transformers")[::3],
    "ecosystem": lambda: real_cases("ecosystem")[::3],
    "raised": lambda: raised_cases()[::3],
    "foreign": lambda: real_cases("foreign"),
    "chat": lambda: real_cases("chat"),
    "hard": lambda: load_cases("hard"),
}


@pytest.mark.sweep
@pytest.mark.parametrize("name", SETS)
def test_skipping_candidates_changes_no_answer(name: str) -> None:
    """The evaluation sets' pastes get the answers, scores, folds and members they get with no skipping."""
    cases = SETS[name]()
    assert len(cases) >= 15
    for case in cases:
        assert _answers(_pruned(), case["text"]) == _answers(_unpruned(), case["text"]), case["id"]


def test_answers_that_cannot_be_shown_are_left_out_below_the_floor() -> None:
    """``score_error``'s floor drops what no status shows; ``match`` decides as it does without it."""
    shown_from = Thresholds().ambiguous
    python_own = extract("ValueError: too many values to unpack (expected 2)").primary
    assert python_own is not None
    everything = shipped_matcher().score_error(python_own, frozenset())
    assert everything and max(a.score for a in everything) < shown_from  # Python's own words: none fits
    assert shipped_matcher().score_error(python_own, frozenset(), floor=shown_from) == []
    two_files = extract("ValueError: You have to specify either decoder_input_ids or decoder_inputs_embeds").primary
    assert two_files is not None
    offered = [a for a in shipped_matcher().score_error(two_files, frozenset()) if a.score >= shown_from]
    floored = shipped_matcher().score_error(two_files, frozenset(), floor=shown_from)
    assert len(offered) >= 2 and floored[: len(offered)] == offered
