"""Second pass over mined record sets of several releases: say when only some of them raise an error.

The miner reads one release at a time, so it cannot know whether another release raises the same
message. This pass reads every set at once (``python -m records.mining.versions FILE...``), and
for each record whose class and message are not raised by every release of its library given, writes
a generated ``commonSituations`` sentence naming the releases that raise it and those that do not.
Sets of several libraries may be given together: each library's releases are compared among
themselves. It is run by ``scripts/mine_records.sh`` after mining; running it again gives the same
bytes.

The reply already lists the versions that raise a matched error (the matcher folds the records of
every release), so the sentence is only written when the releases differ.
"""

from __future__ import annotations

import argparse
import gzip
import sys
from collections.abc import Sequence
from pathlib import Path

from records.mining._tree import write_records
from records.mining.libraries import project_of_repo
from records.model import Record
from records.versions import version_key

FIELD = "commonSituations"


def read_set(path: Path) -> list[Record]:
    """Read one mined record set (JSON Lines, gzipped when the name ends in ``.gz``)."""
    opener = gzip.open if path.name.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as handle:
        return [Record.model_validate_json(line) for line in handle if line.strip()]


def fold_versions(sets: dict[str, list[Record]], library: str = "transformers") -> dict[str, list[Record]]:
    """Return the sets (one library's releases) with a version sentence on every record not every release raises."""
    releases = sorted(sets, key=version_key)
    raised: dict[tuple[str | None, str], set[str]] = {}
    for release, records in sets.items():
        for record in records:
            raised.setdefault(_key(record), set()).add(release)
    return {
        release: [_with_sentence(r, releases, raised[_key(r)], library) for r in records]
        for release, records in sets.items()
    }


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


def _with_sentence(record: Record, releases: list[str], raising: set[str], library: str) -> Record:
    generated = [name for name in record.generated if name != FIELD]
    current = None if FIELD in record.generated else record.common_situations
    sentence = version_sentence(releases, raising, library) if current is None else None
    if sentence is not None:
        generated.append(FIELD)
    updated = record.model_copy(update={"common_situations": current or sentence, "generated": sorted(generated)})
    return updated if updated != record else record


def _key(record: Record) -> tuple[str | None, str]:
    return record.error_class, record.error_message


def _join(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def main(argv: Sequence[str] | None = None) -> int:
    """Fold the version facts into the given record set files, in place."""
    parser = argparse.ArgumentParser(prog="python -m records.mining.versions", description=__doc__.splitlines()[0])
    parser.add_argument("files", type=Path, nargs="+", help="mined sets, one per release (.jsonl or .jsonl.gz)")
    args = parser.parse_args(argv)
    libraries: dict[str, dict[str, list[Record]]] = {}  # library -> release -> its records
    paths: dict[tuple[str, str], Path] = {}
    for path in args.files:
        records = read_set(path)
        release = next((r.library_version for r in records if r.library_version), None)
        library = project_of_repo(next((r.repo for r in records if r.repo), None))
        sets = libraries.setdefault(library, {})
        if release is None or release in sets:
            print(f"error: {path}: no library version, or the same one as another file", file=sys.stderr)
            return 2
        sets[release], paths[library, release] = records, path
    for library, sets in libraries.items():
        for release, records in fold_versions(sets, library).items():
            write_records(records, paths[library, release])
            only = sum(FIELD in r.generated for r in records)
            print(f"{paths[library, release]}: {only} of {len(records)} records are raised by only some of "
                  f"{len(sets)} versions")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
