"""``records mine --library NAME==VERSION`` end to end, with pip reading an offline directory of wheels.

The layouts of a PATH (package directory, unpacked wheel, checkout) are pinned in test_mine_sources.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli import main
from records.model import Record
from records.reader import LoadedRecord, read_file
from tests.bot.cli.conftest import OfflineIndex, damage_member

INIT = "def load(path):\n    raise ValueError(f'Could not load the file {path}')\n"
TORCH = "import struct\n\n\ndef save_file(tensors):\n    raise TypeError('Expected a dict of [str, torch.Tensor]')\n"


def _records(path: Path) -> list[Record]:
    return [item.record for item in read_file(path) if isinstance(item, LoadedRecord)]


def _failure(capsys: pytest.CaptureFixture[str], db: Path, *argv: str) -> str:
    """Run a ``records mine`` that must fail; return its one error line, checking nothing was written."""
    assert main(["records", "mine", *argv, "--db", str(db)]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("tracebot: error: --library"), err
    assert not db.exists()  # the database was not even opened: no partial import
    return err.removeprefix("tracebot: error: ").rstrip("\n")


def test_a_known_library_s_release_is_mined_with_its_repository_paths_and_tag(
    offline_index: OfflineIndex, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    offline_index.add("safetensors", "9.9.9", {"safetensors/__init__.py": INIT, "safetensors/torch.py": TORCH,
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
    assert list(offline_index.tmp.iterdir()) == []  # the download and the unpacked wheel are gone


def test_a_bare_version_tag_and_a_distribution_name_unlike_the_package(
    offline_index: OfflineIndex, tmp_path: Path
) -> None:
    offline_index.add(
        "bitsandbytes", "0.45.0", {"bitsandbytes/__init__.py": INIT, "bitsandbytes_extra/__init__.py": INIT}
    )
    out = tmp_path / "bnb.jsonl"
    assert main(["records", "mine", "--library", "BitsAndBytes==0.45.0", "--out", str(out), "--workers", "1"]) == 0
    (record,) = _records(out)
    assert (
        record.github_url
        == "https://github.com/bitsandbytes-foundation/bitsandbytes/blob/0.45.0/bitsandbytes/__init__.py#L1-L3"
    )


def test_an_unknown_library_takes_its_repository_and_tag_from_the_options(
    offline_index: OfflineIndex, tmp_path: Path
) -> None:
    offline_index.add("acme-tools", "1.2", {"acme_tools/__init__.py": INIT})
    out = tmp_path / "acme.jsonl"
    argv = ["records", "mine", "--library", "acme-tools==1.2", "--repo", "acme/tools", "--ref", "release-1.2",
            "--src-prefix", "src", "--out", str(out), "--workers", "1"]  # fmt: skip
    assert main(argv) == 0
    (record,) = _records(out)
    assert record.github_url == "https://github.com/acme/tools/blob/release-1.2/src/acme_tools/__init__.py#L1-L3"
    assert record.library_version == "1.2"


def test_an_unknown_library_without_its_repository_is_refused_before_downloading(
    offline_index: OfflineIndex, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    line = _failure(capsys, tmp_path / "t.db", "--library", "acme-tools==1.2")
    assert line == "--library acme-tools==1.2: not a library tracebot knows; give its --repo OWNER/NAME and --ref TAG"


@pytest.mark.parametrize("spelling", ["safetensors", "safetensors>=0.4", "safetensors=0.4.5", "safetensors==0.4,<1"])
def test_a_bad_spelling_is_one_line(
    offline_index: OfflineIndex, tmp_path: Path, capsys: pytest.CaptureFixture[str], spelling: str
) -> None:
    line = _failure(capsys, tmp_path / "t.db", "--library", spelling)
    assert line == f"--library: expected NAME==VERSION (one exact release), got {spelling!r}"


def test_a_release_pip_cannot_find_is_one_line(
    offline_index: OfflineIndex, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    offline_index.add("safetensors", "0.4.5", {"safetensors/__init__.py": INIT})
    line = _failure(capsys, tmp_path / "t.db", "--library", "safetensors==0.0.1")
    assert (
        line
        == "--library safetensors==0.0.1: the wheel did not download (No matching distribution found for safetensors==0.0.1)"
    )
    assert list(offline_index.tmp.iterdir()) == []


def test_a_wheel_that_is_not_a_zip_is_one_line(
    offline_index: OfflineIndex, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (offline_index.links / "safetensors-0.4.5-py3-none-any.whl").write_bytes(b"<html>503</html>")
    line = _failure(capsys, tmp_path / "t.db", "--library", "safetensors==0.4.5")
    assert line.startswith("--library safetensors==0.4.5: the wheel did not download (Wheel 'safetensors' located at ")


def test_a_wheel_that_does_not_unpack_is_one_line(
    offline_index: OfflineIndex, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # pip reads only the metadata of a wheel it downloads: a damaged package file gets past it.
    wheel = offline_index.add("safetensors", "0.4.5", {"safetensors/__init__.py": INIT, "safetensors/torch.py": TORCH})
    damage_member(wheel, "Expected a dict")
    line = _failure(capsys, tmp_path / "t.db", "--library", "safetensors==0.4.5")
    assert line == "--library safetensors==0.4.5: the wheel did not unpack (Bad CRC-32 for file 'safetensors/torch.py')"
    assert list(offline_index.tmp.iterdir()) == []


def test_a_wheel_with_no_python_package_is_one_line(
    offline_index: OfflineIndex, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    offline_index.add("safetensors", "0.4.5", {"safetensors.py": INIT, "safetensors_data/weights.json": "{}"})
    line = _failure(capsys, tmp_path / "t.db", "--library", "safetensors==0.4.5")
    assert line == "--library safetensors==0.4.5: the wheel holds no Python package (no <package>/__init__.py)"
    assert list(offline_index.tmp.iterdir()) == []
