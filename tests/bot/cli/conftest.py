"""Fixtures of the command-line tests: tiny wheels, their directory, and a temporary-directory root.

pip reads the directory offline, or a fake download hands its wheels over without pip. None of these
fixtures is autouse: only the tests that ask for one get it.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import zipfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bot.cli.wheels import Release
from records.mining.libraries import canonical_name


def build_wheel(path: Path, name: str, version: str, files: Mapping[str, str | bytes]) -> Path:
    """Write a minimal wheel holding ``files`` (archive name -> content) and its dist-info."""
    info = f"{name.replace('-', '_')}-{version}.dist-info"
    metadata = f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n"
    tags = "Wheel-Version: 1.0\nGenerator: tracebot-tests\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    # Stored, not deflated: a test can then damage a member's bytes where they stand.
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as wheel:
        for member, content in {**files, f"{info}/METADATA": metadata, f"{info}/WHEEL": tags}.items():
            wheel.writestr(member, content)
        wheel.writestr(f"{info}/RECORD", "")
    return path


def damage_member(wheel: Path, text: str) -> None:
    """Change one byte of a stored member's content, so its CRC no longer matches (the zip still opens)."""
    data = wheel.read_bytes()
    at = data.index(text.encode())
    wheel.write_bytes(data[:at] + b"#" + data[at + 1 :])


def wheel_name(name: str, version: str) -> str:
    """Return the file name of a pure-Python wheel of ``name==version``, however the name is spelled."""
    return f"{canonical_name(name).replace('-', '_')}-{version}-py3-none-any.whl"


@dataclass(frozen=True)
class WheelIndex:
    """A directory of wheels: pip downloads from it offline, or :meth:`download` hands them over without pip."""

    links: Path
    downloads: list[Release] = field(default_factory=list)  # what :meth:`download` was asked for

    def add(self, name: str, version: str, files: Mapping[str, str | bytes]) -> Path:
        """Publish a wheel of ``name==version`` holding ``files``; return its path."""
        return build_wheel(self.links / wheel_name(name, version), name, version, files)

    def download(self, release: Release, into: Path) -> Path:
        """Copy the release's wheel into ``into`` as pip does; a ``Downloader`` that starts no process."""
        self.downloads.append(release)
        wheel = self.links / wheel_name(release.name, release.version)
        assert wheel.is_file(), f"the test published no wheel of {release}"
        into.mkdir(parents=True)
        return Path(shutil.copy(wheel, into / wheel.name))


@pytest.fixture
def wheel_index(tmp_path: Path) -> WheelIndex:
    """Return an empty directory of wheels, for tests that download without pip."""
    links = tmp_path / "links"
    links.mkdir()
    return WheelIndex(links)


@pytest.fixture
def offline_index(wheel_index: WheelIndex, monkeypatch: pytest.MonkeyPatch) -> WheelIndex:
    """Point pip at the directory of wheels with no index (works without network)."""
    monkeypatch.setenv("PIP_NO_INDEX", "1")
    monkeypatch.setenv("PIP_FIND_LINKS", str(wheel_index.links))
    monkeypatch.setenv("PIP_CONFIG_FILE", os.devnull)  # no user or site pip.conf
    monkeypatch.delenv("PIP_INDEX_URL", raising=False)
    monkeypatch.delenv("PIP_EXTRA_INDEX_URL", raising=False)
    return wheel_index


@pytest.fixture
def temp_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Make ``tempfile`` create its directories here, so a test sees what a command leaves behind."""
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(tmp))
    return tmp
