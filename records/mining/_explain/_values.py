"""Example fixes that change values: a multiple of a divisor, a type converted, one field set from another.

Each builder gets the atom the error is raised on and a ``render`` function that turns ``name=value``
settings into code (an attribute assignment, or the call the user passes the argument to; None when
the settings cannot be shown together). The values are plain numbers or the record's own names: no
API is invented.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from records.mining._explain._conditions import Atom

Render = Callable[[list[tuple[str, str]]], str | None]
# A type check's converter, by the type's name as the guard spells it.
CONVERTERS = {
    "list": "list({})", "tuple": "tuple({})", "str": "str({})", "int": "int({})", "float": "float({})",
    "dict": "dict({})", "set": "set({})", "torch.Tensor": "torch.tensor({})",
    "np.ndarray": "np.asarray({})", "numpy.ndarray": "numpy.asarray({})", "Path": "Path({})",
}  # fmt: skip
_PLAIN = re.compile(r"[A-Za-z_][\w.]*")
# The divisor an example uses when the divisor is itself a setting (a head count, say).
_NAMED_DIVISOR = 12


def multiple_example(a: Atom, render: Render, settable: Callable[[str], bool]) -> str | None:
    """Return before/after values for ``x % y != 0``: ``x`` one past a multiple of ``y``, then a multiple."""
    divisor = _int(a.other)
    if divisor is None and not (_PLAIN.fullmatch(a.other) and settable(a.other)):
        return None
    size = divisor if divisor is not None else _NAMED_DIVISOR
    if size <= 1:
        return None
    multiple = size * 8
    divisor_setting = [] if divisor is not None else [(a.other, str(size))]
    before = render([(a.subject, str(multiple + size // 2)), *divisor_setting])
    after = render([(a.subject, str(multiple)), *divisor_setting])
    if before is None or after is None:
        return None
    return (
        f"# before: `{a.subject}` is not a multiple of `{a.other}`\n{before}\n\n"
        f"# after: {multiple} = {size} x 8\n{after}"
    )


def convert_example(a: Atom, render: Render) -> str | None:
    """Return the argument converted to the type a ``not isinstance(x, T)`` check wants, when ``T`` has a converter."""
    wanted = next((t for t in a.values if t in CONVERTERS), None)
    if wanted is None or not _PLAIN.fullmatch(a.subject) or "." in a.subject:
        return None
    before = render([(a.subject, a.subject)])
    after = render([(a.subject, CONVERTERS[wanted].format(a.subject))])
    if before is None or after is None:
        return None
    return f"# before\n{before}\n\n# after: `{a.subject}` converted to a `{wanted}`\n{after}"


_RELATION = {"==": "{}", "<=": "{}", ">=": "{}", "<": "{} - 1", ">": "{} + 1"}


# Two numbers that meet each relation, for two counts or sizes set in one call.
_NUMBERS = {"==": (8, 8), "<=": (4, 8), "<": (4, 8), ">=": (8, 4), ">": (8, 4)}
_COUNT = re.compile(
    r"(?:^|_)(?:num|max|min|size|len|length|count|dim|factor|group|steps|layers|heads|pixels|k)(?:_|$|s$)"
)


def relation_example(a: Atom, render: Render, *, fields: bool) -> str | None:
    """Return settings that make ``x op y`` hold for two settable values.

    ``fields``: both are attributes of objects the user holds, so ``x`` is set from ``y``; otherwise both
    are counts passed to one call, and two plain numbers that meet the relation are shown.
    """
    inverse = {"<": ">=", "<=": ">", ">": "<=", ">=": "<", "==": "!=", "!=": "=="}[a.op]
    if inverse not in _NUMBERS or not _PLAIN.fullmatch(a.other) or a.other == a.subject:
        return None
    if fields:
        after = render([(a.subject, _RELATION[inverse].format(a.other))])
    elif _COUNT.search(a.subject) and _COUNT.search(a.other):
        first, second = _NUMBERS[inverse]
        after = render([(a.subject, str(first)), (a.other, str(second))])
    else:
        return None
    return f"# after: `{a.subject}` {inverse} `{a.other}`\n{after}" if after else None


def _int(text: str) -> int | None:
    return int(text.strip("`")) if re.fullmatch(r"`?\d+`?", text) else None


_TOKEN_ID = re.compile(r"(?:(?:model\.)?(?:generation_)?config\.)(?P<token>(?:pad|eos|bos|sep|cls|unk|mask)_token_id)")


def token_id_example(a: Atom) -> str | None:
    """Return ``config.pad_token_id = tokenizer.pad_token_id`` for a config's special token id left unset."""
    match = _TOKEN_ID.fullmatch(a.subject)
    if match is None:
        return None
    return f"# after: the id of the tokenizer's own token\n{a.subject} = tokenizer.{match.group('token')}"


def range_example(parts: list[Atom], render: Render) -> str | None:
    """Return a value outside and one inside the bounds of ``x < lo or x > hi`` (raised when either holds)."""
    subjects = {a.subject for a in parts}
    numeric = all(isinstance(a.constant, int | float) and not isinstance(a.constant, bool) for a in parts)
    if len(subjects) != 1 or len(parts) != 2 or not numeric or any(a.kind != "compare" for a in parts):
        return None
    low = next((a for a in parts if a.op in {"<", "<="}), None)
    high = next((a for a in parts if a.op in {">", ">="}), None)
    if low is None or high is None:
        return None
    lo, hi = float(str(low.constant)), float(str(high.constant))
    # ``p < 0 or p > 1`` bounds a share or a probability: a value between them reads as a float
    integers = all(isinstance(a.constant, int) for a in parts) and hi - lo > 1
    if integers and hi - lo <= 100:
        candidates = [float(n) for n in range(int(lo), int(hi) + 1)]
    else:
        candidates = [float((lo + hi) // 2) if integers else (lo + hi) / 2]
    passing = [x for x in candidates if not any(_holds(a.op, x, float(str(a.constant))) for a in parts)]
    if hi <= lo or not passing:
        return None
    inside = passing[len(passing) // 2]
    name = parts[0].subject
    outside = hi + 1 if integers or hi <= 0 else hi * 2
    before, after = render([(name, _number(outside, integers))]), render([(name, _number(inside, integers))])
    if before is None or after is None:
        return None
    bounds = f"between {low.other} and {high.other}"
    return f"# before: `{name}` {high.op} {high.other}\n{before}\n\n# after: {bounds}\n{after}"


def _holds(op: str, value: float, bound: float) -> bool:
    return {"<": value < bound, "<=": value <= bound, ">": value > bound, ">=": value >= bound}[op]


def _number(value: float, integer: bool) -> str:
    return str(int(value)) if integer else repr(float(value))
