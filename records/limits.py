"""Limits on pasted text and on triage, in a module of their own that imports nothing.

The settings and the engine need these numbers at start-up; importing them from ``records.triage``
would load redaction and fingerprinting (a tenth of a second) into every command, ``tracebot ask``
included, that never triages.
"""

from __future__ import annotations

from dataclasses import dataclass

# Why 200,000: redaction is linear but not free (about 1 ms per KB at worst); a paste this long is a
# log dump, and the whole lines of its head and tail that are kept hold more than any sample needs.
MAX_INPUT_CHARS = 200_000


@dataclass(frozen=True, slots=True)
class TriageLimits:
    """Caps that keep one user or one group from filling the tables."""

    samples_per_group: int = 5
    user_daily_pastes: int = 50
    user_daily_groups: int = 10
