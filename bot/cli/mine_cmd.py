"""``tracebot records mine``: records from a library's source (filled in by the mining work)."""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``records mine`` (placeholder until the mining package lands)."""
