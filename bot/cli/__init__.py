"""The ``tracebot`` command line: argument parsing and error mapping; the work is done in the core."""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from collections.abc import Sequence

from pydantic import ValidationError

from bot.cli import ask_cmd, ops_cmd, records_cmd, run_cmd, triage_cmd
from bot.cli._common import CliError, Handler
from bot.logging_setup import configure_logging
from bot.settings import Settings
from records.errors import TracebotError

log = logging.getLogger(__name__)

COMMAND_MODULES = (records_cmd, ask_cmd, ops_cmd, triage_cmd, run_cmd)


def build_parser() -> argparse.ArgumentParser:
    """Build the full argument parser (every command and sub-command has --help)."""
    parser = argparse.ArgumentParser(
        prog="tracebot",
        description="Explain pasted Python errors from a record set; queue the unexplained ones.",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for module in COMMAND_MODULES:
        module.register(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the process exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    handler: Handler = args.handler
    try:
        settings = Settings()
        # The bot logs at its configured level; one-shot commands only say what went wrong.
        level = settings.log_level if args.command == "run" else "WARNING"
        configure_logging(level, settings.log_format)
        return asyncio.run(handler(args, settings))
    except CliError as exc:
        return _fail(str(exc), exc.status)
    except ValidationError as exc:
        return _fail(f"invalid setting: {_settings_problem(exc)}", 2)
    except TracebotError as exc:
        return _fail(str(exc), 1)
    except KeyboardInterrupt:
        return _fail("interrupted", 130)
    except BrokenPipeError:
        return 0


def _fail(message: str, status: int) -> int:
    print(f"tracebot: error: {message}", file=sys.stderr)
    return status


def _settings_problem(exc: ValidationError) -> str:
    error = exc.errors(include_url=False, include_input=False)[0]
    name = "TRACEBOT_" + "_".join(str(p) for p in error["loc"]).upper()
    return f"{name}: {error['msg']}"


if __name__ == "__main__":
    sys.exit(main())
