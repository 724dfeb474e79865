"""Fetching one release's wheel: pip's download, unpacking, the package.

pip itself runs (offline, from a local directory) only where nothing else can show the behaviour: one
download that succeeds and one that fails with pip's own error lines, about 0.7 s each. What
``download_wheel`` makes of pip's other answers (an invalid wheel, no pip, a timeout) is shown with
``subprocess.run`` answering as pip does.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.cli.wheels import DOWNLOAD_TIMEOUT, Release, download_wheel, fetch_release, parse_release, unpack_package
from records.errors import CliError
from tests.bot.cli.conftest import WheelIndex, build_wheel, damage_member

RAISES = "def load(path):\n    raise ValueError(f'Could not load the file {path}')\n"


@pytest.mark.parametrize(
    ("text", "release"),
    [
        ("peft==0.13.2", Release("peft", "0.13.2")),
        (" sentence-transformers == 3.0.1 ", Release("sentence-transformers", "3.0.1")),
        ("torch==2.5.1+cu121", Release("torch", "2.5.1+cu121")),
    ],
)
def test_one_exact_release_is_read(text: str, release: Release) -> None:
    assert parse_release(text) == release
    assert str(release) == f"{release.name}=={release.version}"


@pytest.mark.parametrize("text", ["peft", "peft>=0.13", "==1.0", "peft==", "peft==1.0,<2", "peft=1.0", "peft===1.0"])
def test_anything_but_one_exact_release_is_one_line(text: str) -> None:
    with pytest.raises(CliError, match=r"^--library: expected NAME==VERSION \(one exact release\), got "):
        parse_release(text)


def test_the_package_s_python_files_are_unpacked(tmp_path: Path) -> None:
    wheel = build_wheel(tmp_path / "w.whl", "lib", "1.0", {
        "lib/__init__.py": RAISES, "lib/sub/mod.py": RAISES, "lib/_rust.abi3.so": b"\x7fELF",
        "other/__init__.py": RAISES, "lib/py.typed": "",
    })  # fmt: skip
    package = unpack_package(wheel, Release("lib", "1.0"), tmp_path / "out")
    assert package == tmp_path / "out" / "lib"
    unpacked = sorted(p.relative_to(tmp_path / "out").as_posix() for p in (tmp_path / "out").rglob("*") if p.is_file())
    assert unpacked == ["lib/__init__.py", "lib/sub/mod.py"]  # not the binary, the data or the other package


@pytest.mark.parametrize(
    ("name", "packages", "chosen"),
    [
        ("torch", ["functorch", "torch", "torchgen"], "torch"),
        ("sentence-transformers", ["sentence_transformers"], "sentence_transformers"),
        ("Huggingface_Hub", ["huggingface_hub"], "huggingface_hub"),
        ("PyYAML", ["yaml"], "yaml"),  # the only package, whatever its name
    ],
)
def test_the_package_named_like_the_project_is_chosen(
    tmp_path: Path, name: str, packages: list[str], chosen: str
) -> None:
    wheel = build_wheel(tmp_path / "w.whl", name, "1.0", {f"{p}/__init__.py": RAISES for p in packages})
    assert unpack_package(wheel, Release(name, "1.0"), tmp_path / "out").name == chosen


@pytest.mark.parametrize(
    ("files", "problem"),
    [
        ({"six.py": RAISES}, r"holds no Python package \(no <package>/__init__\.py\)"),
        ({"lib/data.json": "{}", "lib/sub/__init__.py": RAISES}, "holds no Python package"),
        ({"alpha/__init__.py": "", "beta/__init__.py": ""}, r"holds no package named lib \(it has alpha, beta\)"),
    ],
)
def test_a_wheel_without_the_python_package_is_one_line(tmp_path: Path, files: dict[str, str], problem: str) -> None:
    wheel = build_wheel(tmp_path / "w.whl", "lib", "1.0", files)
    with pytest.raises(CliError, match=f"^--library lib==1.0: the wheel {problem}"):
        unpack_package(wheel, Release("lib", "1.0"), tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_a_file_that_is_not_a_zip_is_one_line(tmp_path: Path) -> None:
    wheel = tmp_path / "lib-1.0-py3-none-any.whl"
    wheel.write_bytes(b"<html>503 Service Unavailable</html>")
    with pytest.raises(CliError, match=r"^--library lib==1.0: the wheel did not unpack \(File is not a zip file\)$"):
        unpack_package(wheel, Release("lib", "1.0"), tmp_path / "out")


def test_a_damaged_member_is_one_line(tmp_path: Path) -> None:
    wheel = build_wheel(tmp_path / "w.whl", "lib", "1.0", {"lib/__init__.py": RAISES})
    damage_member(wheel, "Could not load")
    with pytest.raises(CliError, match=r"the wheel did not unpack \(Bad CRC-32 for file 'lib/__init__.py'\)$"):
        unpack_package(wheel, Release("lib", "1.0"), tmp_path / "out")


def test_pip_downloads_the_wheel(offline_index: WheelIndex, tmp_path: Path) -> None:
    offline_index.add("lib", "1.0", {"lib/__init__.py": RAISES})
    offline_index.add("lib", "2.0", {"lib/__init__.py": RAISES})
    wheel = download_wheel(Release("lib", "1.0"), tmp_path / "dest")
    assert wheel == tmp_path / "dest" / "lib-1.0-py3-none-any.whl"
    assert sorted(p.name for p in (tmp_path / "dest").iterdir()) == [wheel.name]


def test_a_version_pip_cannot_find_ends_with_pip_s_last_error(offline_index: WheelIndex, tmp_path: Path) -> None:
    offline_index.add("lib", "1.0", {"lib/__init__.py": RAISES})
    with pytest.raises(CliError) as caught:  # pip says "Could not find a version ..." first, then this
        download_wheel(Release("lib", "9.9"), tmp_path / "dest")
    assert (
        str(caught.value)
        == "--library lib==9.9: the wheel did not download (No matching distribution found for lib==9.9)"
    )


class FakePip:
    """Stands in for ``subprocess.run``: notes each call, then answers as pip did or raises."""

    def __init__(self, status: int = 1, stderr: str = "", raises: Exception | None = None) -> None:
        self.status, self.stderr, self.raises = status, stderr, raises
        self.calls: list[tuple[list[str], dict[str, Any]]] = []

    def __call__(self, command: list[str], **options: Any) -> subprocess.CompletedProcess[str]:
        self.calls.append((command, options))
        if self.raises is not None:
            raise self.raises
        return subprocess.CompletedProcess(command, self.status, "", self.stderr)


@pytest.mark.parametrize(
    ("status", "stderr", "reason"),
    [
        # pip 26, offline, given a file that is not a zip (its only line; the path shortened).
        (1, "ERROR: Wheel 'lib' located at /links/lib-1.0-py3-none-any.whl is invalid.\n",
         "Wheel 'lib' located at /links/lib-1.0-py3-none-any.whl is invalid."),
        # A notice after the error (pip's version notice, were it on) is not the reason.
        (1, "ERROR: No matching distribution found for lib==1.0\nWARNING: There was an error checking the latest"
         " version of pip.\n", "No matching distribution found for lib==1.0"),
        # No pip in the environment: Python's own line, not an ERROR: one.
        (1, "/usr/bin/python3: No module named pip\n", "/usr/bin/python3: No module named pip"),
        (0, "", "pip found no wheel"),  # pip succeeded yet left no wheel
    ],
)  # fmt: skip
def test_pip_s_answer_is_one_line(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, status: int, stderr: str, reason: str
) -> None:
    pip = FakePip(status, stderr)
    monkeypatch.setattr(subprocess, "run", pip)
    with pytest.raises(CliError) as caught:
        download_wheel(Release("lib", "1.0"), tmp_path / "dest")
    assert str(caught.value) == f"--library lib==1.0: the wheel did not download ({reason})"
    ((command, options),) = pip.calls
    assert command[1:] == ["-m", "pip", "download", "--quiet", "--no-input", "--no-deps", "--only-binary=:all:",
                           "lib==1.0", "--dest", str(tmp_path / "dest")]  # fmt: skip
    assert options["env"]["PIP_DISABLE_PIP_VERSION_CHECK"] == "1"  # its notice would be the last line
    assert options["timeout"] == DOWNLOAD_TIMEOUT


def test_pip_taking_too_long_is_one_line(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    pip = FakePip(raises=subprocess.TimeoutExpired(["pip"], 12.0))  # subprocess.run has killed pip by then
    monkeypatch.setattr(subprocess, "run", pip)
    with pytest.raises(CliError, match=r"^--library lib==1.0: pip did not download the wheel within 12 s$"):
        download_wheel(Release("lib", "1.0"), tmp_path / "dest", timeout=12.0)
    ((_, options),) = pip.calls
    assert options["timeout"] == 12.0


def test_a_python_that_cannot_start_is_one_line(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(sys, "executable", str(tmp_path / "no-python"))
    with pytest.raises(CliError, match=r"^--library lib==1.0: pip could not be started \(No such file or directory\)$"):
        download_wheel(Release("lib", "1.0"), tmp_path / "dest")


def test_a_release_is_fetched_into_the_given_directory(tmp_path: Path) -> None:
    def download(release: Release, into: Path) -> Path:
        into.mkdir(parents=True)
        return build_wheel(into / f"{release.name}-{release.version}-py3-none-any.whl", release.name, "1.0",
                           {"lib/__init__.py": RAISES})  # fmt: skip

    package = fetch_release(Release("lib", "1.0"), tmp_path, download=download)
    assert package == tmp_path / "unpacked" / "lib"
    assert (package / "__init__.py").read_text() == RAISES


def test_torch_s_wheel_is_the_small_platform_s_with_no_install_cap(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    pip = FakePip(1, "ERROR: No matching distribution found for torch==2.15.0\n")
    monkeypatch.setattr(subprocess, "run", pip)
    with pytest.raises(CliError):
        download_wheel(Release("torch", "2.15.0"), tmp_path / "dest")
    ((command, options),) = pip.calls
    python = f"{sys.version_info.major}.{sys.version_info.minor}"
    assert command[-4:] == ["--platform", "macosx_14_0_arm64", "--python-version", python]
    # The machine's install cap (a constraint in pip's configuration) is replaced by an empty file.
    assert options["env"]["PIP_CONSTRAINT"] == os.devnull


def test_other_libraries_get_this_machine_s_wheel(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    pip = FakePip(1, "ERROR: No matching distribution found for peft==0.21.2\n")
    monkeypatch.setattr(subprocess, "run", pip)
    with pytest.raises(CliError):
        download_wheel(Release("peft", "0.21.2"), tmp_path / "dest")
    ((command, _),) = pip.calls
    assert "--platform" not in command
