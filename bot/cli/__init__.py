"""The ``tracebot`` command line: argument parsing and error mapping; the work is done in the core.

Start-up is kept short: parsing imports only the command modules' parsers, and each command imports
what it uses when it runs (settings and logging after the arguments parse, discord.py only for the
commands that talk to Discord), so ``tracebot --help`` and ``tracebot ask`` do not wait for them.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import os
import re
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from bot.cli._common import Handler
from records.errors import TracebotError

if TYPE_CHECKING:
    from pydantic import ValidationError

# Each top-level command, the module that registers it, and its one-line help (for `tracebot --help`,
# which lists every command without importing their modules; a test keeps these in step).
COMMANDS: dict[str, tuple[str, str]] = {
    "records": ("bot.cli.records_cmd", "import, look up and export records"),
    "ask": ("bot.cli.ask_cmd", "match pasted error text (TEXT, or stdin) against the records"),
    "db": ("bot.cli.ops_cmd", "migrate, back up and check the database"),
    "config": ("bot.cli.ops_cmd", "inspect the effective settings"),
    "triage": ("bot.cli.triage_cmd", "review errors no record explains yet"),
    "run": ("bot.cli.run_cmd", "run the Discord bot (token from DISCORD_TOKEN or .env)"),
    "sync-commands": ("bot.cli.run_cmd", "publish the slash commands globally (or to one guild)"),
    "console": ("bot.cli.run_cmd", "offline console: paste an error and see the bot's reply"),
    "health": ("bot.cli.run_cmd", "check the database is writable and the bot's heartbeat is recent"),
}
# Docstrings double as help texts; their ``literal`` markup is for the docs, not for a terminal.
_MARKUP_RE = re.compile(r"``([^`]+)``|:\w+:`([^`]+)`")


class PlainHelpFormatter(argparse.HelpFormatter):
    """Help text as plain text: reStructuredText literals and roles lose their markup."""

    def _format_text(self, text: str) -> str:
        return super()._format_text(plain(text))

    def _expand_help(self, action: argparse.Action) -> str:
        return plain(super()._expand_help(action))


class TracebotParser(argparse.ArgumentParser):
    """An argument parser whose help is plain text; sub-command parsers are of the same class."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        kwargs.setdefault("formatter_class", PlainHelpFormatter)
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]


def plain(text: str) -> str:
    """Strip reStructuredText literal markup (````x````, ``:func:`x```) from a help text."""
    return _MARKUP_RE.sub(lambda m: m.group(1) or m.group(2), text)


def tracebot_version() -> str:
    """Return the installed tracebot version."""
    # Imported here: importlib.metadata (and the email parser it brings) takes longer to import than
    # a tenth of `tracebot --help`, and only --version needs it.
    from importlib.metadata import PackageNotFoundError, version  # noqa: PLC0415

    try:
        return version("tracebot")
    except PackageNotFoundError:  # running from a checkout that was never installed
        return "unknown"


class VersionAction(argparse.Action):
    """``--version``: print the installed version and exit, looking it up only when asked."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS, **kwargs: Any) -> None:
        kwargs.setdefault("help", "show the version and exit")
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: object,
        option_string: str | None = None,
    ) -> None:
        """Print ``tracebot <version>`` and exit."""
        print(f"tracebot {tracebot_version()}")
        parser.exit()


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """Build the argument parser: every command in full, or only ``command`` in full.

    With ``command`` (``""`` for none), the other commands are listed by name and help only, so
    their modules (and what they import) are not loaded.
    """
    parser = TracebotParser(
        prog="tracebot",
        description="Explain pasted Python errors from a record set; queue the unexplained ones.",
    )
    parser.add_argument("--version", action=VersionAction)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    wanted = {module for name, (module, _) in COMMANDS.items() if command in (None, name)}
    for name, (module, help_text) in COMMANDS.items():
        if module not in wanted:
            commands.add_parser(name, help=help_text)
        elif name not in commands.choices:  # a module registers all of its commands at once
            importlib.import_module(module).register(commands)
    _remember_leaf_parsers(parser)
    return parser


def _remember_leaf_parsers(parser: argparse.ArgumentParser) -> None:
    """Store each sub-command's own parser in its defaults, so its usage is shown for its mistakes."""
    parser.set_defaults(command_parser=parser)
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for child in dict.fromkeys(action.choices.values()):
                _remember_leaf_parsers(child)


def parse(argv: Sequence[str] | None) -> argparse.Namespace:
    """Parse the command line; an unknown option is reported with the sub-command's own usage."""
    words = list(sys.argv[1:] if argv is None else argv)
    command = next((word for word in words if not word.startswith("-")), "")
    args, extras = build_parser(command if command in COMMANDS else "").parse_known_args(words)
    if extras:
        args.command_parser.error(f"unrecognized arguments: {' '.join(extras)}")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the process exit status."""
    limit_blas_threads()
    args = parse(argv)
    # Imported here, after parsing: building the settings class and the log formatters costs more
    # than the whole of `tracebot --help`.
    from pydantic import ValidationError  # noqa: PLC0415

    from bot.logging_setup import configure_logging  # noqa: PLC0415
    from bot.settings import Settings  # noqa: PLC0415

    handler: Handler = args.handler
    try:
        settings = Settings()
        # The bot logs at its configured level; one-shot commands only say what went wrong.
        level = settings.log_level if args.command == "run" else "WARNING"
        configure_logging(level, settings.log_format)
        return asyncio.run(handler(args, settings))
    except ValidationError as exc:
        return _fail(f"invalid setting: {_settings_problem(exc)}", 2)
    except TracebotError as exc:  # CliError carries its own status, DatabaseBusy exits 2
        return _fail(str(exc), exc.exit_status)
    except KeyboardInterrupt:
        return _fail("interrupted", 130)
    except BrokenPipeError:
        return _closed_pipe()


def limit_blas_threads() -> None:
    """Ask NumPy's BLAS for one thread unless the environment says otherwise.

    The matching index does a few vector operations per paste and no linear algebra, but OpenBLAS
    starts a thread per core when NumPy is imported: about 60 ms of CPU in every command, a tenth of
    a one-shot ``tracebot ask``. Set before anything imports NumPy.
    """
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


def _closed_pipe() -> int:
    """End quietly when the reader of stdout went away (``tracebot records export | head``)."""
    # Python would flush stdout again at exit and print a second BrokenPipeError: point it at
    # /dev/null first, as the Python docs advise for SIGPIPE.
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
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
