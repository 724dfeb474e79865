"""Where ``tracebot records mine`` finds the source to mine, and the repository paths it gets.

A raise site's GitHub link is ``<repo>/blob/<ref>/<repository path>``, so the repository path of each
mined file must be right whatever the user points at:

- a package directory (``site-packages/transformers``, it holds ``__init__.py``): its files are
  ``<src prefix><package name>/...`` in the repository;
- an unpacked wheel (``transformers/`` beside ``transformers-5.24.0.dist-info/``) or any directory
  holding packages: ``<src prefix><package>/...``;
- a repository checkout (``pyproject.toml`` or ``setup.py``, packages under ``src/``): its ``src/``
  is walked and the paths start with ``src/``.

``--library NAME==VERSION`` mines the package of a release's wheel (fetched by ``bot.cli.wheels``)
as a package directory, with the repository, layout and tag of ``records.mining.libraries``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from records.errors import CliError


@dataclass(frozen=True, slots=True)
class Source:
    """The directory to walk and the repository path prefix of the files under it."""

    root: Path
    prefix: str


def resolve_source(path: Path, src_prefix: str) -> Source:
    """Return what to walk for ``path`` and the prefix that turns its files into repository paths."""
    if not path.is_dir():
        raise CliError(f"{path}: not a directory")
    prefix = src_prefix if not src_prefix or src_prefix.endswith("/") else src_prefix + "/"
    if (path / "__init__.py").is_file():
        return Source(path, f"{prefix}{path.name}/")  # a package: keep its name in the path
    if _is_checkout(path):
        src = path / prefix.rstrip("/") if prefix else path / "src"
        if src.is_dir():
            return Source(src, f"{src.relative_to(path).as_posix()}/")
        return Source(path, "")
    if any(child.is_dir() and (child / "__init__.py").is_file() for child in path.iterdir()):
        return Source(path, prefix)  # an unpacked wheel, or a directory of packages
    raise CliError(
        f"{path}: not a package directory, an unpacked wheel or a repository checkout "
        "(no __init__.py, no package inside, no pyproject.toml or setup.py)"
    )


def _is_checkout(path: Path) -> bool:
    return any((path / name).is_file() for name in ("pyproject.toml", "setup.py", "setup.cfg"))
