"""Find every Python error in pasted chat text: the public face of ``records.extraction``.

``extract(text)`` returns an ``Extraction`` (every ``ExtractedError`` found, the primary one first,
whether the text shows an error at all, libraries and versions seen); ``clean_paste(text)`` returns
the text without ANSI codes, invisible characters and Discord markdown.
"""

from records.extraction import MAX_PASTE_CHARS, ExtractedError, Extraction, Frame, clean_paste, extract

__all__ = ["MAX_PASTE_CHARS", "ExtractedError", "Extraction", "Frame", "clean_paste", "extract"]
