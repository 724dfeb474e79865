"""What extraction finds in a paste: stack frames, error occurrences and the overall reading.

Plain frozen dataclasses: they travel from the parser to the matcher and the embed builders, and
carry nothing Discord- or storage-specific.
"""

from __future__ import annotations

from dataclasses import dataclass

# The kinds of occurrence, from the strongest structural evidence to the weakest.
KIND_TRACEBACK = "traceback"  # a CPython, IPython or rich traceback (frames and/or final line)
KIND_PYTEST = "pytest"  # pytest failure output (E lines, location lines, summary lines)
KIND_LOG = "log"  # a logging record at ERROR level or above
KIND_EXCEPTION_LINE = "exception_line"  # a lone `module.Class: message` line (or a warnings line)
KIND_INLINE = "inline"  # `Class: message` quoted inside a sentence
KIND_CANDIDATE = "candidate"  # message-like text with no class and no structure: a guess only
KINDS = (KIND_TRACEBACK, KIND_PYTEST, KIND_LOG, KIND_EXCEPTION_LINE, KIND_INLINE, KIND_CANDIDATE)


@dataclass(frozen=True, slots=True)
class Frame:
    """One stack frame as printed: where the code ran, and which installed library it belongs to."""

    path: str  # as printed, backslashes turned into '/', '~' kept
    line: int | None
    function: str | None
    package_path: str | None = None  # relative to site-packages/dist-packages, else None
    library: str | None = None  # top-level package of package_path, else None


@dataclass(frozen=True, slots=True)
class ExtractedError:
    """One error occurrence: its class, its message and the frames that led to it."""

    error_class: str | None  # as printed, may be dotted; None when no class was printed
    message: str  # continuation lines joined with '\n', each stripped, no ANSI
    frames: tuple[Frame, ...] = ()  # outermost first, innermost (raising) last
    kind: str = KIND_TRACEBACK  # one of KINDS
    # A traceback cut off before its exception line may still quote the raise statement under its
    # last frame ('raise ValueError("Cannot handle ...")'): that source line, else "".
    source: str = ""

    @property
    def raising_frame(self) -> Frame | None:
        """The innermost frame, where the exception was raised."""
        return self.frames[-1] if self.frames else None


@dataclass(frozen=True, slots=True)
class Extraction:
    """Everything extraction read from one paste."""

    errors: tuple[ExtractedError, ...]  # every occurrence found: primary first, then the others in order
    primary: ExtractedError | None
    is_error: bool  # structural evidence of an error; False for ordinary chat and for candidates only
    libraries: tuple[str, ...]  # libraries seen in frames, sorted, unique
    versions: dict[str, str]  # e.g. {'transformers': '4.57.6'} when the paste prints them
    truncated: bool  # the paste was longer than MAX_PASTE_CHARS and only its tail was read
    # When the primary is a traceback cut off before its exception line: messages quoted elsewhere in
    # the paste without a class, each given those frames, as what the lost last line may have said.
    fragments: tuple[ExtractedError, ...] = ()
