"""Operations: ``tracebot db migrate|backup|check|copy`` and ``tracebot config check``."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from pydantic import BaseModel, SecretStr

from bot.cli._common import add_db_option, database_argument, db_path, open_database, print_json
from bot.settings import Settings
from records.errors import CliError
from storage import migrations
from storage.copy import copy_database
from storage.database import Database
from storage.maintenance import backup, integrity_problems


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``db`` and ``config`` command groups."""
    db = commands.add_parser("db", help="migrate, back up and check the database", description=__doc__)
    sub = db.add_subparsers(dest="db_command", metavar="SUBCOMMAND", required=True)
    migrate = sub.add_parser("migrate", help="apply pending schema migrations")
    migrate.set_defaults(handler=migrate_command)
    copy = sub.add_parser("backup", help="copy the database (online backup API) and check the copy")
    copy.add_argument("path", type=Path, metavar="PATH", help="backup file to write")
    copy.set_defaults(handler=backup_command)
    check = sub.add_parser("check", help="run PRAGMA integrity_check on the database file")
    check.set_defaults(handler=check_command)
    move = sub.add_parser(
        "copy", help="copy a whole database into a new one (SQLite file or postgresql:// URL, either way)"
    )
    move.add_argument("source", type=database_argument, metavar="SRC", help="database to copy from (only read)")
    move.add_argument("target", type=database_argument, metavar="DST", help="new, empty database to copy into")
    move.set_defaults(handler=copy_command)
    for parser in (migrate, copy, check):
        add_db_option(parser)

    config = commands.add_parser("config", help="inspect the effective settings")
    config_sub = config.add_subparsers(dest="config_command", metavar="SUBCOMMAND", required=True)
    show = config_sub.add_parser("check", help="print the effective settings (secrets masked); fail on invalid ones")
    show.add_argument("--json", action="store_true", help="print JSON")
    show.set_defaults(handler=config_check_command)


async def migrate_command(args: argparse.Namespace, settings: Settings) -> int:
    """Apply pending migrations and say which."""
    db = await Database.open(db_path(args, settings), migrate=False)
    try:
        before = await db.schema_version()
        applied = await db.migrate()
    finally:
        await db.close()
    if applied:
        print(f"schema {before} -> {migrations.latest_version()}: applied {', '.join(applied)}")
    else:
        print(f"schema {before}: up to date")
    return 0


async def backup_command(args: argparse.Namespace, settings: Settings) -> int:
    """Back up the live database, then check the copy's integrity."""
    async with open_database(args, settings) as db:
        problems = await backup(db, args.path)
    if problems:
        raise CliError(f"{args.path}: backup failed its integrity check: {problems[0]}")
    print(f"backup written to {args.path} (integrity_check: ok)")
    return 0


async def copy_command(args: argparse.Namespace, settings: Settings) -> int:
    """Copy every table from SRC into the empty DST in one transaction, checked before it commits."""
    if isinstance(args.source, Path) and not args.source.exists():
        raise CliError(f"{args.source}: no such database file")
    source = await Database.open(args.source, migrate=False)
    try:
        if await source.schema_version() < migrations.latest_version():
            raise CliError(f"{source.name}: schema is behind: run `tracebot db migrate --db {source.name}` first")
        target = await Database.open(args.target, write_wait=settings.write_wait)
        try:
            copied = await copy_database(source, target)
        finally:
            await target.close()
    finally:
        await source.close()
    rows = sum(copied.values())
    records = copied["records_all"]
    print(f"copied {rows} rows ({records} records) from {source.name} to {target.name}: counts and export match")
    return 0


async def check_command(args: argparse.Namespace, settings: Settings) -> int:
    """Check the database file's integrity."""
    path = db_path(args, settings)
    if not isinstance(path, Path):
        raise CliError("db check reads an SQLite file; PostgreSQL checks its own pages (see pg_amcheck)")
    if not path.exists():
        raise CliError(f"{path}: no such database file")
    problems = integrity_problems(path)
    if problems:
        raise CliError(f"{path}: integrity_check failed: {problems[0]}")
    print(f"{path}: integrity_check: ok")
    return 0


async def config_check_command(args: argparse.Namespace, settings: Settings) -> int:
    """Print every effective setting; secrets are masked."""
    shown = masked_settings(settings)
    if args.json:
        print_json(shown)
    else:
        for name, value in shown.items():
            print(f"{name} = {value}")
    return 0


def masked_settings(settings: Settings) -> dict[str, Any]:
    """Return the settings as plain values, with secrets reduced to a mask."""
    shown: dict[str, Any] = {}
    for name in Settings.model_fields:
        value = getattr(settings, name)
        if isinstance(value, BaseModel):  # a section such as triage: one line per setting, env-style names
            shown.update({f"{name}_{key}": sub for key, sub in value.model_dump(mode="json").items()})
            continue
        if isinstance(value, SecretStr):
            secret = value.get_secret_value()
            value = f"***{secret[-4:]}" if len(secret) > 12 else "***"
        elif isinstance(value, Path):
            value = str(value)
        shown[name] = value
    return shown
