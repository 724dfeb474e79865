"""``tracebot records``: import, show, list, export and stats."""

from __future__ import annotations

import argparse
import gzip
import io
import json
import sys
from contextlib import aclosing
from pathlib import Path
from typing import TextIO

from bot.cli._common import add_db_option, open_database, print_json
from bot.render.text import record_text
from bot.settings import Settings
from records.errors import CliError
from storage.importer import import_paths
from storage.models import ImportReport
from storage.records import RecordRepository


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``records`` command group."""
    group = commands.add_parser("records", help="import, look up and export records", description=__doc__)
    sub = group.add_subparsers(dest="records_command", metavar="SUBCOMMAND", required=True)

    imp = sub.add_parser("import", help="import record files or directories (upsert by id)")
    imp.add_argument("paths", nargs="+", type=Path, metavar="PATH", help="record file or directory")
    imp.add_argument("--strict", action="store_true", help="abort on the first problem, changing nothing")
    imp.add_argument("--max-file-size", type=int, metavar="BYTES", help="largest file read (default 128 MiB)")
    imp.set_defaults(handler=import_command)

    show = sub.add_parser("show", help="show one record by id or slug")
    show.add_argument("ident", metavar="ID_OR_SLUG")
    show.add_argument("--json", action="store_true", help="print the record in its JSON form")
    show.set_defaults(handler=show_command)

    lst = sub.add_parser("list", help="list records")
    lst.add_argument("--repo", metavar="OWNER/NAME", help="only records of this repository")
    lst.add_argument("--limit", type=int, metavar="N", help="at most N records")
    lst.add_argument("--json", action="store_true", help="print JSON")
    lst.set_defaults(handler=list_command)

    exp = sub.add_parser("export", help="export every record as JSON Lines (sorted by id, deterministic)")
    exp.add_argument("--out", type=Path, metavar="FILE", help="output file (.jsonl or .jsonl.gz); default stdout")
    exp.set_defaults(handler=export_command)

    stats = sub.add_parser("stats", help="counts by repository, origin, version and class")
    stats.add_argument("--json", action="store_true", help="print JSON")
    stats.set_defaults(handler=stats_command)

    for parser in (imp, show, lst, exp, stats):
        add_db_option(parser)
    _register_extensions(sub)


def _register_extensions(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register the sub-commands defined in their own modules (mining)."""
    from bot.cli import mine_cmd  # noqa: PLC0415 - optional module, keeps this file small

    mine_cmd.register(sub)


async def import_command(args: argparse.Namespace, settings: Settings) -> int:
    """Import record files; exit 1 when any record was rejected."""
    max_bytes = args.max_file_size or settings.max_file_bytes
    async with open_database(args, settings) as db:
        report = await import_paths(db, args.paths, strict=args.strict, max_bytes=max_bytes)
    _print_import(report)
    return 1 if report.problems else 0


def _print_import(report: ImportReport) -> None:
    for problem in report.problems:
        print(f"rejected: {problem}", file=sys.stderr)
    for warning in report.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    summary = (
        f"{report.added} added, {report.updated} updated, {report.unchanged} unchanged, {report.rejected} rejected"
    )
    if not report.changed_anything:
        summary += " (nothing changed)"
    if report.retired:  # a database of per-release records, meeting the record of several releases
        summary += f"; {report.retired} per-release records replaced by their site's record"
    print(summary)


async def show_command(args: argparse.Namespace, settings: Settings) -> int:
    """Print one record."""
    async with open_database(args, settings) as db:
        stored = await RecordRepository(db).get(args.ident)
    if stored is None:
        raise CliError(f"no record with id or slug {args.ident!r}")
    if args.json:
        print_json({"record": stored.record.to_wire(), "datasetVersion": stored.dataset_version})
    else:
        print(record_text(stored.record))
    return 0


async def list_command(args: argparse.Namespace, settings: Settings) -> int:
    """List records, one a line."""
    async with open_database(args, settings) as db:
        rows = await RecordRepository(db).summaries(repo=args.repo, limit=args.limit)
    if args.json:
        print_json([row.model_dump() for row in rows])
        return 0
    for row in rows:
        where = f"{row.file_path}:{row.line_number}" if row.file_path else "-"
        print(f"{row.id}  {row.error_class or '-'}: {_short(row.error_message)}  [{where}]")
    return 0


async def export_command(args: argparse.Namespace, settings: Settings) -> int:
    """Write every record as JSON Lines, sorted by id.

    Importing the output into a fresh database and exporting again gives the same bytes.
    """
    async with open_database(args, settings) as db:
        if args.out is None:
            count = await _export(RecordRepository(db), sys.stdout)
        else:
            count = await _export_file(RecordRepository(db), args.out)
    print(f"exported {count} records", file=sys.stderr)
    return 0


async def _export_file(repo: RecordRepository, out: Path) -> int:
    tmp = out.with_name(out.name + ".tmp")
    if out.name.endswith(".gz"):
        # No file name and mtime=0 in the gzip header: the same records give the same bytes.
        with (
            tmp.open("wb") as raw,
            gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0) as packed,
            io.TextIOWrapper(packed, encoding="utf-8", newline="\n") as fh,
        ):
            count = await _export(repo, fh)
    else:
        with tmp.open("w", encoding="utf-8", newline="\n") as fh:
            count = await _export(repo, fh)
    tmp.replace(out)  # never leave a half-written export under the real name
    return count


async def _export(repo: RecordRepository, out: TextIO) -> int:
    count = 0
    # aclosing: a reader that goes away (`| head`) must close the cursor before the database closes.
    async with aclosing(repo.iter_wire()) as rows:
        async for data, dataset_version in rows:
            if dataset_version is None:
                out.write(data + "\n")
            else:
                # Keys in sorted order, as in the stored canonical JSON.
                out.write('{"datasetVersion":' + _json_string(dataset_version) + ',"record":' + data + "}\n")
            count += 1
    return count


def _json_string(value: str) -> str:
    return json.dumps(value, ensure_ascii=False)


async def stats_command(args: argparse.Namespace, settings: Settings) -> int:
    """Print counts that describe the record set."""
    async with open_database(args, settings) as db:
        stats = await RecordRepository(db).stats()
    if args.json:
        print_json(stats.model_dump())
        return 0
    print(f"records: {stats.total}")
    for title, counts in (
        ("by repository", stats.by_repo),
        ("by origin", stats.by_origin),
        ("by library version", stats.by_version),
        ("top classes", stats.top_classes),
    ):
        print(f"{title}:")
        for key, value in counts.items():
            print(f"  {value:>8}  {key}")
    if stats.last_import:
        run = stats.last_import
        print(
            f"last import: {run.finished_at} from {run.source} ({run.added} added, {run.updated} updated, "
            f"{run.unchanged} unchanged, {run.rejected} rejected)"
        )
    return 0


def _short(text: str, limit: int = 90) -> str:
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1] + "…"
