"""Logging is configured once and never lets a secret through."""

from __future__ import annotations

import json
import logging

import pytest

from bot.logging_setup import JsonFormatter, RedactingFormatter, configure_logging

CANARY = "hf_" + "CanaryTokenForLoggingTests0123456789"


def _record(message: str) -> logging.LogRecord:
    return logging.LogRecord("tracebot.test", logging.INFO, __file__, 1, message, None, None)


def test_json_lines_are_redacted() -> None:
    line = JsonFormatter().format(_record(f"token {CANARY} seen"))
    data = json.loads(line)
    assert CANARY not in line and data["level"] == "INFO" and "[REDACTED:" in data["message"]


def test_plain_lines_are_redacted() -> None:
    line = RedactingFormatter("%(message)s").format(_record(f"oops {CANARY}"))
    assert CANARY not in line


def test_voice_library_warnings_are_dropped_and_others_kept(capsys: pytest.CaptureFixture[str]) -> None:
    root = logging.getLogger()
    saved = root.handlers[:], root.level
    try:
        configure_logging("INFO")
        logging.getLogger("discord.client").warning("PyNaCl is not installed, voice will NOT be supported")
        logging.getLogger("discord.client").warning("logging in using static token")
    finally:
        root.handlers[:], level = saved
        root.setLevel(level)
    err = capsys.readouterr().err
    assert "voice" not in err
    assert "logging in using static token" in err
