"""``records mine`` on a package directory, a wheel root and a checkout gives repository paths and links."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from bot.cli import main
from bot.cli.mine_sources import resolve_source
from records.errors import CliError
from records.reader import LoadedRecord, read_file

TREE = Path(__file__).resolve().parents[2] / "data" / "mining" / "tree" / "pkg"


@pytest.fixture
def layouts(tmp_path: Path) -> dict[str, Path]:
    """The same package as a site-packages directory, an unpacked wheel and a repository checkout."""
    site = tmp_path / "site-packages"
    shutil.copytree(TREE, site / "pkg")
    wheel = tmp_path / "wheel"
    shutil.copytree(TREE, wheel / "pkg")
    (wheel / "pkg-1.0.dist-info").mkdir()
    checkout = tmp_path / "checkout"
    shutil.copytree(TREE, checkout / "src" / "pkg")
    (checkout / "pyproject.toml").write_text("[project]\nname = 'pkg'\n")
    shutil.copytree(TREE, checkout / "tests" / "pkg_copy")  # a checkout's tests are not mined
    return {"package": site / "pkg", "wheel": wheel, "checkout": checkout}


@pytest.mark.parametrize("layout", ["package", "wheel", "checkout"])
def test_every_layout_gives_the_repository_path(layouts: dict[str, Path], layout: str) -> None:
    source = resolve_source(layouts[layout], "src/")
    assert source.prefix in {"src/pkg/", "src/"}
    assert (source.root / "generation" / "utils.py").is_file() or (source.root / "pkg" / "generation").is_dir()


@pytest.mark.parametrize("layout", ["package", "wheel", "checkout"])
def test_records_mined_from_every_layout_link_to_src_pkg(layouts: dict[str, Path], layout: str, tmp_path: Path) -> None:
    out = tmp_path / f"{layout}.jsonl"
    status = main(["records", "mine", str(layouts[layout]), "--repo", "o/pkg", "--ref", "v1.0",
                   "--src-prefix", "src/", "--out", str(out)])  # fmt: skip
    assert status == 0
    records = [item.record for item in read_file(out) if isinstance(item, LoadedRecord)]
    assert records
    for record in records:
        assert record.file_path is not None and record.file_path.startswith("src/pkg/"), record.file_path
        assert record.github_url is not None and "/blob/v1.0/src/pkg/" in record.github_url


def test_a_path_that_is_none_of_these_is_one_clear_line(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("hello")
    with pytest.raises(CliError, match="not a package directory, an unpacked wheel or a repository checkout"):
        resolve_source(tmp_path, "")


def test_path_and_library_together_are_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["records", "mine", str(tmp_path), "--library", "peft==0.13.2", "--repo", "a/b", "--ref", "v"]) == 1
    assert "one of the two" in capsys.readouterr().err
