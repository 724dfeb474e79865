"""Generated text for guards on computed values, and example fixes that change values (issue 11).

Checks on locals traced back to the arguments and config fields they come from, internal consistency
checks, and before/after examples: a multiple of a divisor, a type converted, one value set from
another, a config's token id taken from the tokenizer.
"""

from __future__ import annotations

import pytest

from records.model import Record
from tests.conftest import mine_sources, record_starting

COMPUTED = """
import numpy as np
import torch


class Attention:
    def __init__(self, config, scale=None):
        self.head_dim = config.hidden_size // config.num_attention_heads
        self.num_heads = config.num_attention_heads
        self.scale = scale

    def forward(self, hidden_states, attention_mask=None):
        bsz, tgt_len, _ = hidden_states.size()
        attn_weights = hidden_states @ hidden_states
        if attn_weights.size() != (bsz, self.num_heads, tgt_len):
            raise ValueError("Attention weights have the wrong size.")
        if self.head_dim * self.num_heads > 4096:
            raise ValueError("The heads are too wide.")


class Counter:
    def count(self, items):
        total = 0
        for chunk in range(3):
            total += chunk
        if total != 3:
            raise RuntimeError("The chunks do not add up.")
        if self.cache is None:
            raise RuntimeError("The cache is missing.")

    def prepare(self):
        self.cache = {}


class Resizer:
    def __init__(self, config):
        self.config = config

    def resize(self, image, size):
        if not isinstance(size, list):
            raise TypeError("The size must be a list.")
        if image % 16 != 0:
            raise ValueError("The image size must be a multiple of 16.")


class HeadsConfig:
    def __init__(self, hidden_size=768, num_heads=12, num_groups=4, max_groups=8):
        self.hidden_size = hidden_size
        self.num_heads = num_heads
        self.num_groups = num_groups
        self.max_groups = max_groups

    def validate(self):
        if self.hidden_size % self.num_heads != 0:
            raise ValueError("The hidden size is not a multiple of the number of heads.")
        if self.num_groups > self.max_groups:
            raise ValueError("Too many groups for the maximum.")


class Model:
    def __init__(self, config):
        self.config = config

    def shift(self, input_ids):
        if self.config.pad_token_id is None:
            raise ValueError("The config has no padding token id.")
        if self.config.max_length < self.config.min_length:
            raise ValueError("The maximum length is below the minimum length.")


def pad(inputs, pad_to=None, extra=0):
    if extra > 0 and pad_to % 8 != 0:
        raise ValueError("Padding to a size that is not a multiple of 8 with extras.")


def check_query(query):
    valid = False
    if isinstance(query, str):
        valid = True
    if not valid:
        raise TypeError("The query is of the wrong kind.")


def check_device():
    major, minor = torch.cuda.get_device_capability()
    if major < 8:
        raise ValueError("The device is too old.")


class Sampler:
    def __call__(self, scores, top_p=1.0, top_k=50):
        if top_p < 0 or top_p > 1.0:
            raise ValueError("`top_p` has to be a float between 0 and 1.")
        if top_k < 1 or top_k > 100:
            raise ValueError("`top_k` has to be between 1 and 100.")
        self.warp(scores, 3)

    def warp(self, scores, steps):
        if steps > 10:
            raise ValueError("Too many steps.")
        total = scores.sum()
        if total != 1:
            raise ValueError("Scores do not sum to one. Please pass normalized `scores`.")
"""


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> list[Record]:
    """Records mined from the module of computed values."""
    return mine_sources(tmp_path_factory.mktemp("computed"), {"computed.py": COMPUTED})


def test_a_check_on_locals_names_the_arguments_they_come_from(records: list[Record]) -> None:
    record = record_starting(records, "Attention weights have")
    assert record.solutions == [
        "Check the `hidden_states` you pass to `Attention.forward()` and `config.num_attention_heads` in the "
        "model's config: the check reads `attn_weights`, `bsz` and `self.num_heads`, computed from them, and needs "
        "`attn_weights.size()` == `(bsz, self.num_heads, tgt_len)`."
    ]


def test_attributes_set_in_init_are_traced_to_config_fields(records: list[Record]) -> None:
    record = record_starting(records, "The heads are too wide")
    assert record.solutions[0].startswith(
        "Check `config.hidden_size` and `config.num_attention_heads` in the model's config: the check reads "
        "`self.head_dim` and `self.num_heads`"
    )


def test_an_internal_check_says_so_and_how_to_report_it(records: list[Record]) -> None:
    record = record_starting(records, "The chunks do not add up")
    assert record.solutions == [
        "`total` is computed by `Counter.count()` itself, from nothing you pass directly: check that your inputs "
        "match what the message describes; if they do, report the error to transformers with the full traceback "
        "and the output of `transformers env`."
    ]


def test_an_attribute_set_by_another_method_gets_no_internal_step(records: list[Record]) -> None:
    assert record_starting(records, "The cache is missing").solutions == []


def test_a_type_check_converts_the_argument(records: list[Record]) -> None:
    record = record_starting(records, "The size must be a list")
    assert record.example_fix == (
        "# before\nresizer.resize(..., size=size)\n\n# after: `size` converted to a `list`\n"
        "resizer.resize(..., size=list(size))"
    )


def test_a_multiple_of_a_constant(records: list[Record]) -> None:
    record = record_starting(records, "The image size must be a multiple")
    assert record.example_fix == (
        "# before: `image` is not a multiple of `16`\nresizer.resize(..., image=136)\n\n"
        "# after: 128 = 16 x 8\nresizer.resize(..., image=128)"
    )


def test_a_multiple_of_another_constructor_argument(records: list[Record]) -> None:
    record = record_starting(records, "The hidden size is not a multiple")
    assert record.example_fix == (
        "# before: `hidden_size` is not a multiple of `num_heads`\nHeadsConfig(..., hidden_size=102, num_heads=12)"
        "\n\n# after: 96 = 12 x 8\nHeadsConfig(..., hidden_size=96, num_heads=12)"
    )


def test_two_counts_of_one_call_get_numbers_that_meet_the_relation(records: list[Record]) -> None:
    record = record_starting(records, "Too many groups")
    assert record.example_fix == ("# after: `num_groups` <= `max_groups`\nHeadsConfig(..., num_groups=4, max_groups=8)")


def test_two_config_fields_set_one_from_the_other(records: list[Record]) -> None:
    record = record_starting(records, "The maximum length is below")
    assert record.example_fix == (
        "# after: `model.config.max_length` >= `model.config.min_length`\n"
        "model.config.max_length = model.config.min_length"
    )


def test_a_missing_token_id_is_taken_from_the_tokenizer(records: list[Record]) -> None:
    record = record_starting(records, "The config has no padding token id")
    assert record.example_fix == (
        "# after: the id of the tokenizer's own token\nmodel.config.pad_token_id = tokenizer.pad_token_id"
    )


def test_an_and_is_fixed_by_its_check_not_by_its_precondition(records: list[Record]) -> None:
    record = record_starting(records, "Padding to a size")
    assert record.example_fix == (
        "# before: `pad_to` is not a multiple of `8`\npad(..., pad_to=68)\n\n# after: 64 = 8 x 8\npad(..., pad_to=64)"
    )


def test_a_value_between_two_bounds(records: list[Record]) -> None:
    assert record_starting(records, "`top_p` has to be").example_fix == (
        "# before: `top_p` > 1.0\nsampler(..., top_p=2.0)\n\n# after: between 0 and 1.0\nsampler(..., top_p=0.5)"
    )
    assert record_starting(records, "`top_k` has to be").example_fix == (
        "# before: `top_k` > 100\nsampler(..., top_k=101)\n\n# after: between 1 and 100\nsampler(..., top_k=51)"
    )


def test_an_argument_of_a_public_method_the_entry_point_does_not_take(records: list[Record]) -> None:
    record = record_starting(records, "Too many steps")
    assert record.solutions[0] == "Set `steps` to a value <= `10`."
    assert record.example_fix == (
        "# before: steps > 10\nsampler.warp(..., steps=11)\n\n# after\nsampler.warp(..., steps=10)"
    )


def test_the_message_advice_comes_before_the_traced_step(records: list[Record]) -> None:
    record = record_starting(records, "Scores do not sum to one")
    assert record.solutions == [
        "Please pass normalized `scores`.",
        "Check the `scores` you pass to `Sampler.warp()` (reached from `Sampler.__call__()`): the check reads "
        "`total`, computed from it, and needs `total` == `1`.",
    ]


def test_no_internal_step_for_a_flag_set_in_a_branch_or_the_machine_state(records: list[Record]) -> None:
    assert not any("transformers env" in s for s in record_starting(records, "The query is of").solutions)
    assert not any("transformers env" in s for s in record_starting(records, "The device is too old").solutions)
