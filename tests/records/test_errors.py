"""The exception tree: one base class, messages that name where but not what, exit statuses."""

from __future__ import annotations

import inspect
import re

from records import errors
from records.errors import (
    CliError,
    DatabaseBusy,
    ImportAborted,
    PageFormatError,
    RecordProblem,
    StorageError,
    TracebotError,
    UnknownRecord,
    UnknownReport,
)


def drawn_parents() -> dict[str, str | None]:
    """Return each class's parent as the module docstring draws the tree (by the column of its name)."""
    assert errors.__doc__ is not None
    parents: dict[str, str | None] = {"TracebotError": None}
    stack = [(-1, "TracebotError")]
    for line in errors.__doc__.splitlines():
        found = re.search(r"── (\w+)", line)
        if found is None:
            continue
        while stack[-1][0] >= found.start():
            stack.pop()
        parents[found.group(1)] = stack[-1][1]
        stack.append((found.start(), found.group(1)))
    return parents


def test_the_docstring_draws_the_real_exception_tree() -> None:
    classes = [c for _, c in inspect.getmembers(errors, inspect.isclass) if c.__module__ == errors.__name__]
    real = {c.__name__: (c.__mro__[1].__name__ if c is not TracebotError else None) for c in classes}
    assert real == drawn_parents()
    assert all(issubclass(c, TracebotError) for c in classes)


def test_messages_name_the_place_and_keep_the_parts() -> None:
    problem = RecordProblem("seeds.jsonl:3", "lineNumber", "must be positive")
    assert str(problem) == "seeds.jsonl:3: lineNumber: must be positive"
    assert (problem.location, problem.field, problem.problem) == ("seeds.jsonl:3", "lineNumber", "must be positive")
    page = PageFormatError("no title line")
    assert str(page) == "<page>: no title line" and page.path == "<page>"
    assert str(ImportAborted("x.jsonl:1: id: missing")).endswith(
        "(--strict: import aborted, the database was not changed)"
    )
    assert str(UnknownReport(7)) == "no triage report with id 7" and UnknownReport(7).report_id == 7
    assert str(UnknownRecord("abc")) == "no record with id or slug 'abc'"


def test_exit_statuses() -> None:
    assert StorageError("x").exit_status == 1
    assert DatabaseBusy("locked").exit_status == 2  # worth retrying
    cli = CliError("bad option", status=2)
    assert cli.exit_status == cli.status == 2 and CliError("x").exit_status == 1
