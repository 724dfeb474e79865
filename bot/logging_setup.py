"""Logging, configured once at start-up: plain text or JSON lines, level from settings.

Nothing logs raw pastes: modules log ids, statuses and counts. The JSON formatter still runs every
message through redaction as a last line of defence against a secret slipping into a log line.
"""

from __future__ import annotations

import json
import logging
import sys
from datetime import UTC, datetime

PLAIN_FORMAT = "%(asctime)s %(levelname)-7s %(name)s: %(message)s"


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message (redacted), exception."""

    def format(self, record: logging.LogRecord) -> str:
        """Return the record as a JSON line."""
        data = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": _redacted(record.getMessage()),
        }
        if record.exc_info:
            data["exception"] = _redacted(self.formatException(record.exc_info))
        return json.dumps(data, ensure_ascii=False)


class RedactingFormatter(logging.Formatter):
    """The plain format, with secrets redacted from the final line."""

    def format(self, record: logging.LogRecord) -> str:
        """Return the formatted, redacted line."""
        return _redacted(super().format(record))


def _redacted(text: str) -> str:
    """Return text with its secrets masked; redaction is imported when the first line is written.

    Its rules take 40 ms to load, and a one-shot command that logs nothing (``tracebot ask``) must
    not pay for them.
    """
    from records.redact import redact  # noqa: PLC0415

    return redact(text).text


class _CurrentStderr(logging.StreamHandler):  # type: ignore[type-arg]
    """Write to whatever ``sys.stderr`` is now (tests and daemons swap it), not what it was at set-up."""

    @property
    def stream(self) -> object:
        return sys.stderr

    @stream.setter
    def stream(self, value: object) -> None:
        pass


class _NoVoiceWarnings(logging.Filter):
    """Drop discord.py's warnings that voice libraries are missing: tracebot never joins voice."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not (record.name == "discord.client" and "voice will NOT be supported" in record.getMessage())


def configure_logging(level: str = "INFO", fmt: str = "plain") -> None:
    """Set up the root logger once: one handler on stderr, discord.py's chatter at WARNING."""
    handler = _CurrentStderr()
    handler.setFormatter(JsonFormatter() if fmt == "json" else RedactingFormatter(PLAIN_FORMAT))
    handler.addFilter(_NoVoiceWarnings())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    logging.getLogger("discord").setLevel(max(logging.getLevelName(level), logging.INFO))
    logging.getLogger("discord.gateway").setLevel(logging.WARNING)
