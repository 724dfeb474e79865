"""``tracebot ask``: text, --json and --batch over the shipped seeds."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from bot.cli import main
from tests.conftest import SEED_IDS, SEEDS_JSONL, make_record

STATEFUL = "ValueError: assisted generation is not supported with stateful models, such as MambaForCausalLM"


@pytest.fixture
def dbfile(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    path = str(tmp_path / "ask.db")
    assert main(["records", "import", str(SEEDS_JSONL), "--db", path]) == 0
    capsys.readouterr()
    return path


def test_ask_text(capsys: pytest.CaptureFixture[str], dbfile: str) -> None:
    assert main(["ask", STATEFUL, "--db", dbfile]) == 0
    out = capsys.readouterr().out
    assert out.startswith("ValueError: assisted generation is not supported")
    assert "Remove `assistant_model`" in out and "Matched with score" in out


def test_ask_json_shape(capsys: pytest.CaptureFixture[str], dbfile: str) -> None:
    assert main(["ask", "--json", STATEFUL, "--db", dbfile]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["status"] == "matched"
    match = data["matches"][0]
    assert {"id", "score", "errorClass", "errorMessage", "filePath", "why"} <= set(match)
    assert match["id"] == SEED_IDS["stateful"]
    assert data["extracted"] == {
        "errorClass": "ValueError",
        "message": "assisted generation is not supported with stateful models, such as MambaForCausalLM",
        "frames": [],
    }


def test_ask_reads_stdin(capsys: pytest.CaptureFixture[str], dbfile: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("RuntimeError: assisted decoding requires a cache\n"))
    assert main(["ask", "--json", "--db", dbfile]) == 0
    assert json.loads(capsys.readouterr().out)["matches"][0]["id"] == SEED_IDS["cache"]


def test_ask_chat_is_not_an_error(capsys: pytest.CaptureFixture[str], dbfile: str) -> None:
    assert main(["ask", "--json", "how do I fine-tune llama?", "--db", dbfile]) == 0
    assert json.loads(capsys.readouterr().out)["status"] == "not_an_error"


def test_batch(capsys: pytest.CaptureFixture[str], dbfile: str, tmp_path: Path) -> None:
    batch = tmp_path / "in.jsonl"
    batch.write_text(
        json.dumps({"id": "a", "text": STATEFUL}) + "\n"
        + json.dumps({"id": "b", "text": "hello there"}) + "\n"
        + "{not json\n"
        + json.dumps({"id": "c"}) + "\n"
    )  # fmt: skip
    assert main(["ask", "--batch", str(batch), "--db", dbfile]) == 1  # two bad lines
    captured = capsys.readouterr()
    rows = [json.loads(line) for line in captured.out.splitlines()]
    assert [(r["id"], r["status"]) for r in rows] == [("a", "matched"), ("b", "not_an_error")]
    assert f"{batch}:3: malformed JSON" in captured.err
    assert f'{batch}:4: expected an object with a string "text"' in captured.err


def test_batch_missing_file(capsys: pytest.CaptureFixture[str], dbfile: str) -> None:
    assert main(["ask", "--batch", "/nonexistent.jsonl", "--db", dbfile]) == 1
    assert "tracebot: error: /nonexistent.jsonl: cannot read" in capsys.readouterr().err


AMBIGUOUS = "the frobnicator configuration cannot be combined with legacy sprocket assemblies\nsee the widget guide"


@pytest.fixture
def twofold(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    """A database with one message raised with two classes in two files: a paste without a class is ambiguous."""
    records = tmp_path / "two.jsonl"
    rows = [
        make_record(id="ra", errorMessage=AMBIGUOUS, messagePattern=None, errorClass="ValueError",
                    filePath="src/lib/alpha.py", lineNumber=10),
        make_record(id="rb", errorMessage=AMBIGUOUS, messagePattern=None, errorClass="TypeError",
                    filePath="src/lib/beta.py", lineNumber=20),
    ]  # fmt: skip
    records.write_text("".join(json.dumps(row) + "\n" for row in rows))
    path = str(tmp_path / "two.db")
    assert main(["records", "import", str(records), "--db", path]) == 0
    capsys.readouterr()
    return path


def test_ambiguous_answer_lists_candidates_one_per_line(capsys: pytest.CaptureFixture[str], twofold: str) -> None:
    assert main(["ask", AMBIGUOUS, "--db", twofold]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("Several records could explain this error")
    assert len(lines) == 3  # the two-line message is shown on one line per candidate
    assert [line.split()[0] for line in lines[1:]] == ["1.", "2."]  # numbered, as the console shows them
    assert {line.rsplit("id ", 1)[1].rstrip(")") for line in lines[1:]} == {"ra", "rb"}
    assert any("src/lib/alpha.py:10" in line for line in lines) and any("src/lib/beta.py:20" in line for line in lines)


def test_ask_json_gives_every_candidates_file(capsys: pytest.CaptureFixture[str], twofold: str) -> None:
    assert main(["ask", "--json", AMBIGUOUS, "--db", twofold]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["status"] == "ambiguous"
    assert {m["filePath"] for m in data["matches"]} == {"src/lib/alpha.py", "src/lib/beta.py"}
    assert all(m["alsoRaisedIn"] == [] for m in data["matches"])


def test_a_batch_line_with_a_lone_surrogate_is_answered_and_the_batch_goes_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    batch = tmp_path / "b.jsonl"
    batch.write_text('{"id": "a", "text": "ValueError: bad \\ud800 value"}\n{"id": "b", "text": "hello"}\n')
    assert main(["ask", "--db", str(tmp_path / "t.db"), "--batch", str(batch)]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert [json.loads(line)["id"] for line in lines] == ["a", "b"]
