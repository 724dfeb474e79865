"""The template index: which templates a message's words find, and in which order."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from records.matching import index as index_module
from records.matching import kin as kin_module
from records.matching.folding import squashed_literal
from records.matching.index import IndexEntry, MatchIndex
from records.matching.template import cause_text, message_words, parse_template

WORDS = [f"w{chr(97 + a)}{chr(97 + b)}{chr(97 + c)}" for a in range(4) for b in range(5) for c in range(5)]


def _entries(count: int, seed: int) -> list[IndexEntry]:
    rng = random.Random(seed)
    entries = []
    for number in range(count):
        # A skewed draw: a few words are in most templates (dense), most are in a few.
        words = {WORDS[min(len(WORDS) - 1, int(rng.paretovariate(0.6)) - 1)] for _ in range(6)}
        words |= set(rng.sample(WORDS, 3))
        message = " ".join(sorted(words)) + " {value} " + rng.choice(WORDS)
        entries.append(IndexEntry(id=f"r{number}", error_message=message, file_path=f"src/m{number % 7}.py"))
    return entries


def _walk(index: MatchIndex, message: str, limit: int) -> list[tuple[str, float]]:
    """The ranking as the pure-Python walk over posting lists computed it (the reference)."""
    postings = index._postings
    words = sorted((w for w in message_words(message) if w in postings), key=lambda w: len(postings[w]))
    gained: dict[int, float] = {}
    for word in words:
        slots = postings[word]
        if len(slots) > index_module.MAX_POSTING:
            break
        weight = index._weight(word)
        if len(slots) > index_module.DENSE_POSTING and (gained or (len(words) > 1 and word is not words[-1])):
            for slot in gained:
                group = index._groups[slot]
                if group is not None and word in group.posted:
                    gained[slot] += weight
        else:
            for slot in slots:
                gained[slot] = gained.get(slot, 0.0) + weight
    groups = {slot: group for slot in gained if (group := index._groups[slot]) is not None}
    # Ranked by both shares: of the template's posted weight, and of the message's.
    pasted = sum(index._weight(w) for w in words if len(postings[w]) <= index_module.MAX_POSTING)
    ranked = sorted(
        gained.items(), key=lambda item: item[1] / groups[item[0]].posted_weight + item[1] / pasted, reverse=True
    )
    return [(groups[s].text, min(got / groups[s].posted_weight, 1.0)) for s, got in ranked[:limit]]


def _ranked(index: MatchIndex, message: str, limit: int) -> list[tuple[str, float]]:
    return [(c.group.text, c.coverage) for c in index.candidates(message, limit)]


@pytest.mark.parametrize("dense", [2, 8, 512])
def test_ranking_is_the_walks_sums_and_ties(monkeypatch: pytest.MonkeyPatch, dense: int) -> None:
    monkeypatch.setattr(index_module, "DENSE_POSTING", dense)
    index = MatchIndex.build(_entries(400, seed=dense))
    rng = random.Random(7)
    for _ in range(200):
        message = " ".join(rng.sample(WORDS, rng.randint(1, 12)))
        for limit in (1, 5, 24):
            assert _ranked(index, message, limit) == _walk(index, message, limit)


def test_a_fragment_of_the_opening_finds_a_long_template() -> None:
    long = "Unrecognized configuration class {cls} for this kind of AutoModel: " + "padding words " * 30 + "{x}"
    index = MatchIndex.build([IndexEntry(id="a", error_message=long), IndexEntry(id="b", error_message="Other {x}")])
    found = index.candidates("Unrecognized configuration class LlamaConfig for this kind of AutoModel")
    assert found[0].group.text == long


def test_a_common_word_adds_weight_but_alone_brings_its_templates(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(index_module, "DENSE_POSTING", 2)
    entries = [IndexEntry(id=f"c{n}", error_message=f"tensor shape mismatch variant{n}") for n in range(5)]
    entries.append(IndexEntry(id="rare", error_message="tensor zebracorn exploded"))
    index = MatchIndex.build(entries)
    # "tensor" is dense: beside a rare word it only adds to the rare word's template.
    assert [c.group.text for c in index.candidates("tensor zebracorn")] == ["tensor zebracorn exploded"]
    # Alone, the common word still finds every template posted under it.
    assert len(index.candidates("tensor", 40)) == len({c.group.text for c in index.candidates("tensor", 40)}) >= 5


def test_upsert_and_remove_keep_postings_and_lookups_consistent() -> None:
    index = MatchIndex.build(_entries(50, seed=1))
    added = IndexEntry(id="new", error_message="flamingo quokka narwhal {x} overflowed")
    index.upsert([added])
    assert index.get("new") == added
    assert index.candidates("flamingo quokka narwhal 3 overflowed")[0].group.text == added.error_message
    index.upsert([IndexEntry(id="new", error_message="pangolin axolotl {y} underflowed")])  # changed text
    assert not index.candidates("flamingo quokka narwhal")
    assert index.candidates("pangolin axolotl underflowed")[0].group.members[0].id == "new"
    index.remove("new")
    index.remove("r3")
    assert index.get("new") is None and index.get("r3") is None and len(index) == 49
    assert not index.candidates("pangolin axolotl underflowed")
    for slots in index._postings.values():
        assert list(slots) == sorted(set(slots))  # ascending, no slot twice: searchsorted relies on it
    rng = random.Random(2)
    for _ in range(50):
        message = " ".join(rng.sample(WORDS, 6))
        assert _ranked(index, message, 10) == _walk(index, message, 10)


def test_a_template_opening_with_a_placeholder_is_posted_under_the_first_words_after_it() -> None:
    long = "{path} is not a local folder and is not a valid model identifier listed on the zeppelin registry"
    # Other templates hold the sentence's first words, so that its rarest words are all at its end.
    others = [f"{w} clash{n}" for n, w in enumerate(["local", "folder", "valid", "model", "identifier", "listed"] * 2)]
    entries = [IndexEntry(id="long", error_message=long)]
    entries += [IndexEntry(id=f"o{n}", error_message=text) for n, text in enumerate(others)]
    index = MatchIndex.build(entries)
    posted = next(g for g in index._groups if g is not None and g.text == long).posted
    assert {"local", "folder", "valid"} <= set(posted)
    assert long in [c.group.text for c in index.candidates("org/tiny is not a local folder and is not a valid", 24)]


def test_the_first_sentence_of_a_long_template_finds_it_among_short_ones_holding_its_words() -> None:
    long = (
        "Input length of {name} is {n}, but `max_length` is set to {m}. This can lead to unexpected behavior. "
        "You should consider increasing `max_length` or, better yet, setting `max_new_tokens`."
    )
    # Short templates hold one of the sentence's words each: they hold a larger share of their own
    # posted weight than the long template does (most of its weight is in its second sentence), but a
    # smaller share of the paste's.
    short = [f"{word} unique{n}" for n, word in enumerate(["input", "length", "max"] * 4)]
    entries = [IndexEntry(id="long", error_message=long)]
    entries += [IndexEntry(id=f"s{n}", error_message=text) for n, text in enumerate(short)]
    index = MatchIndex.build(entries)
    found = index.candidates("Input length of input_ids is 2048, but `max_length` is set to 2048.", 3)
    assert found[0].group.text == long
    assert found[0].coverage < max(c.coverage for c in found[1:])  # coverage stays the template's own share


def test_templates_of_one_literal_text_or_opening_share_their_kin_keys() -> None:
    index = MatchIndex.build(
        [
            IndexEntry(id="a", error_message="Expected {n} tokens for the attention mask, got {m} in the batch"),
            IndexEntry(id="b", error_message="Expected {count} tokens for the attention mask, got {got} in the batch"),
            IndexEntry(
                id="c", error_message="Expected {n} tokens for the attention mask, got {m} in the batch; pad it"
            ),
            IndexEntry(id="d", error_message="Short {x}"),
        ]
    )
    a, b, c, d = (index.facts(slot) for slot in range(4))
    assert a.text_key == b.text_key != c.text_key
    assert a.opening_key == c.opening_key != kin_module.NO_OPENING  # the same first 40 squashed letters
    assert d.opening_key == kin_module.NO_OPENING and d.literal_chars == len("Short")


def test_a_template_keeps_the_file_name_its_members_share_or_a_mark_for_several() -> None:
    index = MatchIndex.build(
        [
            IndexEntry(id="a1", error_message="one {x}", file_path="src/pkg1/modeling_x.py"),
            IndexEntry(id="a2", error_message="one {x}", file_path="src/pkg2/modeling_x.py"),
            IndexEntry(id="b1", error_message="two {x}", file_path="src/modeling_x.py"),
            IndexEntry(id="b2", error_message="two {x}", file_path="src/modeling_y.py"),
            IndexEntry(id="c1", error_message="three {x}", line_number=3),
        ]
    )
    assert [index.facts(slot).file_name for slot in range(3)] == ["modeling_x.py", kin_module.MIXED_FILES, ""]
    # a curated record with no line (the matcher then scores every candidate), per template
    assert [index.facts(slot).unlocated_curated for slot in range(3)] == [True, True, False]


@given(st.text(alphabet=st.sampled_from("ab Z9{}.\n\t\x00İΣς-"), max_size=120))
def test_the_kin_keys_are_checksums_of_what_folding_and_joining_compare(message: str) -> None:
    facts = index_module.template_facts(parse_template(message))
    opening = squashed_literal(message)
    assert facts.text_key == index_module._checksum(cause_text(message))
    expected = index_module._checksum(opening[:40]) if len(opening) >= 40 else kin_module.NO_OPENING
    assert facts.opening_key == expected


def test_the_rare_words_of_a_path_in_the_message_bring_in_no_template() -> None:
    tokenizer = (
        "Can't load tokenizer for '{name}'. If you were trying to load it from 'https://huggingface.co/models', make "
        "sure you don't have a local directory with the same name."
    )
    others = ["delta must be a float or int, got: {t}", "LLM needs attention_mask", "Vicuna data is not available"]
    entries = [IndexEntry(id=f"o{k}", error_message=text) for k, text in enumerate(others)]
    index = MatchIndex.build([*entries, IndexEntry(id="tok", error_message=tokenizer)])
    (best,) = index.candidates("Can't load tokenizer for '/data/llm/models/vicuna-7b-delta-v1.1'", limit=1)
    assert best.group.text == tokenizer


def test_a_template_s_members_are_looked_up_by_their_file_name_until_they_change() -> None:
    message = "the widget {name} cannot be combined with sprockets"
    index = MatchIndex.build(
        [
            IndexEntry(id="a", error_message=message, file_path="src/pkg1/modeling_x.py"),
            IndexEntry(id="b", error_message=message, file_path="src/pkg2/modeling_x.py"),
            IndexEntry(id="c", error_message=message, file_path="src/modeling_y.py"),
            IndexEntry(id="d", error_message=message),
        ]
    )
    (group,) = (candidate.group for candidate in index.at_slots([0]))
    assert [m.id for m in group.in_file("modeling_x.py")] == ["a", "b"]
    assert [m.id for m in group.in_file("")] == ["d"] and group.in_file("modeling_z.py") == []
    index.upsert([IndexEntry(id="e", error_message=message, file_path="src/pkg3/modeling_x.py")])
    index.remove("a")
    assert [m.id for m in group.in_file("modeling_x.py")] == ["b", "e"]
