"""What the shipped record set covers, per library: records, distinct raise sites, releases, bytes.

Run: ``python -m benchmarks.shipped`` (reads ``records/data``; a few seconds). A raise site is the
repository, file, class and message template; a mined record is one site across the releases that
raise it (``records.mining.ranges``), so the two counts differ only by identical raises in one file. The figures of issue 12 (records stored, distinct sites, versions covered
per library, shipped data size against its 40 MB budget) are printed as one table.
"""

from __future__ import annotations

import sys
from collections import defaultdict
from pathlib import Path

from benchmarks.evalset import DATA, shipped_records
from records.matching.evidence import library_of_repo
from records.model import Record
from records.versions import version_key

BUDGET_MB = 40.0


def site_of(record: Record) -> tuple[str | None, str | None, str | None, str]:
    """Return a record's raise site: what stays the same across the releases that raise it."""
    return record.repo, record.file_path, record.error_class, record.error_message


def table(records: list[Record]) -> list[tuple[str, int, int, int, str]]:
    """Return one row per library: name, mined records, distinct sites, curated records, releases."""
    mined: dict[str, list[Record]] = defaultdict(list)
    curated: dict[str, int] = defaultdict(int)
    for record in records:
        library = (library_of_repo(record.repo) if record.repo else None) or "(no repository)"
        if record.is_mined:
            mined[library].append(record)
        else:
            curated[library] += 1
    rows = []
    for library in sorted(set(mined) | set(curated)):
        ours = mined.get(library, [])
        releases = sorted({v for r in ours for v in _releases(r)}, key=version_key)
        sites = len({site_of(r) for r in ours})
        rows.append((library, len(ours), sites, curated.get(library, 0), ", ".join(releases) or "-"))
    return rows


def _releases(record: Record) -> list[str]:
    """Return the releases raising a mined record: its ``versions``, or its one release."""
    return [v.version for v in record.versions] or ([record.library_version] if record.library_version else [])


def data_megabytes(root: Path = DATA) -> float:
    """Return the size of the shipped record files, in MB."""
    return sum(path.stat().st_size for path in root.rglob("*") if path.is_file()) / 1e6


def main() -> int:
    """Print the coverage table and the data size."""
    rows = table(shipped_records())
    print(f"{'library':24} {'mined':>7} {'sites':>7} {'curated':>7}  releases")
    for library, mined, sites, curated, releases in rows:
        print(f"{library:24} {mined:7d} {sites:7d} {curated:7d}  {releases}")
    mined, sites, curated = (sum(row[1] for row in rows), sum(row[2] for row in rows), sum(row[3] for row in rows))
    print(f"{'all':24} {mined:7d} {sites:7d} {curated:7d}")
    size = data_megabytes()
    verdict = "ok" if size <= BUDGET_MB else "MISSED"
    print(f"records/data: {size:.1f} MB  [{verdict} <= {BUDGET_MB:.0f} MB]")
    return 0


if __name__ == "__main__":
    sys.exit(main())
