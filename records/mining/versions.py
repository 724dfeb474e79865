"""Which of a library's shipped releases raise an error: the sentence a site record carries.

The miner reads one release at a time, so it cannot know whether another release raises the same
message. ``records.mining.ranges`` merges every release's set into one record per site, and when
not all the shipped releases raise a site, writes ``version_sentence`` as its generated
``commonSituations`` (the reply lists the releases that raise a matched error in any case).
"""

from __future__ import annotations

import gzip
from pathlib import Path

from records.model import Record

FIELD = "commonSituations"


def read_set(path: Path) -> list[Record]:
    """Read one mined record set (JSON Lines, gzipped when the name ends in ``.gz``)."""
    opener = gzip.open if path.name.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as handle:
        return [Record.model_validate_json(line) for line in handle if line.strip()]


def version_sentence(releases: list[str], raising: set[str], library: str = "transformers") -> str | None:
    """Return the sentence for an error raised by ``raising`` among ``releases``, or None if all raise it."""
    missing = [r for r in releases if r not in raising]
    if not missing:
        return None
    having = [r for r in releases if r in raising]
    shipped = ", ".join(releases)
    raises = "raises" if len(having) == 1 else "raise"
    has = "has" if len(missing) == 1 else "have"
    return (
        f"Of the shipped {library} versions ({shipped}), only {_join(having)} {raises} this error; "
        f"{_join(missing)} {has} no raise with this message."
    )


def _join(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
