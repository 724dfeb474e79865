"""``records mine --library NAME==VERSION`` end to end through ``main()``, without starting pip.

pip's own behaviour (a download, its error lines) is shown in test_wheels.py, pip running offline;
here it would add 0.7 s a test and show nothing more. The command is a function, ``main(argv)``,
so nothing can be passed into it: the ``published`` fixture replaces the one function the command
calls, ``bot.cli.mine_cmd.fetch_release``, with the real one given a download that copies the
test's wheel (the unpacking, mining and import are the real ones). The failures of pip itself go
through the real ``fetch_release`` and ``download_wheel``, ``subprocess.run`` answering as pip does.

The layouts of a PATH (package directory, unpacked wheel, checkout) are pinned in test_mine_sources.py.
"""

from __future__ import annotations

import functools
import subprocess
from pathlib import Path

import pytest

from bot.cli import main, mine_cmd, wheels
from records.mining import libraries
from records.mining.libraries import Library
from records.model import Record
from records.reader import LoadedRecord, read_file
from tests.bot.cli.conftest import WheelIndex, damage_member

INIT = "def load(path):\n    raise ValueError(f'Could not load the file {path}')\n"
TORCH = "import struct\n\n\ndef save_file(tensors):\n    raise TypeError('Expected a dict of [str, torch.Tensor]')\n"


def _records(path: Path) -> list[Record]:
    return [item.record for item in read_file(path) if isinstance(item, LoadedRecord)]


@pytest.fixture
def published(wheel_index: WheelIndex, temp_root: Path, monkeypatch: pytest.MonkeyPatch) -> WheelIndex:
    """Let ``records mine --library`` get the wheels a test publishes without pip (see the module docstring)."""
    monkeypatch.setattr(
        mine_cmd, "fetch_release", functools.partial(wheels.fetch_release, download=wheel_index.download)
    )
    return wheel_index


def _failure(capsys: pytest.CaptureFixture[str], tmp_path: Path, *argv: str) -> str:
    """Run a ``records mine`` that must fail; return its one error line, checking nothing was written or left.

    The test asks for ``temp_root`` (``tmp_path / "tmp"``), itself or through ``published``.
    """
    db = tmp_path / "t.db"
    assert main(["records", "mine", *argv, "--db", str(db)]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("tracebot: error: --library"), err
    assert not db.exists()  # the database was not even opened: no partial import
    assert list((tmp_path / "tmp").iterdir()) == []  # the download and the unpacked wheel are gone
    return err.removeprefix("tracebot: error: ").rstrip("\n")


def test_a_known_library_s_release_is_mined_with_its_repository_paths_and_tag(
    published: WheelIndex, temp_root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    published.add("safetensors", "9.9.9", {"safetensors/__init__.py": INIT, "safetensors/torch.py": TORCH,
                                           "safetensors/_safetensors_rust.abi3.so": b"\x7fELF"})  # fmt: skip
    db = tmp_path / "t.db"
    assert main(["records", "mine", "--library", "safetensors==9.9.9", "--db", str(db), "--workers", "1"]) == 0
    assert capsys.readouterr().out == "2 added, 0 updated, 0 unchanged\n"
    assert main(["records", "export", "--db", str(db), "--out", str(tmp_path / "all.jsonl")]) == 0
    records = {r.error_message: r for r in _records(tmp_path / "all.jsonl")}
    typed = records["Expected a dict of [str, torch.Tensor]"]
    assert typed.repo == "huggingface/safetensors"
    assert typed.file_path == "bindings/python/py_src/safetensors/torch.py"
    assert typed.line_number == 5
    assert typed.github_url == (  # the link pins the release's tag and shows the source window
        "https://github.com/huggingface/safetensors/blob/v9.9.9/bindings/python/py_src/safetensors/torch.py#L1-L6"
    )
    assert records["Could not load the file {path}"].file_path == "bindings/python/py_src/safetensors/__init__.py"
    assert published.downloads == [wheels.Release("safetensors", "9.9.9")]
    assert list(temp_root.iterdir()) == []  # the download and the unpacked wheel are gone


def test_a_bare_version_tag_and_a_distribution_name_unlike_the_package(published: WheelIndex, tmp_path: Path) -> None:
    published.add("bitsandbytes", "0.45.0", {"bitsandbytes/__init__.py": INIT, "bitsandbytes_extra/__init__.py": INIT})
    out = tmp_path / "bnb.jsonl"
    assert main(["records", "mine", "--library", "BitsAndBytes==0.45.0", "--out", str(out), "--workers", "1"]) == 0
    (record,) = _records(out)
    assert (
        record.github_url
        == "https://github.com/bitsandbytes-foundation/bitsandbytes/blob/0.45.0/bitsandbytes/__init__.py#L1-L3"
    )


def test_an_unknown_library_takes_its_repository_and_tag_from_the_options(
    published: WheelIndex, tmp_path: Path
) -> None:
    published.add("acme-tools", "1.2", {"acme_tools/__init__.py": INIT})
    out = tmp_path / "acme.jsonl"
    argv = ["records", "mine", "--library", "acme-tools==1.2", "--repo", "acme/tools", "--ref", "release-1.2",
            "--src-prefix", "src", "--out", str(out), "--workers", "1"]  # fmt: skip
    assert main(argv) == 0
    (record,) = _records(out)
    assert record.github_url == "https://github.com/acme/tools/blob/release-1.2/src/acme_tools/__init__.py#L1-L3"
    assert record.library_version == "1.2"


def test_an_unknown_library_without_its_repository_is_refused_before_downloading(
    published: WheelIndex, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    published.add("acme-tools", "1.2", {"acme_tools/__init__.py": INIT})
    line = _failure(capsys, tmp_path, "--library", "acme-tools==1.2")
    assert line == "--library acme-tools==1.2: not a library tracebot knows; give its --repo OWNER/NAME and --ref TAG"
    assert published.downloads == []


@pytest.mark.parametrize("spelling", ["safetensors", "safetensors>=0.4", "safetensors=0.4.5", "safetensors==0.4,<1"])
def test_a_bad_spelling_is_one_line(
    published: WheelIndex, tmp_path: Path, capsys: pytest.CaptureFixture[str], spelling: str
) -> None:
    line = _failure(capsys, tmp_path, "--library", spelling)
    assert line == f"--library: expected NAME==VERSION (one exact release), got {spelling!r}"
    assert published.downloads == []


# What pip 26 writes when the release does not exist; test_wheels.py shows the real pip saying it.
NOT_FOUND = (
    "ERROR: Could not find a version that satisfies the requirement safetensors==0.0.1 (from versions: 0.4.5)\n"
    "ERROR: No matching distribution found for safetensors==0.0.1\n"
)


@pytest.mark.parametrize(
    ("answer", "reason"),
    [
        (subprocess.CompletedProcess([], 1, "", NOT_FOUND),
         "the wheel did not download (No matching distribution found for safetensors==0.0.1)"),
        (subprocess.TimeoutExpired([], wheels.DOWNLOAD_TIMEOUT), "pip did not download the wheel within 900 s"),
    ],
    ids=["pip fails", "pip too slow"],
)  # fmt: skip
def test_a_release_pip_does_not_download_is_one_line(
    temp_root: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    answer: subprocess.CompletedProcess[str] | subprocess.TimeoutExpired,
    reason: str,
) -> None:
    commands: list[list[str]] = []

    def pip(command: list[str], **options: object) -> subprocess.CompletedProcess[str]:
        commands.append(command)
        if isinstance(answer, Exception):
            raise answer
        return answer

    monkeypatch.setattr(subprocess, "run", pip)
    line = _failure(capsys, tmp_path, "--library", "safetensors==0.0.1")
    assert line == f"--library safetensors==0.0.1: {reason}"
    ((*_, release, option, dest),) = commands  # the real download_wheel ran, into the command's temporary directory
    assert (release, option) == ("safetensors==0.0.1", "--dest")
    assert Path(dest).name == "wheel" and Path(dest).parent.parent == temp_root


def test_a_wheel_that_is_not_a_zip_is_one_line(
    published: WheelIndex, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (published.links / "safetensors-0.4.5-py3-none-any.whl").write_bytes(b"<html>503</html>")
    line = _failure(capsys, tmp_path, "--library", "safetensors==0.4.5")
    assert line == "--library safetensors==0.4.5: the wheel did not unpack (File is not a zip file)"


def test_a_wheel_that_does_not_unpack_is_one_line(
    published: WheelIndex, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # pip reads only the metadata of a wheel it downloads: a damaged package file gets past it.
    wheel = published.add("safetensors", "0.4.5", {"safetensors/__init__.py": INIT, "safetensors/torch.py": TORCH})
    damage_member(wheel, "Expected a dict")
    line = _failure(capsys, tmp_path, "--library", "safetensors==0.4.5")
    assert line == "--library safetensors==0.4.5: the wheel did not unpack (Bad CRC-32 for file 'safetensors/torch.py')"


def test_a_wheel_with_no_python_package_is_one_line(
    published: WheelIndex, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    published.add("safetensors", "0.4.5", {"safetensors.py": INIT, "safetensors_data/weights.json": "{}"})
    line = _failure(capsys, tmp_path, "--library", "safetensors==0.4.5")
    assert line == "--library safetensors==0.4.5: the wheel holds no Python package (no <package>/__init__.py)"


def test_a_library_s_own_parts_alone_are_mined(
    published: WheelIndex, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    parts = (Library("torchlike", "example/torchlike", "", include=("torchlike/nn/", "torchlike/serialization.py")),)
    monkeypatch.setattr(libraries, "KNOWN_LIBRARIES", {library.name: library for library in parts})
    published.add("torchlike", "1.0", {"torchlike/__init__.py": INIT, "torchlike/nn/linear.py": TORCH,
                                       "torchlike/serialization.py": INIT, "torchlike/_dynamo/x.py": INIT})  # fmt: skip
    out = tmp_path / "out.jsonl"
    argv = ["records", "mine", "--library", "torchlike==1.0", "--out", str(out), "--workers", "1"]
    assert main(argv) == 0
    assert sorted(r.file_path or "" for r in _records(out)) == ["torchlike/nn/linear.py", "torchlike/serialization.py"]
    assert "files: 2 seen" in capsys.readouterr().err
    # --include given on the command line wins over the library's parts.
    assert main([*argv, "--include", "torchlike/_dynamo/"]) == 0
    assert [r.file_path for r in _records(out)] == ["torchlike/_dynamo/x.py"]
    assert main([*argv, "--include", "torchlike/nowhere/"]) == 1
    assert capsys.readouterr().err.endswith("no Python files to mine under torchlike/nowhere/\n")
