"""A throw-away PostgreSQL cluster for the tests, and a fresh database on it per test.

``make test`` (any pytest run) starts one cluster (scripts/pg-cluster.sh: a temporary directory, a
free loopback port), unless ``TRACEBOT_TEST_POSTGRES`` names a server already; every worker process
reads the URL from that variable. Each test gets a database of its own, copied from a migrated
template (``CREATE DATABASE ... TEMPLATE``: a few milliseconds, where migrating costs a tenth of a
second), and dropped after it.
"""

from __future__ import annotations

import asyncio
import atexit
import os
import shutil
import subprocess
import tempfile
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import asyncpg

from storage.database import Database

ENV = "TRACEBOT_TEST_POSTGRES"
TEMPLATE = "tracebot_template"
_SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "pg-cluster.sh"


def start_cluster() -> tuple[str, Path]:
    """Start a cluster in a new temporary directory; return its URL (of the ``postgres`` database) and the directory."""
    directory = Path(tempfile.mkdtemp(prefix="tracebot-pg-"))
    done = subprocess.run(["sh", str(_SCRIPT), "start", str(directory)], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"the test PostgreSQL cluster did not start: {done.stderr.strip()}")
    return done.stdout.strip().splitlines()[-1], directory


def stop_cluster(directory: Path) -> None:
    """Stop the cluster in ``directory`` and remove the directory."""
    subprocess.run(["sh", str(_SCRIPT), "stop", str(directory)], capture_output=True, check=False)


def database_url(server: str, name: str) -> str:
    """Return the URL of database ``name`` on the server of ``server`` (a URL of any database there)."""
    return server.rsplit("/", 1)[0] + "/" + name


async def build_template(server: str) -> None:
    """Create the migrated template database the tests copy (replacing an older one)."""
    admin = await asyncpg.connect(server)
    try:
        await admin.execute(f"DROP DATABASE IF EXISTS {TEMPLATE}")
        await admin.execute(f"CREATE DATABASE {TEMPLATE}")
    finally:
        await admin.close()
    db = await Database.open(database_url(server, TEMPLATE))
    await db.close()


def server_url() -> str:
    """Return the test server's URL (set by the test session's start-up)."""
    url = os.environ.get(ENV)
    if not url:
        raise RuntimeError(f"{ENV} is not set: the test session starts a PostgreSQL cluster and sets it")
    return url


async def _admin(statement: str) -> None:
    """Run one statement on the server's ``postgres`` database (CREATE and DROP DATABASE run outside any)."""
    admin = await asyncpg.connect(server_url())
    try:
        await admin.execute(statement)
    finally:
        await admin.close()


@asynccontextmanager
async def fresh_database(*, migrated: bool = True) -> AsyncIterator[str]:
    """Create a database for one test (migrated, else empty); yield its URL; drop it afterwards."""
    name = "t_" + uuid.uuid4().hex[:16]
    await _admin(f"CREATE DATABASE {name}" + (f" TEMPLATE {TEMPLATE}" if migrated else ""))
    try:
        yield database_url(server_url(), name)
    finally:
        await _admin(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def prepare_session() -> Path | None:
    """Start a cluster for this test session unless one is named; build the template; return the cluster's directory."""
    directory = None
    # Indexes of server databases are saved in the user's cache: the tests' go to a throw-away one.
    cache = tempfile.mkdtemp(prefix="tracebot-cache-")
    atexit.register(shutil.rmtree, cache, ignore_errors=True)
    os.environ["XDG_CACHE_HOME"] = cache
    if not os.environ.get(ENV):
        url, directory = start_cluster()
        os.environ[ENV] = url
    asyncio.run(build_template(os.environ[ENV]))
    return directory
