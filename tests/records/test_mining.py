"""Mining records from source: templates, record fields, bad input, determinism, shipped data."""

from __future__ import annotations

import gzip
import json
import os
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import re2
from hypothesis import given
from hypothesis import strategies as st

from bot.cli import main
from records.mining import (
    MiningReport,
    Placeholder,
    SkippedFile,
    format_report,
    mine_tree,
    render_template,
    split_template,
    write_records,
)
from records.mining import _tree as tree_module
from records.mining._sites import error_type, path_tags
from records.mining._template import normalise, template_pattern, template_text
from records.model import Record

ROOT = Path(__file__).resolve().parents[2]
FIXTURE_TREE = ROOT / "tests" / "data" / "mining" / "tree"
GENERATION = FIXTURE_TREE / "pkg" / "generation" / "utils.py"
DATA = ROOT / "records" / "data"
SHIPPED_FILE = DATA / "transformers.jsonl.gz"
SHIPPED = ("5.24.0", "4.57.6")  # the releases its sites list
SAMPLE_VALUES = ["Foo", "3", "'x'", "torch.Size([2, 3])", "several words in a value", "line one\nline two"]


def _mine(root: Path, **options: Any) -> tuple[list[Record], MiningReport]:
    result = mine_tree(root, repo="acme/pkg", ref="v1.0", src_prefix="src/", library_version="1.0", **options)
    return result.records, result.report


@pytest.fixture(scope="module")
def fixture_records() -> list[Record]:
    """Records mined from the fixture tree."""
    return _mine(FIXTURE_TREE, workers=1)[0]


def _by_message(records: Sequence[Record], start: str) -> Record:
    found = [r for r in records if r.error_message.startswith(start)]
    assert len(found) == 1, [r.error_message for r in found]
    return found[0]


def _line_of(path: Path, text: str) -> int:
    """Return the 1-based line of the ``raise`` whose statement contains ``text``."""
    lines = path.read_text().split("\n")
    hit = next(i for i, line in enumerate(lines) if text in line)
    return next(i for i in range(hit, -1, -1) if lines[i].lstrip().startswith("raise")) + 1


def _self_matches(record: Record) -> bool:
    """Tell whether the record's pattern matches its template rendered with every sample value."""
    pattern = re2.compile(record.message_pattern or "")
    parts = split_template(record.error_message)  # once: splitting is most of the time over ~13k records
    for sample in SAMPLE_VALUES:
        rendered = "".join(part if isinstance(part, str) else sample for part in parts)
        if not pattern.fullmatch(rendered):
            return False
    return True


# --- message templates ----------------------------------------------------------------------------

TEMPLATES = [
    (
        "num_return_sequences has to be 1",
        "ValueError",
        "num_return_sequences has to be 1 when doing assisted generate, but is {num_return_sequences}.",
    ),
    (
        "assisted generation",
        "ValueError",
        "assisted generation is not supported with stateful models, such as {self.__class__.__name__}",
    ),
    ("The hidden size", "ValueError", "The hidden size ({hidden}) is not a multiple of heads ({heads})"),
    ("hidden is", "ValueError", "hidden is {hidden}, 100% wrong"),
    ("{name} has", "ValueError", "{name} has a negative size {size}"),
    ("Empty input", "TypeError", "Empty input for {name}: pass at least one item"),
    ("No file at", "FileNotFoundError", "No file at {path}."),
    ("this operation", "NotImplementedError", "this operation is not supported"),
    ("cache {cache}", "CacheError", "cache {cache} is missing"),
    ("the configuration", "errors.ConfigError", "the configuration is wrong"),
    ("strict configuration", "errors.StrictConfigError", "strict configuration is wrong"),
    ("unknown key", "KeyError", "unknown key {key}; known keys are {sorted(mapping)}"),
    ("You need to install", "ModuleNotFoundError", "You need to install the optional dependency"),
    ("The width", "ValueError", "The width must be even.\nPass an even width."),
    ("sizes must", "ValueError", "sizes must be in {{2, 4, 8}}, got {width}\nsee the docs"),
    ("assisted decoding", "CacheError", "assisted decoding requires a cache"),
    ("the LLaMA", "OSError", "the LLaMA tokenizer needs a vocab_file"),
]


@pytest.mark.parametrize(("start", "error_class", "template"), TEMPLATES)
def test_message_templates(fixture_records: list[Record], start: str, error_class: str, template: str) -> None:
    record = _by_message(fixture_records, start)
    assert (record.error_class, record.error_message) == (error_class, template)


def test_template_round_trip_with_braces_in_expressions() -> None:
    parts = normalise(["a {literal} ", Placeholder("{'k': 1}"), " and ", Placeholder("d['}']"), "}"])
    template = template_text(parts)
    assert template == "a {{literal}} { {'k': 1} } and {d['}']}}}"
    assert split_template(template) == parts


EXPRESSIONS = [
    "x",
    "self.config.hidden_size",
    "{'a': 1}",
    "d['}']",
    'f"{y}"',
    "len(calls)",
    "type(m).__name__",
]


@given(
    st.lists(st.one_of(st.text(), st.sampled_from(EXPRESSIONS).map(Placeholder)), max_size=6),
    st.text(min_size=1),
)
def test_any_template_splits_back_and_matches_its_rendering(parts: list[str | Placeholder], value: str) -> None:
    parts = normalise(parts)
    template = template_text(parts)
    assert split_template(template) == parts
    assert re2.fullmatch(template_pattern(parts), render_template(template, lambda _expr: value))


# --- record fields --------------------------------------------------------------------------------


def test_record_fields_of_a_guarded_raise(fixture_records: list[Record]) -> None:
    record = _by_message(fixture_records, "assisted generation")
    line = _line_of(GENERATION, "assisted generation is not supported")
    assert record.line_number == line
    assert record.file_path == "src/pkg/generation/utils.py"
    assert (record.source_code_start, record.source_code_end) == (line - 8, line + 8)
    assert (
        record.github_url
        == f"https://github.com/acme/pkg/blob/v1.0/src/pkg/generation/utils.py#L{line - 8}-L{line + 8}"
    )
    assert "raise ValueError(" in (record.source_code or "")
    assert record.slug == "assisted-generation-is-not-supported-with-stateful"
    assert record.message_pattern == "(?s)assisted generation is not supported with stateful models, such as (.+?)"
    assert record.trigger_scenarios == (
        "When you call `model.validate()` and `self._is_stateful` is True and `checked` is set (not empty), "
        "in the branch where `generation_mode` == `'assisted'`."
    )
    assert record.documentation == (
        "`model.validate()` requires that `self._is_stateful` is False or `checked` is empty or None; otherwise it "
        "raises `ValueError`. The source says: “In assisted generation we need the ability to confirm tokens, which "
        "is not possible with stateful models.”"
    )
    assert record.generated == ["documentation", "triggerScenarios"]
    assert (record.enclosing_class, record.enclosing_function) == ("GenerationMixin", "validate")
    assert (record.error_type, record.severity, record.origin, record.schema_version) == (
        "validation",
        "error",
        "mined",
        2,
    )
    assert (record.repo, record.analyzed_sha, record.library_version) == ("acme/pkg", "v1.0", "1.0")
    assert record.tags == ["generation"]


def test_source_window_reaches_the_end_of_a_long_raise(tmp_path: Path) -> None:
    message = "".join(f'        "part {n} "\n' for n in range(12))
    root = _tree(tmp_path, {"m.py": f"def f():\n    raise ValueError(\n{message}    )\n\n\nx = 1\n"})
    [record], _report = _mine(root)
    assert (record.line_number, record.source_code_start, record.source_code_end) == (2, 1, 15)
    assert (record.source_code or "").endswith("    )\n")


def test_except_clause_is_a_trigger(fixture_records: list[Record]) -> None:
    assert _by_message(fixture_records, "unknown key").trigger_scenarios == "except KeyError"


@pytest.mark.parametrize(
    ("tag_path", "tags"),
    [
        ("generation/utils.py", ["generation"]),
        ("models/llama/modeling_llama.py", ["models", "llama", "modeling"]),
        ("models/gpt_neox/tokenization_gpt_neox_fast.py", ["models", "gpt-neox", "tokenization"]),
        ("trainer_pt_utils.py", ["trainer"]),
        ("pipelines/text_generation.py", ["pipelines"]),
        ("utils.py", []),
    ],
)
def test_path_tags(tag_path: str, tags: list[str]) -> None:
    assert path_tags(tag_path) == tags


@pytest.mark.parametrize(
    ("chain", "kind"),
    [
        (["ValueError"], "validation"),
        (["AssertionError"], "validation"),
        (["ModuleNotFoundError"], "import"),
        (["IOError"], "io"),
        (["AttributeError"], "lookup"),
        (["NotImplementedError"], "unsupported"),
        (["RuntimeError"], "runtime"),
        (["StrictConfigError", "ConfigError", "ValueError"], "validation"),
        (["HTTPException"], "other"),
    ],
)
def test_error_type(chain: list[str], kind: str) -> None:
    assert error_type(chain) == kind


def test_local_subclass_gets_the_error_type_of_its_base(fixture_records: list[Record]) -> None:
    assert _by_message(fixture_records, "static caches").error_type == "validation"


def test_skipped_raises_have_reasons() -> None:
    _records, report = _mine(FIXTURE_TREE, workers=1)
    reasons = {(s.line, s.reason) for s in report.skipped_raises}
    source = GENERATION.read_text()
    expected = {
        ("raise  # noqa", "bare re-raise"),
        ("raise error\n", "raise of a variable"),
        ("raise ValueError\n", "no message"),
        ('raise factory("built', "exception built by a function call"),
        ('raise ValueError(f"{error}")', "message built at run time"),
        ("raise ValueError(SHADOWED)", "message built at run time"),
    }
    for needle, reason in expected:
        assert (source[: source.index(needle)].count("\n") + 1, reason) in reasons
    assert report.raise_statements == report.records_emitted + len(report.skipped_raises)
    assert report.coverage() == 1.0


def test_identical_messages_in_a_file_get_distinct_ids(fixture_records: list[Record]) -> None:
    repeated = [r for r in fixture_records if r.error_message == "repeated message"]
    assert len(repeated) == 2
    assert repeated[0].id != repeated[1].id
    assert all(len(r.id) == 16 and int(r.id, 16) >= 0 for r in fixture_records)


def test_every_fixture_pattern_matches_its_rendered_message(fixture_records: list[Record]) -> None:
    assert all(_self_matches(r) for r in fixture_records)


# --- determinism ----------------------------------------------------------------------------------


def test_mining_twice_gives_the_same_records_and_bytes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    serial, _ = _mine(FIXTURE_TREE, workers=1)
    monkeypatch.setattr(tree_module, "MIN_FILES_FOR_WORKERS", 0)
    parallel, _ = _mine(FIXTURE_TREE, workers=2)
    assert [r.canonical_json() for r in serial] == [r.canonical_json() for r in parallel]
    write_records(serial, tmp_path / "a.jsonl.gz")
    write_records(reversed(parallel), tmp_path / "b.jsonl.gz")
    assert (tmp_path / "a.jsonl.gz").read_bytes() == (tmp_path / "b.jsonl.gz").read_bytes()
    assert (tmp_path / "a.jsonl.gz").read_bytes()[4:8] == b"\0\0\0\0"  # gzip mtime


def test_ids_depend_on_the_ref(fixture_records: list[Record]) -> None:
    other = mine_tree(FIXTURE_TREE, repo="acme/pkg", ref="v2.0", src_prefix="src/", workers=1).records
    assert {r.id for r in other}.isdisjoint({r.id for r in fixture_records})


def test_write_records_plain_json_lines_sorted_by_id(tmp_path: Path, fixture_records: list[Record]) -> None:
    out = tmp_path / "out.jsonl"
    write_records(fixture_records, out)
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [row["id"] for row in rows] == sorted(r.id for r in fixture_records)
    assert [Record.model_validate(row) for row in rows] == sorted(fixture_records, key=lambda r: r.id)


# --- bad input ------------------------------------------------------------------------------------


def _tree(tmp_path: Path, files: dict[str, bytes | str]) -> Path:
    root = tmp_path / "tree"
    for name, content in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content.encode() if isinstance(content, str) else content)
    root.mkdir(exist_ok=True)
    return root


GOOD = 'def f(x):\n    if x:\n        raise ValueError(f"bad value {x}")\n'


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        ('print "hello"\nraise ValueError, "python 2"\n', "syntax error (Python 2?)"),
        (b'raise ValueError("caf\xe9")\n', "encoding error"),
        (b"# -*- coding: no-such-codec -*-\nx = 1\n", "encoding error"),
        (b"x = 1\0\n", "null bytes in source"),
    ],
)
def test_unreadable_files_are_skipped_with_a_reason(tmp_path: Path, content: str | bytes, reason: str) -> None:
    root = _tree(tmp_path, {"pkg/bad.py": content, "pkg/good.py": GOOD})
    records, report = _mine(root)
    assert report.skipped_files == [SkippedFile("src/pkg/bad.py", reason)]
    assert [r.file_path for r in records] == ["src/pkg/good.py"]
    assert (report.files_seen, report.files_parsed) == (2, 1)


def test_a_huge_file_is_skipped_by_size_without_reading(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = _tree(tmp_path, {"pkg/good.py": GOOD})
    with open(root / "pkg" / "generated.py", "wb") as handle:
        handle.truncate(50 * 1024 * 1024)  # sparse: 50 MB on paper, nothing on disk
    real_open = open

    def guarded_open(file: Any, *args: Any, **kwargs: Any) -> Any:  # open()'s own many overloads
        assert not str(file).endswith("generated.py"), "a too-large file was opened"
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr("builtins.open", guarded_open)
    records, report = _mine(root, workers=1)
    assert report.skipped_files == [SkippedFile("src/pkg/generated.py", "too large (52428800 bytes > 5242880)")]
    assert len(records) == 1


def test_the_size_limit_is_a_parameter(tmp_path: Path) -> None:
    root = _tree(tmp_path, {"pkg/good.py": GOOD})
    _records, report = _mine(root, max_file_bytes=10)
    assert report.skipped_files[0].reason == f"too large ({len(GOOD)} bytes > 10)"


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symlinks")
def test_symlink_loops_are_not_followed(tmp_path: Path) -> None:
    root = _tree(tmp_path, {"pkg/good.py": GOOD})
    (root / "pkg" / "up").symlink_to(root, target_is_directory=True)
    (root / "pkg" / "a.py").symlink_to(root / "pkg" / "b.py")
    (root / "pkg" / "b.py").symlink_to(root / "pkg" / "a.py")
    (root / "pkg" / "gone.py").symlink_to(root / "missing.py")
    (tmp_path / "elsewhere").mkdir()
    (root / "pkg" / "side").symlink_to(tmp_path / "elsewhere", target_is_directory=True)
    records, report = _mine(root)
    assert report.skipped_files == [
        SkippedFile("src/pkg/a.py", "symlink loop"),
        SkippedFile("src/pkg/b.py", "symlink loop"),
        SkippedFile("src/pkg/gone.py", "broken symlink"),
        SkippedFile("src/pkg/side/", "directory symlink (not followed)"),
        SkippedFile("src/pkg/up/", "symlink loop"),
    ]
    assert len(records) == 1


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_a_pipe_named_like_a_module_is_not_read(tmp_path: Path) -> None:
    root = _tree(tmp_path, {"pkg/good.py": GOOD})
    os.mkfifo(root / "pkg" / "pipe.py")
    _records, report = _mine(root)
    assert report.skipped_files == [SkippedFile("src/pkg/pipe.py", "not a regular file")]


def test_non_python_files_are_ignored(tmp_path: Path) -> None:
    files: dict[str, bytes | str] = {
        "README.md": "raise ValueError('no')",
        "pkg/data.json": "{}",
        "pkg/x.pyc": b"\0",
    }
    root = _tree(tmp_path, {**files, "pkg/good.py": GOOD, ".git/hook.py": GOOD, "pkg/__pycache__/c.py": GOOD})
    records, report = _mine(root)
    assert (report.files_seen, len(records), report.skipped_files) == (1, 1, [])


def test_an_empty_tree_gives_no_records_and_says_so(tmp_path: Path) -> None:
    records, report = _mine(_tree(tmp_path, {}))
    assert (records, report.files_seen, report.raise_statements, report.coverage()) == ([], 0, 0, 0.0)
    assert "nothing to mine" in format_report(report)


def test_a_missing_root_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        _mine(tmp_path / "absent")


def test_message_of_only_placeholders_is_skipped(tmp_path: Path) -> None:
    root = _tree(tmp_path, {"m.py": "def f(e):\n    raise ValueError(f'{e}') from e\n"})
    records, report = _mine(root)
    assert records == []
    assert report.reasons() == {"message built at run time": 1}


# --- report and command line ----------------------------------------------------------------------


def test_format_report_lists_counts_reasons_and_files(tmp_path: Path) -> None:
    root = _tree(tmp_path, {"pkg/bad.py": 'print "x"\n', "pkg/good.py": GOOD + "\ndef g():\n    raise\n"})
    _records, report = _mine(root)
    text = format_report(report, max_raises=5)
    assert "files: 2 seen, 1 parsed, 1 skipped" in text
    assert "raise statements: 2; records emitted: 1" in text
    assert "coverage 100.0%" in text
    assert "src/pkg/bad.py: syntax error (Python 2?)" in text
    assert "src/pkg/good.py:6: bare re-raise" in text


def test_command_line_writes_records_and_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out.jsonl.gz"
    args = ["records", "mine", str(FIXTURE_TREE), "--repo", "acme/pkg", "--ref", "v1.0", "--src-prefix", "src/"]
    assert main([*args, "--out", str(out), "--report", "--workers", "1"]) == 0
    with gzip.open(out, "rt", encoding="utf-8") as handle:
        assert len(handle.readlines()) == 20
    captured = capsys.readouterr()
    assert "bare re-raise" in captured.err
    assert "wrote 20 records" in captured.out


def test_command_line_reports_a_missing_directory(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["records", "mine", str(tmp_path / "nope"), "--repo", "a/b", "--ref", "v1", "--out", str(tmp_path / "o")]
    assert main(args) == 1
    assert "not a directory" in capsys.readouterr().err


# --- the shipped transformers record sets ---------------------------------------------------------


@cache
def _sites() -> tuple[Record, ...]:
    # Read once per test process: several tests look into each release (records are frozen).
    with gzip.open(SHIPPED_FILE, "rt", encoding="utf-8") as handle:
        return tuple(Record.model_validate_json(line) for line in handle)


@cache
def _shipped(version: str) -> tuple[Record, ...]:
    """Return the shipped transformers sites one release raises, located as that release has them."""
    return tuple(r.at_version(version) for r in _sites() if any(v.version == version for v in r.versions))


@pytest.fixture(scope="module", params=sorted(SHIPPED))
def shipped(request: pytest.FixtureRequest) -> tuple[str, tuple[Record, ...]]:
    """One shipped record set: its library version and records."""
    return request.param, _shipped(request.param)


@pytest.mark.sweep
def test_shipped_patterns_match_their_rendered_messages(shipped: tuple[str, tuple[Record, ...]]) -> None:
    version, records = shipped
    failures = [r.id for r in records if not _self_matches(r)]
    assert len(records) > 5000
    assert failures == [], f"{len(failures)} of {len(records)} patterns do not match in {version}"


def test_shipped_records_are_mined_from_their_release(shipped: tuple[str, tuple[Record, ...]]) -> None:
    version, records = shipped
    assert {(r.library_version, r.analyzed_sha, r.origin, r.repo) for r in records} == {
        (version, f"v{version}", "mined", "huggingface/transformers")
    }
    assert len({r.id for r in records}) == len(records)


@pytest.mark.parametrize(
    ("version", "path", "line", "start"),
    [
        (
            "5.24.0",
            "src/transformers/generation/utils.py",
            1888,
            "assisted generation is not supported with stateful",
        ),
        ("5.24.0", "src/transformers/exporters/utils.py", 969, "decompose_prefill_decode expected at least"),
        (
            "4.57.6",
            "src/transformers/generation/utils.py",
            1523,
            "assisted generation is not supported with stateful",
        ),
    ],
)
def test_shipped_sets_hold_the_seed_errors(version: str, path: str, line: int, start: str) -> None:
    # The seed README gives the line of the message text (one below the ``raise`` line mined here).
    record = _by_message(_shipped(version), start)
    assert (record.file_path, record.line_number) == (path, line)
    assert f"#L{line - 8}-" in (record.github_url or "")


@pytest.mark.sweep
def test_removed_error_is_not_in_the_shipped_sets() -> None:
    for version in SHIPPED:
        assert not any(r.error_message == "assisted decoding requires a cache" for r in _shipped(version))
