"""Tracing a guard's values back to arguments and config fields (records.mining._explain._trace)."""

from __future__ import annotations

import ast
import textwrap

import pytest

from records.mining._explain._trace import Origin, Tracer, reads


def _function(source: str) -> ast.FunctionDef:
    node = ast.parse(textwrap.dedent(source)).body[0]
    assert isinstance(node, ast.FunctionDef)
    return node


@pytest.mark.parametrize(
    ("expression", "expected"),
    [
        ("a + b", {"a", "b"}),
        ("self.config.hidden_size // self.heads", {"config.hidden_size", "self.heads"}),
        ("config.get_text_config().vocab_size", set()),  # a method's result: no field to name
        ("len(x) != y.shape[0]", {"len", "x", "y"}),
        ("self is None", set()),
    ],
)
def test_reads(expression: str, expected: set[str]) -> None:
    assert reads(ast.parse(expression, mode="eval").body) == expected


def test_tracer_follows_assignments_loops_and_unpacking() -> None:
    function = _function("""
        def f(images, text, *extra, **kwargs):
            n, m = len(images), 2
            for item in text:
                count = item.count("x")
            total = n + count
            other = compute()
            return total
    """)
    tracer = Tracer(function, None)
    assert set(tracer.origins("total")) == {Origin("images", "call"), Origin("text", "call")}
    assert tracer.origins("other") == ()
    assert tracer.origins("kwargs") == (Origin("kwargs", "call"),)
    assert tracer.origins("extra") == (Origin("extra", "call"),)


def test_tracer_reads_constructor_fields_and_init_assignments() -> None:
    init = _function("""
        def __init__(self, config, scale):
            self.width = config.hidden_size * 2
            self.scale = scale
    """)
    method = _function("""
        def forward(self, x):
            y = x * self.width + self.scale + self.field
            return y
    """)
    tracer = Tracer(method, init, frozenset({"field"}))
    assert set(tracer.origins("y")) == {
        Origin("x", "call"),
        Origin("config.hidden_size", "config"),
        Origin("scale", "init"),
        Origin("field", "init"),
    }


def test_self_contained_locals_and_the_ones_that_are_not() -> None:
    function = _function("""
        def f(query, items):
            total = 0
            for chunk in range(3):
                total += chunk
            valid = False
            if query:
                valid = True
            major, minor = torch.cuda.get_device_capability()
            width = self.width * 2
            count = len(items)
            return total
    """)
    tracer = Tracer(function, None)
    assert tracer.self_contained("total")
    assert not tracer.self_contained("valid")  # only constants: set by a branch on ``query``
    assert not tracer.self_contained("major")  # the machine's state
    assert not tracer.self_contained("width")  # a ``self`` attribute may be the user's
    assert not tracer.self_contained("count")  # an argument


def test_an_attribute_changed_in_the_function_and_set_in_init_is_not_traced() -> None:
    init = _function("""
        def __init__(self, config):
            self.mode = config.mode
    """)
    method = _function("""
        def forward(self, x):
            self.mode = 1
            return self.mode
    """)
    assert Tracer(method, init).origins("self.mode") == ()
