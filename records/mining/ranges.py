"""One record per raise site across releases: merge the record sets mined from several releases.

The miner reads one release at a time and gives each of its raise sites a record. Shipping every
release that way would store sites x releases records, most of them the same check at a shifted
line. ``merge_releases`` folds one library's sets into one record per site (repository, file, class,
message template, and which of the identical raises in the file it is): the newest release that
raises it gives the record its text and top-level location, and ``versions`` lists every release
that raises it, newest first, with its line, source window and pinned link. The source text itself
is kept for the newest release of each major version (5.24.0 and 4.57.6 of transformers), where it
differs from the newest's: the reply shows it; for other releases the pinned link shows the code,
and fifty releases' texts would outgrow the shipped data's budget. ``firstVersion`` and
``lastVersion`` bound the range, and a generated ``commonSituations`` sentence names the shipped
releases that raise it when not all do.

Two releases whose raise at one place has another class are two sites: the class is part of the key.

``python -m records.mining.ranges OUT FILE...`` merges the sets of one library (run by
``scripts/mine_records.sh``); the output is deterministic, so running it again gives the same bytes.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from records.mining._tree import write_records
from records.mining.libraries import project_of_repo
from records.mining.versions import FIELD, read_set, version_sentence
from records.model import Record, SiteVersion
from records.versions import version_key

SiteKey = tuple[str | None, str | None, str | None, str, int]


def in_file_order(records: Sequence[Record]) -> list[Record]:
    """Return one release's records in file and line order, the order ``site_keys`` counts raises in."""
    return sorted(records, key=lambda r: (r.file_path or "", r.line_number or 0, r.id))


def site_keys(records: Sequence[Record]) -> list[SiteKey]:
    """Return each record's site key, in the order given (``in_file_order``).

    Identical raises in one file are told apart by their place among them.
    """
    seen: dict[tuple[str | None, str | None, str | None, str], int] = {}
    keys: list[SiteKey] = []
    for record in records:
        base = (record.repo, record.file_path, record.error_class, record.error_message)
        seen[base] = seen.get(base, -1) + 1
        keys.append((*base, seen[base]))
    return keys


def site_id(key: SiteKey) -> str:
    """Return the id of a site (16 hex characters of a SHA-256), the same for every release range."""
    text = "\x1f".join(["site", *(str(part) if part is not None else "" for part in key)])
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def merge_releases(sets: Mapping[str, Sequence[Record]]) -> list[Record]:
    """Return one record per raise site of ``sets`` (release -> its mined records, one library)."""
    releases = sorted(sets, key=version_key, reverse=True)
    raised: dict[SiteKey, list[Record]] = {}  # newest release first
    for release in releases:
        records = in_file_order(sets[release])
        for key, record in zip(site_keys(records), records, strict=True):
            raised.setdefault(key, []).append(record)
    library = project_of_repo(next((r.repo for rs in sets.values() for r in rs if r.repo), None))
    texts = newest_of_each_major(releases)
    return [_site(key, found, releases, library, texts) for key, found in raised.items()]


def newest_of_each_major(releases: Sequence[str]) -> frozenset[str]:
    """Return the newest release of each major version (``5.24.0``, ``4.57.6``; ``0.21.2``, ``0.17.1``)."""
    newest: dict[tuple[tuple[int, int], ...], str] = {}
    for release in sorted(releases, key=version_key):
        key = version_key(release)
        major = key[:2] if key[:1] == ((0, 0),) else key[:1]  # 0.x: each minor is a major (semver)
        newest[major] = release
    return frozenset(newest.values())


def _site(key: SiteKey, found: list[Record], releases: list[str], library: str, texts: frozenset[str]) -> Record:
    newest = found[0]
    versions = [_version(record, newest, record.library_version in texts) for record in found]
    raising = {v.version for v in versions}
    sentence = version_sentence(sorted(releases, key=version_key), raising, library)
    generated = [name for name in newest.generated if name != FIELD]
    situations = None if FIELD in newest.generated else newest.common_situations
    if situations is None and sentence is not None:
        situations = sentence
        generated.append(FIELD)
    return newest.model_copy(
        update={
            "id": site_id(key),
            "versions": versions,
            "first_version": versions[-1].version,
            "last_version": versions[0].version,
            "common_situations": situations,
            "generated": sorted(generated),
        }
    )


def _version(record: Record, newest: Record, with_text: bool) -> SiteVersion:
    return SiteVersion(
        version=record.library_version or "",
        line_number=record.line_number,
        source_code_start=record.source_code_start,
        source_code_end=record.source_code_end,
        github_url=record.github_url,
        analyzed_sha=record.analyzed_sha,
        source_code=record.source_code if with_text and record.source_code != newest.source_code else None,
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Merge the given sets (one library's releases) into one file of site records."""
    parser = argparse.ArgumentParser(prog="python -m records.mining.ranges", description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="the merged set to write (.jsonl.gz)")
    parser.add_argument("files", type=Path, nargs="+", help="mined sets, one per release of one library")
    args = parser.parse_args(argv)
    sets: dict[str, list[Record]] = {}
    repos: set[str | None] = set()
    for path in args.files:
        records = read_set(path)
        release = next((r.library_version for r in records if r.library_version), None)
        if release is None or release in sets:
            print(f"error: {path}: no library version, or the same one as another file", file=sys.stderr)
            return 2
        sets[release] = records
        repos |= {r.repo for r in records}
    if len(repos) > 1:
        print(f"error: the sets are of several repositories ({', '.join(sorted(map(str, repos)))})", file=sys.stderr)
        return 2
    merged = merge_releases(sets)
    write_records(merged, args.out)
    total = sum(len(records) for records in sets.values())
    print(f"{args.out}: {len(merged)} sites from {total} records of {len(sets)} releases")
    return 0


if __name__ == "__main__":
    sys.exit(main())
