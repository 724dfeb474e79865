"""The JSON shape of a match result (``tracebot ask --json`` and ``--batch``)."""

from __future__ import annotations

from typing import Any

from records.matching import Match, MatchResult


def match_json(match: Match) -> dict[str, Any]:
    """Return one answer in the documented JSON shape."""
    return {
        "id": match.id,
        "score": match.score,
        "errorClass": match.error_class,
        "errorMessage": match.error_message,
        "filePath": match.file_path,
        "lineNumber": match.line_number,
        "versions": list(match.versions),
        "lineVersions": list(match.line_versions),
        "alsoRaisedIn": list(match.other_files),
        "why": list(match.why),
    }


def result_json(result: MatchResult) -> dict[str, Any]:
    """Return ``{"status", "matches", "extracted"}`` for a match result."""
    error = result.error or result.extraction.primary
    extracted: dict[str, Any] = {"errorClass": None, "message": None, "frames": []}
    if error is not None:
        extracted = {
            "errorClass": error.error_class,
            "message": error.message,
            "frames": [{"path": f.path, "line": f.line, "function": f.function} for f in error.frames],
        }
    return {"status": result.status, "matches": [match_json(m) for m in result.matches], "extracted": extracted}
