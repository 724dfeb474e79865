"""One answer per cause: copies of a check fold, frames and named model classes pick one."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from records.matching import IndexEntry, Matcher, MatchIndex
from records.matching.align import squash
from records.matching.folding import (
    _CLASS_NAME_RE,
    _NAMED_LIBRARY_RE,
    LIBRARY_PREFERENCE,
    is_other_backend,
    model_dir,
    named_libraries,
    named_models,
)

CHECK = "You must specify exactly one of input_ids or inputs_embeds for this widget"
PASTE = f"ValueError: {CHECK}"


def _entry(record_id: str, path: str, message: str = CHECK, line: int = 10) -> IndexEntry:
    return IndexEntry(
        id=record_id, error_message=message, error_class="ValueError", file_path=path, line_number=line,
        repo="huggingface/transformers", curated=False, library_version="4.57.6",
    )  # fmt: skip


def _matcher(*entries: IndexEntry) -> Matcher:
    return Matcher(MatchIndex.build(entries))


MODEL_COPIES = [
    _entry(f"m{k}", f"src/transformers/models/{name}/modeling_{name}.py")
    for k, name in enumerate(["bert", "gpt2", "llama", "t5", "xlm_roberta", "gemma", "gemma3"])
]


def test_copies_in_model_files_fold_into_one_answer_counting_them() -> None:
    result = _matcher(*MODEL_COPIES).match(PASTE)
    assert result.status == "matched"
    (answer,) = result.matches
    assert len(answer.member_ids) == len(MODEL_COPIES)
    assert len(answer.other_files) == len(MODEL_COPIES) - 1
    assert "raised in 7 model files, the same check" in answer.why[-1]


def test_a_shared_module_stands_for_the_per_model_copies() -> None:
    shared = _entry("shared", "src/transformers/modeling_utils.py")
    answer = _matcher(*MODEL_COPIES, shared).match(PASTE).matches[0]
    assert answer.file_path == "src/transformers/modeling_utils.py"


@pytest.mark.parametrize(
    ("named", "path"),
    [
        ("GPT2ForSequenceClassification", "src/transformers/models/gpt2/modeling_gpt2.py"),
        ("LlamaConfig", "src/transformers/models/llama/modeling_llama.py"),
        ("Gemma3ForCausalLM", "src/transformers/models/gemma3/modeling_gemma3.py"),  # longest model name wins
        ("XLMRobertaModel", "src/transformers/models/xlm_roberta/modeling_xlm_roberta.py"),
    ],
)
def test_a_model_class_named_in_the_paste_picks_its_file(named: str, path: str) -> None:
    result = _matcher(*MODEL_COPIES).match(f"model = {named}.from_pretrained(x)\n{PASTE}")
    assert result.status == "matched"
    assert result.matches[0].file_path == path
    assert result.matches[0].other_files == ()


def test_a_frame_picks_its_file_among_the_copies() -> None:
    paste = (
        'Traceback (most recent call last):\n  File "/venv/lib/python3.11/site-packages/transformers/models/t5/'
        f'modeling_t5.py", line 10, in forward\n{PASTE}'
    )
    result = _matcher(*MODEL_COPIES).match(paste)
    assert result.matches[0].file_path == "src/transformers/models/t5/modeling_t5.py"


def test_generated_file_stands_for_its_modular_source_and_pytorch_for_tf_and_flax() -> None:
    entries = [
        _entry("modular", "src/transformers/models/llama/modular_llama.py"),
        _entry("tf", "src/transformers/models/llama/modeling_tf_llama.py"),
        _entry("flax", "src/transformers/models/llama/modeling_flax_llama.py"),
        _entry("torch", "src/transformers/models/llama/modeling_llama.py"),
    ]
    answer = _matcher(*entries).match(PASTE).matches[0]
    assert answer.file_path == "src/transformers/models/llama/modeling_llama.py"
    shared = [
        _entry("flax", "src/transformers/generation/flax_utils.py"),
        _entry("pt", "src/transformers/generation/utils.py"),
    ]
    assert _matcher(*shared).match(PASTE).matches[0].file_path == "src/transformers/generation/utils.py"


def test_a_tensorflow_copy_with_other_words_does_not_outrank_the_pytorch_check() -> None:
    torch = _entry("torch", "src/transformers/models/bert/modeling_bert.py")
    tf = _entry("tf", "src/transformers/models/bert/modeling_tf_bert.py", CHECK + ".")
    result = _matcher(torch, tf).match(PASTE)
    assert result.matches[0].id == "torch"


def test_different_checks_do_not_fold() -> None:
    other = _entry("other", "src/transformers/models/bert/modeling_bert.py", "the widget has no sprockets left to turn")
    result = _matcher(*MODEL_COPIES, other).match(PASTE)
    assert "other" not in result.matches[0].member_ids


@pytest.mark.parametrize(
    ("path", "directory"),
    [
        ("src/transformers/models/xlm_roberta/modeling_xlm_roberta.py", "xlmroberta"),
        ("src/transformers/modeling_utils.py", None),
        (None, None),
    ],
)
def test_model_dir(path: str | None, directory: str | None) -> None:
    assert model_dir(path) == directory


def test_named_models_are_squashed_class_names() -> None:
    assert named_models("use GPT2ForSequenceClassification and LlamaConfig, not gpt2") >= {
        "gpt2forsequenceclassification",
        "llamaconfig",
    }


def _copy_in(repo: str, path: str, record_id: str = "theirs", message: str = CHECK) -> IndexEntry:
    return IndexEntry(
        id=record_id, error_message=message, error_class="ValueError", file_path=path, line_number=5,
        repo=repo, curated=False, library_version="1.0",
    )  # fmt: skip


DIFFUSERS_COPY = _copy_in("huggingface/diffusers", "src/diffusers/utils/core.py")


def test_another_library_s_copy_of_a_check_folds_into_transformers_answer() -> None:
    ours = _entry("ours", "src/transformers/modeling_utils.py")
    result = _matcher(ours, DIFFUSERS_COPY).match(PASTE)
    assert result.status == "matched"
    (answer,) = result.matches
    assert (
        answer.id == "ours" and answer.file_path == "src/transformers/modeling_utils.py"
    )  # located in its own library
    assert set(answer.member_ids) == {"ours", "theirs"}
    assert answer.why[-1].endswith("(also raised by diffusers)")


@pytest.mark.parametrize(
    "named", ["from diffusers import DiffusionPipeline", "diffusers==0.35.2", "site-packages/diffusers/__init__.py"]
)
def test_the_library_a_paste_names_answers_for_its_copy(named: str) -> None:
    ours = _entry("ours", "src/transformers/modeling_utils.py")
    result = _matcher(ours, DIFFUSERS_COPY).match(f"{named}\n{PASTE}")
    assert result.status == "matched" and result.matches[0].id == "theirs"


def test_a_pytorch_phrase_folds_into_pytorch_s_own_record_not_a_copy_that_ranks_far_lower() -> None:
    # In transformers' copy the phrase is generic text (PyTorch prints it), weighed low without a frame;
    # PyTorch's own record is not: the evidence, not the library preference, picks the answer.
    phrase = "Error(s) in loading state_dict for {name}:\n\t{errors}"
    theirs = _copy_in("pytorch/pytorch", "torch/nn/modules/module.py", "torch", phrase)._replace(
        error_class="RuntimeError"
    )
    ours = _entry("ours", "src/transformers/utils/loading_report.py", phrase)._replace(error_class="RuntimeError")
    result = _matcher(ours, theirs).match("RuntimeError: Error(s) in loading state_dict for Net:\n\tMissing key(s)")
    assert result.matches[0].id == "torch" and set(result.matches[0].member_ids) == {"torch", "ours"}


def test_a_library_named_in_prose_is_not_named() -> None:
    assert named_libraries("I have two datasets and want to accelerate training with torch") == frozenset()
    assert named_libraries("import torch\nfrom peft import LoraConfig; datasets.load_dataset") == {
        "torch",
        "peft",
        "datasets",
    }


def test_a_frame_in_a_copy_picks_its_library() -> None:
    ours = _entry("ours", "src/transformers/modeling_utils.py")
    paste = (
        "Traceback (most recent call last):\n"
        '  File "/venv/lib/python3.11/site-packages/diffusers/utils/core.py", line 5, in check\n'
        "    raise ValueError(\n"
        f"{PASTE}"
    )
    result = _matcher(ours, DIFFUSERS_COPY).match(paste)
    assert result.matches[0].id == "theirs"


def test_copies_of_libraries_not_in_the_preference_fold_in_path_order() -> None:
    first = _copy_in("example/first", "src/first/core.py", "first")
    second = _copy_in("example/second", "src/second/core.py", "second")
    result = _matcher(second, first).match(PASTE)
    assert result.status == "matched" and result.matches[0].id == "first"
    assert set(result.matches[0].member_ids) == {"first", "second"}


def test_two_libraries_wording_one_check_alike_rank_the_preferred_first() -> None:
    # Two causes (their texts go on differently) of equal rank on a paste of their common start: the
    # preferred library first, although the id order says otherwise.
    common = "is not a local folder and is not a valid model identifier listed on the Hub or on this disk."
    ours = _entry("z-ours", "src/transformers/utils/hub.py", f"{{path}} {common} Log in first.")
    theirs = _copy_in("huggingface/diffusers", "src/diffusers/configuration_utils.py", "a-theirs",
                      f"{{name}} {common} See the docs.")  # fmt: skip
    result = _matcher(theirs, ours).match(f"ValueError: gpt9 {common}")
    assert [m.id for m in result.matches] == ["z-ours", "a-theirs"]
    assert result.matches[0].rank == result.matches[1].rank


def test_safetensors_torch_module_stands_for_the_other_frameworks_copies() -> None:
    check = "You are trying to save a non contiguous tensor: {name} which is not allowed here"
    copies = [
        _copy_in("huggingface/safetensors", f"bindings/python/py_src/safetensors/{name}.py", name, check)
        for name in ("paddle", "torch", "flax", "numpy", "mlx", "tensorflow")
    ]
    result = _matcher(*copies).match(
        "ValueError: You are trying to save a non contiguous tensor: `w` which is not allowed here"
    )
    assert result.matches[0].file_path == "bindings/python/py_src/safetensors/torch.py"
    assert is_other_backend("bindings/python/py_src/safetensors/paddle.py")
    assert not is_other_backend("bindings/python/py_src/safetensors/torch.py")


def test_a_shared_module_that_stopped_raising_a_check_ranks_after_the_one_raising_it_now() -> None:
    # transformers 4.x raised its quantization checks in modeling_utils.py, later releases in quantizers/.
    moved_from = _entry("old", "src/transformers/modeling_utils.py")._replace(library_version="4.44.2")
    moved_to = _entry("new", "src/transformers/quantizers/quantizer_bnb_4bit.py")._replace(library_version="5.24.0")
    (answer,) = _matcher(moved_from, moved_to).match(PASTE).matches
    assert answer.file_path == "src/transformers/quantizers/quantizer_bnb_4bit.py"
    assert set(answer.member_ids) == {"old", "new"}
    # Raised in the same releases, the more central module stands for the other again.
    same = moved_from._replace(library_version="5.24.0")
    assert _matcher(same, moved_to).match(PASTE).matches[0].file_path == "src/transformers/modeling_utils.py"


def test_a_per_model_copy_of_an_older_release_is_ranked_as_a_per_model_copy() -> None:
    old_copy = MODEL_COPIES[0]._replace(library_version="4.30.2")
    answer = _matcher(old_copy, *MODEL_COPIES[1:]).match(PASTE).matches[0]
    # A model removed or renamed in later releases is no sign the check moved: path order, as for the others.
    assert answer.file_path == "src/transformers/models/bert/modeling_bert.py"


_CODE_PIECES = st.sampled_from([*LIBRARY_PREFERENCE, " ", ".", "/", "=", "import ", "from ", "x", "GPT2Model", "Llama"])


@given(st.lists(_CODE_PIECES, max_size=12).map("".join))
def test_names_read_from_a_paste_are_the_patterns_matches_squashed(text: str) -> None:
    """The shortcuts (no library name in the text: none named; a class name is letters and digits) change nothing."""
    expected = frozenset(a or b for a, b in _NAMED_LIBRARY_RE.findall(text))
    assert named_libraries(text) == expected
    assert named_models(text) == frozenset(squash(m.group(0)) for m in _CLASS_NAME_RE.finditer(text))
