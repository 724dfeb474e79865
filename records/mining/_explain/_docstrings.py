"""Parameter documentation from docstrings (Google style ``Args:``) and dataclass ``field(metadata=...)``."""

from __future__ import annotations

import ast
import re

MAX_DOC_CHARS = 220
_SECTION = re.compile(r"^\s*(Args|Arguments|Parameters|Attributes|Params)\s*:?\s*$")
_ARG = re.compile(r"^(?P<indent>\s*)(?P<name>\*{0,2}\w+)\s*(?:\((?P<type>[^)]*)\))?\s*:\s*(?P<text>.*)$")
_OTHER_SECTION = re.compile(r"^\s*(Returns?|Raises|Examples?|Example usage|Yields|Note|Notes)\s*:\s*$")


def parameter_docs(docstring: str | None) -> dict[str, str]:
    """Return each documented parameter's text (its first sentences, whitespace folded)."""
    if not docstring:
        return {}
    found: dict[str, str] = {}
    lines = docstring.expandtabs().split("\n")
    in_section = False
    current: str | None = None
    indent = -1
    for line in lines:
        if _SECTION.match(line):
            in_section, current, indent = True, None, -1
            continue
        if not in_section:
            continue
        if _OTHER_SECTION.match(line):
            in_section, current = False, None
            continue
        if not line.strip():
            continue
        width = len(line) - len(line.lstrip())
        match = _ARG.match(line)
        if match and (indent < 0 or width == indent):
            indent = width
            current = match.group("name").lstrip("*")
            found[current] = match.group("text").strip()
        elif current is not None and width > indent:
            found[current] = (found[current] + " " + line.strip()).strip()
        elif width < indent:
            in_section, current = False, None
    return {name: brief(text) for name, text in found.items() if brief(text)}


def field_help(cls: ast.ClassDef) -> dict[str, str]:
    """Return the ``metadata={"help": ...}`` text of each dataclass field of a class body."""
    found: dict[str, str] = {}
    for statement in cls.body:
        if not (isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name)):
            continue
        call = statement.value
        if not (isinstance(call, ast.Call) and getattr(call.func, "id", getattr(call.func, "attr", "")) == "field"):
            continue
        for keyword in call.keywords:
            if keyword.arg == "metadata" and isinstance(keyword.value, ast.Dict):
                for key, value in zip(keyword.value.keys, keyword.value.values, strict=False):
                    if isinstance(key, ast.Constant) and key.value == "help":
                        text = _literal_text(value)
                        if text and brief(text):
                            found[statement.target.id] = brief(text)
    return found


def _literal_text(node: ast.expr) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        pieces = [v.value for v in node.values if isinstance(v, ast.Constant) and isinstance(v.value, str)]
        return "".join(pieces) if len(pieces) == len(node.values) else None
    return None


def brief(text: str) -> str:
    """Return the first sentences of a documentation text, at most about 220 characters."""
    text = re.sub(r"\s+", " ", text).strip()
    text = re.sub(r"\[`~?([\w.]+)`\]", r"`\1`", text)  # doc-builder links: [`~utils.X`] -> `utils.X`
    if len(text) <= MAX_DOC_CHARS:
        return text
    sentences = re.split(r"(?<=[.!?])\s+(?=[A-Z`])", text)
    kept = ""
    for sentence in sentences:
        if len(kept) + len(sentence) + 1 > MAX_DOC_CHARS:
            break
        kept = f"{kept} {sentence}".strip()
    return kept or text[: MAX_DOC_CHARS - 3].rsplit(" ", 1)[0] + "..."
