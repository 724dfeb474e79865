"""Steps for guards on computed values (records.mining._explain._internal)."""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

import pytest

from records.mining import mine_tree
from records.mining._explain._conditions import Atom
from records.mining._explain._facts import Guard
from records.mining._explain._internal import required
from records.model import Record

MODULE = """
class Processor:
    def __init__(self, tokenizer, **kwargs):
        self.image_token = tokenizer.image_token
        self.size = kwargs.get("size")

    def __call__(self, text, images=None, **kwargs):
        n_text = sum(t.count(self.image_token) for t in text)
        n_images = len(images)
        if n_text != n_images:
            raise ValueError("The number of image tokens does not match the number of images.")
"""


@pytest.mark.parametrize(
    ("test", "holds", "expected"),
    [
        ("a.size() != (b, c)", True, "`a.size()` == `(b, c)`"),
        ("n > limit", True, "`n` <= `limit`"),
        ("n > limit", False, "`n` > `limit`"),  # in an ``else``: the test itself must hold
    ],
)
def test_required_says_a_single_comparison_as_the_source_spells_it(test: str, holds: bool, expected: str) -> None:
    node = ast.parse(test, mode="eval").body
    assert required(Atom("code", test, node=node), Guard(node, holds)) == expected


def test_required_falls_back_to_the_condition_in_words() -> None:
    node = ast.parse("any(x)", mode="eval").body
    assert required(Atom("code", "any(x)", node=node), Guard(node, True)) == "`any(x)` is false"


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> list[Record]:
    """Records mined from the module above."""
    root: Path = tmp_path_factory.mktemp("internal")
    (root / "pkg").mkdir()
    (root / "pkg" / "processing.py").write_text(textwrap.dedent(MODULE))
    return mine_tree(root, repo="acme/pkg", ref="v1.0", library_version="1.0", workers=1).records


def _steps(records: list[Record], start: str) -> list[str]:
    return next(r.solutions for r in records if r.error_message.startswith(start))


def test_the_traced_step_groups_the_arguments_by_the_call_that_takes_them(records: list[Record]) -> None:
    assert _steps(records, "The number of image tokens") == [
        "Check the `images` and `text` you pass to `Processor.__call__()` and the `tokenizer` you pass to "
        "`Processor(...)`: the check reads `n_images` and `n_text`, computed from them, and needs `n_text` == "
        "`n_images`."
    ]
