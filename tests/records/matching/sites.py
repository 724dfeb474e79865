"""Raise sites and tracebacks that show them, for the matching tests that build small indexes."""

from __future__ import annotations

from typing import Any

from records.matching import IndexEntry


def traceback_at(path: str, line: int) -> str:
    """Return the opening of a traceback whose raising frame is ``path`` (in site-packages) at ``line``."""
    return (
        f'Traceback (most recent call last):\n  File "/venv/lib/python3.11/site-packages/{path}", line {line}, in f\n'
    )


def mined(id: str, message: str, path: str, line: int, **fields: Any) -> IndexEntry:
    """Return a mined ValueError of the repository o/lib raised at ``src/{path}``, ``line``."""
    return IndexEntry(id=id, error_message=message, error_class="ValueError", file_path=f"src/{path}",
                      line_number=line, repo="o/lib", curated=False, **fields)  # fmt: skip
