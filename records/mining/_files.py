"""Find the Python files of a source tree and read them safely (links, size, encoding, syntax)."""

from __future__ import annotations

import ast
import errno
import io
import os
import stat
import tokenize
import warnings
from dataclasses import dataclass
from pathlib import Path

from records.mining._report import SkippedFile

DEFAULT_MAX_FILE_BYTES = 5 * 1024 * 1024
SYNTAX_ERROR = "syntax error (Python 2?)"
ENCODING_ERROR = "encoding error"
SYMLINK_LOOP = "symlink loop"


@dataclass(frozen=True)
class FileTask:
    """A Python file to mine: where it is on disk, its path in the repository and for tags."""

    absolute: str
    file_path: str
    tag_path: str


class SkipFile(Exception):  # a control-flow signal carrying the reason, not an error
    """Raised while reading a file that cannot be mined; carries the reason for the report."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def discover(root: Path, src_prefix: str = "") -> tuple[list[FileTask], list[SkippedFile]]:
    """List the ``.py`` files under ``root`` in a stable order, never following directory links.

    Hidden directories (``.git``, ``.venv``) and ``__pycache__`` are not entered; a linked directory
    is reported (as a loop when it points back up the tree) and not followed.
    """
    if root.is_file():
        return [FileTask(str(root), src_prefix + root.name, root.name)], []
    tasks: list[FileTask] = []
    skipped: list[SkippedFile] = []
    # A tree that is itself a package (has __init__.py) gives tags from its top; a tree holding
    # packages (an unpacked wheel, a src/ directory) drops the package name from the tags.
    drop_top = not (root / "__init__.py").is_file()

    def unreadable(error: OSError) -> None:
        path = src_prefix + _relative(root, error.filename or str(root))
        skipped.append(SkippedFile(path, f"unreadable ({error.strerror})"))

    for directory, dirnames, filenames in os.walk(root, followlinks=False, onerror=unreadable):
        dirnames[:] = _enterable(root, directory, sorted(dirnames), skipped, src_prefix)
        for name in sorted(filenames):
            if name.endswith(".py"):
                relative = _relative(root, os.path.join(directory, name))
                tag_path = relative.split("/", 1)[-1] if drop_top else relative
                tasks.append(FileTask(os.path.join(directory, name), src_prefix + relative, tag_path))
    return tasks, skipped


def _enterable(root: Path, directory: str, names: list[str], skipped: list[SkippedFile], src_prefix: str) -> list[str]:
    """Return the subdirectories to walk into, reporting the linked ones."""
    kept: list[str] = []
    for name in names:
        full = os.path.join(directory, name)
        if name.startswith(".") or name == "__pycache__":
            continue
        if os.path.islink(full):
            path = src_prefix + _relative(root, full) + "/"
            skipped.append(SkippedFile(path, _link_reason(full, directory)))
            continue
        kept.append(name)
    return kept


def _link_reason(link: str, directory: str) -> str:
    target = os.path.realpath(link)
    here = os.path.realpath(directory)
    if here == target or here.startswith(target.rstrip(os.sep) + os.sep):
        return SYMLINK_LOOP
    return "directory symlink (not followed)"


def _relative(root: Path, path: str) -> str:
    return Path(os.path.relpath(path, root)).as_posix()


def read_source(path: str, max_bytes: int) -> str:
    """Return the text of a Python file (newlines normalised), or raise SkipFile with the reason."""
    size = _regular_file_size(path)
    if size > max_bytes:
        raise SkipFile(f"too large ({size} bytes > {max_bytes})")
    try:
        with open(path, "rb") as handle:
            data = handle.read(max_bytes + 1)
    except OSError as error:
        raise SkipFile(f"unreadable ({error.strerror})") from error
    if len(data) > max_bytes:
        raise SkipFile(f"too large (more than {max_bytes} bytes)")
    return _decode(data).replace("\r\n", "\n").replace("\r", "\n")


def _regular_file_size(path: str) -> int:
    """Return the size of a regular file, following file links; raise SkipFile for anything else."""
    try:
        info = os.stat(path)
    except OSError as error:
        if error.errno == errno.ELOOP:
            raise SkipFile(SYMLINK_LOOP) from error
        reason = "broken symlink" if os.path.islink(path) else f"unreadable ({error.strerror})"
        raise SkipFile(reason) from error
    if not stat.S_ISREG(info.st_mode):
        raise SkipFile("not a regular file")
    return info.st_size


def _decode(data: bytes) -> str:
    """Decode source bytes the way Python does (BOM, then coding cookie, else UTF-8)."""
    try:
        encoding, _lines = tokenize.detect_encoding(io.BytesIO(data).readline)
        return data.decode(encoding)
    except (SyntaxError, UnicodeDecodeError, LookupError) as error:
        raise SkipFile(ENCODING_ERROR) from error


def parse_source(text: str, filename: str) -> ast.Module:
    """Parse module text, or raise SkipFile saying why it cannot be parsed."""
    if "\0" in text:  # Python versions differ on whether this is a SyntaxError or a ValueError
        raise SkipFile("null bytes in source")
    try:
        with warnings.catch_warnings():
            # Old escape sequences warn at parse time; under an "error" filter they would abort.
            warnings.simplefilter("ignore")
            return ast.parse(text, filename=filename)
    except SyntaxError as error:
        raise SkipFile(SYNTAX_ERROR) from error
    except (RecursionError, MemoryError) as error:
        raise SkipFile("too deeply nested to parse") from error
