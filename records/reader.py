"""Read record files in every published form into validated records.

Forms: one JSON envelope (``{"record": ..., "datasetVersion": ...}``), a bare record object, a JSON
array of either, JSON Lines (``.jsonl``, ``.jsonl.gz``), the rendered page text, and a directory of
any of these. Reading yields one item per record: either a loaded record or the problem that kept
it out, with its location (``file:line`` for JSON Lines, ``file[index]`` for arrays, ``file`` for a
single object or page). A file that cannot be read at all raises :class:`RecordFileError`.
"""

from __future__ import annotations

import errno
import gzip
import json
import os
import stat
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from records.errors import PageFormatError, RecordFileError, RecordProblem
from records.model import Record
from records.page import looks_like_page, parse_page

DEFAULT_MAX_FILE_BYTES = 128 * 1024 * 1024
RECORD_SUFFIXES = (".json", ".jsonl", ".jsonl.gz", ".json.gz", ".txt", ".ndjson")
# One JSON Lines record: every text field at its 200,000-character limit would still fit. A longer
# line is refused while streaming, before it is held in memory (a 2 MB gzip can inflate to 2 GiB).
MAX_LINE_BYTES = 16 * 1024 * 1024
# Records nest a few levels (envelope, record, lists); deeper JSON is an attack on the parser.
MAX_DEPTH = 32
# Python refuses to convert integers of more than 4,300 digits; no record field needs more than 20.
MAX_INT_DIGITS = 30
# Fields a newer schema adds are kept and exported, but they are not ours to grow without bound:
# every answer that uses the record carries them.
MAX_EXTRA_BYTES = 64 * 1024
_CHUNK = 1024 * 1024


@dataclass(frozen=True, slots=True)
class LoadedRecord:
    """A valid record and where it came from."""

    record: Record
    dataset_version: str | None
    location: str


ReadItem = LoadedRecord | RecordProblem


def read_paths(paths: Iterable[Path], *, max_bytes: int = DEFAULT_MAX_FILE_BYTES) -> Iterator[ReadItem]:
    """Yield every record (or problem) in the given files and directories, in a stable order."""
    for path in paths:
        for file in expand_paths(path):
            yield from read_file(file, max_bytes=max_bytes)


def read_file(path: Path, *, max_bytes: int = DEFAULT_MAX_FILE_BYTES) -> Iterator[ReadItem]:
    """Yield the records of one file; raise RecordFileError when the file cannot be read."""
    name = str(path)
    _check_regular_file(path, max_bytes)
    if path.name.endswith((".jsonl", ".jsonl.gz", ".ndjson")):
        yield from _read_json_lines(name, _stream_lines(path, max_bytes))
        return
    text = _decode(name, _read_bytes(path, max_bytes))
    stripped = text.lstrip("\ufeff").lstrip()
    if not stripped:
        raise RecordFileError(name, "file is empty: no records")
    if _is_json_lines(stripped):
        yield from _read_json_lines(name, iter(text.split("\n")))
    elif stripped[:1] in ("{", "["):
        yield from _read_json_document(name, text)
    elif looks_like_page(text):
        yield _read_page(name, text)
    else:
        raise RecordFileError(name, "not a record file (expected JSON, JSON Lines or a rendered page)")


def expand_paths(path: Path) -> list[Path]:
    """Return the record files a path names: itself, or the record files below a directory, sorted."""
    try:
        path.stat()
    except OSError as exc:
        raise RecordFileError(str(path), _os_problem(exc)) from None
    if path.is_dir():
        files = [p for p in path.rglob("*") if p.is_file() and p.name.endswith(RECORD_SUFFIXES)]
        if not files:
            raise RecordFileError(str(path), "directory holds no record files (" + ", ".join(RECORD_SUFFIXES) + ")")
        return sorted(files)
    return [path]


def _os_problem(exc: OSError) -> str:
    if exc.errno == errno.ELOOP:
        return "symbolic link loop"
    if exc.errno == errno.ENOENT:
        return "no such file or directory"
    return f"cannot read: {exc.strerror or exc}"


def _check_regular_file(path: Path, max_bytes: int) -> None:
    """Refuse FIFOs, devices and sockets (reading one hangs or never ends) and files over the cap."""
    name = str(path)
    try:
        info = os.stat(path)  # follows symlinks: a link to /dev/zero is judged by what it points at
    except OSError as exc:
        raise RecordFileError(name, _os_problem(exc)) from None
    if not stat.S_ISREG(info.st_mode):
        raise RecordFileError(name, f"not a regular file ({_file_kind(info.st_mode)}); only files are read")
    size = info.st_size
    if size > max_bytes:
        raise RecordFileError(name, f"file is {size:,} bytes, over the {max_bytes:,}-byte limit")


def _file_kind(mode: int) -> str:
    kinds = [(stat.S_ISFIFO, "a named pipe"), (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
             (stat.S_ISSOCK, "a socket"), (stat.S_ISDIR, "a directory")]  # fmt: skip
    return next((kind for test, kind in kinds if test(mode)), "not a plain file")


def _decode(name: str, raw: bytes) -> str:
    if b"\x00" in raw[:8192]:
        raise RecordFileError(name, "binary data, not a record file")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RecordFileError(name, f"not UTF-8 text (byte offset {exc.start})") from None


def _stream_lines(path: Path, max_bytes: int) -> Iterator[str]:
    """Yield decoded lines one at a time, so a large JSON Lines file never sits in memory whole."""
    name = str(path)
    total = 0
    opener = gzip.open if path.name.endswith(".gz") else open
    try:
        with opener(path, "rb") as fh:
            for number, raw in enumerate(_bounded_lines(fh), start=1):
                total += len(raw) if raw is not None else MAX_LINE_BYTES
                if total > max_bytes:
                    raise RecordFileError(name, f"decompressed data is over the {max_bytes:,}-byte limit")
                if raw is None:
                    yield _TooLong(number)
                    continue
                if number == 1 and b"\x00" in raw:
                    raise RecordFileError(name, "binary data, not a record file")
                try:
                    yield raw.decode("utf-8")
                except UnicodeDecodeError as exc:
                    raise RecordFileError(f"{name}:{number}", f"not UTF-8 text (column {exc.start + 1})") from None
    except (EOFError, gzip.BadGzipFile, zlib.error) as exc:
        raise RecordFileError(name, f"corrupt or truncated gzip data ({type(exc).__name__})") from None
    except OSError as exc:
        raise RecordFileError(name, f"cannot read: {exc.strerror or exc}") from None
    if total == 0:
        raise RecordFileError(name, "file is empty: no records")


class _TooLong(str):
    """Stands in the line stream for a line over MAX_LINE_BYTES (its text was never held)."""

    __slots__ = ()


def _bounded_lines(fh: Any) -> Iterator[bytes | None]:
    """Yield the lines of a binary stream; a line over MAX_LINE_BYTES is yielded as None, skipped unread."""
    while True:
        line: bytes = fh.readline(MAX_LINE_BYTES + 1)
        if not line:
            return
        if len(line) <= MAX_LINE_BYTES or line.endswith(b"\n"):
            yield line
            continue
        while line and not line.endswith(b"\n"):  # drop the rest of the long line a chunk at a time
            line = fh.readline(_CHUNK)
        yield None


def _read_bytes(path: Path, max_bytes: int) -> bytes:
    name = str(path)
    try:
        if not path.name.endswith(".gz"):
            return path.read_bytes()
        with gzip.open(path, "rb") as fh:
            # Read one byte past the limit so a gzip bomb is refused without inflating it whole.
            data = fh.read(max_bytes + 1)
    except (EOFError, gzip.BadGzipFile, zlib.error) as exc:
        raise RecordFileError(name, f"corrupt or truncated gzip data ({type(exc).__name__})") from None
    except OSError as exc:
        raise RecordFileError(name, f"cannot read: {exc.strerror or exc}") from None
    if len(data) > max_bytes:
        raise RecordFileError(name, f"decompressed data is over the {max_bytes:,}-byte limit")
    return data


def _is_json_lines(text: str) -> bool:
    # A .json file with several top-level objects, one a line, is JSON Lines too.
    first = text.split("\n", 1)
    return len(first) == 2 and first[0].startswith("{") and first[0].rstrip().endswith("}") and _parses(first[0])


def _parses(line: str) -> bool:
    try:
        _loads(line)
    except (ValueError, RecursionError):
        return False
    return True


def _bounded_int(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_INT_DIGITS:
        raise ValueError(f"integer of {len(digits):,} digits (limit {MAX_INT_DIGITS})")
    return int(digits)


def _loads(text: str) -> Any:
    """Parse JSON with bounded integers; the caller checks the depth."""
    return json.loads(text, parse_int=_bounded_int)


def _json_problem(text: str) -> tuple[Any, str | None]:
    """Parse ``text``; return (value, None) or (None, a problem naming line and column)."""
    try:
        value = _loads(text)
    except json.JSONDecodeError as exc:
        return None, f"malformed JSON at line {exc.lineno} column {exc.colno}: {exc.msg}"
    except RecursionError:
        return None, f"JSON nested too deeply (limit {MAX_DEPTH} levels)"
    except ValueError as exc:  # from _bounded_int
        return None, f"{exc}"
    if _depth_over(value, MAX_DEPTH):
        return None, f"JSON nested too deeply (limit {MAX_DEPTH} levels)"
    return value, None


def _depth_over(value: Any, limit: int) -> bool:
    """Tell whether ``value`` nests deeper than ``limit`` (iterative: no recursion to exhaust)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else ()
        for child in children:
            if isinstance(child, dict | list):
                if depth + 1 > limit:
                    return True
                stack.append((child, depth + 1))
    return False


def _read_json_lines(name: str, lines: Iterator[str]) -> Iterator[ReadItem]:
    seen_any = False  # a record or a reported problem: either way the file said something
    for number, raw_line in enumerate(lines, start=1):
        line = raw_line.lstrip("\ufeff") if number == 1 else raw_line
        if not line.strip():
            continue
        location = f"{name}:{number}"
        seen_any = True
        if isinstance(line, _TooLong):
            yield RecordProblem(location, "(json)", f"line is over the {MAX_LINE_BYTES:,}-byte limit; skipped unread")
            continue
        obj, problem = _json_problem(line)
        if problem is not None:
            yield RecordProblem(location, "(json)", problem.replace("at line 1 column", "at column"))
            continue
        yield _validate(obj, location)
    if not seen_any:
        raise RecordFileError(name, "file holds no records (only blank lines)")


def _read_json_document(name: str, text: str) -> Iterator[ReadItem]:
    obj, problem = _json_problem(text.lstrip("\ufeff"))
    if problem is not None:
        raise RecordFileError(name, problem)
    if isinstance(obj, list):
        if not obj:
            raise RecordFileError(name, "JSON array is empty: no records")
        for index, item in enumerate(obj):
            yield _validate(item, f"{name}[{index}]")
    else:
        yield _validate(obj, name)


def _read_page(name: str, text: str) -> ReadItem:
    try:
        data = parse_page(text)
    except PageFormatError as exc:
        return RecordProblem(name, "(page)", exc.problem)
    return _validate(data, name)


def _validate(obj: Any, location: str) -> ReadItem:
    if not isinstance(obj, dict):
        return RecordProblem(location, "(record)", f"expected a JSON object, got {_json_type(obj)}")
    dataset_version: Any = None
    if "record" in obj and isinstance(obj.get("record"), dict):
        dataset_version = obj.get("datasetVersion")
        if dataset_version is not None and not isinstance(dataset_version, str):
            return RecordProblem(location, "datasetVersion", "expected a string")
        obj = obj["record"]
    extra = _extra_bytes(obj)
    if extra > MAX_EXTRA_BYTES:
        return RecordProblem(location, "(unknown fields)", f"{extra:,} bytes, over the {MAX_EXTRA_BYTES:,}-byte limit")
    try:
        record = Record.model_validate(obj)
    except ValidationError as exc:
        return _first_problem(exc, location)
    return LoadedRecord(record, dataset_version, location)


def _extra_bytes(obj: dict[str, Any]) -> int:
    """Size of the fields the model does not know, as JSON."""
    known = _known_names()
    extras = {key: value for key, value in obj.items() if key not in known}
    return len(json.dumps(extras, ensure_ascii=False)) if extras else 0


@cache
def _known_names() -> frozenset[str]:
    return frozenset(name for field, info in Record.model_fields.items() for name in (field, info.alias) if name)


def _first_problem(exc: ValidationError, location: str) -> RecordProblem:
    # hide_input_in_errors keeps values out of the message; we also build our own short text.
    error = exc.errors(include_url=False, include_input=False)[0]
    field = ".".join(str(part) for part in error["loc"]) or "(record)"
    problem = error["msg"]
    if error["type"] == "missing":
        problem = "required field is missing"
    elif error["type"] == "string_too_long":
        problem = f"too long (limit {error.get('ctx', {}).get('max_length', '?'):,} characters)"
    if len(exc.errors()) > 1:
        problem += f" (and {len(exc.errors()) - 1} more problem(s) in this record)"
    return RecordProblem(location, field, problem)


def _json_type(obj: Any) -> str:
    return {list: "an array", str: "a string", int: "a number", float: "a number", bool: "a boolean"}.get(
        type(obj), "null" if obj is None else type(obj).__name__
    )
