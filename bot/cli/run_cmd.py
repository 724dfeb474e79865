"""``tracebot run``, ``sync-commands``, ``console`` and ``health``: the bot's own commands.

Settings come from the environment and ``.env`` (built once in ``bot.cli.main``); a missing or
rejected token, an unreachable Discord or a missing intent is one line on stderr and exit status 1.
SIGTERM (and Ctrl-C) close the gateway, the HTTP session and the database before exiting.

Only ``health`` is defined here: the commands that talk to Discord live in ``bot.cli.discord_cmd``
and are imported when they run, so that the other commands start without discord.py and aiohttp.
"""

from __future__ import annotations

import argparse
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from bot.cli._common import add_db_option, db_path, lazy
from records.errors import CliError, DatabaseBusy
from storage import migrations
from storage.database import Database
from storage.guilds import StatusRepository

HEALTH_WRITE_WAIT = 0.5  # seconds the write probe waits for another writer, in all
HEALTH_BUSY_MS = 400  # milliseconds one attempt waits

if TYPE_CHECKING:
    from bot.settings import Settings


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``run``, ``sync-commands``, ``console`` and ``health`` commands."""
    run = commands.add_parser("run", help="run the Discord bot (token from DISCORD_TOKEN or .env)")
    run.add_argument("--shards", type=_positive, metavar="N", help="shards in all (default: $TRACEBOT_SHARD_COUNT)")
    run.add_argument(
        "--shard-ids", type=_shard_ids, metavar="A,B", help="the shards this process runs (default: all of them)"
    )
    run.set_defaults(handler=lazy("bot.cli.discord_cmd:run_command"))
    sync = commands.add_parser("sync-commands", help="publish the slash commands globally (or to one guild)")
    sync.add_argument("--guild", type=int, metavar="ID", help="sync to this guild only (appears at once)")
    sync.set_defaults(handler=lazy("bot.cli.discord_cmd:sync_command"))
    console = commands.add_parser("console", help="offline console: paste an error and see the bot's reply")
    console.set_defaults(handler=lazy("bot.cli.discord_cmd:console_command"))
    health = commands.add_parser("health", help="check the database is writable and the bot's heartbeat is recent")
    health.add_argument("--max-age", type=float, metavar="SECONDS", help="oldest acceptable heartbeat")
    health.set_defaults(handler=health_command)
    for parser in (run, sync, console, health):
        add_db_option(parser)


def _positive(value: str) -> int:
    """Read ``--shards``: a whole number of at least 1."""
    if not value.strip().isdigit() or int(value) < 1:
        raise argparse.ArgumentTypeError(f"{value!r} is not a number of shards (a whole number, 1 or more)")
    return int(value)


def _shard_ids(value: str) -> tuple[int, ...]:
    """Read ``--shard-ids``: shard numbers separated by commas."""
    parts = [part.strip() for part in value.split(",")]
    if not parts or not all(part.isdigit() for part in parts):
        raise argparse.ArgumentTypeError(f"{value!r} is not a list of shard ids (such as 0,1)")
    return tuple(int(part) for part in parts)


async def health_command(args: argparse.Namespace, settings: Settings) -> int:
    """Check the database (reachable, current, writable) and the running bot's heartbeat."""
    path = db_path(args, settings)
    if isinstance(path, Path) and not path.exists():
        raise CliError(f"{path}: no such database file")
    # Short waits: a container health check gives up after 10 s, and an import may be publishing.
    db = await Database.open(path, migrate=False, write_wait=HEALTH_WRITE_WAIT, busy_timeout_ms=HEALTH_BUSY_MS)
    try:
        version = await db.schema_version()
        if version < migrations.latest_version():
            raise CliError(
                f"{path}: schema {version} is behind ({migrations.latest_version()}): run `tracebot db migrate`"
            )
        status = StatusRepository(db)
        writable = "writable"
        try:
            await status.probe_write()  # a StorageError names the file and the problem
        except DatabaseBusy:
            writable = "another process is writing now"  # alive and in use: not a failure
        beat = await status.heartbeat()
    finally:
        await db.close()
    print(f"database: ok ({path}, schema {version}, {writable})")
    limit = args.max_age if args.max_age is not None else settings.heartbeat_max_age
    if beat is None:
        raise CliError("gateway: no heartbeat recorded; is `tracebot run` running with this database?")
    age = (datetime.now(UTC) - datetime.fromisoformat(beat.at.replace("Z", "+00:00"))).total_seconds()
    if age > limit:
        raise CliError(f"gateway: last heartbeat {age:.0f}s ago (more than {limit:.0f}s)")
    latency = f"{beat.latency_ms:.0f} ms" if beat.latency_ms is not None else "not measured yet"
    print(f"gateway: heartbeat {age:.0f}s ago, latency {latency}, {beat.guilds} guilds")
    return 0
