"""How the evaluation judges a real paste's answer (``benchmarks.evaluate.real_right``)."""

from __future__ import annotations

from typing import Any

from benchmarks.evaluate import Rewordings, raisers_of, real_right
from records.matching import IndexEntry, Matcher, MatchIndex
from records.model import Record
from tests.conftest import make_record

OLDER = "The checkpoint has model type `{kind}` but this library does not recognize this architecture."
NEWER = OLDER + "\n\nYou can update it with `pip install --upgrade lib`."


def _record(record_id: str, message: str, path: str, releases: list[str]) -> Record:
    versions = [{"version": v, "lineNumber": 10 + k} for k, v in enumerate(releases)]
    raw = make_record(id=record_id, errorMessage=message, messagePattern=None, filePath=path, origin="mined",
                      libraryVersion=releases[0], versions=versions)  # fmt: skip
    return Record.model_validate(raw)


RECORDS = [
    _record("newer", NEWER, "src/lib/auto.py", ["5.0", "4.48"]),
    _record("older", OLDER, "src/lib/auto.py", ["4.47", "4.30"]),
    _record("moved", OLDER, "src/lib/legacy.py", ["4.30"]),
]


def _matcher(*records: Record) -> Matcher:
    return Matcher(MatchIndex.build(IndexEntry.from_record(r) for r in records))


def _case(template: str, path: str = "src/lib/auto.py") -> dict[str, Any]:
    return {"errorClass": "ValueError", "template": template, "filePath": path, "alsoRaisedIn": []}


def test_the_labelled_site_in_another_release_s_wording_is_right() -> None:
    matcher = _matcher(RECORDS[1])  # only the older wording: the answer holds no record of the label's text
    result = matcher.match(
        "ValueError: The checkpoint has model type `x` but this library does not recognize this architecture."
    )
    case = _case(NEWER)
    assert not real_right(matcher, case, result)
    assert real_right(matcher, case, result, rewordings=Rewordings(RECORDS))


def test_a_wording_of_the_same_releases_or_another_file_is_no_rewording() -> None:
    same_releases = _record("same", OLDER + " Really.", "src/lib/auto.py", ["5.0"])
    elsewhere = _record("elsewhere", OLDER, "src/lib/other.py", ["4.47"])
    rewordings = Rewordings([RECORDS[0], same_releases, elsewhere])
    for record in (same_releases, elsewhere):
        matcher = _matcher(record)
        result = matcher.match(f"ValueError: {OLDER.replace('{kind}', 'x')} Really.")
        assert result.best is not None and result.best.id == record.id
        assert not real_right(matcher, _case(NEWER), result, rewordings=rewordings)


def test_an_older_release_raising_the_text_in_another_file_is_right_without_a_frame() -> None:
    matcher = _matcher(RECORDS[2])
    paste = "ValueError: The checkpoint has model type `x` but this library does not recognize this architecture."
    result = matcher.match(paste)
    assert not real_right(matcher, _case(OLDER), result)
    assert real_right(matcher, _case(OLDER), result, raisers_of(RECORDS))
    framed = 'Traceback (most recent call last):\n  File "/venv/site-packages/lib/auto.py", line 3, in f\n' + paste
    assert not real_right(matcher, _case(OLDER), matcher.match(framed), raisers_of(RECORDS))  # its frame says where
