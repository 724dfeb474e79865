"""Value-changing example fixes, built from one atom and a renderer (records.mining._explain._values)."""

from __future__ import annotations

import pytest

from records.mining._explain._conditions import Atom
from records.mining._explain._values import (
    convert_example,
    multiple_example,
    range_example,
    relation_example,
    token_id_example,
)


def _attributes(settings: list[tuple[str, str]]) -> str:
    return "\n".join(f"{name} = {value}" for name, value in settings)


def _call(settings: list[tuple[str, str]]) -> str:
    return "f(..., " + ", ".join(f"{name}={value}" for name, value in settings) + ")"


def test_a_multiple_of_a_named_divisor_sets_both() -> None:
    atom = Atom("multiple", "config.hidden_size", negated=True, other="config.num_heads")
    assert multiple_example(atom, _attributes, lambda name: True) == (
        "# before: `config.hidden_size` is not a multiple of `config.num_heads`\n"
        "config.hidden_size = 102\nconfig.num_heads = 12\n\n"
        "# after: 96 = 12 x 8\nconfig.hidden_size = 96\nconfig.num_heads = 12"
    )


@pytest.mark.parametrize(("divisor", "before", "after"), [("2", "17", "16"), ("64", "544", "512")])
def test_a_multiple_of_a_constant(divisor: str, before: str, after: str) -> None:
    atom = Atom("multiple", "size", negated=True, other=divisor)
    text = multiple_example(atom, _call, lambda name: False) or ""
    assert f"f(..., size={before})" in text and text.endswith(f"f(..., size={after})")
    assert int(before) % int(divisor) != 0 and int(after) % int(divisor) == 0


def test_a_divisor_the_user_cannot_set_gives_no_example() -> None:
    atom = Atom("multiple", "size", negated=True, other="self.block")
    assert multiple_example(atom, _call, lambda name: False) is None


def test_a_conversion_to_the_first_type_that_has_a_converter() -> None:
    atom = Atom("instance", "boxes", negated=True, values=("MyBoxes", "torch.Tensor", "list"))
    assert convert_example(atom, _call) == (
        "# before\nf(..., boxes=boxes)\n\n# after: `boxes` converted to a `torch.Tensor`\nf(..., boxes=torch.tensor(boxes))"
    )


def test_no_conversion_to_bool_or_an_unknown_class() -> None:
    assert convert_example(Atom("instance", "flag", negated=True, values=("bool",)), _call) is None
    assert convert_example(Atom("instance", "cache", negated=True, values=("Cache",)), _call) is None


@pytest.mark.parametrize(
    ("op", "after"),
    [(">", "config.a = config.b"), (">=", "config.a = config.b - 1"), ("<", "config.a = config.b"),
     ("!=", "config.a = config.b")],
)  # fmt: skip
def test_a_field_set_from_another(op: str, after: str) -> None:
    text = relation_example(Atom("compare", "config.a", op=op, other="config.b"), _attributes, fields=True)
    assert text is not None and text.endswith(after)


def test_two_counts_get_numbers_and_other_names_get_nothing() -> None:
    counts = Atom("compare", "num_beams", op="<", other="num_return_sequences")
    assert relation_example(counts, _call, fields=False) == (
        "# after: `num_beams` >= `num_return_sequences`\nf(..., num_beams=8, num_return_sequences=4)"
    )
    names = Atom("compare", "prompt", op="!=", other="task_token")
    assert relation_example(names, _call, fields=False) is None
    same = Atom("compare", "sampling_rate", op="!=", other="sampling_rate")
    assert relation_example(same, _call, fields=False) is None


def test_a_token_id_from_the_tokenizer_only_for_special_tokens() -> None:
    assert token_id_example(Atom("none", "model.config.pad_token_id")) == (
        "# after: the id of the tokenizer's own token\nmodel.config.pad_token_id = tokenizer.pad_token_id"
    )
    assert token_id_example(Atom("none", "config.decoder_start_token_id")) is None


def test_a_value_between_bounds() -> None:
    parts = [Atom("compare", "p", op="<", other="0", constant=0), Atom("compare", "p", op=">", other="1", constant=1)]
    assert range_example(parts, _call) == (
        "# before: `p` > 1\nf(..., p=2.0)\n\n# after: between 0 and 1\nf(..., p=0.5)"
    )
    ints = [
        Atom("compare", "k", op="<=", other="0", constant=0),
        Atom("compare", "k", op=">=", other="10", constant=10),
    ]
    text = range_example(ints, _call) or ""
    assert text.endswith("f(..., k=5)") and "f(..., k=11)" in text


def test_bounds_on_two_values_or_an_empty_range_give_nothing() -> None:
    two = [Atom("compare", "a", op="<", other="0", constant=0), Atom("compare", "b", op=">", other="1", constant=1)]
    assert range_example(two, _call) is None
    empty = [Atom("compare", "a", op="<", other="5", constant=5), Atom("compare", "a", op=">", other="1", constant=1)]
    assert range_example(empty, _call) is None
