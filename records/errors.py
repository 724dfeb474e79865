"""Exceptions raised by the record domain.

    TracebotError
    ├── RecordFileError      a record file cannot be read at all (size, compression, encoding)
    └── RecordProblem        one record in a file is invalid (location, field, problem)

Messages name the file and position but never the offending value: record files can carry pasted
text, and pasted text can carry secrets that must not reach logs.
"""

from __future__ import annotations


class TracebotError(Exception):
    """Base class of every error tracebot reports to a person."""


class RecordFileError(TracebotError):
    """A record file that cannot be read as a whole."""

    def __init__(self, path: str, problem: str) -> None:
        super().__init__(f"{path}: {problem}")
        self.path = path
        self.problem = problem


class RecordProblem(TracebotError):
    """One invalid record: where it is, which field, and what is wrong with it."""

    def __init__(self, location: str, field: str, problem: str) -> None:
        super().__init__(f"{location}: {field}: {problem}")
        self.location = location
        self.field = field
        self.problem = problem
