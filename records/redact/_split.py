"""The two generic rules' patterns, matched in two steps on ASCII text: the same spans in a fraction of the time.

RE2 finds where a match of a large pattern lies quickly (its DFA), but the offsets of its groups only by
running the whole program again over the match (several microseconds each for the generic rules, whose
programs hold thousands of instructions), and an env dump of 16 KB holds hundreds of matches. So the match
is found by the pattern without its groups; the group is then read off the match: each pattern's label
part can end in one place only, and what follows it is matched by the pattern's small tail, anchored to the
match. The reasoning for each pattern is beside its locator; test_split checks it against RE2's own groups.
Text that is not ASCII takes the pattern whole (Unicode case folding adds letters to the classes).
"""

from __future__ import annotations

import string
from collections.abc import Callable, Iterator
from functools import partial
from itertools import compress, starmap
from operator import not_

from records._re2 import Match, Spans, compile_spans

# Given the text, where its labels end (see LabelEnds) and a match's span, the match's span and its secret's
# (see SplitPattern.spans), or None when the locator cannot tell them (then the whole pattern is asked).
Locator = Callable[[str, "LabelEnds", int, int], Spans | None]
# Given the same, where a match's secret group can lie: (the lowest start, the end), or None.
Bound = Callable[[str, "LabelEnds", int, int], tuple[int, int] | None]
# Locator and Bound of every match of a text at once, given the text, where its labels end and the matches.
Locators = Callable[[str, "LabelEnds", list[tuple[int, int]]], list[Spans | None]]
Bounds = Callable[[str, "LabelEnds", list[tuple[int, int]]], list[tuple[int, int] | None]]
# Given the bounds of every match's secret (see Bound), True for each match the caller has no use for.
Unwanted = Callable[[list[tuple[int, int] | None]], list[bool]]


MARK = b"="  # what a marked text has in place of each character a label ends at (see LabelEnds)
_MARK_AFTER = 48  # labels read before a text is marked: marking costs about what reading fifty does


class LabelEnds:
    """Where the labels of one ASCII text's matches end: the first character of a set after a label's start.

    The first labels asked of are read character by character (skip); once a text has many, it is marked
    instead, each of those characters replaced by one mark in a single call in C (bytes.translate), and a
    label's end is one find; a caller with many matches at hand marks it at once (marked). A label holds
    none of the characters it ends at (the locators' reasoning, held by test_split), so both answer alike
    within a match.
    """

    __slots__ = ("_asked", "_label", "_marked", "_marks", "_text")

    def __init__(self, text: str, label: str, marks: bytes) -> None:
        """Take the text, the characters a label may hold and the translation table that marks its ends."""
        self._text = text
        self._label = label
        self._marks = marks
        self._marked: bytes | None = None
        self._asked = 0

    def marked(self) -> bytes:
        """Return the text marked, marking it now if it was not yet (for the labels of many matches at once)."""
        if self._marked is None:
            self._marked = self._text.encode("ascii").translate(self._marks)
        return self._marked

    def find(self, start: int, end: int) -> int:
        """Return where the label starting at start ends (end when it runs to end)."""
        if self._marked is None:
            self._asked += 1
            if self._asked <= _MARK_AFTER:
                return skip(self._text, start, end, self._label)
        at = self.marked().find(MARK, start, end)
        return end if at < 0 else at


class SplitPattern:
    """A pattern whose spans on ASCII text come from a match without groups and a locator of the groups.

    label: the characters a label part of the pattern may hold; ends: those it ends at, one of which
    follows it in every match (see LabelEnds).
    """

    __slots__ = ("_bare", "_bound", "_bounds", "_label", "_locate", "_locators", "_marks", "_whole", "groups")

    def __init__(
        self,
        whole: str,
        locate: Locator,
        bound: Bound | None = None,
        *,
        label: str,
        ends: str,
        locate_each: Locators | None = None,
        bound_each: Bounds | None = None,
    ) -> None:
        """Compile whole and its bare form; locate_each and bound_each: locate and bound of many matches at once."""
        self._whole = compile_spans(whole)
        self._bare = compile_spans(without_groups(whole))
        self._locate = locate
        self._bound = bound
        self._locators = locate_each
        self._bounds = bound_each
        self._label = label
        self._marks = bytes.maketrans(ends.encode("ascii"), MARK * len(ends))
        self.groups: int = self._whole.groups

    def label_ends(self, text: str) -> LabelEnds:
        """Return where the labels of this pattern's matches in an ASCII text end."""
        return LabelEnds(text, self._label, self._marks)

    def finditer(self, text: str) -> Iterator[Match]:
        return self._whole.finditer(text)

    def occurs(self, text: str) -> bool:
        """Return True when the pattern matches somewhere in text."""
        return self._bare.occurs(text)

    def spans(self, text: str, unwanted: Unwanted | None = None) -> Iterator[Spans]:
        """Yield the span of every match and of its secret, the first group that took part (as the pattern whole).

        Only those two: a caller reads the secret, and a list of every group for each of hundreds of matches
        is work for nothing. unwanted: given where the secret group of each match can lie, True for each
        match the caller has no use for; those are then left out (or not) before their groups are located.
        """
        if not text.isascii():
            for spans in self._whole.spans(text):
                yield secret_spans(spans)
            return
        matches = [spans[0] for spans in self._bare.spans(text)]
        if not matches:
            return  # as on most pastes: nothing to locate
        ends = self.label_ends(text)
        # Past _MARK_AFTER matches the text is marked at once and the shape of most read inline (locate_each,
        # bound_each); the few matches of most pastes are read one by one, with as few lists as can be.
        many = len(matches) > _MARK_AFTER
        if unwanted is not None and self._bound is not None:
            # All bounds are asked about at once: an env dump's hundreds of lines cost one call, not one each.
            if many and self._bounds is not None:
                bounds = self._bounds(text, ends, matches)
            else:
                bounds = list(starmap(partial(self._bound, text, ends), matches))
            matches = list(compress(matches, map(not_, unwanted(bounds))))
        if many and self._locators is not None:
            for (start, _), found in zip(matches, self._locators(text, ends, matches), strict=True):
                yield found if found is not None else self._asked(text, start)
            return
        for start, end in matches:
            located = self._locate(text, ends, start, end)
            yield located if located is not None else self._asked(text, start)

    def _asked(self, text: str, start: int) -> Spans:
        """Return the whole pattern's spans of its match at start (a fallback the locators should never need)."""
        return secret_spans(next(spans for spans in self._whole.spans(text) if spans[0][0] == start))


def secret_spans(spans: Spans) -> Spans:
    """Return the span of a match and of its first group that took part (of the match again without one)."""
    return [spans[0], next((span for span in spans[1:] if span[0] >= 0), spans[0])]


def without_groups(regex: str) -> str:
    """Return regex with every capturing group made non-capturing: the same matches, no group offsets."""
    out: list[str] = []
    index = 0
    while index < len(regex):
        char = regex[index]
        if char == "\\":
            out.append(regex[index : index + 2])
            index += 2
        elif char == "[":
            end = class_end(regex, index)
            if end < 0:
                raise ValueError(f"unclosed bracket expression in {regex!r}")
            out.append(regex[index:end])
            index = end
        elif char == "(" and regex.startswith("(?P<", index):
            out.append("(?:")
            index = regex.index(">", index) + 1
        elif char == "(" and not regex.startswith("(?", index):
            out.append("(?:")
            index += 1
        else:
            out.append(char)
            index += 1
    return "".join(out)


def class_end(regex: str, at: int) -> int:
    """Return the offset just past the bracket expression opened at this offset, -1 if it never closes."""
    index = at + 1
    index += regex.startswith("^", index)
    index += regex.startswith("]", index)  # a leading ']' is a member
    while index < len(regex):
        if regex[index] == "\\":
            index += 2
        elif regex.startswith("[:", index) and ":]" in regex[index + 2 :]:
            index = regex.index(":]", index + 2) + 2  # a POSIX class such as [:alnum:]
        elif regex[index] == "]":
            return index + 1
        else:
            index += 1
    return -1


def operators_by_first(operators: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
    """Return the operators by their first character, each group in the given order."""
    return {first: tuple(o for o in operators if o[0] == first) for first in dict.fromkeys(o[0] for o in operators)}


def skip(text: str, at: int, end: int, members: str) -> int:
    """Return the offset of the first character of text[at:end] that is not one of members (else end)."""
    part = text[at:end]
    return at + len(part) - len(part.lstrip(members))


# gitleaks' generic-api-key, in its parts (_scanner takes the split form only while the table's regex is
# exactly this one).
_GITLEAKS_LABEL = (
    r"[\w.-]{0,50}?(?:access|auth|(?-i:[Aa]pi|API)|credential|creds|key|passw(?:or)?d|secret|token)"
    r"""(?:[ \t\w.-]{0,20})[\s'"]{0,3}"""
)
_GITLEAKS_VALUE = r"""(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([\w.=-]{10,150}|[a-z0-9][a-z0-9+/]{11,}={0,3})"""
GITLEAKS_GENERIC = rf"""(?i){_GITLEAKS_LABEL}{_GITLEAKS_VALUE}(?:[\x60'"\s;]|\\[nr]|$)"""

# What the label part may hold: the name, the keyword and the spaces and quotes before the operator (RE2's
# \s is [\t\n\f\r ]). No operator starts with one of them, and each starts with one of these, where the
# label ends.
GITLEAKS_LABEL_CHARACTERS = string.ascii_letters + string.digits + "_.-" + " \t\n\f\r'\""
GITLEAKS_LABEL_ENDS = "=>:|?,"
_GITLEAKS_ENDS = frozenset("`'\"\t\n\f\r ;")
# The operators in the order the pattern tries them, ':{1,3}=' longest first as its greedy count does.
_GITLEAKS_OPERATORS = operators_by_first(("=", ">", ":::=", "::=", ":=", "||", ":", "=>", "?=", ","))
_GITLEAKS_SEPARATORS = "`'\"\t\n\f\r ="
_GITLEAKS_SECRET = frozenset(string.ascii_letters + string.digits + "_.=-")  # [\w.=-] (folding adds no ASCII)
_GITLEAKS_BASE64 = frozenset(string.ascii_letters + string.digits + "+/")


def gitleaks_generic_spans(text: str, ends: LabelEnds, start: int, end: int) -> Spans | None:
    """Return the spans of a match of GITLEAKS_GENERIC in ASCII text, given the match's span.

    The label's characters are never an operator's, so the operator starts at the first character of the
    match outside them, in every parse: the first of GITLEAKS_LABEL_ENDS. The match ends with the
    secret's terminator, which its last characters tell apart: one of _GITLEAKS_ENDS (none can end a
    secret), a backslash and n or r, or else the end of the text. Between the two, the pattern's choices are
    tried in its order of preference.
    """
    value_end = _gitleaks_secret_end(text, end)
    if value_end is None:
        return None
    secret = _gitleaks_secret_start(text, ends.find(start, value_end), value_end)
    return None if secret is None else [(start, end), (secret, value_end)]


def gitleaks_generic_bounds(text: str, ends: LabelEnds, start: int, end: int) -> tuple[int, int] | None:
    """Return where the secret of a match of GITLEAKS_GENERIC in ASCII text can lie: (lowest start, end).

    The secret follows the operator, which starts where the label's characters end (see
    gitleaks_generic_spans) and is one character at least.
    """
    # Most matches end with a terminator character (_gitleaks_secret_end's first case, spelled out: this is
    # asked of each line of an env dump).
    value_end = end - 1 if text[end - 1] in _GITLEAKS_ENDS else _gitleaks_secret_end(text, end)
    if value_end is None:
        return None
    return ends.find(start, value_end) + 1, value_end


def gitleaks_generic_bounds_each(
    text: str, ends: LabelEnds, matches: list[tuple[int, int]]
) -> list[tuple[int, int] | None]:
    """Return gitleaks_generic_bounds of each match: those ended by a terminator character (most) read inline.

    The text is marked at once (see LabelEnds): the operator starts at the first mark in the match.
    """
    find = ends.marked().find
    bounds: list[tuple[int, int] | None] = []
    for start, end in matches:
        if text[end - 1] in _GITLEAKS_ENDS:
            at = find(MARK, start, end - 1)
            bounds.append(((end - 1 if at < 0 else at) + 1, end - 1))
        else:
            bounds.append(gitleaks_generic_bounds(text, ends, start, end))
    return bounds


def _gitleaks_secret_end(text: str, end: int) -> int | None:
    """Return where the secret of a match ending at end ends, told by the terminator (None: undecided)."""
    last = text[end - 1]
    if last in _GITLEAKS_ENDS:
        return end - 1
    if last in "nrNR" and text[end - 2] == "\\":
        return end - 2
    return end if end == len(text) else None


def _gitleaks_secret_start(text: str, at: int, end: int) -> int | None:
    """Return where the secret starts, given where the operator does and where the secret ends.

    As RE2 prefers: the first operator that leads to a match, then the most separators (at most five).
    """
    for operator in _GITLEAKS_OPERATORS.get(text[at : at + 1], ()):
        if text[at : at + len(operator)] == operator and at + len(operator) <= end:
            after = at + len(operator)
            most = min(5, skip(text, after, end, _GITLEAKS_SEPARATORS) - after)
            for secret in range(after + most, after - 1, -1):
                if _gitleaks_secret(text[secret:end]):
                    return secret
    return None


def _gitleaks_secret(value: str) -> bool:
    r"""Tell whether value is the secret group whole: [\w.=-]{10,150} or [a-z0-9][a-z0-9+/]{11,}={0,3}."""
    if 10 <= len(value) <= 150 and _GITLEAKS_SECRET.issuperset(value):
        return True
    body = value.rstrip("=")
    return len(value) - len(body) <= 3 and len(body) >= 12 and body[0].isalnum() and _GITLEAKS_BASE64.issuperset(body)
