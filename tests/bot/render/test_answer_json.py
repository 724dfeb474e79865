"""The JSON shape of a match result, as ``tracebot ask --json`` prints it."""

from __future__ import annotations

import json

from bot.render.answer_json import match_json, result_json
from records.extraction import extract
from records.matching import MatchResult
from tests.bot.samples import match

PASTE = (
    "Traceback (most recent call last):\n"
    '  File "/home/a/train.py", line 7, in main\n'
    "    run()\n"
    "KeyError: missing key lr\n"
)


def test_a_match_in_the_documented_camel_case_shape() -> None:
    shown = match_json(match("r1", 91.5, other_files=("src/lib/other.py",)))
    assert shown == {
        "id": "r1",
        "score": 91.5,
        "errorClass": "KeyError",
        "errorMessage": "missing key {name}",
        "filePath": "src/lib/core.py",
        "lineNumber": 10,
        "versions": ["4.57.6", "5.24.0"],
        "lineVersions": [],
        "alsoRaisedIn": ["src/lib/other.py"],
        "why": ["pattern matches"],
    }


def test_a_result_carries_its_status_matches_and_the_extracted_error() -> None:
    result = MatchResult("ambiguous", (match("r1"), match("r2", 80.0)), extract(PASTE))
    shown = result_json(result)
    assert shown["status"] == "ambiguous" and [m["id"] for m in shown["matches"]] == ["r1", "r2"]
    assert shown["extracted"] == {
        "errorClass": "KeyError",
        "message": "missing key lr",
        "frames": [{"path": "/home/a/train.py", "line": 7, "function": "main"}],
    }
    assert json.loads(json.dumps(shown)) == shown  # plain JSON types only


def test_text_that_is_not_an_error_has_an_empty_extraction() -> None:
    shown = result_json(MatchResult("not_an_error", (), extract("how do I fine-tune llama?")))
    assert shown == {
        "status": "not_an_error",
        "matches": [],
        "extracted": {"errorClass": None, "message": None, "frames": []},
    }
