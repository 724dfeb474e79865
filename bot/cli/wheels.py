"""One release of a library, fetched from PyPI for ``tracebot records mine --library NAME==VERSION``.

pip downloads the release's wheel (no dependencies, wheels only) in a subprocess, then the Python
files of the wheel's package are unpacked into a directory the caller owns and removes. Each way
this fails is one :class:`~records.errors.CliError` line naming the release, raised before anything
is mined or written:

- the text is not one exact release (``peft>=0.13``);
- pip cannot get the wheel (no such version, no wheel for this Python, no network, a file pip finds
  invalid, no pip): the line ends with pip's last error line;
- pip takes longer than the timeout;
- the file is not a zip, or a member is damaged;
- the wheel holds no Python package (only modules, or only data).
"""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from records.errors import CliError
from records.mining.libraries import canonical_name, find_library

# Total time pip may take; pip's own --timeout (15 s) already ends a stalled connection. torch's
# Linux wheel is some 800 MB.
DOWNLOAD_TIMEOUT = 900.0


@dataclass(frozen=True, slots=True)
class Release:
    """One exact release of a PyPI project."""

    name: str
    version: str

    def __str__(self) -> str:
        return f"{self.name}=={self.version}"


Downloader = Callable[[Release, Path], Path]


def parse_release(text: str) -> Release:
    """Read ``NAME==VERSION``; anything else (a range, no version, no name) is one line."""
    name, sep, version = (part.strip() for part in text.partition("=="))
    if not sep or not name or not version or any(c in name + version for c in "<>=!~,; "):
        raise CliError(f"--library: expected NAME==VERSION (one exact release), got {text!r}")
    return Release(name, version)


def download_wheel(release: Release, into: Path, *, timeout: float = DOWNLOAD_TIMEOUT) -> Path:
    """Download the release's wheel with pip into ``into``; return the wheel file."""
    command = [sys.executable, "-m", "pip", "download", "--quiet", "--no-input", "--no-deps",
               "--only-binary=:all:", str(release), "--dest", str(into)]  # fmt: skip
    library = find_library(release.name)
    if library is not None and library.wheel_platform is not None:
        python = f"{sys.version_info.major}.{sys.version_info.minor}"
        command += ["--platform", library.wheel_platform, "--python-version", python]
    env = os.environ | {
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",  # its notice would be the last line
        # A download installs nothing: a cap on installs in the machine's pip configuration (such as
        # torch held at the release a VM keeps on disk) must not refuse a release only read here.
        "PIP_CONSTRAINT": os.devnull,
    }
    try:
        done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=timeout, check=False)  # noqa: S603 - our own argv
    except subprocess.TimeoutExpired:
        raise CliError(f"--library {release}: pip did not download the wheel within {timeout:.0f} s") from None
    except OSError as exc:
        raise CliError(f"--library {release}: pip could not be started ({exc.strerror})") from None
    wheels = sorted(into.glob("*.whl")) if into.is_dir() else []
    if done.returncode != 0 or not wheels:
        raise CliError(f"--library {release}: the wheel did not download ({_last_error(done.stderr)})")
    return wheels[0]


def _last_error(stderr: str) -> str:
    """Return pip's last error line (without ``ERROR:``), else its last line."""
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    errors = [line.removeprefix("ERROR:").strip() for line in lines if line.startswith("ERROR:")]
    return (errors or lines or ["pip found no wheel"])[-1]


def unpack_package(wheel: Path, release: Release, into: Path) -> Path:
    """Unpack the Python files of the wheel's package into ``into``; return the package directory."""
    try:
        with zipfile.ZipFile(wheel) as archive:
            package = _choose_package(archive.namelist(), release)
            members = [n for n in archive.namelist() if n.startswith(f"{package}/") and n.endswith(".py")]
            archive.extractall(into, members)  # zipfile drops absolute paths and ".." parts
    except (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError, OSError) as exc:
        raise CliError(f"--library {release}: the wheel did not unpack ({exc})") from None
    return into / package


def _choose_package(names: list[str], release: Release) -> str:
    """Return the wheel's top-level package named like the project, or its only one."""
    packages = sorted({name.split("/")[0] for name in names if name.count("/") == 1 and name.endswith("/__init__.py")})
    wanted = canonical_name(release.name).replace("-", "_")
    named = [package for package in packages if package.lower() == wanted]
    if named or len(packages) == 1:
        return (named or packages)[0]  # a wheel whose only package has another name: PyYAML's yaml
    if not packages:
        raise CliError(f"--library {release}: the wheel holds no Python package (no <package>/__init__.py)")
    raise CliError(f"--library {release}: the wheel holds no package named {wanted} (it has {', '.join(packages)})")


def fetch_release(release: Release, into: Path, download: Downloader = download_wheel) -> Path:
    """Download a release's wheel and unpack its package under ``into``; return the package directory."""
    wheel = download(release, into / "wheel")
    return unpack_package(wheel, release, into / "unpacked")
