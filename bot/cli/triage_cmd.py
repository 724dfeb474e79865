"""``tracebot triage``: review errors no record explains yet (list, show, link, dismiss, reopen...)."""

from __future__ import annotations

import argparse
import csv
import json
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TextIO

from bot.cli._common import Handler, add_db_option, open_database, print_json
from bot.settings import Settings
from bot.triage_service import TriageService, library_line, parse_report_id, parse_sample_ids
from storage.triage_models import STATUSES, Review, TriageGroup, TriageReport

Action = Callable[[argparse.Namespace, TriageService], Awaitable[int]]
CSV_COLUMNS = (
    "id", "status", "count", "notHelpful", "errorClass", "message", "firstSeen", "lastSeen", "recordId",
    "reason", "guilds", "channels", "libraries", "fingerprint", "sample",
)  # fmt: skip


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``triage`` command group."""
    group = commands.add_parser("triage", help="review errors no record explains yet", description=__doc__)
    sub = group.add_subparsers(dest="triage_command", metavar="SUBCOMMAND", required=True)
    parsers = [
        _list_parser(sub),
        _report_parser(sub, "show", "show one report with its samples", _show),
        _link_parser(sub),
        _dismiss_parser(sub),
        _report_parser(sub, "reopen", "put a linked or dismissed report back to new", _reopen),
        _merge_parser(sub),
        _split_parser(sub),
        _export_parser(sub),
        _report_parser(sub, "draft", "print a record skeleton to complete and import", _draft),
        _simple_parser(sub, "purge", "delete samples older than the retention period (counts stay)", _purge),
    ]
    for parser in parsers:
        add_db_option(parser)


def _list_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> argparse.ArgumentParser:
    parser = _simple_parser(sub, "list", "list reports, highest count first", _list)
    parser.add_argument("--status", choices=STATUSES, help="only reports with this status")
    parser.add_argument("--limit", type=int, metavar="N", help="at most N reports")
    parser.add_argument("--json", action="store_true", help="print a JSON list of reports with their samples")
    return parser


def _report_parser(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], name: str, help_text: str, action: Action
) -> argparse.ArgumentParser:
    parser = _simple_parser(sub, name, help_text, action)
    parser.add_argument("report", metavar="REPORT_ID", help="report id, such as 12 or #12")
    if name == "show":
        parser.add_argument("--json", action="store_true", help="print the report as JSON")
    return parser


def _link_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> argparse.ArgumentParser:
    help_text = "link a report to a record: the next paste of the same error matches that record"
    parser = _report_parser(sub, "link", help_text, _link)
    parser.add_argument("record", metavar="RECORD_ID", help="record id or slug")
    return parser


def _dismiss_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> argparse.ArgumentParser:
    parser = _report_parser(sub, "dismiss", "dismiss a report (not worth a record)", _dismiss)
    parser.add_argument("--reason", metavar="TEXT", help="why, for the other maintainers")
    return parser


def _merge_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> argparse.ArgumentParser:
    help_text = "merge a report into another: pastes of either error count in the second from now on"
    parser = _simple_parser(sub, "merge", help_text, _merge)
    parser.add_argument("source", metavar="SRC_ID", help="the report to merge away, such as 12 or #12")
    parser.add_argument("into", metavar="INTO_ID", help="the report that stays")
    parser.add_argument("--json", action="store_true", help="print the surviving report as JSON")
    return parser


def _split_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> argparse.ArgumentParser:
    help_text = "move samples of a report to a new report; pastes like them go there from now on"
    parser = _report_parser(sub, "split", help_text, _split)
    parser.add_argument("samples", metavar="SAMPLE_ID", nargs="+", help="sample ids (shown by triage show)")
    parser.add_argument("--json", action="store_true", help="print both reports as JSON")
    return parser


def _export_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> argparse.ArgumentParser:
    parser = _simple_parser(sub, "export", "export every report (redacted) as JSON or CSV", _export)
    parser.add_argument("--format", choices=("json", "csv"), default="json", help="output format")
    parser.add_argument("--out", type=Path, metavar="FILE", help="output file (default stdout)")
    return parser


def _simple_parser(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], name: str, help_text: str, action: Action
) -> argparse.ArgumentParser:
    parser = sub.add_parser(name, help=help_text, description=help_text)
    parser.set_defaults(handler=_handler(action))
    return parser


def _handler(action: Action) -> Handler:
    """Wrap an action: open the database, build the triage settings and service once, run it."""

    async def run(args: argparse.Namespace, settings: Settings) -> int:
        async with open_database(args, settings) as db:
            return await action(args, TriageService(db, settings.triage))

    return run


async def _list(args: argparse.Namespace, service: TriageService) -> int:
    groups = await service.reports(args.status, args.limit)
    if args.json:
        print_json([report_json(await service.show(group.id)) for group in groups])
        return 0
    for group in groups:
        print(group_line(group))
    if not groups:
        print("no reports", file=sys.stderr)
    return 0


async def _show(args: argparse.Namespace, service: TriageService) -> int:
    report = await service.show(parse_report_id(args.report))
    if args.json:
        print_json(report_json(report))
    else:
        print(report_text(report))
    return 0


async def _link(args: argparse.Namespace, service: TriageService) -> int:
    review = await service.link(parse_report_id(args.report), args.record)
    print(review_line(review))
    if review.group.record_id is not None:
        waiting = await service.reanswer_targets(review.group.id, review.group.record_id)
        if waiting:
            print(f"{len(waiting)} recent paste(s) of it will be answered by the running bot when it reloads")
    return 0


async def _merge(args: argparse.Namespace, service: TriageService) -> int:
    source = parse_report_id(args.source)
    review = await service.merge(source, parse_report_id(args.into))
    if args.json:
        print_json(report_json(await service.show(review.group.id)))
    else:
        print(f"report #{source} merged into #{review.group.id} ({review.group.count} pastes)")
    return 0


async def _split(args: argparse.Namespace, service: TriageService) -> int:
    done = await service.split(parse_report_id(args.report), parse_sample_ids(" ".join(args.samples)))
    if args.json:
        print_json({"report": group_json(done.group), "new": group_json(done.new), "rule": {done.part: done.values}})
    else:
        values = ", ".join(done.values)
        print(f"report #{done.group.id} split: {done.new.count} sample(s) moved to report #{done.new.id}")
        print(f"pastes whose {done.part} is {values} go to #{done.new.id} from now on")
    return 0


async def _dismiss(args: argparse.Namespace, service: TriageService) -> int:
    print(review_line(await service.dismiss(parse_report_id(args.report), args.reason)))
    return 0


async def _reopen(args: argparse.Namespace, service: TriageService) -> int:
    print(review_line(await service.reopen(parse_report_id(args.report))))
    return 0


async def _draft(args: argparse.Namespace, service: TriageService) -> int:
    print_json(await service.draft(parse_report_id(args.report)))
    return 0


async def _purge(args: argparse.Namespace, service: TriageService) -> int:
    purged = await service.purge()
    print(f"purged {purged.samples} samples older than {service.settings.retention_days} days (counts kept)")
    return 0


async def _export(args: argparse.Namespace, service: TriageService) -> int:
    reports = await service.export()
    if args.out is None:
        _write_export(reports, args.format, sys.stdout)
    else:
        tmp = args.out.with_name(args.out.name + ".tmp")
        with tmp.open("w", encoding="utf-8", newline="") as fh:
            _write_export(reports, args.format, fh)
        tmp.replace(args.out)
    print(f"exported {len(reports)} reports", file=sys.stderr)
    return 0


def _write_export(reports: list[TriageReport], fmt: str, out: TextIO) -> None:
    if fmt == "json":
        print_json([report_json(report) for report in reports], out)
        return
    writer = csv.DictWriter(out, fieldnames=CSV_COLUMNS, lineterminator="\n")
    writer.writeheader()
    for report in reports:
        row = {k: v for k, v in report_json(report).items() if k in CSV_COLUMNS}
        row["libraries"] = json.dumps(row["libraries"], sort_keys=True)
        row["sample"] = report.samples[0].text if report.samples else ""
        writer.writerow(row)


def group_json(group: TriageGroup) -> dict[str, Any]:
    """Return a report's group in the CLI's camelCase JSON form."""
    return {
        "id": group.id,
        "status": group.status,
        "count": group.count,
        "notHelpful": group.not_helpful,
        "errorClass": group.error_class,
        "message": group.masked,
        "firstSeen": group.first_seen,
        "lastSeen": group.last_seen,
        "recordId": group.record_id,
        "reason": group.reason,
        "reviewedBy": group.reviewed_by,
        "reviewedAt": group.reviewed_at,
        "libraries": group.libraries,
        "guilds": group.guilds,
        "channels": group.channels,
        "lastJumpUrl": group.last_jump_url,
        "fingerprint": group.fingerprint,
        "title": group.title,
        "groupedBy": group.parts,
        "people": group.people,
        "versions": group.versions,
    }


def report_json(report: TriageReport) -> dict[str, Any]:
    """Return a report (group, redacted samples, places) as JSON data."""
    samples = [
        {"createdAt": s.created_at, "source": s.source, "jumpUrl": s.jump_url, "recordId": s.record_id,
         "text": s.text, "id": s.id, "answeredAt": s.answered_at}
        for s in report.samples
    ]  # fmt: skip
    places = [p.model_dump() for p in report.places]
    return {**group_json(report.group), "samples": samples, "places": places}


def group_line(group: TriageGroup) -> str:
    """Return one line of ``triage list``."""
    message = " ".join(group.masked.split())
    if len(message) > 80:
        message = message[:79] + "…"
    return f"#{group.id:<5} {group.status:<9} {group.count:>6}  {group.error_class or '-'}: {message}"


def report_text(report: TriageReport) -> str:
    """Return ``triage show`` as text."""
    group = report.group
    lines = [
        f"report #{group.id} ({group.status}): {group.error_class or '-'}: {group.masked}",
        f"count: {group.count} ({group.not_helpful} not helpful); first seen {group.first_seen}; "
        f"last seen {group.last_seen}",
        f"people: {group.people}; servers: {group.guilds}; channels: {group.channels}",
        f"grouped by: class {group.error_class or '-'}; library frame {group.frame or '(none shown)'}; "
        "the message with its values masked",
    ]
    if group.libraries or group.versions:
        lines.append("libraries: " + library_line(group))
    if group.status == "linked":
        lines.append(f"linked to record {group.record_id}")
    elif group.status == "dismissed":
        lines.append(f"dismissed: {group.reason or '(no reason given)'}")
    lines.append(f"samples ({len(report.samples)}):")
    for sample in report.samples:
        head = f"--- sample {sample.id} {sample.created_at} {sample.source} {sample.jump_url or ''}".rstrip()
        lines += [head, sample.text]
    return "\n".join(lines)


def review_line(review: Review) -> str:
    """Say what a link, dismiss or reopen did."""
    group = review.group
    if group.status == "linked":
        return f"report #{group.id} linked to record {group.record_id} ({len(review.added)} example(s) added)"
    if group.status == "dismissed":
        return f"report #{group.id} dismissed" + (f": {group.reason}" if group.reason else "")
    return f"report #{group.id} reopened"
