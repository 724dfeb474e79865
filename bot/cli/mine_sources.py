"""Where ``tracebot records mine`` finds the source to mine, and the repository paths it gets.

A raise site's GitHub link is ``<repo>/blob/<ref>/<repository path>``, so the repository path of each
mined file must be right whatever the user points at:

- a package directory (``site-packages/transformers``, it holds ``__init__.py``): its files are
  ``<src prefix><package name>/...`` in the repository;
- an unpacked wheel (``transformers/`` beside ``transformers-5.24.0.dist-info/``) or any directory
  holding packages: ``<src prefix><package>/...``;
- a repository checkout (``pyproject.toml`` or ``setup.py``, packages under ``src/``): its ``src/``
  is walked and the paths start with ``src/``.

``--library NAME==VERSION`` downloads the wheel with pip (no dependencies) and mines it; the
repositories of the libraries users hit most are known, with their layout and tag format.
"""

from __future__ import annotations

import subprocess
import sys
import zipfile
from dataclasses import dataclass
from pathlib import Path

from records.errors import CliError


@dataclass(frozen=True, slots=True)
class Library:
    """A library's GitHub repository, where its package sits in it, and how its release tags read."""

    repo: str
    src_prefix: str
    tag: str  # format of a release's tag, with {version}


KNOWN_LIBRARIES = {
    "transformers": Library("huggingface/transformers", "src/", "v{version}"),
    "huggingface_hub": Library("huggingface/huggingface_hub", "src/", "v{version}"),
    "accelerate": Library("huggingface/accelerate", "src/", "v{version}"),
    "peft": Library("huggingface/peft", "src/", "v{version}"),
    "datasets": Library("huggingface/datasets", "src/", "{version}"),
    "diffusers": Library("huggingface/diffusers", "src/", "v{version}"),
    "trl": Library("huggingface/trl", "", "v{version}"),
    "safetensors": Library("huggingface/safetensors", "bindings/python/py_src/", "v{version}"),
    "tokenizers": Library("huggingface/tokenizers", "bindings/python/py_src/", "v{version}"),
    "bitsandbytes": Library("bitsandbytes-foundation/bitsandbytes", "", "{version}"),
    "sentence_transformers": Library("UKPLab/sentence-transformers", "", "v{version}"),
    "torch": Library("pytorch/pytorch", "", "v{version}"),
}


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


def parse_requirement(text: str) -> tuple[str, str]:
    """Split ``NAME==VERSION``; anything else is a one-line error."""
    name, sep, version = text.partition("==")
    if not sep or not name.strip() or not version.strip() or any(c in version for c in "<>=!~, "):
        raise CliError(f"--library: expected NAME==VERSION (an exact release), got {text!r}")
    return name.strip(), version.strip()


def download_wheel(name: str, version: str, into: Path) -> Path:
    """Download one release's wheel (no dependencies) with pip and unpack it; return the unpacked dir."""
    wheels = into / "wheel"
    command = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:",
               f"{name}=={version}", "-d", str(wheels)]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, check=False)  # noqa: S603 - our own argv
    found = sorted(wheels.glob("*.whl")) if wheels.is_dir() else []
    if done.returncode != 0 or not found:
        last = (done.stderr.strip().splitlines() or ["no wheel"])[-1]
        raise CliError(f"--library {name}=={version}: the wheel did not download ({last})")
    unpacked = into / "unpacked"
    try:
        with zipfile.ZipFile(found[0]) as wheel:
            wheel.extractall(unpacked)
    except (zipfile.BadZipFile, OSError) as exc:
        raise CliError(f"--library {name}=={version}: the wheel did not unpack ({exc})") from None
    return unpacked


def package_root(unpacked: Path, name: str) -> Path:
    """Return the importable package of an unpacked wheel (``sentence-transformers`` is ``sentence_transformers``)."""
    wanted = name.lower().replace("-", "_")
    candidates = [child for child in sorted(unpacked.iterdir()) if (child / "__init__.py").is_file()]
    for child in candidates:
        if child.name.lower() == wanted:
            return child
    if len(candidates) == 1:
        return candidates[0]
    raise CliError(f"--library {name}: the wheel holds no Python package named {wanted}")
