"""The tests are laid out like the code: each source module with logic has its own test module.

The rule, for every module under ``records/``, ``storage/`` and ``bot/``:

- ``pkg/sub/mod.py`` is tested by ``tests/pkg/sub/test_mod.py``; a leading underscore is dropped from
  file and folder names (``bot/exts/answers/_throttle.py`` -> ``tests/bot/exts/answers/test_throttle.py``,
  ``records/mining/_explain/_facts.py`` -> ``tests/records/mining/explain/test_facts.py``);
- a package's ``__init__.py`` with logic is tested beside the package's mirror, like a module of its
  parent (``bot/cli/__init__.py`` -> ``tests/bot/test_cli.py``);
- a module "has logic" when one of its functions or methods does more than one thing: its body, past
  the docstring, holds two statements or more, or a branch, loop, ``try`` or ``with``. Re-export
  facades, constants, data classes and models with one-line properties have none and need no test
  module of their own (they are exercised by the tests of the code that uses them);
- ``__main__.py`` files (``python -m`` entry points that call one function) and a package whose only
  logic is discord.py's extension hooks ``setup`` and ``teardown`` (run by every SimCord test of its
  cog) are exempt.

More test modules than source modules is fine (``test_reader_hostile.py`` beside ``test_reader.py``).
The allow-lists below are checked too: an entry that is no longer needed fails, so they only shrink.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest

from tests.conftest import ROOT

SOURCE_PACKAGES = ("records", "storage", "bot")
HOOKS = {"setup", "teardown"}  # discord.py's extension entry points
_BLOCKS = (ast.If, ast.For, ast.AsyncFor, ast.While, ast.Try, ast.With, ast.AsyncWith, ast.Match)

# Genuine exceptions: the module's behaviour is pinned somewhere that fits it better. Keep this short.
EXCEPTIONS: dict[str, str] = {}  # none so far

# Other work in progress is changing these test modules now; they are placed once it has landed.
IN_FLIGHT: dict[str, str] = {
    "records/matching/evidence.py": "tested through tests/records/matching/test_matcher.py (being edited)",
    "bot/cli/ask_cmd.py": "tested by tests/bot/test_cli_ask.py (being edited): to move to tests/bot/cli/test_ask_cmd.py",
    "bot/cli/_instance.py": "tested by tests/bot/test_instance.py (its module is being changed): to move to "
    "tests/bot/cli/test_instance.py",
}

# Not split out yet: the module is tested today through the named test module.
_EXTRACTION = "tested through tests/records/test_extraction.py (the package's face, records.extraction)"
_MINING = "tested through tests/records/test_mining.py (the mining package's face)"
_EXPLAIN = "tested through tests/records/test_explain.py and test_explain_shipped.py (the explainer's face)"
NOT_YET_SPLIT: dict[str, str] = {
    "records/extraction/candidates.py": _EXTRACTION,
    "records/extraction/clean.py": _EXTRACTION,
    "records/extraction/common.py": _EXTRACTION,
    "records/extraction/extractor.py": _EXTRACTION,
    "records/extraction/lines.py": _EXTRACTION,
    "records/extraction/pytest_output.py": _EXTRACTION,
    "records/extraction/scan.py": _EXTRACTION,
    "records/extraction/traceback.py": _EXTRACTION,
    "records/extraction/versions.py": _EXTRACTION,
    "records/mining/_context.py": _MINING,
    "records/mining/_files.py": _MINING,
    "records/mining/_messages.py": _MINING,
    "records/mining/_report.py": _MINING,
    "records/mining/_sites.py": _MINING,
    "records/mining/_template.py": _MINING,
    "records/mining/_tree.py": _MINING,
    "records/mining/_explain/__init__.py": _EXPLAIN,
    "records/mining/_explain/_compose.py": _EXPLAIN,
    "records/mining/_explain/_conditions.py": _EXPLAIN,
    "records/mining/_explain/_docstrings.py": _EXPLAIN,
    "records/mining/_explain/_except.py": _EXPLAIN,
    "records/mining/_explain/_facts.py": _EXPLAIN,
    "records/mining/_explain/_message.py": _EXPLAIN,
    "records/mining/_explain/quality.py": _EXPLAIN,
}


def _statements(function: ast.FunctionDef | ast.AsyncFunctionDef) -> list[ast.stmt]:
    """Return a function's statements past its docstring, without ``pass`` and ``...``."""
    return [
        s
        for s in function.body
        if not isinstance(s, ast.Pass) and not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))
    ]


def _does_more_than_one_thing(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    body = _statements(function)
    return len(body) > 1 or any(isinstance(s, _BLOCKS) for s in body)


def logic_of(path: Path) -> list[str]:
    """Return the names of the functions and methods of a module that have logic (see the rule above)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    functions = (n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef))
    return [f.name for f in functions if _does_more_than_one_thing(f)]


def mirrored_test_module(source: Path) -> Path:
    """Return the test module a source module (relative to the project root) maps to."""
    folders = [part.lstrip("_") for part in source.parts[:-1]]
    if source.name == "__init__.py":
        return Path("tests", *folders[:-1], f"test_{folders[-1]}.py")
    return Path("tests", *folders, f"test_{source.stem.lstrip('_')}.py")


def source_modules() -> list[Path]:
    """Return every module of the source packages, relative to the project root."""
    return [path.relative_to(ROOT) for package in SOURCE_PACKAGES for path in sorted((ROOT / package).rglob("*.py"))]


def needs_a_test_module(source: Path) -> bool:
    """Tell whether the rule asks a test module for a source module (relative to the project root)."""
    logic = logic_of(ROOT / source)
    return bool(logic) and source.name != "__main__.py" and not (source.name == "__init__.py" and set(logic) <= HOOKS)


@cache  # parsed once per process: the allow-list check asks for every module
def modules_needing_tests() -> tuple[Path, ...]:
    """Return every source module the rule asks a test module for, relative to the project root."""
    return tuple(source for source in source_modules() if needs_a_test_module(source))


def modules_without_test_module() -> list[Path]:
    """Return the source modules whose mirrored test module does not exist (no parsing: collection asks)."""
    return [source for source in source_modules() if not (ROOT / mirrored_test_module(source)).is_file()]


ALLOWED = EXCEPTIONS | IN_FLIGHT | NOT_YET_SPLIT


# Only the modules without a test module can break the rule, so only they are parsed, and only when
# their test runs: parsing all 130 modules while collecting cost every test worker two seconds.
@pytest.mark.parametrize("source", modules_without_test_module(), ids=str)
def test_each_module_with_logic_has_its_test_module(source: Path) -> None:
    if source.as_posix() in ALLOWED:
        pytest.skip(ALLOWED[source.as_posix()])
    expected = mirrored_test_module(source)
    assert not needs_a_test_module(source), f"{source} has logic but no test module {expected}"


def test_the_allow_lists_only_name_modules_that_still_need_them() -> None:
    needing = {s.as_posix(): s for s in modules_needing_tests()}
    stale = [name for name in ALLOWED if name not in needing or (ROOT / mirrored_test_module(needing[name])).is_file()]
    assert stale == [], "remove these from the allow-lists: they have their test module or no logic now"
    assert len(ALLOWED) == len(EXCEPTIONS) + len(IN_FLIGHT) + len(NOT_YET_SPLIT), "a module is in two lists"


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("records/matching/align.py", "tests/records/matching/test_align.py"),
        ("bot/cli/ask_cmd.py", "tests/bot/cli/test_ask_cmd.py"),
        ("bot/exts/answers/_throttle.py", "tests/bot/exts/answers/test_throttle.py"),
        ("records/mining/_explain/_facts.py", "tests/records/mining/explain/test_facts.py"),
        ("bot/cli/__init__.py", "tests/bot/test_cli.py"),
        ("storage/migrations/__init__.py", "tests/storage/test_migrations.py"),
    ],
)
def test_the_mapping(source: str, expected: str) -> None:
    assert mirrored_test_module(Path(source)) == Path(expected)


def test_what_counts_as_logic(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text(
        '"""Doc."""\nX = 1\n\n\nclass Model:\n    @property\n    def name(self) -> str:\n        """Doc."""\n'
        "        return 'x'\n\n\ndef stub() -> None: ...\n\n\n"
        "def check(x: int) -> int:\n    if x:\n        return 1\n    return 0\n\n\n"
        "def two(x: int) -> int:\n    y = x + 1\n    return y\n"
    )
    assert logic_of(module) == ["check", "two"]
    module.write_text('"""A facade."""\nfrom os import path\n\n__all__ = ["path"]\n')
    assert logic_of(module) == []
