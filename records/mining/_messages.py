"""Turn the message expression of a ``raise`` into template parts.

Understood: string literals (implicit concatenation is already one literal in the AST), f-strings,
``+`` concatenation, ``%`` formatting, ``str.format`` (positional and keyword fields), names the caller
can resolve (a variable assigned just before the raise, a module constant), and ``textwrap.dedent`` /
``inspect.cleandoc`` / ``.strip()`` applied to those. Anything else becomes one placeholder holding
its source text, so the result is always a template; whether it has literal text decides if a record
is worth emitting.

**Literal-style message** (the coverage denominator, see :func:`is_literal_message`): a string
literal, an f-string with a literal part, a ``+`` concatenation with at least one literal side, a
``%`` or ``.format`` applied to a string literal; in each case with some non-blank literal text.
"""

from __future__ import annotations

import ast
import inspect
import re
import string
import textwrap
from collections.abc import Callable

from records.mining._template import Part, Placeholder, has_literal_text, is_pure_literal, normalise, walk_code

NameResolver = Callable[[ast.Name], list[Part] | None]

MAX_EXPR_CHARS = 200

_PERCENT_SPEC = re.compile(
    r"%(?:\((?P<key>[^)]*)\))?[#0\- +]*(?P<width>\*|\d+)?(?:\.(?P<prec>\*|\d+))?[hlL]?"
    r"(?P<conv>[diouxXeEfFgGcrsa%])"
)
_TEXT_FUNCTIONS: dict[str, Callable[[str], str]] = {
    "dedent": textwrap.dedent,
    "cleandoc": inspect.cleandoc,
    "strip": str.strip,
    "lstrip": str.lstrip,
    "rstrip": str.rstrip,
}
# Placeholders are carried through text functions as private-use markers around their index.
_MARK_OPEN, _MARK_CLOSE = "\ue000", "\ue001"
_MARKED = re.compile(f"{_MARK_OPEN}(\\d+){_MARK_CLOSE}")
_OPENERS = {"(": ")", "[": "]", "{": "}"}


def unparse(node: ast.AST) -> str:
    """Return the source text of an expression, shortened to a readable length.

    A shortened text is cut before any string or bracket the cut would leave open: the text becomes a
    template's ``{placeholder}``, whose end is found by skipping strings and brackets, so an open quote
    would swallow the closing brace (diffusers raised such a message: the file failed to mine).
    """
    text = ast.unparse(node)
    if len(text) <= MAX_EXPR_CHARS:
        return text
    cut = text[: MAX_EXPR_CHARS - 3]
    return cut[: _first_unclosed(cut)].rstrip() + "..."


def _first_unclosed(text: str) -> int:
    """Return where the outermost string or bracket left open at the end of ``text`` starts (its length if none)."""
    opened: list[tuple[str, int]] = []  # (closing character, where it opened)
    quote, quote_at = "", 0
    for index, char, quote, was in walk_code(text):
        if quote and not was:
            quote_at = index  # a string opens here
        elif not quote and not was:
            if char in _OPENERS:
                opened.append((_OPENERS[char], index))
            elif opened and char == opened[-1][0]:
                opened.pop()
    starts = [at for _, at in opened] + ([quote_at] if quote else [])
    return min(starts, default=len(text))


def message_parts(node: ast.expr, resolve: NameResolver) -> list[Part]:
    """Return the template parts of a message expression (never fails: unknowns are placeholders)."""
    parts: list[Part] | None = None
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        parts = [node.value]
    elif isinstance(node, ast.JoinedStr):
        parts = _fstring_parts(node)
    elif isinstance(node, ast.BinOp):
        parts = _binop_parts(node, resolve)
    elif isinstance(node, ast.Call):
        parts = _call_parts(node, resolve)
    elif isinstance(node, ast.Name):
        parts = resolve(node)
    return normalise(parts) if parts is not None else [Placeholder(unparse(node))]


def is_literal_message(node: ast.expr) -> bool:
    """Tell whether a message expression is literal-style (what a reader calls a literal message)."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str) and bool(node.value.strip())
    if isinstance(node, ast.JoinedStr):
        return any(isinstance(v, ast.Constant) and str(v.value).strip() for v in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return is_literal_message(node.left) or is_literal_message(node.right)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        return is_literal_message(node.left) and not isinstance(node.left, ast.BinOp)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format":
        return isinstance(node.func.value, ast.Constant) and is_literal_message(node.func.value)
    return False


def _fstring_parts(node: ast.JoinedStr) -> list[Part]:
    parts: list[Part] = []
    for value in node.values:
        if isinstance(value, ast.Constant):
            parts.append(str(value.value))
        elif isinstance(value, ast.FormattedValue):  # the format spec and conversion are left out
            parts.append(Placeholder(unparse(value.value)))
    return parts


def _binop_parts(node: ast.BinOp, resolve: NameResolver) -> list[Part] | None:
    if isinstance(node.op, ast.Add):
        left, right = message_parts(node.left, resolve), message_parts(node.right, resolve)
        # Two non-text operands are a sum, not a concatenation: keep the expression whole.
        text_sides = [side for side in (left, right) if any(isinstance(p, str) for p in side)]
        return left + right if text_sides else None
    if isinstance(node.op, ast.Mod):
        left = message_parts(node.left, resolve)
        if left and is_pure_literal(left):
            return _percent_parts("".join(str(p) for p in left), node.right)
    return None


def _percent_parts(text: str, right: ast.expr) -> list[Part] | None:
    """Apply ``%`` formatting: each conversion becomes a placeholder holding its argument."""
    args = list(right.elts) if isinstance(right, ast.Tuple) else [right]
    if any(isinstance(arg, ast.Starred) for arg in args):
        return None
    parts: list[Part] = []
    position = 0
    used = 0
    for spec in _PERCENT_SPEC.finditer(text):
        if "%" in text[position : spec.start()]:
            return None  # a lone % that is not a conversion: not a format string we understand
        parts.append(text[position : spec.start()])
        position = spec.end()
        if spec["conv"] == "%":
            parts.append("%")
            continue
        used += (spec["width"] == "*") + (spec["prec"] == "*")  # star widths consume an argument
        value = _percent_value(spec["key"], right, args, used)
        if value is None:
            return None
        parts.append(value)
        used += spec["key"] is None
    if "%" in text[position:]:
        return None
    return [*parts, text[position:]]


def _percent_value(key: str | None, right: ast.expr, args: list[ast.expr], used: int) -> Part | None:
    if key is None:
        return Placeholder(unparse(args[used])) if used < len(args) else None
    if isinstance(right, ast.Dict):
        for dict_key, dict_value in zip(right.keys, right.values, strict=True):
            if isinstance(dict_key, ast.Constant) and dict_key.value == key:
                return Placeholder(unparse(dict_value))
    return Placeholder(f"{unparse(right)}[{key!r}]")


def _call_parts(node: ast.Call, resolve: NameResolver) -> list[Part] | None:
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    if name == "format" and isinstance(func, ast.Attribute):
        base = message_parts(func.value, resolve)
        if base and is_pure_literal(base):
            return _format_parts("".join(str(p) for p in base), node)
        return None
    if name in _TEXT_FUNCTIONS and _is_text_call(node):
        subject = func.value if name.endswith("strip") and isinstance(func, ast.Attribute) else node.args[0]
        inner = message_parts(subject, resolve)
        return _apply_text_function(_TEXT_FUNCTIONS[name], inner) if has_literal_text(inner) else None
    return None


def _is_text_call(node: ast.Call) -> bool:
    """Tell whether a dedent/cleandoc/strip call has the one shape handled (no extra arguments)."""
    name = node.func.attr if isinstance(node.func, ast.Attribute) else ""
    if name.endswith("strip"):
        return not node.args and not node.keywords
    return len(node.args) == 1 and not node.keywords and not isinstance(node.args[0], ast.Starred)


def _apply_text_function(function: Callable[[str], str], parts: list[Part]) -> list[Part]:
    """Apply a text function to a template, keeping its placeholders in place."""
    placeholders = [p for p in parts if isinstance(p, Placeholder)]
    numbers = iter(range(len(placeholders)))
    marked = "".join(p if isinstance(p, str) else f"{_MARK_OPEN}{next(numbers)}{_MARK_CLOSE}" for p in parts)
    pieces = _MARKED.split(function(marked))
    return [piece if i % 2 == 0 else placeholders[int(piece)] for i, piece in enumerate(pieces)]


def _format_parts(text: str, call: ast.Call) -> list[Part] | None:
    """Apply ``str.format``: each field becomes a placeholder holding its argument expression."""
    try:
        fields = list(string.Formatter().parse(text))
    except ValueError:
        return None
    parts: list[Part] = []
    auto = 0
    for literal, field, _spec, _conversion in fields:
        parts.append(literal)
        if field is None:
            continue
        first, rest = _split_field(field)
        if first == "":
            first, auto = str(auto), auto + 1
        parts.append(Placeholder(_format_argument(call, first, rest)))
    return parts


def _split_field(field: str) -> tuple[str, str]:
    """Split a format field into its argument name and the attribute/index access after it."""
    cut = min((i for i in (field.find("."), field.find("[")) if i >= 0), default=len(field))
    return field[:cut], field[cut:]


def _format_argument(call: ast.Call, first: str, rest: str) -> str:
    """Return the expression a ``str.format`` field refers to (its name when it cannot be told)."""
    value: ast.expr | None = None
    if first.isdigit():
        index = int(first)
        positional = call.args[index] if index < len(call.args) else None
        value = None if isinstance(positional, ast.Starred) else positional
    else:
        value = next((kw.value for kw in call.keywords if kw.arg == first), None)
    if value is None:
        return first + rest
    text = unparse(value)
    simple = isinstance(value, ast.Name | ast.Attribute | ast.Subscript | ast.Call)
    return text + rest if simple or not rest else f"({text}){rest}"
