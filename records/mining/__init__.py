"""Mine error records from a library's source: one record per ``raise`` whose message has literal text.

The pipeline, one module per step:

- ``_files``: find the ``.py`` files of a tree (no directory links followed, size checked before
  reading) and decode and parse them; a file that cannot be mined becomes a :class:`SkippedFile`.
- ``_messages``: turn the message expression of a raise into a template (``{expr}`` placeholders
  for run-time values) and define a *literal-style* message.
- ``_context``: what the module says around a raise: enclosing function and class, the ``if`` tests
  guarding it, comments above it, variables and module constants holding the message, import aliases.
- ``_sites``: classify each raise (a record, or a :class:`SkippedRaise` with its reason) and build
  the :class:`~records.model.Record`.
- ``_tree``: mine a tree in worker processes and write records as deterministic JSON Lines.

Coverage is measured over literal-style raises: ``raise C(message, ...)`` with ``C`` a class name and
``message`` a string literal, an f-string with a literal part, a ``+`` concatenation with a literal
side, or ``%`` / ``.format`` applied to a string literal (with some non-blank literal text).
"""

from records.mining._files import DEFAULT_MAX_FILE_BYTES
from records.mining._report import (
    MiningReport,
    MiningResult,
    SkippedFile,
    SkippedRaise,
    format_report,
)
from records.mining._template import Placeholder, render_template, split_template
from records.mining._tree import DEFAULT_WORKERS, mine_tree, write_records

__all__ = [
    "DEFAULT_MAX_FILE_BYTES",
    "DEFAULT_WORKERS",
    "MiningReport",
    "MiningResult",
    "Placeholder",
    "SkippedFile",
    "SkippedRaise",
    "format_report",
    "mine_tree",
    "render_template",
    "split_template",
    "write_records",
]
