"""Generated explanations for more guard shapes.

Exclusive groups, config fields traced through ``self``, lists of offending names, path checks, chained
bounds, size checks, switched-off methods, and the settings or versions a message asks for.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from benchmarks.explain_report import answered, figures
from records.mining import mine_tree
from records.model import Record
from tests.conftest import mine_sources, record_starting

SHAPES = """
import os


class VisionModel:
    def forward(self, pixel_values=None, pixel_values_videos=None, mm_encoder_outputs=None):
        if (pixel_values is not None or pixel_values_videos is not None) and mm_encoder_outputs is not None:
            raise ValueError("You cannot specify both pixel_values/pixel_values_videos and mm_encoder_outputs")


class Prompter:
    def __init__(self, config):
        self.apply = config.visual_prompter_apply
        self.scratch = config.scratch

    def forward(self, pixel_values):
        if self.apply not in ("add", "remove", "replace"):
            raise ValueError(f"Invalid visual_prompter_apply value {self.apply}")
        self.scratch = 1
        if self.scratch is None:
            raise ValueError("A field assigned twice is not traced to the config.")


class Layer:
    def __init__(self, config):
        self.is_decoder = config.is_decoder

    def forward(self, encoder_hidden_states=None):
        if not hasattr(self, "crossattention"):
            raise ValueError(
                f"If `encoder_hidden_states` are passed, {self} has to be instantiated with cross-attention "
                "layers by setting `config.add_cross_attention=True`"
            )


def generate(inputs, **model_kwargs):
    unused_model_args = [k for k in model_kwargs if k.startswith("x")]
    if unused_model_args:
        raise ValueError(f"The following `model_kwargs` are not used by the model: {unused_model_args}")


def check_imports(filename):
    missing_packages = [p for p in filename.split() if p]
    if len(missing_packages) > 0:
        raise ImportError(f"This file requires packages that were not found: {', '.join(missing_packages)}.")


def save(save_directory, vocab_file):
    if os.path.isfile(save_directory):
        raise ValueError(f"Provided path ({save_directory}) should be a directory, not a file")
    if not os.path.isfile(vocab_file):
        raise ValueError(f"Can't find a vocabulary file at path '{vocab_file}'.")


def speak(speaker_id, num_speakers=4):
    if not 0 <= speaker_id < num_speakers:
        raise ValueError("Set `speaker_id` in the range of the speakers.")


def transcribe(input_features, return_timestamps=None):
    if return_timestamps is False:
        raise ValueError(
            "Long-form generation requires timestamps. Please either pass `return_timestamps=True` or pass "
            "fewer input features."
        )


def refuse(quantization_config=None, load_in_4bit=False):
    if quantization_config is not None and load_in_4bit:
        raise ValueError("You cannot pass `load_in_4bit=True` when a quantization config is given.")


class Attention:
    def forward(self, hidden_states, attention_mask=None):
        bsz, tgt_len, _ = hidden_states.size()
        attn_weights = hidden_states
        if attention_mask.size() != (bsz, 1, tgt_len, tgt_len):
            raise ValueError(f"Attention mask should be of size {(bsz, 1, tgt_len, tgt_len)}")
        if attn_weights.size() != (bsz, tgt_len):
            raise ValueError("Attention weights have the wrong size.")


class AudioForCTC:
    def freeze_feature_encoder(self):
        raise AttributeError("Not needed for this model")

    def _mask(self):
        raise AttributeError("Not needed either")


def checkpoint(path, distributed):
    if distributed and not path:
        raise RuntimeError("Distributed checkpointing requires `torch>=2.8` with `torch.distributed` available.")
"""


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> list[Record]:
    """Records mined from the module of shapes."""
    return mine_sources(tmp_path_factory.mktemp("shapes"), {"shapes.py": SHAPES})


def test_exclusive_groups_of_arguments(records: list[Record]) -> None:
    record = record_starting(records, "You cannot specify both")
    assert record.documentation == (
        "`VisionModel.forward()` accepts `pixel_values` / `pixel_values_videos` or `mm_encoder_outputs`, not both; "
        "here both were given."
    )
    assert record.solutions[0] == (
        "Pass either `pixel_values` / `pixel_values_videos` or `mm_encoder_outputs` to `VisionModel.forward()`, "
        "not both."
    )
    assert record.example_fix == (
        "# before: both given\nmodel(..., pixel_values=pixel_values, mm_encoder_outputs=mm_encoder_outputs)"
        "\n\n# after: only one of them\nmodel(..., pixel_values=pixel_values)"
    )


def test_an_attribute_set_once_from_the_config_is_the_config_field(records: list[Record]) -> None:
    record = record_starting(records, "Invalid visual_prompter_apply")
    assert record.solutions[0] == "Set `config.visual_prompter_apply` to one of `'add'`, `'remove'`, `'replace'`."
    assert record.example_fix == "# after: one of the accepted values\nconfig.visual_prompter_apply = 'add'"
    twice = record_starting(records, "A field assigned twice")
    assert "config.scratch" not in " ".join([twice.documentation or "", *twice.solutions])


def test_a_setting_the_message_asks_for_is_a_step_and_the_example(records: list[Record]) -> None:
    record = record_starting(records, "If `encoder_hidden_states` are passed")
    assert "Set `config.add_cross_attention=True`, as the message says." in record.solutions
    assert record.example_fix == "# after: as the message says\nconfig.add_cross_attention = True"
    passed = record_starting(records, "Long-form generation")
    assert "Pass `return_timestamps=True`, as the message says." in passed.solutions
    assert passed.example_fix == "# after: as the message says\ntranscribe(..., return_timestamps=True)"


def test_a_setting_after_a_negation_is_the_fault_not_the_fix(records: list[Record]) -> None:
    record = record_starting(records, "You cannot pass `load_in_4bit=True`")
    assert not any("as the message says" in step for step in record.solutions)


def test_a_list_of_offending_names_says_what_to_do_with_them(records: list[Record]) -> None:
    unused = record_starting(records, "The following `model_kwargs`")
    assert unused.solutions[0] == (
        "Remove or rename the names the message lists (`unused_model_args`): `generate()` does not use them; "
        "check their spelling."
    )
    missing = record_starting(records, "This file requires packages")
    assert missing.solutions[0] == (
        "Install the packages the message lists (`missing_packages`): `pip install` followed by their names."
    )


def test_path_checks_on_an_argument(records: list[Record]) -> None:
    assert (
        record_starting(records, "Provided path").solutions[0] == "Pass a directory, not a file, as `save_directory`."
    )
    assert record_starting(records, "Can't find a vocabulary").solutions[0] == (
        "Pass the path of an existing file as `vocab_file` (check the path for typos)."
    )


def test_a_chained_bound_on_an_argument(records: list[Record]) -> None:
    record = record_starting(records, "Set `speaker_id` in the range")
    assert record.solutions[0] == "Set `speaker_id` to a value with `0` <= `speaker_id` < `num_speakers`."


def test_a_package_version_the_message_requires(records: list[Record]) -> None:
    record = record_starting(records, "Distributed checkpointing requires")
    assert record.solutions[-1] == (
        "Upgrade `torch` to 2.8 or newer (the message requires it) (the command is in the example fix)."
    )
    assert record.example_fix == 'pip install -U "torch>=2.8"'


def test_a_size_check_on_an_argument_names_the_size_to_pass(records: list[Record]) -> None:
    record = record_starting(records, "Attention mask should be of size")
    assert record.solutions[0] == (
        "Pass `attention_mask` with `attention_mask.size()` equal to `(bsz, 1, tgt_len, tgt_len)`."
    )
    assert record_starting(records, "Attention weights have").solutions == [  # a local value: what it is computed from
        "Check the `hidden_states` you pass to `Attention.forward()`: the check reads `attn_weights`, `bsz` and "
        "`tgt_len`, computed from it, and needs `attn_weights.size()` == `(bsz, tgt_len)`."
    ]


def test_a_public_method_switched_off_says_not_to_call_it(records: list[Record]) -> None:
    record = record_starting(records, "Not needed for this model")
    assert record.solutions == [
        "Do not call `AudioForCTC.freeze_feature_encoder()`: it always raises `AttributeError` here."
    ]
    assert record_starting(records, "Not needed either").solutions == []  # private: the user does not call it


def test_the_report_counts_hits_as_replied_with_the_curated_text_folded_in() -> None:
    mined = Record.model_validate({
        "id": "m1", "errorMessage": "boom", "filePath": "src/x.py", "origin": "mined",
        "documentation": "What it means.", "generated": ["documentation"],
    })  # fmt: skip
    curated = Record.model_validate({
        "id": "c1", "errorMessage": "boom", "filePath": "src/x.py", "origin": "curated",
        "solutions": ["Do this."], "exampleFix": "# before\nx\n\n# after\ny",
    })  # fmt: skip
    shown = answered([mined], {("src/x.py", "boom"): curated})
    assert shown[0].solutions == ["Do this."] and shown[0].documentation == "What it means."
    assert figures("hits", [mined])[1].split()[-4] == "0"
    counts = [line.split()[-4] for line in figures("hits (as replied)", shown, curated_count=True)[1:]]
    assert counts == ["1", "1", "1"]


def test_mining_the_shapes_module_twice_gives_the_same_text(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "shapes.py").write_text(textwrap.dedent(SHAPES))
    first = mine_tree(tmp_path, repo="acme/pkg", ref="v1.0", library_version="1.0", workers=1).records
    second = mine_tree(tmp_path, repo="acme/pkg", ref="v1.0", library_version="1.0", workers=1).records
    assert [r.model_dump() for r in first] == [r.model_dump() for r in second]
