"""Turn a Discord message into plain text: no terminal colours, no invisible characters, no markdown.

The steps run in an order chosen so that no later step can create what an earlier one removed, which
is what makes ``clean_paste`` idempotent: deletions of characters come first, then fences (each
replaced by a newline, so nothing on either side can join), then inline code, then markdown links (a
link becomes its URL, which holds no bracket), then quotes (which only remove a line's start).
"""

from __future__ import annotations

import re

# Complete escape sequences: CSI (colours, cursor moves), OSC (titles, hyperlinks, terminated by BEL
# or ST) and the short two- and three-character forms. Each part is a run of one character class.
_ANSI_RE = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"
    r"|\x1b\][^\x07\x1b\n]{0,2048}(?:\x07|\x1b\\)"
    r"|\x1b[()][0-9A-Za-z]"
    r"|\x1b[@-Z\\-_]"
)

# Colour codes whose ESC was lost on the way (Colab and some web terminals): "[0;31m".
_BARE_SGR_RE = re.compile(r"\[[0-9;]{1,20}m")
_SGR_MAX = 22  # '[' + 20 parameter characters + 'm'

_INLINE_CODE_RE = re.compile(r"`[^`\n]*`")
# A markdown link as GitHub and chat windows render a URL they recognise: '[Models - Hugging Face](https://
# huggingface.co/models)'. The message printed the URL; the title is the window's. A title holding a
# URL is left alone, so that no replacement can make a new link (idempotence).
_LINK_RE = re.compile(r"\[([^\[\]()\n]{1,200})\]\((https?://[^\s()\[\]]{1,2000})\)")
# VS Code notebooks copy a traceback's source lines with each line number a link to its file:
# '[1140](https://vscode-remote+x.vscode-cdn.net/home/u/site-packages/transformers/x.py:1140)  code' and,
# as HTML, "<a href='file:///home/u/site-packages/transformers/x.py?line=1139'>1140</a>  code".
_NOTEBOOK_LINE_RE = re.compile(
    r"^( {0,8}(?:-{1,8}> {0,4})?)(?:\[(\d{1,9})\]\((?:https?://[^/\s]{1,300}|file://)(/[^\s()]{1,1000}?\.py):\d{1,9}\)"
    r"|<a href='(?:file://)?(/[^'?\s]{1,1000}?\.py)\?line=\d{1,9}'>(\d{1,9})</a>)",
    re.MULTILINE,
)
# A tqdm progress bar ('Loading pipeline components...:  20%|██▍   | 1/5 [00:00<00:02,  1.74it/s]'). tqdm
# redraws it after a carriage return; copied from a terminal or a log, what was printed next is glued to
# its end on the same line ('...1.74it/s]An error occurred ...'), so a line break goes after the bar.
_PROGRESS_BAR = r"\d{1,3}%\|[^|\n]{0,200}\| {0,4}[\d.]{1,12}[kMG]?/[\d.?]{1,12}[kMG]? {0,4}\[[^\]\n]{0,200}\]"
_PROGRESS_BAR_RE = re.compile(_PROGRESS_BAR + r"(?=\S)")
_PROGRESS_LINE_RE = re.compile(_PROGRESS_BAR + r"\s*\Z")
_QUOTE_PREFIX_RE = re.compile(r"^(?:>>> |> )+", re.MULTILINE)
_EMPTY_QUOTE_RE = re.compile(r"^(?:>>>|>)$", re.MULTILINE)


# Control characters except tab and newline (ESC too: whole sequences were removed before), then
# zero-width and invisible formatting characters, then bidi marks, embeddings and isolates.
_INVISIBLE_RE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]"
)
_ODD_SPACE_RE = re.compile("[\u00a0\u2000-\u200a\u202f\u3000]")
_LINE_SEPARATOR_RE = re.compile("[\u2028\u2029]")
# For ASCII text (most pastes) a translation table is several times faster than the regexes.
_ASCII_CONTROLS: dict[int, None] = dict.fromkeys((*range(0x00, 0x09), *range(0x0B, 0x20), 0x7F))
_FENCE = "```"
_FENCE_TAG_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_+#.-")
_FENCE_TAG_MAX = 20


def clean_paste(text: str) -> str:
    """Strip ANSI codes, invisible characters and Discord markdown from ``text``; idempotent."""
    return _clean(text, unwrap_inline=True)


def clean_for_extraction(text: str) -> str:
    """Clean like ``clean_paste`` but keep inline code spans, whose edges bound quoted errors."""
    return _clean(text, unwrap_inline=False)


def _clean(text: str, *, unwrap_inline: bool) -> str:
    """Run the cleaning steps in their fixed order."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = _break_after_progress_bars(text)
    text = _ANSI_RE.sub("", text)
    text = _drop_invisible(text)
    text = _strip_bare_sgr(text)
    text = _unwrap_fences(text)
    if unwrap_inline:
        text = _unwrap_inline_code(text)
        # Unwrapping can join "[0" and "m": remove colour codes formed that way too.
        text = _strip_bare_sgr(text)
    return _strip_quotes(_unwrap_links(_unlink_notebook_lines(text)))


def is_progress_bar(line: str) -> bool:
    """Tell whether a stripped line ends with a progress bar (what it says before the bar is its label)."""
    return "%|" in line and _PROGRESS_LINE_RE.search(line) is not None


def _break_after_progress_bars(text: str) -> str:
    """Put a line break after each progress bar that has text glued to its end."""
    if "%|" not in text:
        return text
    return _PROGRESS_BAR_RE.sub(lambda m: m.group(0) + "\n", text)


def _unlink_notebook_lines(text: str) -> str:
    """Turn a VS Code notebook's linked source lines into IPython's ('   1140  code', '-> 1141  raise').

    The link names the line's file. A line of a file other than the frame before it (the paste
    starts inside a frame, or elides the frame's header with '...') gets IPython's frame line
    'File /path.py:1140' first, so the file is not lost with the link.
    """
    if "](" not in text and "<a href=" not in text:
        return text
    out: list[str] = []
    current = ""  # the file name of the frame the source lines belong to
    for line in text.split("\n"):
        match = _NOTEBOOK_LINE_RE.match(line)
        if match is None:
            if line.lstrip().startswith("File "):
                current = line.partition(":")[0].rpartition("/")[2]
            out.append(line)
            continue
        margin, number, path = match.group(1), match.group(2) or match.group(5), match.group(3) or match.group(4)
        name = path.rpartition("/")[2]
        if name != current:
            out.append(f"File {path}:{number}")
            current = name
        out.append(f"{margin or '   '}{number}{line[match.end() :]}")
    return "\n".join(out)


def _unwrap_links(text: str) -> str:
    """Replace each markdown link '[title](url)' by its URL, unless the title itself holds one."""
    if "](" not in text:
        return text
    return _LINK_RE.sub(lambda m: m.group(0) if "://" in m.group(1) else m.group(2), text)


def _drop_invisible(text: str) -> str:
    """Delete control and invisible characters; turn odd spaces and line separators plain."""
    if text.isascii():
        return text.translate(_ASCII_CONTROLS)
    text = _INVISIBLE_RE.sub("", text)
    text = _ODD_SPACE_RE.sub(" ", text)
    return _LINE_SEPARATOR_RE.sub("\n", text)


def _strip_bare_sgr(text: str) -> str:
    """Remove ESC-less colour codes until none is left, nested ones ("[[0m0m") included."""
    if "[" not in text:
        return text
    text = _BARE_SGR_RE.sub("", text)
    if _BARE_SGR_RE.search(text) is None:
        return text
    return _strip_bare_sgr_stackwise(text)


def _strip_bare_sgr_stackwise(text: str) -> str:
    """Remove codes with a stack, so that codes formed by a removal go too (only nested input)."""
    out: list[str] = []
    for char in text:
        out.append(char)
        if char == "m":
            _pop_code(out)
    return "".join(out)


def _pop_code(out: list[str]) -> None:
    """Pop a '[digits;m' code off the end of ``out`` when there is one."""
    k = len(out) - 2
    stop = max(-1, len(out) - _SGR_MAX - 1)
    while k > stop and out[k] in "0123456789;":
        k -= 1
    if k > stop and out[k] == "[" and k < len(out) - 2:
        del out[k:]


def _unwrap_fences(text: str) -> str:
    """Replace every ``` (and an opening fence's language tag) with a newline."""
    if _FENCE not in text:
        return text
    parts = text.split(_FENCE)
    for k in range(1, len(parts), 2):  # odd parts follow an opening fence
        tag, newline, rest = parts[k].partition("\n")
        if newline and len(tag) <= _FENCE_TAG_MAX and _FENCE_TAG_CHARS.issuperset(tag):
            parts[k] = rest
    return "\n".join(parts)


def _unwrap_inline_code(text: str) -> str:
    """Drop the backticks of inline code spans that hold a phrase (identifiers keep theirs)."""
    if "`" not in text:
        return text
    return _INLINE_CODE_RE.sub(_unwrap_span, text)


def _unwrap_span(match: re.Match[str]) -> str:
    """Return a span's text without backticks when it contains whitespace, else the span unchanged."""
    span = match.group(0)
    inner = span[1:-1]
    return inner if (" " in inner or "\t" in inner) else span


def _strip_quotes(text: str) -> str:
    """Remove Discord quote markers ('> ', '>>> ') from the start of lines."""
    if ">" not in text:
        return text
    text = _QUOTE_PREFIX_RE.sub("", text)
    return _EMPTY_QUOTE_RE.sub("", text)
