"""Fixtures of the command-line tests: tiny wheels, and an offline package index that pip reads."""

from __future__ import annotations

import os
import tempfile
import zipfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest


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


@dataclass(frozen=True)
class OfflineIndex:
    """A directory of wheels that pip downloads from instead of PyPI, and the temporary directory root."""

    links: Path
    tmp: Path

    def add(self, name: str, version: str, files: Mapping[str, str | bytes]) -> Path:
        """Publish a wheel of ``name==version`` holding ``files``; return its path."""
        return build_wheel(self.links / f"{name.replace('-', '_')}-{version}-py3-none-any.whl", name, version, files)


@pytest.fixture
def offline_index(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> OfflineIndex:
    """Point pip at a local directory of wheels with no index (works without network) and isolate temp dirs."""
    links = tmp_path / "links"
    links.mkdir()
    monkeypatch.setenv("PIP_NO_INDEX", "1")
    monkeypatch.setenv("PIP_FIND_LINKS", str(links))
    monkeypatch.setenv("PIP_CONFIG_FILE", os.devnull)  # no user or site pip.conf
    monkeypatch.delenv("PIP_INDEX_URL", raising=False)
    monkeypatch.delenv("PIP_EXTRA_INDEX_URL", raising=False)
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(tmp))  # what the command leaves behind lands here
    return OfflineIndex(links, tmp)
