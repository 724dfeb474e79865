"""Trace the values a guard reads back to what the user gives: call arguments, constructor arguments, config fields.

Many guards test values a function computes itself (``attn_weights = query @ key``; ``self.head_dim =
config.hidden_size // config.num_attention_heads``). The user cannot set those, but sets what they are
computed from. :func:`origins` follows plain assignments inside the function (and, for ``self.x``,
inside the class's ``__init__``) back to the function's arguments, the constructor's arguments and
``config.<field>`` reads. Only assignments are followed: a value returned by a call on no argument has
no origin, and then nothing is claimed about it.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from functools import cached_property

MAX_DEPTH = 6
_CONFIG_READ = re.compile(r"^(?:self\.)?config\.(\w+)(?![\w(])")
_SKIPPED = frozenset({"self", "cls", "True", "False", "None"})
# Modules whose values describe the machine or the installation, not the library's own computation.
_ENVIRONMENT = frozenset({"torch", "os", "sys", "platform", "importlib", "version", "subprocess", "shutil", "psutil"})
Function = ast.FunctionDef | ast.AsyncFunctionDef


@dataclass(frozen=True)
class Origin:
    """A value the user gives: ``kind`` is ``call`` (an argument), ``init`` (a constructor argument) or ``config``."""

    name: str
    kind: str


def reads(expr: ast.AST) -> set[str]:
    """Return the names an expression reads: plain names, ``self.<attr>`` and ``config.<field>``."""
    found: set[str] = set()
    inside_chain: set[int] = set()
    methods = {id(n.func) for n in ast.walk(expr) if isinstance(n, ast.Call)}  # ``config.get_text_config()``
    for node in ast.walk(expr):
        if isinstance(node, ast.Attribute) and id(node) not in inside_chain:
            text = ast.unparse(node)
            config = _CONFIG_READ.match(text)
            if config and id(node) in methods:
                inside_chain.update(id(inner) for inner in ast.walk(node))  # a method: no field to name
            elif config:
                found.add(f"config.{config.group(1)}")
                inside_chain.update(id(inner) for inner in ast.walk(node))
            elif isinstance(node.value, ast.Name) and node.value.id == "self":
                found.add(f"self.{node.attr}")
                inside_chain.update(id(inner) for inner in ast.walk(node))
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and id(node) not in inside_chain:
            found.add(node.id)
    return found - _SKIPPED


def assignments(function: Function) -> dict[str, set[str]]:
    """Map each local of a function to the names read by the statements that assign it."""
    return {name: set().union(*each) for name, each in assignments_each(function).items()}


def assignments_each(function: Function) -> dict[str, list[set[str]]]:
    """Map each local of a function to the names each statement assigning it reads (one set per statement)."""
    found: dict[str, list[set[str]]] = {}
    for node in ast.walk(function):
        pairs: list[tuple[ast.AST, ast.AST]] = []
        if isinstance(node, ast.Assign):
            pairs = [(target, node.value) for target in node.targets]
        elif isinstance(node, ast.AnnAssign | ast.AugAssign) and node.value is not None:
            pairs = [(node.target, node.value)]
        elif isinstance(node, ast.For | ast.AsyncFor | ast.comprehension):
            pairs = [(node.target, node.iter)]
        elif isinstance(node, ast.withitem) and node.optional_vars is not None:
            pairs = [(node.optional_vars, node.context_expr)]
        for target, value in pairs:
            read = reads(value)
            for name in _stored(target):
                found.setdefault(name, []).append(read)
    return found


def _stored(target: ast.AST) -> list[str]:
    """Return the locals and ``self.<attr>`` a target stores."""
    names = []
    for node in ast.walk(target):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.append(node.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
            names.append(f"self.{node.attr}")
    return names


def _arguments(function: Function) -> set[str]:
    arguments = function.args
    every = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs, arguments.vararg, arguments.kwarg]
    return {a.arg for a in every if a is not None} - {"self", "cls"}


class Tracer:
    """Follow names back to their origins inside one function and its class's ``__init__``."""

    def __init__(self, function: Function, init: Function | None, fields: frozenset[str] = frozenset()) -> None:
        self.function = function
        self.init = init
        self.fields = fields  # the class's constructor fields: ``self.<field>`` is the argument the user passes

    # Built on first use: most raises get a typed step and never trace anything.
    @cached_property
    def local(self) -> dict[str, set[str]]:
        """The function's locals and ``self.x``, each with the names its assignments read."""
        return assignments(self.function)

    @cached_property
    def arguments(self) -> set[str]:
        """The function's arguments."""
        return _arguments(self.function)

    @cached_property
    def init_local(self) -> dict[str, set[str]]:
        """The class ``__init__``'s locals and ``self.x``, each with the names its assignments read."""
        return assignments(self.init) if self.init is not None else {}

    @cached_property
    def init_arguments(self) -> set[str]:
        """The class ``__init__``'s arguments."""
        return _arguments(self.init) if self.init is not None else set()

    def origins(self, name: str) -> tuple[Origin, ...]:
        """Return what a name the guard reads is computed from (the arguments and config fields)."""
        found: dict[str, Origin] = {}
        self._walk(name, in_init=False, depth=0, seen=set(), found=found)
        return tuple(found.values())

    def _walk(
        self, name: str, *, in_init: bool, depth: int, seen: set[tuple[str, bool]], found: dict[str, Origin]
    ) -> None:
        if (name, in_init) in seen or depth > MAX_DEPTH:
            return
        seen.add((name, in_init))
        if name.startswith("config."):
            found.setdefault(name, Origin(name, "config"))
            return
        arguments, local = (self.init_arguments, self.init_local) if in_init else (self.arguments, self.local)
        if name in arguments:
            kind = "init" if in_init and self.init is not self.function else "call"
            found.setdefault(name, Origin(name, kind))
            return
        if name.startswith("self."):
            self._walk_attribute(name, depth=depth, seen=seen, found=found)
            return
        for read in sorted(local.get(name, ())):
            self._walk(read, in_init=in_init, depth=depth + 1, seen=seen, found=found)

    def _walk_attribute(self, name: str, *, depth: int, seen: set[tuple[str, bool]], found: dict[str, Origin]) -> None:
        """Follow ``self.x`` through its assignments in the function and in ``__init__``."""
        if name == "self.config" and "config" in self.init_arguments:
            found.setdefault("config", Origin("config", "init"))  # set by the parent's ``__init__(config)``
            return
        attr = name.removeprefix("self.")
        if attr in self.fields and name not in self.init_local and name not in self.local:
            found.setdefault(attr, Origin(attr, "init"))  # a dataclass field, or ``kwargs.pop("x")``
            return
        if self.init is not self.function and name in self.local and name in self.init_local:
            return  # set in ``__init__`` and changed here: which value the check sees depends on the path
        for read in sorted(self.local.get(name, ())):
            self._walk(read, in_init=False, depth=depth + 1, seen=seen, found=found)
        for read in sorted(self.init_local.get(name, ())) if self.init is not self.function else ():
            self._walk(read, in_init=True, depth=depth + 1, seen=seen, found=found)

    def self_contained(self, name: str) -> bool:
        """Tell whether a local is computed from values of the function alone, with no hidden dependence.

        False when a local on the way is only ever assigned constants (``valid = True`` under an ``if``
        on an argument: the value depends on the argument through the branch), or when it reads an argument,
        a ``self`` attribute or the environment (``torch.cuda``, ``os.environ``): those may come from the user.
        """
        seen: set[str] = set()
        stack = [name]
        while stack:
            current = stack.pop()
            if current in seen:
                continue
            seen.add(current)
            if current.startswith("self.") or current in _ENVIRONMENT or current in self.arguments:
                return False
            if current not in self.local:
                continue  # a module constant or a built-in
            values = self.assigned.get(current, [])
            if not any(values):
                return False  # only constants (``valid = True`` under an ``if``): set by a branch, not computed
            stack.extend(r for read in values for r in read)
        return True

    @cached_property
    def assigned(self) -> dict[str, list[set[str]]]:
        """The function's locals, each with the reads of every assignment to it (one set per assignment)."""
        return assignments_each(self.function)

    def is_local(self, name: str) -> bool:
        """Tell whether the function (or, for ``self.x``, its class's ``__init__``) assigns a name."""
        return name in self.local or name in self.init_local
