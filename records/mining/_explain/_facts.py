"""Gather, from one parsed module, what the explanation of a ``raise`` is built from.

Per module (once): which function calls which (to walk from a private helper up to the public
method a user calls), each class's constructor arguments and documented parameters, and module
constants holding a list of allowed values. Per raise: the guards on the path to it, the function
and class around it, the entry point, the documentation of the parameters involved.
"""

from __future__ import annotations

import ast
import re
from collections import deque
from dataclasses import dataclass, field
from functools import cached_property

from records.mining._explain._docstrings import field_help, parameter_docs
from records.mining._explain._trace import Tracer

MAX_CALL_DEPTH = 4
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef, ast.Module)
_CONSTRUCTORS = frozenset({"__init__", "__post_init__", "__new__"})
# Entry points people call, preferred when a helper is reached from several public methods.
_PREFERRED = (
    "generate", "from_pretrained", "train", "__call__", "forward", "save_pretrained", "push_to_hub",
    "evaluate", "predict", "encode", "decode", "pad", "apply_chat_template", "preprocess",
)  # fmt: skip
Function = ast.FunctionDef | ast.AsyncFunctionDef


@dataclass(frozen=True)
class Guard:
    """One test on the path to a raise: the raise runs when ``test`` is ``holds``."""

    test: ast.expr
    holds: bool


@dataclass(frozen=True)
class Entry:
    """The public entry point a user most likely called, and the private helpers it goes through."""

    display: str  # "generate()", "TrainingArguments(...)", "LlamaModel.forward()"
    function: Function | None
    via: tuple[str, ...] = ()


@dataclass
class SiteFacts:
    """Everything about one raise that its explanation is built from (plain AST and strings)."""

    error_class: str
    template: str
    guards: list[Guard]
    in_except: str | None  # the class(es) an enclosing except clause catches, when it is the innermost guard
    function: Function | None
    class_node: ast.ClassDef | None
    entry: Entry | None
    init_fields: frozenset[str]
    param_docs: dict[str, str]
    constants: dict[str, tuple[str, ...]]
    comment: str | None
    unconditional: bool = False
    params: tuple[str, ...] = field(default=())
    aliases: dict[str, str] = field(default_factory=dict)  # local name -> the argument or field it holds
    handler: ExceptFacts | None = None
    config_attributes: dict[str, str] = field(default_factory=dict)  # ``self.x`` -> ``config.y`` it was set from
    tracer: Tracer | None = None  # follows the guard's locals back to arguments and config fields

    @property
    def class_name(self) -> str | None:
        """Return the name of the class around the raise, if any."""
        return self.class_node.name if self.class_node is not None else None


@dataclass(frozen=True)
class ExceptFacts:
    """The ``try`` whose failure a raise in an ``except`` block reports."""

    caught: tuple[str, ...]  # the exception classes caught (or tested with ``isinstance``)
    calls: tuple[str, ...]  # the calls the ``try`` body makes, in order (``cached_file``, ``json.loads``)
    imports: tuple[str, ...]  # the modules the ``try`` body imports
    lookups: tuple[tuple[str, str], ...]  # ``MAPPING[key]`` subscripts in the try body: (mapping, key)


class ModuleIndex:
    """Facts about one module that every raise in it shares, built on first use."""

    def __init__(self, tree: ast.Module, parents: dict[ast.AST, ast.AST], calls: dict[str, list[ast.Call]]) -> None:
        self.tree = tree
        self.parents = parents
        self.calls = calls
        self._callers: dict[tuple[str | None, str], list[Function]] = {}
        self._init_fields: dict[ast.ClassDef, frozenset[str]] = {}
        self._docs: dict[ast.AST, dict[str, str]] = {}
        self._aliases: dict[Function, dict[str, str]] = {}
        self._config_attributes: dict[ast.ClassDef, dict[str, str]] = {}
        self._tracers: dict[Function, Tracer] = {}

    def tracer(self, function: Function, owner: ast.ClassDef | None) -> Tracer:
        """Return the tracer of a function's values (its class's ``__init__`` included), built once."""
        if function not in self._tracers:
            init = next(
                (s for s in owner.body if isinstance(s, ast.FunctionDef) and s.name == "__init__"), None
            ) if owner is not None else None  # fmt: skip
            fields = self.init_fields(owner) if owner is not None else frozenset()
            self._tracers[function] = Tracer(function, init, fields)
        return self._tracers[function]

    def aliases(self, function: Function) -> dict[str, str]:
        """Return the locals of a function assigned once from an argument or a config field.

        ``x = kwargs.get("x")`` and ``x = kwargs.pop("x", None)`` hold the keyword argument ``x``;
        ``x = self.config.x``, ``x = config.x`` and ``x = getattr(config, "x", None)`` hold ``config.x``.
        """
        if function not in self._aliases:
            self._aliases[function] = _aliases(function)
        return self._aliases[function]

    def config_attributes(self, cls: ast.ClassDef) -> dict[str, str]:
        """Return the attributes a class sets once, in ``__init__``, from a field of its ``config`` argument.

        ``self.rope_type = config.rope_type`` makes a later check of ``self.rope_type`` a check of the
        config field the user sets (``config.rope_type``). An attribute assigned anywhere else too is left out.
        """
        if cls not in self._config_attributes:
            self._config_attributes[cls] = _config_attributes(cls)
        return self._config_attributes[cls]

    @cached_property
    def owners(self) -> dict[Function, ast.ClassDef | None]:
        """Map every function directly in the module or directly in a class to that class (or None)."""
        found: dict[Function, ast.ClassDef | None] = {}
        for statement in self.tree.body:
            if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef):
                found[statement] = None
            elif isinstance(statement, ast.ClassDef):
                for inner in statement.body:
                    if isinstance(inner, ast.FunctionDef | ast.AsyncFunctionDef):
                        found[inner] = statement
        return found

    def callers(self, owner: ast.ClassDef | None, name: str) -> list[Function]:
        """Return the functions of the module that call ``name`` (a method of ``owner``, or a module function)."""
        key = (owner.name if owner is not None else None, name)
        if key not in self._callers:
            found: list[Function] = []
            for call in self.calls.get(name, []):
                caller = self._function_of(call)
                if caller is None or caller in found or _callee(call.func, self.owners.get(caller)) != key:
                    continue
                found.append(caller)
            self._callers[key] = found
        return self._callers[key]

    def _function_of(self, node: ast.AST) -> Function | None:
        """Return the module-level or class-level function a node is in."""
        while node in self.parents:
            node = self.parents[node]
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node in self.owners:
                return node
        return None

    @cached_property
    def constants(self) -> dict[str, tuple[str, ...]]:
        """Module names bound to a literal list, tuple, set or dict of constants (allowed values)."""
        found: dict[str, tuple[str, ...]] = {}
        for statement in self.tree.body:
            target = statement.targets[0] if isinstance(statement, ast.Assign) and statement.targets else None
            if isinstance(statement, ast.AnnAssign):
                target = statement.target
            value = getattr(statement, "value", None)
            if not isinstance(target, ast.Name) or value is None:
                continue
            items: list[ast.expr | None] = list(
                value.keys if isinstance(value, ast.Dict) else getattr(value, "elts", [])
            )
            literal = isinstance(value, ast.List | ast.Tuple | ast.Set | ast.Dict) and 0 < len(items) <= 12
            if literal and all(isinstance(i, ast.Constant) for i in items):
                found[target.id] = tuple(repr(i.value) for i in items if isinstance(i, ast.Constant))
        return found

    def init_fields(self, cls: ast.ClassDef) -> frozenset[str]:
        """Return the names a class takes at construction (``__init__`` arguments, popped kwargs, fields)."""
        if cls not in self._init_fields:
            self._init_fields[cls] = _init_fields(cls)
        return self._init_fields[cls]

    def docs(self, node: ast.ClassDef | Function) -> dict[str, str]:
        """Return the documented parameters of a class (docstring and field help) or function."""
        if node not in self._docs:
            docs = parameter_docs(ast.get_docstring(node, clean=True))
            if isinstance(node, ast.ClassDef):
                docs = {**field_help(node), **docs}
            self._docs[node] = docs
        return self._docs[node]

    def entry(self, function: Function | None, owner: ast.ClassDef | None) -> Entry | None:
        """Return the public entry point that reaches ``function`` (walking up callers in the module)."""
        if function is None:
            return None
        best: tuple[int, Function, tuple[str, ...]] | None = None
        seen = {function}
        queue: deque[tuple[Function, tuple[str, ...]]] = deque([(function, ())])
        while queue:
            current, via = queue.popleft()
            rank = _rank(current.name)
            if rank is not None and (best is None or rank < best[0]):
                best = (rank, current, via)
            if current.name in _CONSTRUCTORS or len(via) >= MAX_CALL_DEPTH:
                continue
            current_owner = self.owners.get(current)
            for caller in self.callers(current_owner, current.name):
                same_scope = current_owner is None or self.owners.get(caller) is current_owner
                if caller not in seen and same_scope:
                    seen.add(caller)
                    queue.append((caller, (*via, f"{current.name}()")))
        if best is None:
            return None
        _rank_value, chosen, via = best
        return Entry(display(chosen, self.owners.get(chosen, owner)), chosen, via)


def _rank(name: str) -> int | None:
    """Return how good a function is as an entry point (lower is better), None for a private one."""
    if name in _CONSTRUCTORS:
        return 0
    if name in _PREFERRED:
        return 1 + _PREFERRED.index(name)
    if name.startswith("__") and name.endswith("__"):
        return 40  # a dunder is reached through an operator or a built-in, which the user did call
    if name.startswith("_"):
        return None
    return 50


def display(function: Function, owner: ast.ClassDef | None) -> str:
    """Return how a user writes a call of a function: ``f()``, ``Class(...)``, ``Class.method()``, ``model.f()``."""
    if owner is None:
        return f"{function.name}()"
    if function.name in _CONSTRUCTORS:
        return f"{owner.name}(...)"
    if owner.name.endswith("Mixin") or owner.name == "PreTrainedModel":
        return f"model.{function.name}()"  # a mixin's methods are called on the model that inherits them
    return f"{owner.name}.{function.name}()"


def _callee(func: ast.expr, owner: ast.ClassDef | None) -> tuple[str | None, str] | None:
    """Return the (class, name) key a call refers to inside the module, if it plainly does."""
    if isinstance(func, ast.Name):
        return (None, func.id)
    if isinstance(func, ast.Attribute) and owner is not None:
        target = func.value
        if isinstance(target, ast.Name) and target.id in {"self", "cls", owner.name}:
            return (owner.name, func.attr)
        if isinstance(target, ast.Call) and isinstance(target.func, ast.Name) and target.func.id == "super":
            return None
    return None


def _init_fields(cls: ast.ClassDef) -> frozenset[str]:
    names: set[str] = set()
    for statement in cls.body:
        if isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
            names.add(statement.target.id)  # dataclass-style field
        elif isinstance(statement, ast.FunctionDef) and statement.name == "__init__":
            arguments = statement.args
            names |= {a.arg for a in [*arguments.args[1:], *arguments.kwonlyargs, *arguments.posonlyargs]}
            for node in ast.walk(statement):  # self.x = kwargs.pop("x", default)
                if (
                    isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Attribute)
                    and node.func.attr in {"pop", "get"}
                ):
                    first = node.args[0] if node.args else None
                    on_kwargs = isinstance(node.func.value, ast.Name) and node.func.value.id == "kwargs"
                    if on_kwargs and isinstance(first, ast.Constant) and isinstance(first.value, str):
                        names.add(first.value)
    return frozenset(names)


def site_guards(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> tuple[list[Guard], str | None, bool]:
    """Return the guards around a raise (innermost first), what an innermost except catches, and more.

    The third value tells whether the raise runs unconditionally at the top of its function body.
    """
    guards: list[Guard] = []
    caught: str | None = None
    child: ast.AST = node
    while child in parents:
        parent = parents[child]
        if isinstance(parent, _SCOPES):
            break
        if isinstance(parent, ast.If | ast.While) and child is not parent.test:
            holds = any(item is child for item in parent.body)
            guards.append(Guard(parent.test, holds))
        elif isinstance(parent, ast.ExceptHandler):
            if not guards:  # raised because the try body failed: the tests around it are not the cause
                return [], ast.unparse(parent.type) if parent.type is not None else "Exception", False
            if parent.name is not None and _mentions(guards, parent.name):
                return [], "a test of the caught exception", False
            break  # the error is raised while handling another one: outer tests are context at best
        elif isinstance(parent, ast.IfExp | ast.match_case):
            return [], None, False  # not read: a match case or conditional expression
        child = parent
    unconditional = not guards and caught is None and _first_in_body(node, parents)
    return guards, caught, unconditional


def enclosing_handler(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> ExceptFacts | None:
    """Return the facts of the ``except`` a raise is in, when the raise reports the ``try`` body's failure.

    That is a raise directly in the handler, or under ``if`` tests of the caught exception only.
    """
    guards: list[ast.expr] = []
    child: ast.AST = node
    while child in parents:
        parent = parents[child]
        if isinstance(parent, _SCOPES):
            return None
        if isinstance(parent, ast.If) and child is not parent.test:
            if any(item is child for item in parent.body):
                guards.append(parent.test)  # in an ``elif``/``else``, the earlier tests failed: not the cause
        elif isinstance(parent, ast.ExceptHandler):
            try_node = parents.get(parent)
            tests_exception = all(parent.name is not None and _mentions_name(g, parent.name) for g in guards)
            if isinstance(try_node, ast.Try) and tests_exception:
                return except_facts(parent, try_node, guards)
            return None
        elif not isinstance(parent, ast.If):
            return None
        child = parent
    return None


def _mentions_name(test: ast.expr, name: str) -> bool:
    return any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(test))


def _mentions(guards: list[Guard], name: str) -> bool:
    return any(isinstance(n, ast.Name) and n.id == name for g in guards for n in ast.walk(g.test))


def _first_in_body(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> bool:
    """Tell whether a raise is a direct statement of a function body, after only a docstring/imports."""
    parent = parents.get(node)
    if not isinstance(parent, ast.FunctionDef | ast.AsyncFunctionDef):
        return False
    for statement in parent.body:
        if statement is node:
            return True
        if isinstance(statement, ast.Expr | ast.Import | ast.ImportFrom | ast.Pass):
            continue
        return False
    return False


def _aliases(function: Function) -> dict[str, str]:
    stores: dict[str, int] = {}
    found: dict[str, str] = {}
    for node in ast.walk(function):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            stores[node.id] = stores.get(node.id, 0) + 1
        elif isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            source = _held(node.value)
            if source is not None:
                found[node.targets[0].id] = source
    arguments = {a.arg for a in [*function.args.posonlyargs, *function.args.args, *function.args.kwonlyargs]}
    return {name: source for name, source in found.items() if stores.get(name) == 1 and name not in arguments}


def _config_attributes(cls: ast.ClassDef) -> dict[str, str]:
    init = next((s for s in cls.body if isinstance(s, ast.FunctionDef) and s.name == "__init__"), None)
    if init is None or "config" not in {a.arg for a in [*init.args.args, *init.args.kwonlyargs]}:
        return {}
    stores: dict[str, int] = {}
    found: dict[str, str] = {}
    for node in ast.walk(cls):
        targets = (
            node.targets
            if isinstance(node, ast.Assign)
            else [node.target]
            if isinstance(node, ast.AugAssign | ast.AnnAssign)
            else []
        )
        for target in targets:
            for inner in ast.walk(target):
                if isinstance(inner, ast.Attribute) and isinstance(inner.value, ast.Name) and inner.value.id == "self":
                    stores[inner.attr] = stores.get(inner.attr, 0) + 1
    for statement in init.body:  # only top-level statements of __init__: the assignment always runs
        if not (isinstance(statement, ast.Assign) and len(statement.targets) == 1):
            continue
        target, value = statement.targets[0], statement.value
        if _is_on(target, "self") and isinstance(target, ast.Attribute) and _is_on(value, "config"):
            found[target.attr] = f"config.{ast.unparse(value).partition('.')[2]}"
    return {name: source for name, source in found.items() if stores.get(name) == 1}


def _is_on(node: ast.expr, name: str) -> bool:
    """Tell whether a node is ``<name>.attr`` (one attribute of the plain name ``name``)."""
    return isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == name


def _held(value: ast.expr) -> str | None:
    """Return the argument or config field an expression reads, if it plainly reads one."""
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.args:
        first = value.args[0]
        on_kwargs = isinstance(value.func.value, ast.Name) and value.func.value.id == "kwargs"
        if on_kwargs and value.func.attr in {"get", "pop"} and isinstance(first, ast.Constant):
            return first.value if isinstance(first.value, str) and first.value.isidentifier() else None
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "getattr":
        args = value.args
        if len(args) >= 2 and isinstance(args[1], ast.Constant) and isinstance(args[1].value, str):
            owner = ast.unparse(args[0])
            if owner in {"config", "self.config"} and args[1].value.isidentifier():
                return f"config.{args[1].value}"
        return None
    if isinstance(value, ast.Attribute) and ast.unparse(value.value) in {"config", "self.config"}:
        return f"config.{value.attr}"
    return None


def except_facts(handler: ast.ExceptHandler, try_node: ast.Try, guards: list[ast.expr]) -> ExceptFacts:
    """Return what a handler catches and what its ``try`` body does (calls, imports, lookups)."""
    caught = _tested_classes(handler, guards)
    if not caught and handler.type is not None:
        kinds = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
        caught = [ast.unparse(k) for k in kinds]
    calls: list[str] = []
    imports: list[str] = []
    lookups: list[tuple[str, str]] = []
    for node in (inner for statement in try_node.body for inner in ast.walk(statement)):
        if isinstance(node, ast.Call):
            name = ast.unparse(node.func)
            if len(name) <= 60 and name not in calls and not name.startswith(("logger.", "log.", "print")):
                calls.append(name)
        elif isinstance(node, ast.Import):
            imports += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            imports.append(node.module)
        elif isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id.isupper():
            key = ast.unparse(node.slice)
            if re.fullmatch(r"[A-Za-z_][\w.]*(?:\['\w+'\])?", key):
                lookups.append((node.value.id, key))
    return ExceptFacts(tuple(caught or ["Exception"]), tuple(calls), tuple(dict.fromkeys(imports)), tuple(lookups))


def _tested_classes(handler: ast.ExceptHandler, guards: list[ast.expr]) -> list[str]:
    """Return the classes ``isinstance(e, X)`` tests name (they say the failure better than the except)."""
    found: list[str] = []
    for test in guards:
        parts = test.values if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And) else [test]
        for node in parts:
            args = node.args if isinstance(node, ast.Call) and ast.unparse(node.func) == "isinstance" else []
            if len(args) == 2 and isinstance(args[0], ast.Name) and args[0].id == handler.name:
                kinds = args[1].elts if isinstance(args[1], ast.Tuple) else [args[1]]
                found += [ast.unparse(k) for k in kinds]
    return found
