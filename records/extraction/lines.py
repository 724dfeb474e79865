"""Recognisers for one line of pasted output: exception lines, frame lines, locations, log prefixes.

Every function here looks at a single line with ``str`` methods and a few anchored regexes whose
parts are single character classes with bounded repeats, so each runs in time linear in the line.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from typing import NamedTuple

from records.extraction.model import Frame

MAX_CLASS_CHARS = 200  # longer "class names" are noise (a dotted path of 40 modules is not a class)
_MAX_LINE_DIGITS = 9  # int() of a longer digit run is slow, and no source file has a billion lines

# Outside a traceback a name only counts as an exception class when it reads like one.
_STRICT_SUFFIXES = ("Error", "Exception", "Warning")
_STRICT_NAMES = frozenset(
    {
        "BaseException",
        "BaseExceptionGroup",
        "Exception",
        "ExceptionGroup",
        "GeneratorExit",
        "KeyboardInterrupt",
        "StopAsyncIteration",
        "StopIteration",
        "SystemExit",
    }
)
# Classes Python prints alone (no colon) often enough to accept a bare name outside a traceback.
_BARE_CLASSES = frozenset({"KeyboardInterrupt", "StopIteration", "StopAsyncIteration", "SystemExit", "GeneratorExit"})

HEADER = "Traceback (most recent call last)"
CHAIN_SEPARATORS = (
    "During handling of the above exception, another exception occurred",
    "The above exception was the direct cause of the following exception",
)
_RULE_CHARS = frozenset("-=_~*─━═ ")
_BOX_CHARS = ("│", "╭", "╰", "┃", "┏", "┗", "|")
_PATH_SUFFIXES = (".py", ".pyx", ".pyi", ".pyw")

_LOCATION_RE = re.compile(r"((?:[A-Za-z]:)?[^:\n]{1,500}):(\d{1,9}):(.*)")
# Hydra's format (and some launchers') puts tags before the timestamp: '[PROC-0][2024-04-02 16:44:30,465][app][ERROR]'.
# rich's RichHandler prints the time alone ('14:06:55.204 ERROR ...') and the caller's file and line at the
# right edge ('...    model_manager.py:172'), which is no part of the message.
_TIMESTAMP_RE = re.compile(
    r"(?:\[[\w.:-]{1,40}\]){0,3}"
    r"\[?(?:\d{4}-\d{2}-\d{2}[T ])?\d{2}:\d{2}:\d{2}(?:[.,]\d{1,9})?(?:Z|[+-]\d{2}:?\d{2})?\]?"
)
_RIGHT_EDGE_LOCATION_RE = re.compile(r"\s{2,}[\w.-]{1,100}\.py:\d{1,9}\Z")
_GLOG_RE = re.compile(r"([EFWI])\d{4} \d{2}:\d{2}:\d{2}\.\d{1,9} {1,8}\d{1,10} [^\]\n]{1,300}\] ?")
# PyTorch's c10 logging (NCCL watchdog, c10d): glog's prefix in brackets and without a thread id, then the
# process group's tags: '[E1206 18:44:12.715298746 ProcessGroupNCCL.cpp:607] [Rank 0] Watchdog caught ...'.
_C10_LOG_RE = re.compile(
    r"\[([EFWI])\d{4} \d{2}:\d{2}:\d{2}\.\d{1,9}(?: {1,8}\d{1,10})? [^\]\n]{1,300}\] ?(?:\[[\w ]{1,40}\] ?){0,2}"
)
_LEVEL_RE = re.compile(r"\b(ERROR|CRITICAL|FATAL|WARNING|WARN|INFO|DEBUG|NOTICE|TRACE)\b")
_LOGURU_LOCATION_RE = re.compile(r"[\w.<>]{1,200}:[\w<>]{1,200}:\d{1,9} - ")
# A call, a subscript, an assignment, or a tuple assignment ('config, kwargs = AutoConfig.from_pretrained(').
_CODE_START_RE = re.compile(
    r"[A-Za-z_][\w.]{0,200}(?:\(|\[| ?[-+*/%|&]?=[^=])|[A-Za-z_][\w.]{0,200}(?:, ?[A-Za-z_][\w.]{0,200}){1,8} ?=[^=]"
)

ERROR_LEVELS = frozenset({"ERROR", "CRITICAL", "FATAL", "E", "F"})
_GLOG_LEVELS = ("E", "F", "W", "I")
_LEVELS = tuple(f"{level}:" for level in ("ERROR", "CRITICAL", "FATAL", "WARNING", "WARN", "INFO", "DEBUG"))
_LEVEL_INITIALS = frozenset(level[0] for level in _LEVELS)
_CODE_PREFIXES = (
    "def ",
    "async def ",
    "class ",
    "import ",
    "from ",
    "return",
    "raise ",
    "raise(",
    "except",
    "try:",
    "finally:",
    "if ",
    "elif ",
    "else:",
    "for ",
    "while ",
    "with ",
    "assert ",
    "await ",
    "yield",
    "lambda",
    "@",
    "#",
    "//",
    ":raise",
    ":param",
    ":return",
    ":rtype",
    ":type",
    "$ ",
    "... ",
    "pip ",
    "python ",
    "python3 ",
)
_PROMPTS = ("$ ", "In [", "PS C:", "PS D:", ">>> ", "(base) ", "(venv) ", "(.venv) ")


class RawFrame(NamedTuple):
    """A frame line as parsed, before the path is normalised."""

    path: str
    line: int | None
    function: str | None
    style: str  # "cpython", "ipython" (blank lines between frames) or "rich"


def indent_of(line: str) -> int:
    """Count the leading whitespace characters of ``line``."""
    return len(line) - len(line.lstrip())


@lru_cache(maxsize=4096)
def is_class_name(name: str) -> bool:
    """Tell whether ``name`` is a dotted name as a traceback prints an exception class."""
    if not name or len(name) > MAX_CLASS_CHARS:
        return False
    parts = name.split(".")
    if not all(part.isidentifier() or part == "<locals>" for part in parts):
        return False
    # An undotted lower-case word ("thanks") is chat; dotted lower-case classes (socket.gaierror) exist.
    return len(parts) > 1 or name[0].isupper() or name[0] == "_"


@lru_cache(maxsize=4096)
def is_strict_class(name: str) -> bool:
    """Tell whether ``name`` reads as an exception class even outside a traceback."""
    if not is_class_name(name):
        return False
    last = name.rpartition(".")[2]
    if last in _STRICT_NAMES:
        return True
    if not last.lstrip("_")[:1].isupper():
        return False  # '_ArrayMemoryError' counts, 'gaierror' only inside a traceback
    return any(last.endswith(suffix) and (len(last) > len(suffix) or "." in name) for suffix in _STRICT_SUFFIXES)


def split_exception_line(text: str, *, strict: bool) -> tuple[str, str] | None:
    """Split ``Class: message`` (or a bare ``Class``) into class and message, else return None."""
    name, colon, rest = text.partition(":")
    if colon and rest and rest[0] not in " \t":
        return None  # "http://...", "C:\\Users", "a:b" are not exception lines
    if strict:
        if not is_strict_class(name):
            return None
        if not colon and name.rpartition(".")[2] not in _BARE_CLASSES:
            return None
    elif not is_class_name(name):
        return None
    return name, rest.strip()


def is_rule(text: str) -> bool:
    """Tell whether ``text`` is a separator rule such as '-----' or '_ _ _ _'."""
    return len(text) >= 5 and _RULE_CHARS.issuperset(text)


def is_chain_separator(text: str) -> bool:
    """Tell whether ``text`` is the line Python prints between chained exceptions."""
    return text.startswith(CHAIN_SEPARATORS)


def is_box_line(text: str) -> bool:
    """Tell whether ``text`` is part of a rich traceback box."""
    return text.startswith(_BOX_CHARS)


def is_e_line(line: str) -> bool:
    """Tell whether ``line`` is a pytest 'E   ' failure line."""
    return line == "E" or line.startswith("E  ")


def is_arrow(text: str) -> bool:
    """Tell whether ``text`` is an IPython '---> 12' current-line marker."""
    if not text.startswith("-"):
        return False
    rest = text.lstrip("-")
    return rest.startswith(">") and rest[1:].lstrip()[:1].isdigit()


def arrow_line_number(text: str) -> int | None:
    """Return the line number an IPython arrow marks."""
    digits = text.lstrip("->").lstrip().partition(" ")[0]
    return _to_int(digits)


def starts_prompt(text: str) -> bool:
    """Tell whether ``text`` starts with a shell or REPL prompt."""
    return text.startswith(_PROMPTS)


def looks_like_code(text: str) -> bool:
    """Tell whether a stripped line reads as Python source rather than prose or output."""
    return text.startswith(_CODE_PREFIXES) or _CODE_START_RE.match(text) is not None


def _to_int(digits: str) -> int | None:
    """Parse a short run of ASCII digits, else None."""
    digits = digits.strip()
    if digits.isascii() and digits.isdigit() and len(digits) <= _MAX_LINE_DIGITS:
        return int(digits)
    return None


def _function_name(text: str) -> str | None:
    """Return the function of ', in name(args)' text without its arguments ('<cell line: 5>' kept)."""
    return text.partition("(")[0].strip()[:MAX_CLASS_CHARS] or None


def parse_frame_line(text: str) -> RawFrame | None:
    """Parse a stripped traceback frame line in CPython, IPython or rich form, else return None."""
    if text.startswith('File "'):
        return _cpython_frame(text)
    if text.startswith("File "):
        return _ipython_file_frame(text)
    if text.startswith(("Cell In[", "Input In [")):
        return _ipython_cell_frame(text)
    if text.startswith(_BOX_CHARS):
        return _rich_frame(text)
    return _unmarked_frame(text)


def _unmarked_frame(text: str) -> RawFrame | None:
    """Parse the frame lines that open with a path: a CPython line copied without 'File "', old IPython's."""
    if '", line ' in text:
        return _cut_cpython_frame(text)
    if " in " in text:
        return _old_ipython_frame(text)
    return None


def _cpython_frame(text: str) -> RawFrame | None:
    """Parse 'File "path", line 12, in func' (the ', in func' part is absent for SyntaxError)."""
    path, found, tail = text[6:].partition('", line ')
    if not found or not path:
        return None
    number, _, func = tail.partition(",")
    line = _to_int(number)
    if line is None:
        return None
    func = func.strip()
    function = (func[3:].strip() or None) if func.startswith("in ") else None
    return RawFrame(path, line, function, "cpython")


def _cut_cpython_frame(text: str) -> RawFrame | None:
    """Parse a CPython frame line copied without its opening 'File "' ('/lib/x.py", line 12, in f')."""
    path = text.partition('", line ')[0]
    if not path.endswith(_PATH_SUFFIXES) or not ("/" in path or "\\" in path) or '"' in path:
        return None
    return _cpython_frame('File "' + text)


def _ipython_file_frame(text: str) -> RawFrame | None:
    """Parse IPython 8's 'File ~/path/x.py:1581, in Class.method(self, ...)'."""
    head, found, func = text[5:].partition(", in ")
    path, colon, number = head.rpartition(":")
    line = _to_int(number) if colon else None
    if line is None:
        path, line = head, None
    path = path.strip()
    if not _is_path(path) or (not found and line is None):
        return None
    return RawFrame(path, line, _function_name(func) if found else None, "ipython")


def _ipython_cell_frame(text: str) -> RawFrame | None:
    """Parse 'Cell In[3], line 5' (IPython 8) and 'Input In [3], in <cell line: 5>()' (IPython 7)."""
    path, bracket, tail = text.partition("]")
    if not bracket:
        return None
    if tail.startswith(", line "):
        number, _, func = tail[7:].partition(", in ")
        return RawFrame(path + "]", _to_int(number), _function_name(func) if func else None, "ipython")
    cell_line = tail.partition("<cell line:")[2].partition(">")[0]
    return RawFrame(path + "]", _to_int(cell_line), None, "ipython")


def _rich_frame(text: str) -> RawFrame | None:
    """Parse a rich box frame line '│ /path/x.py:12 in func │'."""
    inner = text.strip("│┃| ")
    head, found, func = inner.partition(" in ")
    path, colon, number = head.rpartition(":")
    line = _to_int(number) if colon else None
    if not found or line is None or not path.endswith(_PATH_SUFFIXES):
        return None
    return RawFrame(path, line, func.strip() or None, "rich")


def _old_ipython_frame(text: str) -> RawFrame | None:
    """Parse IPython 7's '<ipython-input-3-abc> in <module>' and '~/x.py in generate(self, ...)'."""
    path, _, func = text.partition(" in ")
    func = func.strip()
    pathlike = path.endswith(".py") and ("/" in path or "\\" in path or " " not in path)
    if not (path.startswith("<ipython-input-") or pathlike):
        return None
    if func != "<module>" and not _CODE_START_RE.match(func):
        return None  # "my script.py in the repo" is prose; frames name a function with its arguments
    return RawFrame(path, None, _function_name(func), "ipython")


def _is_path(path: str) -> bool:
    """Tell whether ``path`` looks like a source path as tracebacks print them."""
    if path.startswith("<") and path.endswith(">"):
        return True  # "<frozen runpy>", "<string>"
    return path.endswith(_PATH_SUFFIXES) or "/" in path or "\\" in path


def parse_location(text: str) -> tuple[str, int, str] | None:
    """Parse a pytest or warnings location 'path.py:12: tail' into path, line and stripped tail."""
    if ".py" not in text and ">:" not in text:
        return None
    match = _LOCATION_RE.match(text)
    if match is None:
        return None
    path, number, tail = match.groups()
    if not (path.endswith(_PATH_SUFFIXES) or (path.startswith("<") and path.endswith(">"))):
        return None
    if tail and tail[0] != " ":
        return None
    return path.strip(), int(number), tail.strip()


def make_frame(path: str, line: int | None, function: str | None) -> Frame:
    """Build a Frame, finding the installed library from a site-packages or dist-packages path."""
    path = path.replace("\\", "/")
    rooted = "/" + path
    cut = max(rooted.rfind("/site-packages/"), rooted.rfind("/dist-packages/"))
    if cut < 0:
        return Frame(path, line, function)
    package_path = rooted[cut + len("/site-packages/") :]  # both markers have the same length
    library = package_path.partition("/")[0].removesuffix(".py")
    if not package_path or not library:
        return Frame(path, line, function)
    return Frame(path, line, function, package_path, library)


def make_frames(raws: Sequence[RawFrame]) -> tuple[Frame, ...]:
    """Build Frames from parsed frame lines."""
    return tuple(make_frame(raw.path, raw.line, raw.function) for raw in raws)


def parse_log_line(text: str) -> tuple[str, str] | None:
    """Split a logging line into its level and message, for the formats people paste most."""
    first = text[:1]
    if first in _LEVEL_INITIALS and text.startswith(_LEVELS):
        level = text.partition(":")[0]
        if f"{level}:" in _LEVELS:
            return level, _basic_config_message(text[len(level) + 1 :])
    if first == "[" and text[1:2] in _GLOG_LEVELS and text[2:3].isdigit():
        c10 = _C10_LOG_RE.match(text)
        return None if c10 is None else (c10.group(1), text[c10.end() :].strip())
    if first.isdigit() or first == "[":
        stamp = _TIMESTAMP_RE.match(text, 0, 200)
        return None if stamp is None else _timestamped(text[stamp.end() :])
    if first in "EFWI" and text[1:2].isdigit():
        glog = _GLOG_RE.match(text)
        return None if glog is None else (glog.group(1), text[glog.end() :].strip())
    return None


def _basic_config_message(rest: str) -> str:
    """Return the message of 'LEVEL:name:message' (logging's default) or 'LEVEL:   message'."""
    if rest[:1] in (" ", "\t"):
        return rest.strip()
    name, colon, message = rest.partition(":")
    if colon and name and " " not in name:
        return message.strip()
    return rest.strip()


def _timestamped(rest: str) -> tuple[str, str] | None:
    """Find the level and message after a timestamp ('... - ERROR - msg', '| ERROR | msg')."""
    level = _LEVEL_RE.search(rest, 0, 120)
    if level is None:
        return None
    message = rest[level.end() :].lstrip(" -|:]\t")
    loguru = _LOGURU_LOCATION_RE.match(message)
    if loguru is not None:
        message = message[loguru.end() :]
    return level.group(1), _RIGHT_EDGE_LOCATION_RE.sub("", message).strip()


def is_log_line(text: str) -> bool:
    """Tell whether a stripped line starts with a logging prefix."""
    return parse_log_line(text) is not None
