r"""Text from outside, made safe once at every edge (gateway, attachments, paste sites, CLI stdin).

Discord's gateway JSON may carry lone surrogates (``\\ud800`` escapes), a terminal may send bytes that
are not UTF-8 (Python reads them as surrogate escapes), and a paste may hold NUL bytes. None of these
can be encoded as UTF-8, so RE2, SQLite and ``json.dumps`` to a UTF-8 stream fail on them. Every
adapter passes what it received through ``clean_text`` before anything else reads it.
"""

from __future__ import annotations

# Lone surrogates (and the escapes Python makes of undecodable bytes) become U+FFFD, NUL becomes a
# space: one str.translate, linear in the text.
_UNSAFE = {**dict.fromkeys(range(0xD800, 0xE000), "\ufffd"), 0: " "}


def clean_text(text: str, max_chars: int | None = None) -> str:
    """Return ``text`` with lone surrogates and NUL bytes replaced, cut to its last ``max_chars``.

    The cap is applied first, so a hostile 100 MB paste costs one slice, not a scan. The tail is kept:
    Python prints the final exception last.
    """
    if max_chars is not None and len(text) > max_chars:
        text = text[-max_chars:]
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.translate(_UNSAFE)
    return text.replace("\x00", " ") if "\x00" in text else text


def decode_bytes(data: bytes | bytearray) -> str:
    """Decode bytes from outside as UTF-8, replacing what is not, then clean them."""
    return clean_text(data.decode("utf-8", errors="replace"))
