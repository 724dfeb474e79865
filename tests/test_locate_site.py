"""benchmarks.locate_site: the lines of a raise site no miner reads, release by release."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from benchmarks.locate_site import locate, release_of, versions

SOURCE = """class _LazyConfigMapping(dict):
    def __getitem__(self, key):
        if key not in self._mapping:
            raise KeyError(key)
        return self._mapping[key]


class Other:
    def __getitem__(self, key):
        raise KeyError(key)
"""
PATH = "transformers/models/auto/configuration_auto.py"


def _wheel(directory: Path, release: str, source: str | None) -> None:
    with zipfile.ZipFile(directory / f"transformers-{release}-py3-none-any.whl", "w") as archive:
        archive.writestr(PATH if source is not None else "transformers/__init__.py", source or "")


def test_locate_finds_the_raise_of_the_named_method_only() -> None:
    assert locate(SOURCE, "_LazyConfigMapping.__getitem__", "KeyError") == (2, 4, 5)
    assert locate(SOURCE, "Other.__getitem__", "KeyError") == (9, 10, 10)
    assert locate(SOURCE, "_LazyConfigMapping.__getitem__", "ValueError") is None
    twice = SOURCE.replace("return self._mapping[key]", "raise KeyError(key)")
    assert locate(twice, "_LazyConfigMapping.__getitem__", "KeyError") is None  # ambiguous: left out


def test_locate_finds_a_function_nested_in_another_or_at_module_level() -> None:
    source = (
        "import jinja2\n\n\ndef _compile(template):\n    def raise_exception(message):\n"
        "        raise jinja2.exceptions.TemplateError(message)\n\n    return template\n\n\n"
        "def top(x):\n    raise ValueError(x)\n"
    )
    assert locate(source, "_compile.raise_exception", "TemplateError") == (5, 6, 6)
    assert locate(source, "top", "ValueError") == (11, 12, 12)
    assert locate(source, "raise_exception", "TemplateError") is None  # not at module level
    assert locate(source, "_cached|_compile.raise_exception", "TemplateError") == (5, 6, 6)  # a renamed owner


def test_versions_are_newest_first_with_pinned_links_and_skip_releases_without_the_site(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _wheel(tmp_path, "4.9.0", "\n\n" + SOURCE)
    _wheel(tmp_path, "4.10.1", SOURCE)
    _wheel(tmp_path, "4.11.0", None)
    _wheel(tmp_path, "4.8.0", SOURCE.replace("(self, key)", "(self, key: str)"))
    found, source = versions(tmp_path, PATH, "_LazyConfigMapping.__getitem__", "KeyError")
    assert [(v["version"], v["lineNumber"]) for v in found] == [("4.10.1", 4), ("4.9.0", 6), ("4.8.0", 4)]
    assert found[2]["sourceCode"].startswith("    def __getitem__(self, key: str):")
    assert found[0]["githubUrl"].endswith(f"/v4.10.1/src/{PATH}#L2-L5")
    assert source.startswith("    def __getitem__(self, key):") and source.endswith("return self._mapping[key]\n")
    assert "sourceCode" not in found[1]  # the same window as the newest release's
    assert "4.11.0: no single raise KeyError" in capsys.readouterr().err


def test_a_file_that_is_no_wheel_is_named() -> None:
    with pytest.raises(ValueError, match=r"notes\.txt: not a wheel file name"):
        release_of(Path("notes.txt"))
