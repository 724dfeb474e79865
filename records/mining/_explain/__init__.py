"""Generated explanations of mined raise sites: what it means, when it happens, fixes, an example.

Built only from the module's AST (the guard, names, function, class, docstrings) and the message;
no network, no model. :func:`explain_raise` is the one entry point the miner calls per raise.
"""

from __future__ import annotations

import ast

from records.mining._explain._compose import Explanation, explain, text_fields
from records.mining._explain._facts import ModuleIndex, SiteFacts, enclosing_handler, site_guards

__all__ = ["Explanation", "ModuleIndex", "SiteFacts", "explain", "explain_raise", "text_fields"]


def explain_raise(
    node: ast.Raise,
    index: ModuleIndex,
    *,
    error_class: str,
    template: str,
    comment: str | None,
) -> Explanation:
    """Return the generated explanation of one raise in a module."""
    guards, caught, unconditional = site_guards(node, index.parents)
    function, owner = _enclosing(node, index)
    entry = index.entry(function, owner)
    init_fields = index.init_fields(owner) if owner is not None else frozenset()
    docs: dict[str, str] = {}
    for scope in (owner, entry.function if entry else None, function):
        if scope is not None:
            docs.update(index.docs(scope))
    params: tuple[str, ...] = ()
    for scope in (function, entry.function if entry else None):
        if scope is not None:
            arguments = scope.args
            params += tuple(a.arg for a in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs])
    aliases = index.aliases(function) if function is not None else {}
    params += tuple(a for a in aliases.values() if "." not in a)  # ``kwargs.get("x")``: a keyword argument
    facts = SiteFacts(
        error_class=error_class.rsplit(".", 1)[-1],
        template=template,
        guards=guards,
        in_except=caught,
        function=function,
        class_node=owner,
        entry=entry,
        init_fields=init_fields,
        param_docs=docs,
        constants=index.constants,
        comment=comment,
        unconditional=unconditional,
        params=tuple(p for p in dict.fromkeys(params) if p not in {"self", "cls"}),
        aliases=aliases,
        handler=enclosing_handler(node, index.parents) if caught is not None else None,
        config_attributes=index.config_attributes(owner) if owner is not None else {},
        tracer=index.tracer(function, owner) if function is not None else None,
    )
    return explain(facts)


def _enclosing(
    node: ast.AST, index: ModuleIndex
) -> tuple[ast.FunctionDef | ast.AsyncFunctionDef | None, ast.ClassDef | None]:
    """Return the innermost function of the module or of a class around a node, and its class."""
    child = node
    while child in index.parents:
        parent = index.parents[child]
        if isinstance(parent, ast.FunctionDef | ast.AsyncFunctionDef) and parent in index.owners:
            return parent, index.owners[parent]
        child = parent
    return None, None
