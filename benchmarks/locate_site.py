"""Locate one raise site in every release's wheel: the ``versions`` of a curated record no miner can read.

Run: ``python -m benchmarks.locate_site WHEEL_DIR PATH QUALNAME EXCEPTION`` (wheels from ``pip download
--no-deps transformers==X``; PATH as in the wheel, ``transformers/models/auto/configuration_auto.py``;
QUALNAME the enclosing ``Class.method`` or ``function.nested``; EXCEPTION the raised class). Prints the record's ``versions``
(newest first; each with its own source window where it differs) and its newest source window as JSON, for a record such as ``raise KeyError(key)``, whose
message is the key alone: the miner skips it (no literal text), yet a traceback's frame at that line
tells the error. A release whose wheel lacks the function or holds the raise more than once is reported
on stderr and left out.
"""

from __future__ import annotations

import ast
import json
import re
import sys
import zipfile
from pathlib import Path
from typing import Any

REPO_URL = "https://github.com/huggingface/transformers/blob"
_WHEEL_VERSION = re.compile(r"^[a-z_]+-(\d+(?:\.\d+)*)-")


def release_of(wheel: Path) -> tuple[int, ...]:
    """Return the release of a wheel's file name as numbers, for ordering."""
    found = _WHEEL_VERSION.match(wheel.name)
    if found is None:
        raise ValueError(f"{wheel.name}: not a wheel file name")
    return tuple(int(part) for part in found.group(1).split("."))


def locate(source: str, qualname: str, exception: str) -> tuple[int, int, int] | None:
    """Return (function start, raise line, function end) of the one ``raise EXCEPTION(...)`` in QUALNAME.

    QUALNAME is ``owner.function``: a method of a class or a function nested in another function
    (``_compile_jinja_template.raise_exception``), or a module-level function's name alone. Owners that
    releases renamed are given as alternatives: ``_compile_jinja_template|_cached_compile_jinja_template.f``.
    """
    owner, _, name = qualname.rpartition(".")
    owners = set(owner.split("|"))
    tree = ast.parse(source)
    scopes: list[ast.AST] = [tree] if not owner else [
        node for node in ast.walk(tree) if isinstance(node, _SCOPES) and node.name in owners
    ]  # fmt: skip
    for scope in scopes:
        for function in getattr(scope, "body", []):
            if isinstance(function, ast.FunctionDef) and function.name == name:
                raises = [r.lineno for r in ast.walk(function) if isinstance(r, ast.Raise) and _raises(r, exception)]
                if len(raises) == 1:
                    return function.lineno, raises[0], function.end_lineno or raises[0]
    return None


_SCOPES = (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)


def _raises(node: ast.Raise, exception: str) -> bool:
    if not isinstance(node.exc, ast.Call):
        return False
    func = node.exc.func
    return (func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")) == exception


def versions(wheels: Path, path: str, qualname: str, exception: str) -> tuple[list[dict[str, Any]], str]:
    """Return the site's versions (newest first) and the newest release's source window."""
    found: list[dict[str, Any]] = []
    newest_source = ""
    for wheel in sorted(wheels.glob("*.whl"), key=release_of, reverse=True):
        release = ".".join(map(str, release_of(wheel)))
        with zipfile.ZipFile(wheel) as archive:
            source = archive.read(path).decode("utf-8") if path in archive.namelist() else ""
        site = locate(source, qualname, exception) if source else None
        if site is None:
            print(f"{release}: no single raise {exception} in {qualname} of {path}", file=sys.stderr)
            continue
        start, line, end = site
        window = "\n".join(source.split("\n")[start - 1 : end]) + "\n"
        newest_source = newest_source or window
        found.append({
            "analyzedSha": f"v{release}", "githubUrl": f"{REPO_URL}/v{release}/src/{path}#L{start}-L{end}",
            "lineNumber": line, "sourceCodeEnd": end, "sourceCodeStart": start, "version": release,
        })  # fmt: skip
        if window != newest_source:
            found[-1]["sourceCode"] = window  # as a mined record's versions: only where it differs
    return found, newest_source


def main(argv: list[str]) -> None:
    """Print the versions and the newest source window of one site as JSON."""
    wheels, path, qualname, exception = argv
    found, source = versions(Path(wheels), path, qualname, exception)
    print(json.dumps({"versions": found, "sourceCode": source}, indent=1))


if __name__ == "__main__":
    main(sys.argv[1:])
