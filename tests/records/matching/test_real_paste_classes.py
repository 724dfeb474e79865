"""Classes of failure seen on real pastes (issue 10), each with a paste written for the test.

Retyped messages (a typo in a long sentence), a message opened by a line that is not its own, a
sentence going on differently than a look-alike template's, a wording changed between versions, and a
paste that quotes the raise statement of one of two look-alike templates.
"""

from __future__ import annotations

import pytest

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


TOKENIZER = (
    "Can't load tokenizer for '{name}'. If you were trying to load it from 'https://huggingface.co/models', make "
    "sure you don't have a local directory with the same name. Otherwise, make sure '{name}' is the correct path."
)
NO_FILE = "{repo} does not appear to have a file named {filename}. Checkout 'https://huggingface.co/{repo}' for files."


def test_a_templates_whole_first_sentence_is_a_telling_piece_though_short() -> None:
    pasted = "Can't load tokenizer for 'openai/clip-vit-large-patch14'"  # 20 letters of the template's text
    evidence = text_evidence(parse_template(TOKENIZER), None, pasted)
    assert evidence.found_chars < 45 and evidence.clause and evidence.telling
    assert evidence.text >= 0.85


def test_a_first_sentence_after_an_opening_placeholder_is_a_piece_too() -> None:
    evidence = text_evidence(parse_template(NO_FILE), None, "depth_vitl14 does not appear to have a file named x.json")
    assert evidence.clause and evidence.telling


@pytest.mark.parametrize(
    "pasted",
    [
        "Can't load tokenizer",  # cut inside the sentence: a cut piece, scored by its length
        "I can't load tokenizer for 'gpt2' today",  # the person's words before it: not the sentence alone
    ],
)
def test_a_cut_or_quoted_sentence_is_no_whole_first_sentence(pasted: str) -> None:
    assert not text_evidence(parse_template(TOKENIZER), None, pasted).clause


SIZE_MISMATCH = (
    "Error(s) in loading state_dict for {model_class}:\n\tsize mismatch for {parameter}: copying a param with shape "
    "{checkpoint_shape} from checkpoint, the shape in current model is {model_shape}."
)


def test_a_first_sentence_ending_in_a_value_and_a_mark_is_whole_only_when_the_message_stops_there() -> None:
    template = parse_template(SIZE_MISMATCH)
    assert text_evidence(template, None, "Error(s) in loading state_dict for DTNet:").clause
    # The value would take any text; after the sentence's ':' the message goes on with another template's.
    going_on = 'Error(s) in loading state_dict for Net:\n\tMissing key(s) in state_dict: "t", "layer.0.cl".'
    assert not text_evidence(template, None, going_on).clause


def test_a_message_going_on_past_a_first_sentence_answers_with_the_template_it_fits_whole() -> None:
    general = "Error(s) in loading state_dict for {self.__class__.__name__}:\n\t{'\\n\\t'.join(error_msgs)}"
    path = "torch/nn/modules/module.py"
    matcher = _matcher(
        IndexEntry("general", general, "RuntimeError", None, path, 2647, "pytorch/pytorch", False, "2.15.0"),
        IndexEntry("size", SIZE_MISMATCH, "RuntimeError", None, path, None, "pytorch/pytorch", True),
    )
    pasted = (
        'RuntimeError: Error(s) in loading state_dict for Net:\n\tMissing key(s) in state_dict: "t", "l.0.cl".\n'
        '\tUnexpected key(s) in state_dict: "", "ist.0.cl".'
    )
    assert matcher.match(pasted).matches[0].id == "general"


def test_a_short_first_sentence_with_holes_inside_is_no_telling_piece() -> None:
    # Its holes take any text: a message naming four files fits it as well as one naming two.
    template = "Error no file named {a} or {b} found in directory {path}. Please make sure it was saved with them."
    pasted = "Error no file named model.bin, tf_model.h5, model.ckpt or flax.msgpack found in directory org/m"
    evidence = text_evidence(parse_template(template), None, pasted)
    assert evidence.consistent and not evidence.clause and not evidence.telling


def test_a_first_sentence_pasted_without_class_matches_its_template() -> None:
    matcher = _matcher(_mined("hub", NO_FILE, "src/transformers/utils/hub.py", 470, "5.24.0"))
    result = matcher.match("depth_anything_vitl14 does not appear to have a file named preprocessor_config.json")
    assert result.status == "matched" and result.matches[0].id == "hub"


def test_a_curated_older_wording_no_shipped_version_raises_joins_the_shipped_one() -> None:
    path = "src/transformers/utils/hub.py"
    first = "{path} is not a local folder and is not a valid model identifier listed on 'https://huggingface.co/models'"
    shipped = IndexEntry(
        "new", first + "\nIf this is a private repository, log in with `hf auth login`.", "OSError", None, path,
        569, "huggingface/transformers", False, "5.24.0",
    )  # fmt: skip
    older = IndexEntry(
        "old", first + "\nIf this is a private repository, pass `use_auth_token=True`.", "OSError", None, path,
        None, "huggingface/transformers", True, None,
    )  # fmt: skip
    result = _matcher(older, shipped).match("OSError: " + first.replace("{path}", "org/tiny-7b"))
    assert result.status == "matched"
    assert result.matches[0].line_number == 569 and set(result.matches[0].member_ids) == {"new", "old"}


def test_two_curated_wordings_without_versions_stay_apart() -> None:
    path = "src/transformers/utils/hub.py"
    first = "{path} is not a local folder and is not a valid model identifier listed on 'https://huggingface.co/models'"
    curated = [
        IndexEntry(rid, first + tail, "OSError", None, path, None, "huggingface/transformers", True, None)
        for rid, tail in [("a", "\nPass `use_auth_token=True`."), ("b", "\nLog in with `huggingface-cli login`.")]
    ]
    result = _matcher(*curated).match("OSError: " + first.replace("{path}", "org/tiny-7b"))
    assert len(result.matches) == 2


def test_a_traceback_cut_after_its_raise_statement_is_answered_by_the_raising_line() -> None:
    path = "src/transformers/models/auto/tokenization_auto.py"
    template = "Tokenizer class {name} does not exist or is not currently imported."
    matcher = _matcher(
        _mined("site", template, path, 748, "4.34.1"), _mined("other", "Bad {x} given here", path, 700, "4.34.1")
    )
    frames = (
        "Traceback (most recent call last):\n"
        '  File "/env/lib/python3.9/site-packages/modelz_llm/model.py", line 39, in __init__\n'
        "    self.tokenizer = tokenizer_cls.from_pretrained(\n"
        '  File "/env/lib/python3.9/site-packages/transformers/models/auto/tokenization_auto.py", line {line}, in f\n'
        "    raise ValueError(\n"
    )
    at_site = matcher.match(frames.format(line=748))
    assert at_site.status == "matched" and at_site.matches[0].id == "site"
    assert matcher.match(frames.format(line=720)).status == "unmatched"  # no raise of a record there
