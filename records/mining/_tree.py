"""Mine a whole source tree, file by file in worker processes, and write the records out."""

from __future__ import annotations

import gzip
import json
import logging
import os
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from records.mining._files import (
    DEFAULT_MAX_FILE_BYTES,
    FileTask,
    SkipFile,
    discover,
    parse_source,
    read_source,
)
from records.mining._report import MiningReport, MiningResult, SkippedFile
from records.mining._sites import FileOutcome, MineSettings, SourceFile, mine_module
from records.model import Record

log = logging.getLogger(__name__)

DEFAULT_WORKERS = min(8, os.cpu_count() or 1)
# Below this many files, starting worker processes costs more than it saves.
MIN_FILES_FOR_WORKERS = 32


@dataclass
class _FileResult:
    outcome: FileOutcome = field(default_factory=FileOutcome)
    skipped: SkippedFile | None = None
    parsed: bool = False


def mine_tree(
    root: Path,
    *,
    repo: str,
    ref: str,
    src_prefix: str = "",
    library_version: str | None = None,
    workers: int = DEFAULT_WORKERS,
    max_file_bytes: int = DEFAULT_MAX_FILE_BYTES,
    include: Sequence[str] = (),
) -> MiningResult:
    """Mine every ``.py`` file under ``root`` into records, one per raise with a literal message.

    ``src_prefix`` is put before paths relative to ``root`` to give paths as in the repository
    (``transformers/x.py`` in a wheel is ``src/transformers/x.py`` in the repository). The result
    is the same whatever ``workers`` is: files are mined in a fixed order and results sorted.
    ``include`` keeps only the files whose repository path starts with one of its prefixes (all when
    empty); the others are not read, nor counted as seen.
    """
    root = Path(root)
    if not root.exists():
        raise FileNotFoundError(f"no such directory to mine: {root}")
    tasks, skipped_dirs = discover(root, src_prefix)
    if include:
        prefixes = tuple(include)
        tasks = [task for task in tasks if task.file_path.startswith(prefixes)]
        skipped_dirs = [skip for skip in skipped_dirs if skip.path.startswith(prefixes)]
    settings = MineSettings(repo=repo, ref=ref, library_version=library_version)
    mine_one = partial(_mine_file, settings=settings, max_bytes=max_file_bytes)
    results = _run(mine_one, tasks, workers)
    return _collect(tasks, results, skipped_dirs)


def _run(mine_one: partial[_FileResult], tasks: list[FileTask], workers: int) -> list[_FileResult]:
    """Mine the tasks, in worker processes when there are enough of them; results keep task order."""
    if workers <= 1 or len(tasks) < MIN_FILES_FOR_WORKERS:
        return [mine_one(task) for task in tasks]
    chunk = max(1, len(tasks) // (workers * 16))
    try:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            return list(pool.map(mine_one, tasks, chunksize=chunk))
    except BrokenProcessPool:
        log.warning("a mining worker died; mining %d files in this process instead", len(tasks))
        return [mine_one(task) for task in tasks]


def _mine_file(task: FileTask, *, settings: MineSettings, max_bytes: int) -> _FileResult:
    """Mine one file; any problem with it becomes a skip with a reason, never an exception."""
    try:
        text = read_source(task.absolute, max_bytes)
        tree = parse_source(text, task.file_path)
    except SkipFile as skip:
        return _FileResult(skipped=SkippedFile(task.file_path, skip.reason))
    try:
        outcome = mine_module(tree, SourceFile(task.file_path, task.tag_path, text), settings)
    except RecursionError:
        return _FileResult(skipped=SkippedFile(task.file_path, "too deeply nested to mine"), parsed=True)
    except Exception as error:  # a mining bug must cost one file, not the run
        log.exception("mining %s failed", task.file_path)
        reason = f"internal error ({type(error).__name__})"
        return _FileResult(skipped=SkippedFile(task.file_path, reason), parsed=True)
    return _FileResult(outcome=outcome, parsed=True)


def _collect(tasks: list[FileTask], results: list[_FileResult], skipped_dirs: list[SkippedFile]) -> MiningResult:
    report = MiningReport(files_seen=len(tasks), skipped_files=list(skipped_dirs))
    records: list[Record] = []
    for result in results:
        outcome = result.outcome
        report.files_parsed += result.parsed
        report.raise_statements += outcome.raise_statements
        report.literal_style_raises += outcome.literal_style_raises
        report.literal_style_emitted += outcome.literal_style_emitted
        report.skipped_raises.extend(outcome.skipped_raises)
        report.explain_skips.update(outcome.explain_skips)
        report.skipped_files.extend([result.skipped] if result.skipped else [])
        records.extend(outcome.records)
    records.sort(key=lambda r: (r.file_path or "", r.line_number or 0, r.id))
    report.records_emitted = len(records)
    report.skipped_raises.sort(key=lambda s: (s.path, s.line, s.reason))
    report.skipped_files.sort(key=lambda s: (s.path, s.reason))
    return MiningResult(records=records, report=report)


def write_records(records: Iterable[Record], out: Path) -> None:
    """Write records as JSON Lines sorted by id, gzipped when ``out`` ends in ``.gz``.

    The output is byte-for-byte deterministic: keys sorted, no gzip timestamp or file name.
    """
    out = Path(out)
    lines = sorted((record.id, _record_line(record)) for record in records)
    data = "".join(line + "\n" for _id, line in lines).encode("utf-8")
    out.parent.mkdir(parents=True, exist_ok=True)
    temporary = out.with_name(out.name + ".tmp")
    with open(temporary, "wb") as raw:
        if out.name.endswith(".gz"):
            with gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0, compresslevel=9) as packed:
                packed.write(data)
        else:
            raw.write(data)
    os.replace(temporary, out)


def _record_line(record: Record) -> str:
    """Return one record as canonical JSON, leaving out fields that are unset (None)."""
    wire = {key: value for key, value in record.to_wire().items() if value is not None}
    if wire.get("versions"):  # a site of several releases: each release's unset fields left out too
        wire["versions"] = [{k: v for k, v in item.items() if v is not None} for item in wire["versions"]]
    else:
        wire.pop("versions", None)
    return json.dumps(wire, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
