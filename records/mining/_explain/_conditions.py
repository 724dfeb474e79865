"""Read the guard of a ``raise`` as a small logic tree of typed facts, and say it in words.

A guard is read into :class:`Atom` leaves (``x is None``, ``x not in (...)``, ``x <= 0``,
``isinstance``, ``is_x_available()``, version checks, ...) joined by :class:`All` / :class:`Any`.
Negation is pushed down to the leaves, so the tree always says *when the error is raised*. A guard
that calls something with side effects (``kwargs.pop(...)``, ``open(...)``) cannot be read: it gives
None, and no text is generated from it.
"""

from __future__ import annotations

import ast
import copy
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace

MAX_CODE_CHARS = 90
MAX_VALUES = 12
# Calls that change state or do I/O: a guard calling them cannot be said as a plain condition.
_SIDE_EFFECTS = frozenset({
    "pop", "popitem", "append", "extend", "update", "remove", "insert", "clear", "add", "discard",
    "setdefault", "read", "readline", "write", "open", "load", "loads", "download", "send", "run",
    "next", "exec", "eval", "register", "set", "put", "sort", "reverse", "hf_hub_download", "urlopen",
    "cached_file", "mkdir", "unlink",
})  # fmt: skip
_INVERSE = {"<": ">=", "<=": ">", ">": "<=", ">=": "<", "==": "!=", "!=": "==", "is": "is not", "is not": "is"}
_OPS = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!="}
_FLAG_PREFIXES = (
    "is_", "use_", "do_", "return_", "trust_", "enable", "has_", "allow", "output_", "add_", "skip_",
    "load_in_", "apply_", "with_", "keep_", "strict", "only_", "should_", "can_", "supports_", "disable",
    "_is_", "_supports_", "requires_", "ignore_", "force_", "include_", "tie_", "normalize", "remove_",
)  # fmt: skip
_AVAILABLE = re.compile(r"^is_(\w+?)_available$")
_AT_LEAST = re.compile(r"^is_(\w+?)_greater(?:_or_equal)?(?:_than)?$")  # is_quanto_greater is >= too
_AT_MOST = re.compile(r"^is_(\w+?)_less_or_equal(?:_than)?$")
_VERSION_CALL = re.compile(r"^is_(\w+?)_version$")
Namer = Callable[[ast.expr], str]


@dataclass(frozen=True)
class Atom:
    """One fact of a guard, true when the error is raised.

    ``kind`` is one of: ``none`` (``subject is None``; ``negated``: it is set), ``truthy``
    (``subject`` is true; ``negated``: false or empty), ``member`` (``subject in values``;
    ``negated``: not in them), ``compare`` (``subject op other``), ``instance`` (``isinstance``),
    ``hasattr``, ``available`` (package ``subject`` installed, ``version`` the minimum), ``version``
    (installed ``subject`` version ``op`` ``version``), ``code`` (any other side-effect-free test).
    """

    kind: str
    subject: str
    negated: bool = False
    op: str = ""
    other: str = ""
    constant: object = None
    values: tuple[str, ...] = ()
    version: str = ""
    node: ast.expr | None = field(default=None, compare=False, repr=False)

    def invert(self) -> Atom:
        """Return the atom that is true exactly when this one is false."""
        if self.kind in {"compare", "version"}:
            return replace(self, op=_INVERSE[self.op])
        return replace(self, negated=not self.negated)


@dataclass(frozen=True)
class All:
    """Every part holds."""

    parts: tuple[Cond, ...]


@dataclass(frozen=True)
class Any:
    """At least one part holds."""

    parts: tuple[Cond, ...]


Cond = Atom | All | Any


def negate(cond: Cond) -> Cond:
    """Return the condition that holds exactly when ``cond`` does not (De Morgan down to atoms)."""
    if isinstance(cond, Atom):
        return cond.invert()
    parts = tuple(negate(p) for p in cond.parts)
    return Any(parts) if isinstance(cond, All) else All(parts)


def atoms(cond: Cond) -> Iterator[Atom]:
    """Yield the atoms of a condition, left to right."""
    if isinstance(cond, Atom):
        yield cond
    else:
        for part in cond.parts:
            yield from atoms(part)


def read_condition(test: ast.expr, name: Namer, constants: Callable[[str], tuple[str, ...] | None]) -> Cond | None:
    """Return the condition a test expresses, or None when it has side effects."""
    if _has_side_effects(test):
        return None
    if any(isinstance(n, ast.Call) and _func_name(n.func) == "getattr" for n in ast.walk(test)):
        test = _Getattr().visit(copy.deepcopy(test))
    return _Reader(name, constants).read(test)


class _Getattr(ast.NodeTransformer):
    """Read ``getattr(x, "name", default)`` as ``x.name`` (the default is what an unset field reads as)."""

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        args = node.args
        named = len(args) in {2, 3} and isinstance(args[1], ast.Constant) and isinstance(args[1].value, str)
        default = args[2] if len(args) == 3 else None
        plain = default is None or (isinstance(default, ast.Constant) and default.value in {None, False})
        if _func_name(node.func) == "getattr" and named and plain and _is_subject(args[0]):
            attr = str(args[1].value) if isinstance(args[1], ast.Constant) else ""
            if attr.isidentifier():
                return ast.Attribute(value=args[0], attr=attr, ctx=ast.Load())
        return node


class _Reader:
    def __init__(self, name: Namer, constants: Callable[[str], tuple[str, ...] | None]) -> None:
        self.name = name
        self.constants = constants

    def read(self, node: ast.expr) -> Cond:
        readers = (self._boolean, self._compare_node, self._call, self._exactly_one, self._subject, self._modulo)
        for reader in readers:
            found = reader(node)
            if found is not None:
                return found
        return _code(node)

    def _boolean(self, node: ast.expr) -> Cond | None:
        if isinstance(node, ast.BoolOp):
            parts = tuple(self.read(v) for v in node.values)
            return All(parts) if isinstance(node.op, ast.And) else Any(parts)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            return negate(self.read(node.operand))
        return None

    def _subject(self, node: ast.expr) -> Atom | None:
        return Atom("truthy", self.name(node), node=node) if _is_subject(node) else None

    def _modulo(self, node: ast.expr) -> Atom | None:
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod) and _is_operand(node):
            return Atom("multiple", self._operand(node.left), negated=True, other=self._operand(node.right), node=node)
        return None

    def _compare_node(self, node: ast.expr) -> Atom | None:
        if not (isinstance(node, ast.Compare) and len(node.ops) == 1):
            return None
        left, op, right = node.left, node.ops[0], node.comparators[0]
        readers = (self._none, self._member, self._contains, _version_compare, self._multiple, self._ordered)
        for reader in readers:
            found = reader(left, op, right)
            if found is not None:
                return found
        return _code(node)

    def _none(self, left: ast.expr, op: ast.cmpop, right: ast.expr) -> Atom | None:
        package = _found_spec(left)
        if isinstance(op, ast.Is | ast.IsNot) and _is_none(right) and package:
            return Atom("available", package, negated=isinstance(op, ast.Is), node=left)
        if isinstance(op, ast.Is | ast.IsNot) and _is_none(right) and _is_subject(left):
            return Atom("none", self.name(left), negated=isinstance(op, ast.IsNot), node=left)
        return None

    def _member(self, left: ast.expr, op: ast.cmpop, right: ast.expr) -> Atom | None:
        if not (isinstance(op, ast.In | ast.NotIn) and _is_subject(left)):
            return None
        negated = isinstance(op, ast.NotIn)
        values = self._values(right)
        if values is not None:
            return Atom("member", self.name(left), negated=negated, values=values, node=left)
        if _is_subject(right):
            return Atom("member", self.name(left), negated=negated, other=self.name(right), node=left)
        return None

    def _contains(self, left: ast.expr, op: ast.cmpop, right: ast.expr) -> Atom | None:
        if isinstance(op, ast.In | ast.NotIn) and isinstance(left, ast.Constant) and _is_operand(right):
            negated = isinstance(op, ast.NotIn)
            return Atom("contains", self._operand(right), negated=negated, other=repr(left.value), node=right)
        return None

    def _multiple(self, left: ast.expr, op: ast.cmpop, right: ast.expr) -> Atom | None:
        if (
            isinstance(left, ast.BinOp) and isinstance(left.op, ast.Mod) and isinstance(op, ast.NotEq | ast.Eq)
            and isinstance(right, ast.Constant) and right.value == 0 and _is_operand(left)
        ):  # fmt: skip
            divisor = self._operand(left.right)
            negated = isinstance(op, ast.NotEq)
            return Atom("multiple", self._operand(left.left), negated=negated, other=divisor, node=left.left)
        return None

    def _ordered(self, left: ast.expr, op: ast.cmpop, right: ast.expr) -> Atom | None:
        if type(op) in _OPS and _is_operand(left) and _is_operand(right):
            constant = right.value if isinstance(right, ast.Constant) else _enum_member(right)
            other = repr(constant) if isinstance(right, ast.Constant) else str(constant or self._operand(right))
            return Atom("compare", self._operand(left), op=_OPS[type(op)], other=other, constant=constant, node=left)
        return None

    def _exactly_one(self, node: ast.expr) -> Cond | None:
        """Read ``(a is None) ^ (b is not None)``: true when both or neither of ``a`` and ``b`` are given."""
        if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitXor)):
            return None
        sides = [self.read(node.left), self.read(node.right)]
        if not all(isinstance(s, Atom) and s.kind == "none" for s in sides):
            return None
        first, second = (s for s in sides if isinstance(s, Atom))
        if first.negated == second.negated:
            return None  # ``(a is None) ^ (b is None)``: exactly one is given; not the usual shape
        return Atom("exactly_one", first.subject, other=second.subject, node=node)

    def _operand(self, node: ast.expr) -> str:
        return self.name(node) if _is_subject(node) else _short(ast.unparse(node))

    def _values(self, node: ast.expr) -> tuple[str, ...] | None:
        if isinstance(node, ast.List | ast.Tuple | ast.Set) and node.elts:
            values = [_literal(e) for e in node.elts]
            if all(v is not None for v in values) and len(node.elts) <= MAX_VALUES:
                return tuple(v for v in values if v is not None)
            return None
        if isinstance(node, ast.Dict) and node.keys and all(isinstance(k, ast.Constant) for k in node.keys):
            keys = [k.value for k in node.keys if isinstance(k, ast.Constant)]
            return tuple(repr(k) for k in keys) if len(keys) <= MAX_VALUES else None
        if isinstance(node, ast.Name):
            return self.constants(node.id)
        return None

    def _call(self, node: ast.expr) -> Atom | None:
        if not isinstance(node, ast.Call):
            return None
        for reader in (self._isinstance, self._hasattr, _available, _at_least, _version_call):
            found = reader(node)
            if found is not None:
                return found
        return _code(node)

    def _isinstance(self, node: ast.Call) -> Atom | None:
        args = node.args
        if _func_name(node.func) == "isinstance" and len(args) == 2 and _is_subject(args[0]):
            types = args[1].elts if isinstance(args[1], ast.Tuple) else [args[1]]
            names = tuple(_short(ast.unparse(t)) for t in types)
            return Atom("instance", self.name(args[0]), values=names, node=args[0])
        return None

    def _hasattr(self, node: ast.Call) -> Atom | None:
        args = node.args
        named = len(args) == 2 and isinstance(args[1], ast.Constant) and _is_subject(args[0])
        if _func_name(node.func) == "hasattr" and named and isinstance(args[1], ast.Constant):
            return Atom("hasattr", self.name(args[0]), other=str(args[1].value), node=args[0])
        return None


def _literal(node: ast.expr) -> str | None:
    """Return the repr of a constant or a negative number, None for anything else."""
    if isinstance(node, ast.Constant):
        return repr(node.value)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant):
        value = node.operand.value
        return repr(-value) if isinstance(value, int | float) and not isinstance(value, bool) else None
    return None


def _available(node: ast.Call) -> Atom | None:
    match = _AVAILABLE.match(_func_name(node.func))
    if match is None or _is_method_on_self(node.func):
        return None
    return Atom("available", match.group(1), version=_first_string(node) or "", node=node)


def _found_spec(node: ast.expr) -> str | None:
    """Return the package ``importlib.util.find_spec("pkg")`` looks for, if the node is that call."""
    if isinstance(node, ast.Call) and _func_name(node.func) == "find_spec" and len(node.args) == 1:
        first = node.args[0]
        if isinstance(first, ast.Constant) and isinstance(first.value, str) and "." not in first.value:
            return first.value
    return None


def _at_least(node: ast.Call) -> Atom | None:
    name = _func_name(node.func)
    match, op = _AT_LEAST.match(name), ">="
    if match is None:
        match, op = _AT_MOST.match(name), "<="
    first = node.args[0] if node.args else None
    if match and isinstance(first, ast.Constant) and isinstance(first.value, str):
        return Atom("version", match.group(1), op=op, version=first.value, node=node)
    return None


def _version_call(node: ast.Call) -> Atom | None:
    match = _VERSION_CALL.match(_func_name(node.func))
    values = [a.value for a in node.args if isinstance(a, ast.Constant)]
    if match and len(node.args) == 2 and len(values) == 2 and values[0] in _INVERSE and isinstance(values[1], str):
        return Atom("version", match.group(1), op=str(values[0]), version=values[1], node=node)
    return None


class EnumMember(str):
    """A constant named ``Enum.MEMBER`` (shown as its dotted name)."""


def _enum_member(node: ast.expr) -> EnumMember | None:
    text = ast.unparse(node)
    return EnumMember(text) if re.fullmatch(r"[A-Z]\w*\.[A-Z][A-Z0-9_]*", text) else None


def _code(node: ast.expr) -> Atom:
    return Atom("code", _short(ast.unparse(node)), node=node)


def _short(text: str) -> str:
    return text if len(text) <= MAX_CODE_CHARS else text[: MAX_CODE_CHARS - 3] + "..."


def _has_side_effects(node: ast.expr) -> bool:
    for inner in ast.walk(node):
        if isinstance(inner, ast.NamedExpr | ast.Await | ast.Yield | ast.YieldFrom | ast.Lambda):
            return True
        if isinstance(inner, ast.Call) and _func_name(inner.func) in _SIDE_EFFECTS:
            return True
    return False


def _func_name(func: ast.expr) -> str:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


def _is_method_on_self(func: ast.expr) -> bool:
    return isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "self"


def _first_string(node: ast.Call) -> str | None:
    for arg in [*node.args, *(k.value for k in node.keywords)]:
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            return arg.value
    return None


def _is_none(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value is None


def _is_subject(node: ast.expr) -> bool:
    """Tell whether a node is a plain name or a chain of attributes on one (``self.config.x``)."""
    while isinstance(node, ast.Attribute):
        node = node.value
    return isinstance(node, ast.Name)


def _is_operand(node: ast.expr) -> bool:
    """Tell whether a node reads as a value: a name, a constant, ``len(x)``, ``x.shape[0]``, ``a % b``..."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, int | float | str) and not isinstance(node.value, bool)
    if isinstance(node, ast.Subscript):
        return _is_operand(node.value)
    if isinstance(node, ast.Call):
        return (len(node.args) <= 2 and not node.keywords and _is_operand(node.func)) or (
            _func_name(node.func) in {"len", "int", "float", "sum", "max", "min", "abs", "type"}
            and all(_is_operand(a) for a in node.args))  # fmt: skip
    if isinstance(node, ast.BinOp):
        return _is_operand(node.left) and _is_operand(node.right)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return _is_operand(node.operand)
    return _is_subject(node)


def _version_compare(left: ast.expr, op: ast.cmpop, right: ast.expr) -> Atom | None:
    """Read ``version.parse(<installed pkg>) < version.parse("1.2")`` (either side) as a version atom."""
    if type(op) not in _OPS:
        return None
    installed, required = _installed_package(left), _version_literal(right)
    symbol = _OPS[type(op)]
    if installed is None or required is None:
        installed, required = _installed_package(right), _version_literal(left)
        symbol = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}[symbol]
    ok = installed is not None and required is not None
    return Atom("version", installed or "", op=symbol, version=required or "", node=left) if ok else None


def _installed_package(node: ast.expr) -> str | None:
    """Return the package whose installed version an expression reads, if it plainly does."""
    if isinstance(node, ast.Call) and _func_name(node.func) == "parse" and node.args:
        node = node.args[0]
    if isinstance(node, ast.Attribute) and node.attr in {"base_version", "release"}:
        node = node.value
        if isinstance(node, ast.Call) and _func_name(node.func) == "parse" and node.args:
            node = node.args[0]
    if isinstance(node, ast.Call) and _func_name(node.func) == "version" and node.args:
        first = node.args[0]
        return first.value if isinstance(first, ast.Constant) and isinstance(first.value, str) else None
    if isinstance(node, ast.Attribute) and node.attr == "__version__" and isinstance(node.value, ast.Name):
        return node.value.id
    return None


def _version_literal(node: ast.expr) -> str | None:
    if isinstance(node, ast.Call) and _func_name(node.func) == "parse" and node.args:
        node = node.args[0]
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and re.fullmatch(r"\d+(\.\d+)*\w*", node.value):
        return node.value
    return None


def is_flag(subject: str) -> bool:
    """Tell whether a name reads as an on/off switch (``use_cache``, ``trust_remote_code``)."""
    last = subject.rsplit(".", 1)[-1]
    return last.startswith(_FLAG_PREFIXES) or last.endswith(("_enabled", "_only", "_mode"))


def say(cond: Cond, top: bool = True) -> str:
    """Return a condition in words, identifiers in backticks."""
    if isinstance(cond, Atom):
        return say_atom(cond)
    joiner = " and " if isinstance(cond, All) else " or "
    text = joiner.join(say(p, top=False) for p in cond.parts)
    return text if top else f"({text})"


def variant(atom: Atom) -> str:
    """Return the shape of an atom, the key of the sentence tables (``none+``, ``flag-``, ``compare_const``...)."""
    if atom.kind == "compare":
        if atom.constant is None:
            return "compare_var"
        return {"!=": "compare_ne_const", "==": "compare_eq_const"}.get(atom.op, "compare_const")
    if atom.kind == "version":
        return "version"
    base = atom.kind
    if atom.kind == "truthy" and is_flag(atom.subject):
        base = "flag"
    elif atom.kind == "member" and not atom.values:
        base = "member_ref"
    return base + ("-" if atom.negated else "+")


def atom_fields(atom: Atom) -> dict[str, str]:
    """Return the values the sentence templates of an atom are filled with."""
    inverse = _INVERSE.get(atom.op, "")
    quoted = [f"`{v}`" for v in atom.values]
    return {
        "s": f"`{atom.subject}`",
        "subject": atom.subject,
        "last": atom.subject.rsplit(".", 1)[-1],
        "other": atom.other if atom.other.startswith("`") else f"`{atom.other}`",
        "values": ", ".join(quoted),
        "values_or": " or ".join(quoted),
        "types": " or ".join(quoted),
        "op": atom.op,
        "inverse": inverse,
        "version": atom.version,
        "minimum": f" (version {atom.version} or newer)" if atom.version else "",
        "vwords": _VERSION_WORDS.get(atom.op, ""),
        "inverse_vwords": _VERSION_WORDS.get(inverse, ""),
    }


_SAY = {
    "none+": "{s} is None", "none-": "{s} is set",
    "flag+": "{s} is True", "flag-": "{s} is False",
    "truthy+": "{s} is set (not empty)", "truthy-": "{s} is empty or None",
    "member+": "{s} is one of {values}", "member-": "{s} is not one of {values}",
    "member_ref+": "{s} is in {other}", "member_ref-": "{s} is not in {other}",
    "compare_var": "{s} {op} {other}", "compare_const": "{s} {op} {other}",
    "compare_ne_const": "{s} != {other}", "compare_eq_const": "{s} == {other}",
    "instance+": "{s} is a {types}", "instance-": "{s} is not a {types}",
    "contains+": "{s} contains {other}", "contains-": "{s} does not contain {other}",
    "multiple+": "{s} is a multiple of {other}", "multiple-": "{s} is not a multiple of {other}",
    "exactly_one+": "both or neither of {s} and {other} are given",
    "exactly_one-": "exactly one of {s} and {other} is given",
    "hasattr+": "{s} has an attribute {other}", "hasattr-": "{s} has no attribute {other}",
    "available+": "{s} is installed", "available-": "{s}{minimum} is not installed",
    "version": "the installed {s} version is {vwords} {version}",
    "code+": "{s} is true", "code-": "{s} is false",
}  # fmt: skip


def say_atom(atom: Atom) -> str:
    """Return one atom in words."""
    return _SAY[variant(atom)].format(**atom_fields(atom))


_VERSION_WORDS = {
    "<": "older than", "<=": "at most", ">": "newer than", ">=": "at least", "==": "exactly", "!=": "not",
}  # fmt: skip
