"""Classes of failure seen on real pastes (issue 10), each with a paste written for the test.

Retyped messages (a typo in a long sentence), a message opened by a line that is not its own, a
sentence going on differently than a look-alike template's, a wording changed between versions, and a
paste that quotes the raise statement of one of two look-alike templates.
"""

from __future__ import annotations

from records.matching import IndexEntry, Matcher, MatchIndex
from records.matching.align import Alignment, align
from records.matching.evidence import text_evidence
from records.matching.template import parse_template

TENSOR = (
    "Unable to create tensor, you should probably activate truncation and/or padding with 'padding=True' "
    "'truncation=True' to have batched tensors with the same length. Perhaps your features (`{key}` in this "
    "case) have excessive nesting (inputs type `list` where type `int` is expected)."
)
VULNERABLE = (
    "Due to a serious vulnerability issue in `torch.load`, even with `weights_only=True`, we now require "
    "users to upgrade torch to at least v2.6 in order to use the function. This version restriction does "
    "not apply when loading files with safetensors.\nSee the vulnerability report here https://example.org/cve"
)
FLASH = (
    "You are attempting to perform batched generation with padding_side='right' this may lead to unexpected "
    "behaviour for Flash Attention version of {model}. Make sure to call `tokenizer.padding_side = 'left'`."
)


def _align(template: str, message: str) -> Alignment:
    return align(parse_template(template).segments, message)


def test_a_retyped_message_with_typos_loses_only_the_pieces_they_fall_in() -> None:
    retyped = (
        "Unable to create tensor , you should probably activate truncation and/or padding with 'padding=True' "
        "'trunction=True' to have batched tensors with the same length.Perhaps you features(\"labels\" in this "
        "case) have excessive nesting(inputs type 'list' where type 'int' is expected)."
    )
    alignment = _align(TENSOR, retyped)
    assert not alignment.consistent and alignment.replaced
    assert alignment.covered > 0.7
    assert text_evidence(parse_template(TENSOR), None, retyped).text > 0.6


def test_a_dropped_word_is_another_wording_not_a_typo() -> None:
    tail = " Please use the model as it is, since the model has already been set to the correct devices and dtype."
    template = "`.to` is not supported for `8-bit` bitsandbytes quantized models." + tail
    older = "`.to` is not supported for `8-bit` quantized models." + tail
    alignment = _align(template, older)
    assert alignment.covered > 0.6
    assert not alignment.consistent and not alignment.replaced
    assert text_evidence(parse_template(template), None, older).text < 0.5


def test_a_long_message_cut_off_after_a_line_of_its_own_reads_as_a_piece() -> None:
    pasted = "LoadImageNode\n" + VULNERABLE.split("\nSee", maxsplit=1)[0]
    alignment = _align(VULNERABLE, pasted)
    assert alignment.consistent and alignment.found_chars > 150


def test_a_sentence_going_on_with_other_words_explains_less_than_its_own_template() -> None:
    other_model = parse_template(FLASH.replace("{model}", "PhiMoE"))
    own = parse_template(FLASH.replace("{model}", "Qwen2"))
    pasted = FLASH.replace("{model}", "Qwen2").split(" Make sure", maxsplit=1)[0]
    assert align(other_model.segments, pasted).outside > 0.0
    assert align(own.segments, pasted).outside == 0.0
    assert text_evidence(own, None, pasted).text > text_evidence(other_model, None, pasted).text


def test_the_persons_words_after_a_message_they_cut_do_not_undo_the_piece() -> None:
    template = (
        "The checkpoint you are trying to load has model type `{kind}` but Transformers does not recognize "
        "this architecture. This could be because of an issue with the checkpoint."
    )
    pasted = "The checkpoint you are trying to load has model type `duo` but Transformers does not recognize "
    alignment = _align(template, pasted + "this architecture, so I updated transformers but nothing changed")
    assert alignment.consistent and alignment.found_chars > 60


def _matcher(*entries: IndexEntry) -> Matcher:
    return Matcher(MatchIndex.build(entries))


def _mined(record_id: str, message: str, path: str, line: int, version: str) -> IndexEntry:
    return IndexEntry(record_id, message, "ValueError", None, path, line, "huggingface/transformers", False, version)


def test_one_check_reworded_between_versions_is_one_answer() -> None:
    path = "src/transformers/models/auto/configuration_auto.py"
    short = "Unrecognized model in {name}. Should have a `model_type` key in its {config}."
    long = short[:-1] + ", or contain one of the following strings in its name: {choices}"
    matcher = _matcher(_mined("new", short, path, 452, "5.24.0"), _mined("old", long, path, 1380, "4.57.6"))
    result = matcher.match("ValueError: Unrecognized model in my-org/tiny-7b. Should have a `model_type` key in its")
    assert result.status == "matched"
    assert set(result.matches[0].member_ids) == {"new", "old"}


def test_two_sites_of_one_version_with_the_same_opening_stay_apart() -> None:
    path = "src/transformers/trainer.py"
    a = "Unrecognized checkpoint layout in {path}: expected a directory with {what} inside"
    b = "Unrecognized checkpoint layout in {path}: expected a single file named {name}"
    matcher = _matcher(_mined("a", a, path, 10, "5.24.0"), _mined("b", b, path, 20, "5.24.0"))
    result = matcher.match("ValueError: Unrecognized checkpoint layout in /tmp/x: expected")
    assert len(result.matches) == 2


def test_the_quoted_raise_statement_picks_the_file_of_its_template() -> None:
    trainer = _mined(
        "t", "Can't find a valid checkpoint at {resume_from_checkpoint}", "src/transformers/trainer.py", 9, "5.24.0"
    )
    deepspeed = _mined(
        "d",
        "Can't find a valid checkpoint at {checkpoint_path}",
        "src/transformers/integrations/deepspeed.py",
        5,
        "5.24.0",
    )
    matcher = _matcher(trainer, deepspeed)
    message = "ValueError: Can't find a valid checkpoint at /data/run/checkpoint-40"
    assert matcher.match(message).matches[0].file_path == "src/transformers/trainer.py"  # the shared one
    quoted = matcher.match('raise ValueError(f"Can\'t find a valid checkpoint at {checkpoint_path}")\n' + message)
    assert quoted.matches[0].file_path == "src/transformers/integrations/deepspeed.py"
