"""Extraction: from arbitrary chat text to every Python error occurrence in it.

The parts, in the order a paste meets them:

- ``clean``: ``clean_paste`` strips ANSI codes, invisible characters and Discord markdown.
- ``scan``: jumps between anchor lines and hands each to a reader:
  ``traceback`` (CPython, IPython, rich), ``pytest_output``, or the single-line readers in ``scan``,
  all built on the one-line recognisers in ``lines``.
- ``candidates``: message-like text without a class (paragraphs, 'error:' phrases, code spans, JSON
  error fields), when nothing structured was found, or as ``fragments`` of a traceback cut off
  before its exception line (with the raise statement its last frame quotes).
- ``versions``: library versions the paste prints.
- ``extractor``: ``extract`` ties these together, joins a cut-off traceback with the message quoted
  beside it, and picks the primary error.

Everything here is pure: no Discord, no SQL, no I/O.
"""

from records.extraction.clean import clean_paste
from records.extraction.extractor import MAX_PASTE_CHARS, extract
from records.extraction.model import ExtractedError, Extraction, Frame

__all__ = ["MAX_PASTE_CHARS", "ExtractedError", "Extraction", "Frame", "clean_paste", "extract"]
