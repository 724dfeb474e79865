"""Saving a built index beside the database and loading it back: the same index, or none at all."""

from __future__ import annotations

import hashlib
import json
import logging
import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from benchmarks.evalset import EVAL_DIR, read_jsonl, shipped_matcher, shipped_records
from records.matching import IndexEntry, Matcher, MatchIndex, persist
from records.matching.persist import IndexFileError
from tests.conftest import ROOT

REVISION = "7.56.0123456789abcdef"


@pytest.fixture(scope="module")
def built() -> MatchIndex:
    """The index of every shipped record (the one matcher shared by the tests: built once, never changed)."""
    return shipped_matcher().index


@pytest.fixture(scope="module")
def small() -> MatchIndex:
    """300 shipped records and two triage examples (entries that stand for a record), saved many times."""
    entries = [IndexEntry.from_record(record) for record in shipped_records()[:300]]
    first = entries[0]
    examples = [
        IndexEntry(id=f"{first.id}~ex{n}", error_message=text, alias_of=first.id, curated=False)
        for n, text in enumerate(("the widget {name} refused to start", "a message with no placeholder"), 1)
    ]
    return MatchIndex.build(entries + examples)


@pytest.fixture(scope="module")
def loaded(built: MatchIndex) -> MatchIndex:
    """The same index, saved and loaded back."""
    index = persist.loads(persist.dumps(built, REVISION), REVISION)
    assert index is not None
    return index


def _kin_state(index: MatchIndex) -> tuple[object, ...]:
    kin = index.kin()
    sorted_ = [
        (table.keys.tolist(), table.slots.tolist()) for table in (kin.texts, kin.openings, kin.versioned_openings)
    ]
    return *sorted_, list(kin.file_names), kin.curated


def _assert_same(loaded: MatchIndex, built: MatchIndex) -> None:
    # Attribute by attribute: a field added to the index and not saved fails here.
    assert vars(loaded).keys() == vars(built).keys()
    for name, value in vars(built).items():
        if name == "_kin":  # made from the rest when first asked for: the same once made
            assert _kin_state(loaded) == _kin_state(built)
            continue
        assert getattr(loaded, name) == value, name
    assert list(loaded._entry_of_id) == list(built._entry_of_id)  # the order entries were added in
    assert list(loaded._postings) == list(built._postings)


def test_a_loaded_index_with_examples_holds_exactly_what_the_build_made(small: MatchIndex) -> None:
    loaded = persist.loads(persist.dumps(small, REVISION), REVISION)
    assert loaded is not None
    _assert_same(loaded, small)
    assert [e.alias_of for e in persist.entries(loaded)][-2:] == [persist.entries(small)[0].id] * 2


@pytest.mark.sweep  # the whole shipped index, built, saved and loaded: untraced (tests/conftest.py)
def test_a_loaded_index_holds_exactly_what_the_build_made(built: MatchIndex, loaded: MatchIndex) -> None:
    _assert_same(loaded, built)


def _pastes() -> list[str]:
    """Evaluation pastes and record messages: matched, ambiguous, unmatched and not errors."""
    cases = read_jsonl(sorted(EVAL_DIR.glob("*.jsonl")))
    messages = [f"{r.error_class or 'Error'}: {r.error_message}" for r in shipped_records()[::300]]
    return [str(case["text"]) for case in cases[::15]] + messages


@pytest.mark.sweep  # the whole shipped index, built, saved and loaded: untraced (tests/conftest.py)
def test_a_loaded_index_answers_every_paste_as_the_built_one(built: MatchIndex, loaded: MatchIndex) -> None:
    fresh, saved = Matcher(built), Matcher(loaded)
    pastes = _pastes()
    assert len(pastes) > 80
    for paste in pastes:
        assert saved.match(paste) == fresh.match(paste), paste[:200]
    assert saved.search("assisted generation stateful", 10) == fresh.search("assisted generation stateful", 10)


def test_a_loaded_index_changes_as_a_built_one_does(small: MatchIndex) -> None:
    loaded = persist.loads(persist.dumps(small, REVISION), REVISION)
    fresh = MatchIndex.build(persist.entries(small))  # built anew: the module's fixture stays as it is
    assert loaded is not None
    new = IndexEntry(id="new1", error_message="the quantum flux capacitor refused {name}", error_class="ValueError")
    for index in (fresh, loaded):
        index.upsert([new])
        index.remove(persist.entries(small)[0].id)
    assert Matcher(loaded).match("ValueError: the quantum flux capacitor refused zeta").matches[0].id == "new1"
    assert vars(loaded) == vars(fresh)


def test_another_revision_or_other_code_is_not_loaded(small: MatchIndex, monkeypatch: pytest.MonkeyPatch) -> None:
    data = persist.dumps(small, REVISION)
    assert persist.loads(data, REVISION + "0") is None
    monkeypatch.setattr(persist, "code_digest", lambda: "0" * 64)
    assert persist.loads(data, REVISION) is None


def test_the_code_digest_covers_every_matching_module() -> None:
    package = Path(persist.__file__).parent
    assert {p.name for p in package.glob("*.py")} >= {"index.py", "template.py", "matcher.py", "persist.py"}
    assert len(persist.code_digest()) == 64


def _body(data: bytes) -> tuple[bytes, dict[str, object], bytes]:
    magic, header, body = data.split(b"\n", 2)
    return magic, json.loads(header), body


def _resealed(data: bytes, state: dict[str, object]) -> bytes:
    """Return file contents holding ``state`` under a header whose digest fits it (a well-formed lie)."""
    magic, header, _ = _body(data)
    body = json.dumps(state).encode()
    header["sha256"] = hashlib.sha256(body).hexdigest()
    return b"\n".join([magic, json.dumps(header).encode(), body])


@pytest.mark.parametrize(
    "damage",
    [
        pytest.param(lambda data: data[: len(data) // 2], id="truncated"),
        pytest.param(lambda data: data[:-1] + bytes([data[-1] ^ 1]), id="one-bit-flipped"),
        pytest.param(lambda data: b"", id="empty"),
        pytest.param(lambda data: b"\x80\x04\x95 not an index", id="a-pickle"),
        pytest.param(lambda data: data.replace(b"\n", b"\n{", 1), id="bad-header"),
        pytest.param(lambda data: data.replace(b"tracebot-index 1", b"tracebot-index 0", 1), id="other-format"),
    ],
)
def test_a_damaged_file_is_refused(small: MatchIndex, damage: object) -> None:
    data = damage(persist.dumps(small, REVISION))  # type: ignore[operator]
    with pytest.raises(IndexFileError):
        persist.loads(data, REVISION)


@pytest.mark.parametrize(
    "change",
    [
        pytest.param(lambda s: s["posting_lengths"].append(1), id="a-posting-too-many"),
        pytest.param(lambda s: s["slots"].reverse(), id="entries-in-another-order"),
        pytest.param(lambda s: s["entries"]["id"].pop(), id="a-column-short"),
        pytest.param(lambda s: s.pop("texts"), id="no-templates"),
        pytest.param(lambda s: s["entries"].update(line_number="ten"), id="a-column-of-the-wrong-type"),
        pytest.param(lambda s: s["denominators"].pop(), id="a-weight-missing"),
        pytest.param(lambda s: s["slots"].__setitem__(0, -1), id="a-negative-slot"),
        pytest.param(lambda s: s["entries"]["file_path"]["at"].__setitem__(0, -1), id="a-negative-position"),
        pytest.param(
            lambda s: s["entries"]["repo"]["at"].__setitem__(0, len(s["entries"]["repo"]["values"])),
            id="a-position-past-its-table",
        ),
        pytest.param(lambda s: s["entries"]["repo"].pop("values"), id="a-table-missing"),
        pytest.param(lambda s: s["slots"].__setitem__(0, 1), id="a-slot-taken-before-the-first"),
        pytest.param(lambda s: s["slots"].__setitem__(-1, len(s["texts"])), id="a-slot-past-the-templates"),
        pytest.param(lambda s: s["texts"].__setitem__(1, s["texts"][0]), id="a-template-listed-twice"),
        pytest.param(
            lambda s: s["slots"].__setitem__(-1, 0) if s["slots"].count(s["slots"][-1]) == 1 else None,
            id="a-template-left-without-members",
        ),
    ],
)
def test_a_well_sealed_but_malformed_body_is_refused(small: MatchIndex, change: object) -> None:
    data = persist.dumps(small, REVISION)
    state = json.loads(_body(data)[2])
    change(state)  # type: ignore[operator]
    with pytest.raises(IndexFileError):
        persist.loads(_resealed(data, state), REVISION)


def test_load_of_a_damaged_file_logs_why_and_gives_none(
    small: MatchIndex, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "t.db.index"
    path.write_bytes(persist.dumps(small, REVISION)[:1000])
    with caplog.at_level(logging.INFO, logger="records.matching.persist"):
        assert persist.load(path, REVISION) is None
    assert "it will be rebuilt" in caplog.text
    assert persist.load(tmp_path / "missing.index", REVISION) is None


def test_save_replaces_the_file_whole_and_leaves_no_temporary_file(small: MatchIndex, tmp_path: Path) -> None:
    path = tmp_path / "t.db.index"
    path.write_bytes(b"an older, damaged file")
    assert persist.save(small, path, REVISION)
    assert persist.load(path, REVISION) is not None
    assert [p.name for p in tmp_path.iterdir()] == ["t.db.index"]
    assert path.stat().st_mode & 0o777 == 0o644


def test_save_removes_what_killed_writers_left_and_only_that(small: MatchIndex, tmp_path: Path) -> None:
    path = tmp_path / "t.db.index"
    old, recent, other = (tmp_path / name for name in ("t.db.index.a1.tmp", "t.db.index.b2.tmp", "x.db.index.c3.tmp"))
    for leftover in (old, recent, other):
        leftover.write_bytes(b"half an index")
    long_ago = time.time() - persist.LEFTOVER_SECONDS - 60
    os.utime(old, (long_ago, long_ago))
    os.utime(other, (long_ago, long_ago))
    assert persist.save(small, path, REVISION)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.db.index", "t.db.index.b2.tmp", "x.db.index.c3.tmp"]


def test_save_into_a_directory_that_cannot_be_written_gives_false(small: MatchIndex, tmp_path: Path) -> None:
    not_a_directory = tmp_path / "file"
    not_a_directory.write_text("")
    assert not persist.save(small, not_a_directory / "t.db.index", REVISION)


def test_save_into_a_read_only_directory_gives_false_and_writes_nothing(tmp_path: Path) -> None:
    directory = tmp_path / "data"
    directory.mkdir()
    code = (
        "import sys; from pathlib import Path; from records.matching import IndexEntry, MatchIndex, persist\n"
        "index = MatchIndex.build([IndexEntry(id='a', error_message='a widget broke')])\n"
        "print(persist.save(index, Path(sys.argv[1]) / 't.db.index', 'r'))\n"
    )
    command = [sys.executable, "-c", code, str(directory)]
    if os.geteuid() == 0:  # chmod does not stop root: mount the directory read-only in a private namespace
        if shutil.which("unshare") is None or subprocess.run(["unshare", "-m", "true"], check=False).returncode:
            pytest.skip("running as root without a private mount namespace: nothing makes a directory read-only")
        mount = 'mount --bind "$0" "$0" && mount -o remount,ro,bind "$0" "$0" && exec "$@"'
        command = ["unshare", "-m", "sh", "-c", mount, str(directory), *command]
    else:
        directory.chmod(0o555)
    try:
        result = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, check=True, timeout=60)
    finally:
        directory.chmod(0o755)
    assert result.stdout.strip() == "False"
    assert list(directory.iterdir()) == []


def test_two_writers_at_once_leave_one_whole_file(small: MatchIndex, tmp_path: Path) -> None:
    path = tmp_path / "t.db.index"
    tiny = MatchIndex.build([IndexEntry(id="a", error_message="a widget broke")])
    failures: list[BaseException] = []

    def write(index: MatchIndex, revision: str) -> None:
        try:
            for _ in range(20):
                assert persist.save(index, path, revision)
        except BaseException as exc:  # handed to the test's thread
            failures.append(exc)

    writers = [threading.Thread(target=write, args=args) for args in ((small, REVISION), (tiny, "other"))]
    for writer in writers:
        writer.start()
    seen = 0
    while any(writer.is_alive() for writer in writers):
        if path.exists():
            data = path.read_bytes()  # a whole file, of one revision or the other, never a mixture
            seen += persist.loads(data, REVISION) is not None or persist.loads(data, "other") is not None
    for writer in writers:
        writer.join()
    assert not failures
    assert seen > 0
    assert persist.load(path, REVISION) is not None or persist.load(path, "other") is not None
    assert [p.name for p in tmp_path.iterdir()] == ["t.db.index"]


def test_an_index_changed_after_its_build_is_not_saved() -> None:
    index = MatchIndex.build([IndexEntry(id="a", error_message="a widget broke")])
    index.remove("a")
    with pytest.raises(ValueError, match="freshly built"):
        persist.dumps(index, REVISION)


def test_entries_are_given_in_the_order_they_were_added() -> None:
    first = IndexEntry(id="b", error_message="one {x}")
    entries = [first, first._replace(id="a"), IndexEntry(id="c", error_message="two")]
    assert persist.entries(MatchIndex.build(entries)) == entries
