"""Read the rendered page text form of a record (the ``000_...txt`` pages).

A page shows what a person reads: a title line ``repo · error · Class``, then sections (Error
message, What it means, Source, Solutions, Example fix, Defensive patterns, When it happens, Related
errors) and an analysis line naming the commit, the date and the record id. Sections may be missing
or out of order; a page gives what it shows and the rest stays empty.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from records.errors import PageFormatError

SECTION_TITLES = (
    "Error message",
    "What it means",
    "Source",
    "Solutions",
    "Example fix",
    "Defensive patterns",
    "When it happens",
    "Related errors",
)
_SECTION_SET = frozenset(SECTION_TITLES)
# Sub-headings inside "Defensive patterns"; they are not sections of their own.
_DEFENSIVE_HEADINGS = ("Strategy:", "Validate before calling", "Type guard", "Try / catch", "Prevention")

# Project-written patterns over trusted page layout, each linear (no nested quantifiers).
_TITLE = re.compile(r"^(?P<repo>[\w.-]+/[\w.-]+) · (?P<kind>[\w -]+) · (?P<cls>[\w.]+)\s*$")
_THROWN = re.compile(r"^Thrown at (?P<path>\S+?):(?P<line>\d+)\s*$")
_PINNED = re.compile(r"^View on GitHub \(pinned to (?P<sha>[0-9a-fA-F]{6,40})\)\s*$")
_ANALYSIS = re.compile(
    r"analysis of (?P<repo>[\w.-]+/[\w.-]+)@(?P<sha>[0-9a-fA-F]{6,40}) \((?P<date>\d{4}-\d{2}-\d{2})\)"
)
_DATA_ID = re.compile(r"Data as JSON: /api/errors/(?P<id>[A-Za-z0-9_.:-]+)")
_NUMBERED = re.compile(r"^\s*(\d+)\.\s+(?P<text>.*)$")


@dataclass
class _Page:
    title: str = ""
    headline: list[str] = field(default_factory=list)
    sections: dict[str, list[str]] = field(default_factory=dict)


def looks_like_page(text: str) -> bool:
    """Return True when the text starts with a page title line."""
    first = text.lstrip("\ufeff").lstrip().split("\n", 1)[0]
    return _TITLE.match(first) is not None


def parse_page(text: str) -> dict[str, Any]:
    """Parse a rendered page into a camelCase record dict (validated later by the model)."""
    page = _split_sections(text.replace("\r\n", "\n").lstrip("\ufeff"))
    title = _TITLE.match(page.title)
    if title is None:
        raise PageFormatError("first line is not a page title 'owner/repo · error · Class'")
    data: dict[str, Any] = {"repo": title["repo"], "errorClass": title["cls"]}
    data.update(_analysis_fields(text))
    _put(data, "errorMessage", _paragraphs(page.sections.get("Error message")))
    _put(data, "documentation", _paragraphs(page.sections.get("What it means")))
    data.update(_source_fields(page.sections.get("Source", []), data))
    data.update(_solutions(page.sections.get("Solutions", [])))
    _put(data, "exampleFix", _block(page.sections.get("Example fix")))
    data.update(_defensive_fields(page.sections.get("Defensive patterns", [])))
    data.update(_when_fields(page.sections.get("When it happens", [])))
    if "errorMessage" not in data and page.headline:
        # The headline under the title is a shortened message; better than nothing.
        data["errorMessage"] = " ".join(page.headline).strip()
    if all(k in data for k in ("repo", "analyzedSha", "filePath", "lineNumber")):
        data["githubUrl"] = _github_url(data)
    return data


def _split_sections(text: str) -> _Page:
    lines = text.split("\n")
    page = _Page(title=lines[0].strip() if lines else "")
    current: list[str] = page.headline
    for line in lines[1:]:
        name = line.strip()
        if name in _SECTION_SET and name not in page.sections:
            current = page.sections.setdefault(name, [])
            continue
        current.append(line)
    page.headline = [ln for ln in page.headline if ln.strip()]
    return page


def _put(data: dict[str, Any], key: str, value: str | None) -> None:
    if value:
        data[key] = value


def _paragraphs(lines: list[str] | None) -> str | None:
    if not lines:
        return None
    text = "\n".join(_drop_analysis(lines)).strip()
    return text or None


def _block(lines: list[str] | None) -> str | None:
    if not lines:
        return None
    trimmed = _drop_analysis(lines)
    while trimmed and not trimmed[-1].strip():
        trimmed.pop()
    while trimmed and not trimmed[0].strip():
        trimmed.pop(0)
    return "\n".join(trimmed) or None


def _drop_analysis(lines: list[str]) -> list[str]:
    """Cut the trailing analysis line off a section that happens to be last on the page."""
    return [ln for ln in lines if not _ANALYSIS.search(ln) and not _DATA_ID.search(ln)]


def _analysis_fields(text: str) -> dict[str, Any]:
    data: dict[str, Any] = {}
    analysis = _ANALYSIS.search(text)
    if analysis:
        data["analyzedSha"] = analysis["sha"]
        data["analyzedAt"] = analysis["date"]
    ident = _DATA_ID.search(text)
    if ident:
        data["id"] = ident["id"].rstrip(".")
    return data


def _source_fields(lines: list[str], known: dict[str, Any]) -> dict[str, Any]:
    data: dict[str, Any] = {}
    code: list[str] = []
    for line in lines:
        thrown = _THROWN.match(line.strip())
        pinned = _PINNED.match(line.strip())
        if thrown and "filePath" not in data:
            data["filePath"] = thrown["path"]
            data["lineNumber"] = int(thrown["line"])
        elif pinned:
            if "analyzedSha" not in known:
                data["analyzedSha"] = pinned["sha"]
        else:
            code.append(line)
    _put(data, "sourceCode", _block(code))
    return data


def _solutions(lines: list[str]) -> dict[str, Any]:
    items: list[str] = []
    for line in _drop_analysis(lines):
        numbered = _NUMBERED.match(line)
        if numbered:
            items.append(numbered["text"].strip())
        elif line.strip() and items:
            items[-1] = f"{items[-1]} {line.strip()}"
        elif line.strip():
            items.append(line.strip())
    return {"solutions": items} if items else {}


def _defensive_fields(lines: list[str]) -> dict[str, Any]:
    parts: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in _drop_analysis(lines):
        stripped = line.strip()
        heading = next((h for h in _DEFENSIVE_HEADINGS if stripped.startswith(h)), None)
        if heading is None:
            if current is not None:
                current.append(line)
            continue
        if heading == "Strategy:":
            parts["strategy"] = [stripped.removeprefix("Strategy:").strip()]
            current = None
        else:
            current = parts.setdefault(heading, [])
    data: dict[str, Any] = {}
    _put(data, "handlingStrategy", " ".join(parts.get("strategy", [])).strip())
    _put(data, "validationCode", _block(parts.get("Validate before calling")))
    _put(data, "typeGuard", _block(parts.get("Type guard")))
    _put(data, "tryCatchPattern", _block(parts.get("Try / catch")))
    tips = [ln.strip().lstrip("-• ").strip() for ln in parts.get("Prevention", []) if ln.strip()]
    if tips:
        data["preventionTips"] = tips
    return data


def _when_fields(lines: list[str]) -> dict[str, Any]:
    data: dict[str, Any] = {}
    for line in _drop_analysis(lines):
        stripped = line.strip()
        if stripped.startswith("Trigger:"):
            data["triggerScenarios"] = stripped.removeprefix("Trigger:").strip()
        elif stripped.startswith("Common situations:"):
            data["commonSituations"] = stripped.removeprefix("Common situations:").strip()
    return data


def _github_url(data: dict[str, Any]) -> str:
    # Pages show only the raise line; the link pins it to the analysed commit.
    return f"https://github.com/{data['repo']}/blob/{data['analyzedSha']}/{data['filePath']}#L{data['lineNumber']}"
