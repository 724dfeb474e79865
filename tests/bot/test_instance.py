"""A second ``tracebot run`` on one database stops with one line naming the first."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli._instance import lock_path, only_instance
from records.errors import CliError

ROOT = Path(__file__).resolve().parents[2]


def test_a_second_holder_is_refused_naming_the_first(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    with only_instance(db):
        assert lock_path(db).read_text() == str(os.getpid())
        with (
            pytest.raises(CliError, match=rf"another `tracebot run` \(pid {os.getpid()}\) is using"),
            only_instance(db),
        ):
            pass
    with only_instance(db):  # released: the next run may start
        pass


def test_tracebot_run_beside_a_running_one_is_one_line_and_exit_1(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TRACEBOT_", "DISCORD_"))}
    env |= {"DISCORD_TOKEN": "x" * 30, "TRACEBOT_DISCORD_API_URL": "http://127.0.0.1:9/api/v10"}
    with only_instance(db):  # the first `tracebot run`
        done = subprocess.run([sys.executable, "-m", "bot", "run", "--db", str(db)], capture_output=True, text=True,
                              cwd=ROOT, env=env, timeout=120, check=False)  # fmt: skip
    assert done.returncode == 1
    [line] = [line for line in done.stderr.splitlines() if line.startswith("tracebot:")]
    assert "another `tracebot run`" in line and str(db) in line
