"""``tracebot records``: the commands operators and scripts rely on."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.cli import build_parser, main
from tests.conftest import SEED_IDS, make_record


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture
def dbfile(tmp_path: Path) -> str:
    return str(tmp_path / "cli.db")


def test_import_show_list_stats(capsys: pytest.CaptureFixture[str], dbfile: str, seeds_dir: Path) -> None:
    status, out, _ = run(capsys, "records", "import", str(seeds_dir), "--db", dbfile)
    assert status == 0 and out.strip() == "3 added, 0 updated, 0 unchanged, 0 rejected"
    status, out, _ = run(capsys, "records", "import", str(seeds_dir), "--db", dbfile)
    assert "(nothing changed)" in out
    status, out, _ = run(capsys, "records", "show", SEED_IDS["cache"], "--db", dbfile)
    assert status == 0 and out.startswith("RuntimeError: assisted decoding requires a cache")
    slug = "assisted-generation-is-not-supported-with-stateful"
    status, out, _ = run(capsys, "records", "show", slug, "--json", "--db", dbfile)
    assert json.loads(out)["record"]["id"] == SEED_IDS["stateful"]
    status, out, _ = run(capsys, "records", "list", "--repo", "huggingface/transformers", "--json", "--db", dbfile)
    assert sorted(r["id"] for r in json.loads(out)) == sorted(SEED_IDS.values())
    status, out, _ = run(capsys, "records", "stats", "--json", "--db", dbfile)
    assert json.loads(out)["total"] == 3


def test_unknown_record_is_one_clear_line(capsys: pytest.CaptureFixture[str], dbfile: str) -> None:
    status, out, err = run(capsys, "records", "show", "nope", "--db", dbfile)
    assert status == 1 and out == ""
    assert err == "tracebot: error: no record with id or slug 'nope'\n"


def test_rejected_records_exit_1_with_locations(
    capsys: pytest.CaptureFixture[str], dbfile: str, write_jsonl: Callable[..., Path]
) -> None:
    path = write_jsonl([make_record(id="a"), make_record(id="b", lineNumber="abc")])
    status, out, err = run(capsys, "records", "import", str(path), "--db", dbfile)
    assert status == 1
    assert f"rejected: {path}:2: lineNumber: Input should be a valid integer" in err
    assert "1 added" in out


def test_strict_failure_is_one_line(
    capsys: pytest.CaptureFixture[str], dbfile: str, write_jsonl: Callable[..., Path]
) -> None:
    path = write_jsonl([make_record(id="a"), make_record(id="b", lineNumber="abc")])
    status, _, err = run(capsys, "records", "import", str(path), "--strict", "--db", dbfile)
    assert status == 1 and err.count("\n") == 1 and "database was not changed" in err
    _, out, _ = run(capsys, "records", "stats", "--json", "--db", dbfile)
    assert json.loads(out)["total"] == 0


def test_export_import_export_is_byte_identical(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, seeds_dir: Path, write_jsonl: Callable[..., Path]
) -> None:
    extra = write_jsonl([make_record(id="x1", futureField=[1, "two"]), make_record(id="x2", errorMessage="é ✓")])
    first_db, second_db = str(tmp_path / "a.db"), str(tmp_path / "b.db")
    run(capsys, "records", "import", str(seeds_dir), str(extra), "--db", first_db)
    for suffix in (".jsonl", ".jsonl.gz"):
        one, two = tmp_path / f"one{suffix}", tmp_path / f"two{suffix}"
        assert run(capsys, "records", "export", "--out", str(one), "--db", first_db)[0] == 0
        run(capsys, "records", "import", str(one), "--db", second_db + suffix)
        run(capsys, "records", "export", "--out", str(two), "--db", second_db + suffix)
        assert one.read_bytes() == two.read_bytes()
    assert '"futureField":[1,"two"]' in (tmp_path / "one.jsonl").read_text()


def test_shipped_seed_file_matches_the_published_seeds(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    shipped = Path(__file__).resolve().parents[3] / "records" / "data" / "seeds.jsonl"
    status, out, _ = run(capsys, "records", "import", str(shipped), "--db", str(tmp_path / "s.db"))
    assert status == 0 and out.startswith("3 added")


def _all_parsers(parser: argparse.ArgumentParser, path: str = "tracebot") -> list[tuple[str, argparse.ArgumentParser]]:
    found = [(path, parser)]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found.extend(_all_parsers(sub, f"{path} {name}"))
    return found


def test_every_command_has_help() -> None:
    parsers = _all_parsers(build_parser())
    assert len(parsers) > 5
    for path, parser in parsers:
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for choice in action._choices_actions:
                    assert choice.help, f"{path} {choice.dest} has no help"
        assert parser.format_help(), path


def test_help_exits_zero(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["records", "import", "--help"])
    assert info.value.code == 0
    assert "--strict" in capsys.readouterr().out
