"""Operations: ``tracebot db migrate|backup|check`` and ``tracebot config check``."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from pydantic import BaseModel, SecretStr

from bot.cli._common import add_db_option, db_path, open_database, print_json
from bot.settings import Settings
from records.errors import CliError
from storage import migrations
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
