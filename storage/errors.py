"""Exceptions raised by the storage layer.

TracebotError (records.errors)
└── StorageError             the database cannot be used
    ├── DatabaseTooNew       the file was written by a newer tracebot (schema ahead of ours)
    └── DatabaseCorrupt      the file is not a SQLite database, or fails its integrity check
"""

from __future__ import annotations

from records.errors import TracebotError


class StorageError(TracebotError):
    """The database cannot be opened or used."""


class DatabaseTooNew(StorageError):
    """The database was written by a newer version of tracebot."""


class DatabaseCorrupt(StorageError):
    """The database file is damaged or is not a tracebot database."""
