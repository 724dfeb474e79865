"""What one parsed module tells about a ``raise`` in it: scope, guards, comments, names and imports."""

from __future__ import annotations

import ast
import functools
import io
import tokenize
from collections.abc import Iterator

from records.mining._messages import message_parts, unparse
from records.mining._template import Part, is_pure_literal

MAX_CONDITION_CHARS = 200
MAX_RESOLVE_DEPTH = 12
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef, ast.Module)
# Comments that steer tools, not readers.
_LAYOUT_TOKENS = frozenset({tokenize.NL, tokenize.NEWLINE, tokenize.COMMENT, tokenize.INDENT, tokenize.DEDENT})
_TOOL_COMMENT_PREFIXES = ("noqa", "type:", "pragma", "fmt:", "pylint:", "ruff:", "isort:", "mypy:")


class ModuleContext:
    """Facts about one module, gathered once and shared by all its ``raise`` statements."""

    def __init__(self, tree: ast.Module, text: str) -> None:
        self.tree = tree
        self.text = text
        self.lines = text.split("\n")
        self.parents: dict[ast.AST, ast.AST] = {}
        self.raises: list[ast.Raise] = []
        # Calls by the name they call (``f(...)``, ``self.f(...)``): the explainer walks up from a
        # private helper to the public method that reaches it.
        self.calls: dict[str, list[ast.Call]] = {}
        imports: list[ast.Import | ast.ImportFrom] = []
        classes: list[ast.ClassDef] = []
        stack: list[ast.AST] = [tree]
        while stack:  # one pass over the tree collects everything the raises will need
            node = stack.pop()
            for child in ast.iter_child_nodes(node):
                self.parents[child] = node
                stack.append(child)
            if isinstance(node, ast.Raise):
                self.raises.append(node)
            elif isinstance(node, ast.Call):
                func = node.func
                called = (
                    func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
                )
                if called is not None:
                    self.calls.setdefault(called, []).append(node)
            elif isinstance(node, ast.Import | ast.ImportFrom):
                imports.append(node)
            elif isinstance(node, ast.ClassDef):
                classes.append(node)
        self.raises.sort(key=lambda n: (n.lineno, n.col_offset))
        self.aliases = _import_aliases(imports)
        self.class_bases = _class_bases(classes)
        self._locals: dict[ast.AST, frozenset[str]] = {}

    @functools.cached_property
    def comments(self) -> dict[int, str]:
        """Map each line holding only a comment to its text (tokenized on first use)."""
        return _comment_lines(self.text)

    @functools.cached_property
    def constants(self) -> dict[str, list[Part]]:
        """Module-level names bound once, to literal text (found on first use)."""
        return _module_constants(self.tree)

    def ancestors(self, node: ast.AST) -> Iterator[tuple[ast.AST, ast.AST]]:
        """Yield (child, parent) pairs from ``node`` up to the module."""
        while node in self.parents:
            parent = self.parents[node]
            yield node, parent
            node = parent

    def enclosing(self, node: ast.AST) -> tuple[str | None, str | None]:
        """Return the names of the innermost function and class around ``node``."""
        function: str | None = None
        for _child, parent in self.ancestors(node):
            if isinstance(parent, ast.FunctionDef | ast.AsyncFunctionDef) and function is None:
                function = parent.name
            elif isinstance(parent, ast.ClassDef):
                return function, parent.name
        return function, None

    def guards(self, node: ast.AST) -> list[tuple[ast.AST, str]]:
        """Return the conditions on the path to ``node`` inside its function, innermost first."""
        found: list[tuple[ast.AST, str]] = []
        for child, parent in self.ancestors(node):
            if isinstance(parent, _SCOPES):
                break
            condition = _condition(child, parent)
            if condition:
                found.append((parent, condition))
        return found

    def trigger_scenarios(self, node: ast.AST) -> str | None:
        """Describe the guards of ``node`` as readable text (``if a (inside: if b; except E)``)."""
        conditions = [text for _guard, text in self.guards(node)]
        if not conditions:
            return None
        inner, outer = conditions[0], conditions[1:]
        return f"{inner} (inside: {'; '.join(outer)})" if outer else inner

    def documentation(self, node: ast.stmt) -> str | None:
        """Collect the comments directly above ``node`` and above its innermost guarding ``if``."""
        lines: list[int] = []
        guard = next((g for g, _text in self.guards(node) if isinstance(g, ast.If)), None)
        if guard is not None:
            lines.extend(self._comments_above(guard.lineno))
        lines.extend(line for line in self._comments_above(node.lineno) if line not in lines)
        texts = [self.comments[line] for line in lines]
        kept = [text for text in texts if text and not text.lower().startswith(_TOOL_COMMENT_PREFIXES)]
        return " ".join(kept) or None

    def _comments_above(self, line: int) -> list[int]:
        found: list[int] = []
        line -= 1
        # Tokenizing is slow: only do it when the line above at least looks like a comment.
        if line < 1 or not self.lines[line - 1].lstrip().startswith("#"):
            return found
        while line in self.comments:
            found.append(line)
            line -= 1
        return found[::-1]

    def resolve_name(self, name: ast.Name, at: ast.stmt, depth: int = 0) -> list[Part] | None:
        """Return the parts of the text held in ``name`` at statement ``at``, or None if unknown.

        Looks back through the statements run before ``at`` in its block and the blocks around it
        (within the function) for a plain assignment; an assignment it cannot follow (in a branch, a
        loop target, ...) makes the value unknown, except a conditional ``name += ...``, which is
        passed over (the template is then the start of the message). Falls back to a module-level
        string constant.
        """
        if depth > MAX_RESOLVE_DEPTH:
            return None
        for earlier in self._statements_before(at):
            if not _stores(earlier, name.id) or _only_appends(earlier, name.id):
                continue  # a conditional ``+=`` adds an optional tail: the message starts as before
            return self._assigned_text(earlier, name, depth)
        if name.id in self._local_names(at):
            return None
        return self.constants.get(name.id)

    def _assigned_text(self, statement: ast.stmt, name: ast.Name, depth: int) -> list[Part] | None:
        def resolve(inner: ast.Name) -> list[Part] | None:
            return self.resolve_name(inner, statement, depth + 1)

        target = _single_target(statement)
        if target != name.id:
            return None
        if isinstance(statement, ast.AugAssign):
            before = self.resolve_name(name, statement, depth + 1)
            if before is None or not isinstance(statement.op, ast.Add):
                return None
            return before + message_parts(statement.value, resolve)
        value = statement.value if isinstance(statement, ast.Assign | ast.AnnAssign) else None
        return message_parts(value, resolve) if value is not None else None

    def _statements_before(self, node: ast.AST) -> Iterator[ast.stmt]:
        """Yield the statements run before ``node`` in its function, nearest first."""
        for child, parent in self.ancestors(node):
            if isinstance(parent, _SCOPES):
                yield from reversed(_block_before(parent, child))
                return
            yield from reversed(_block_before(parent, child))
            if isinstance(parent, ast.Try | ast.TryStar) and not _in_field(parent, "body", child):
                yield from reversed(parent.body)  # the try body ran (at least partly) before

    def _local_names(self, node: ast.AST) -> frozenset[str]:
        """Return the names bound inside the function around ``node`` (they shadow module names)."""
        scope = next((p for _c, p in self.ancestors(node) if isinstance(p, _SCOPES)), self.tree)
        if isinstance(scope, ast.Module):
            return frozenset()
        if scope not in self._locals:
            names = {n.id for n in ast.walk(scope) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
            if isinstance(scope, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                arguments = scope.args
                every = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]
                every += [a for a in (arguments.vararg, arguments.kwarg) if a is not None]
                names |= {a.arg for a in every}
            self._locals[scope] = frozenset(names)
        return self._locals[scope]

    def class_name(self, func: ast.expr, at: ast.stmt) -> str | None:
        """Return the raised class name for a constructor expression, aliases resolved; None if not a class.

        ``error.__class__(...)`` inside ``except SomeError as error`` is taken as ``SomeError``.
        """
        dotted = _dotted(func)
        if dotted is not None and dotted.endswith(".__class__"):
            dotted = self._caught_class(dotted.removesuffix(".__class__"), at)
        if dotted is None or not dotted.rsplit(".", 1)[-1][:1].isupper():
            return None
        head, dot, rest = dotted.partition(".")
        real = self.aliases.get(head)
        return f"{real}{dot}{rest}" if real else dotted

    def _caught_class(self, variable: str, at: ast.stmt) -> str | None:
        """Return the class an enclosing ``except C as variable`` catches (one class only)."""
        for _child, parent in self.ancestors(at):
            if isinstance(parent, ast.ExceptHandler) and parent.name == variable and parent.type:
                return _dotted(parent.type)
        return None

    def base_names(self, class_name: str) -> list[str]:
        """Return the class and the bases it inherits from in this module (nearest first)."""
        chain = [class_name.rsplit(".", 1)[-1]]
        while chain[-1] in self.class_bases and len(chain) < 8:
            bases = self.class_bases[chain[-1]]
            if not bases or bases[0] in chain:
                break
            chain.append(bases[0])
        return chain

    def source_window(self, start: int, end: int) -> str:
        """Return source lines ``start``..``end`` (1-based, inclusive) with their line ends."""
        return "".join(line + "\n" for line in self.lines[start - 1 : end])


def _condition(child: ast.AST, parent: ast.AST) -> str | None:
    """Describe how ``parent`` guards ``child``, or None when it does not test anything."""
    if isinstance(parent, ast.If | ast.While) and child is not parent.test:
        keyword = "if" if isinstance(parent, ast.If) else "while"
        test = _short(unparse(parent.test))
        return f"{keyword} {test}" if _in_field(parent, "body", child) else f"{keyword} not ({test})"
    if isinstance(parent, ast.ExceptHandler):
        caught = _short(unparse(parent.type)) if parent.type is not None else "any exception"
        return f"except {caught}"
    if isinstance(parent, ast.match_case):
        return f"case {_short(unparse(parent.pattern))}"
    return None


def _short(text: str) -> str:
    return text if len(text) <= MAX_CONDITION_CHARS else text[: MAX_CONDITION_CHARS - 3] + "..."


def _in_field(parent: ast.AST, field: str, child: ast.AST) -> bool:
    return any(item is child for item in getattr(parent, field, ()))


def _block_before(parent: ast.AST, child: ast.AST) -> list[ast.stmt]:
    """Return the statements before ``child`` in the block of ``parent`` holding it."""
    for _name, value in ast.iter_fields(parent):
        if isinstance(value, list):
            for index, item in enumerate(value):
                if item is child:
                    return [s for s in value[:index] if isinstance(s, ast.stmt)]
    return []


def _stores(statement: ast.stmt, name: str) -> bool:
    """Tell whether running ``statement`` may bind ``name``."""
    return any(
        isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Store)
        for node in ast.walk(statement)
    )


def _only_appends(statement: ast.stmt, name: str) -> bool:
    """Tell whether a compound statement binds ``name`` only through ``name += ...``."""
    if not isinstance(statement, ast.If | ast.For | ast.AsyncFor | ast.While | ast.Try | ast.With):
        return False
    appends = stores = 0
    for node in ast.walk(statement):
        if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Store):
            stores += 1
        elif isinstance(node, ast.AugAssign) and isinstance(node.op, ast.Add):
            appends += isinstance(node.target, ast.Name) and node.target.id == name
    return stores == appends


def _single_target(statement: ast.stmt) -> str | None:
    """Return the name a plain assignment binds (``x = ...``, ``x += ...``, ``x: str = ...``)."""
    if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
        target: ast.expr = statement.targets[0]
    elif isinstance(statement, ast.AugAssign | ast.AnnAssign):
        target = statement.target
    else:
        return None
    return target.id if isinstance(target, ast.Name) else None


def _dotted(node: ast.expr) -> str | None:
    """Return ``a.b.C`` for a chain of attribute accesses on a name, else None."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        head = _dotted(node.value)
        return f"{head}.{node.attr}" if head else None
    return None


def _comment_lines(text: str) -> dict[int, str]:
    """Map each line holding only a comment to the comment's text (``#`` and spaces stripped)."""
    found: dict[int, str] = {}
    last_code_line = 0
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.COMMENT and token.start[0] != last_code_line:
                found[token.start[0]] = token.string.lstrip("#").strip()
            elif token.type not in _LAYOUT_TOKENS:
                last_code_line = token.end[0]
    except (tokenize.TokenError, SyntaxError):
        pass  # comments are a bonus; the AST already parsed, so this is a tokenizer corner case
    return found


def _import_aliases(imports: list[ast.Import | ast.ImportFrom]) -> dict[str, str]:
    """Map names imported under an alias (``import a as b``, ``from m import X as Y``) to real names."""
    seen: dict[str, set[str]] = {}
    for node in imports:
        for alias in node.names:
            if alias.asname and alias.asname != alias.name:
                seen.setdefault(alias.asname, set()).add(alias.name)
    return {alias: next(iter(real)) for alias, real in seen.items() if len(real) == 1}


def _module_constants(tree: ast.Module) -> dict[str, list[Part]]:
    """Return module-level names bound once, to literal text."""
    bound: dict[str, int] = {}
    values: dict[str, list[Part]] = {}
    for statement in tree.body:
        for node in ast.walk(statement):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                bound[node.id] = bound.get(node.id, 0) + 1
        target = _single_target(statement)
        if target and isinstance(statement, ast.Assign | ast.AnnAssign) and statement.value is not None:
            parts = message_parts(statement.value, lambda _name: None)
            if parts and is_pure_literal(parts):
                values[target] = parts
    return {name: parts for name, parts in values.items() if bound.get(name) == 1}


def _class_bases(classes: list[ast.ClassDef]) -> dict[str, list[str]]:
    """Map classes defined in the module to the last names of their bases."""
    return {c.name: [d.rsplit(".", 1)[-1] for d in map(_dotted, c.bases) if d] for c in classes}
