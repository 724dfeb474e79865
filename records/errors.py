"""Every exception tracebot reports to a person, in one tree (as httpx draws its own).

    TracebotError
    ├── RecordFileError      a record file cannot be read at all (size, compression, encoding)
    │   └── PageFormatError  the text is not a rendered record page
    ├── RecordProblem        one record in a file is invalid (location, field, problem)
    ├── ImportAborted        a strict import stopped at its first problem; nothing was written
    ├── StorageError         the database cannot be used
    │   ├── DatabaseTooNew   the file was written by a newer tracebot (schema ahead of ours)
    │   ├── DatabaseCorrupt  the file is not a SQLite database, or fails its integrity check
    │   ├── DatabaseBusy     another process held the write lock for longer than a write waits
    │   └── DatabaseMoved    the database file was deleted or replaced under a running bot
    ├── TriageError          a triage request that cannot be carried out; nothing was changed
    │   ├── UnknownReport    no triage report has this id
    │   └── UnknownRecord    no record has this id or slug
    ├── PasteTooLarge        a linked or attached paste is bigger than the configured cap
    └── CliError             a command-line problem: one line on stderr and an exit status

They live here, in the domain package, because every layer raises or catches them and the domain is
the one package all of them may import. Messages name the file and position but never the offending
value: record files and pastes can carry secrets that must not reach logs.
"""

from __future__ import annotations


class TracebotError(Exception):
    """Base class of every error tracebot reports to a person."""

    exit_status = 1  # what the command line exits with when this ends a command


class RecordFileError(TracebotError):
    """A record file that cannot be read as a whole."""

    def __init__(self, path: str, problem: str) -> None:
        super().__init__(f"{path}: {problem}")
        self.path = path
        self.problem = problem


class PageFormatError(RecordFileError):
    """The text is not a rendered record page (no title line, no message)."""

    def __init__(self, problem: str, path: str = "<page>") -> None:
        super().__init__(path, problem)


class RecordProblem(TracebotError):
    """One invalid record: where it is, which field, and what is wrong with it."""

    def __init__(self, location: str, field: str, problem: str) -> None:
        super().__init__(f"{location}: {field}: {problem}")
        self.location = location
        self.field = field
        self.problem = problem


class ImportAborted(TracebotError):
    """A strict import stopped at its first problem; nothing was written."""

    def __init__(self, problem: str) -> None:
        super().__init__(f"{problem} (--strict: import aborted, the database was not changed)")
        self.problem = problem


class StorageError(TracebotError):
    """The database cannot be opened or used."""


class DatabaseTooNew(StorageError):
    """The database was written by a newer version of tracebot."""


class DatabaseCorrupt(StorageError):
    """The database file is damaged or is not a tracebot database."""


class DatabaseBusy(StorageError):
    """Another process held the write lock for longer than a write may wait; nothing was written."""

    exit_status = 2  # worth retrying, unlike a failure


class DatabaseMoved(StorageError):
    """The database file was deleted or replaced while the bot had it open: its writes would be lost."""


class TriageError(TracebotError):
    """A triage request that cannot be carried out; nothing was changed."""


class UnknownReport(TriageError):
    """No triage report has this id."""

    def __init__(self, report_id: int) -> None:
        super().__init__(f"no triage report with id {report_id}")
        self.report_id = report_id


class UnknownRecord(TriageError):
    """No record has this id or slug."""

    def __init__(self, record_id: str) -> None:
        super().__init__(f"no record with id or slug {record_id!r}")
        self.record_id = record_id


class PasteTooLarge(TracebotError):
    """A linked or attached paste is bigger than the configured cap."""


class CliError(TracebotError):
    """A problem to print as one line on stderr, with the exit status to return."""

    def __init__(self, message: str, status: int = 1) -> None:
        super().__init__(message)
        self.status = self.exit_status = status
