"""Steps for guards on values a function computes itself: say what they come from, or that they are internal.

When no typed step fits (the guard tests locals, ``self`` attributes, sizes computed from tensors),
:func:`traced_step` follows the guard's names back (:mod:`._trace`) to the arguments, constructor
arguments or config fields they are computed from and asks the user to check those, with the
condition the check needs. A guard whose names trace to nothing the user gives gets
:func:`internal_step`: a consistency check of the library's own values, to report when the inputs
are right.
"""

from __future__ import annotations

import ast

from records.mining._explain._conditions import Cond, negate, say
from records.mining._explain._facts import Guard, SiteFacts
from records.mining._explain._trace import Origin, reads

MAX_SHOWN = 3
MAX_ORIGINS = 6
_SYMBOL = {ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">="}
_INVERTED = {ast.Eq: "!=", ast.NotEq: "==", ast.Lt: ">=", ast.LtE: ">", ast.Gt: "<=", ast.GtE: "<"}
_GLOBAL_HINTS = frozenset({"torch", "np", "math", "os", "sys", "re", "logger", "warnings", "nn", "F"})


def guard_names(facts: SiteFacts) -> list[str]:
    """Return the names the innermost guard reads that the function or its class assigns, or takes as arguments."""
    tracer = facts.tracer
    if tracer is None or not facts.guards:
        return []
    names = sorted(reads(facts.guards[0].test))
    kept = [n for n in names if n in tracer.arguments or tracer.is_local(n) or n.startswith(("self.", "config."))]
    return [n for n in kept if n not in _GLOBAL_HINTS and not _is_method(n, facts)]


def _is_method(name: str, facts: SiteFacts) -> bool:
    """Tell whether ``self.x`` is a method of the class (a call, not a value)."""
    owner = facts.class_node
    if owner is None or not name.startswith("self."):
        return False
    attr = name.removeprefix("self.")
    return any(isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef) and s.name == attr for s in owner.body)


def required(v: Cond, guard: Guard) -> str:
    """Return, in words, what must hold for the check to pass (a single comparison as the source spells it)."""
    test = guard.test
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and type(test.ops[0]) in _INVERTED:
        left, right = ast.unparse(test.left), ast.unparse(test.comparators[0])
        op = (
            _INVERTED[type(test.ops[0])]
            if guard.holds
            else ast.unparse(ast.Compare(ast.Name("a"), test.ops, [ast.Name("b")]))[2:-2]
        )
        if len(left) + len(right) <= 140:
            return f"`{left}` {op} `{right}`"
    return say(negate(v))


def traced_step(facts: SiteFacts, v: Cond, names: list[str], where: dict[str, str]) -> str | None:
    """Return the step naming the arguments and config fields the guard's values are computed from.

    ``where`` gives the call a user passes an origin to, by kind (``call``, ``init``).
    """
    tracer = facts.tracer
    if tracer is None or not names:
        return None
    origins: dict[tuple[str, str], Origin] = {}
    computed = []
    for name in names:
        traced = tracer.origins(name)
        if not traced:
            continue
        if not (len(traced) == 1 and traced[0].name == name):
            computed.append(name)
        origins.update(((o.name, o.kind), o) for o in traced)
    if not origins or len(origins) > MAX_ORIGINS or not computed:
        return None  # nothing traced, or only the arguments themselves (the typed steps' business)
    passed: dict[str, list[str]] = {}  # the call -> the arguments of it (``__init__``'s own are the constructor's)
    for origin in origins.values():
        if origin.kind in where:
            passed.setdefault(where[origin.kind], []).append(f"`{origin.name}`")
    parts = [f"the {_join(list(dict.fromkeys(names)))} you pass to {call}" for call, names in passed.items()]
    fields = [f"`{o.name}`" for o in origins.values() if o.kind == "config"]
    if fields:
        parts.append(f"{_join(fields)} in the model's config")
    if not parts:
        return None
    them = "it" if len(origins) == 1 else "them"
    shown = _join([f"`{n}`" for n in computed[:MAX_SHOWN]])
    return (
        f"Check {' and '.join(parts)}: the check reads {shown}, computed from {them}, "
        f"and needs {required(v, facts.guards[0])}."
    )


def internal_step(facts: SiteFacts, names: list[str], where: str) -> str | None:
    """Return the step for a check on values that trace to nothing the user gives (an internal invariant).

    Only locals computed from the function's own values count (:meth:`Tracer.self_contained`): a
    ``self`` attribute, the machine's state or a flag set under a branch may well be the user's doing.
    """
    tracer = facts.tracer
    if tracer is None or not names:
        return None
    if any(n.startswith("self.") or n in tracer.arguments or tracer.origins(n) for n in names):
        return None  # a ``self`` attribute may be set by the user through another method
    if not all(tracer.self_contained(n) for n in names):
        return None
    shown = _join([f"`{n}`" for n in names[:MAX_SHOWN]])
    return (
        f"{shown} {'is' if len(names) == 1 else 'are'} computed by {where} itself, from nothing you pass directly: "
        "check that your inputs match what the message describes; if they do, report the error to transformers "
        "with the full traceback and the output of `transformers env`."
    )


def _join(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + f" and {items[-1]}"
