"""One ``tracebot run`` per database: a second one would answer every paste twice.

The first run holds an exclusive lock on ``<database>.run.lock`` (released by the kernel when the
process ends, however it ends) and writes its pid there; a second run finds the lock taken and stops
with one line naming the first.
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from records.errors import CliError


def lock_path(db: Path) -> Path:
    """Return the lock file beside a database."""
    return db.with_name(db.name + ".run.lock")


@contextmanager
def only_instance(db: Path | str) -> Iterator[None]:
    """Hold the database's run lock for the block; refuse with one line when another run holds it.

    A PostgreSQL database is shared by design (several processes, each its own shards): no lock.
    """
    if not isinstance(db, Path):
        yield
        return
    path = lock_path(db)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle = path.open("a+")
    except OSError as exc:  # a read-only directory, most often: say so before the bot connects
        raise CliError(f"{path}: cannot create the run lock beside the database: {exc.strerror}") from None
    try:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            other = handle.read().strip() or "unknown"
            raise CliError(
                f"another `tracebot run` (pid {other}) is using {db}: stop it, or give this one another TRACEBOT_DB"
            ) from None
        handle.seek(0)
        handle.truncate()
        handle.write(str(os.getpid()))
        handle.flush()
        yield
    finally:
        handle.close()
