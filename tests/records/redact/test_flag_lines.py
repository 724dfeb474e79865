"""records._re2's flag_lines and LinePattern, which the redaction screens read many values with in one pass."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from records._re2 import LinePattern, asked_where_flagged, compile_spans, flag_lines


@given(st.lists(st.text(alphabet="ab\n-", max_size=6), max_size=20))
def test_lines_are_flagged_wherever_the_pattern_matches_inside_them(values: list[str]) -> None:
    for regex in (r"ab", r"(?m)^b", r"a\nb", r"(?s)a.*b", r"b*"):
        pattern = compile_spans(regex)
        flagged = flag_lines(LinePattern(regex), values)
        assert flagged is not None and len(flagged) == len(values)
        # Every value the pattern matches is flagged; a pattern that never crosses a line flags no more.
        assert all(flag for flag, value in zip(flagged, values, strict=True) if pattern.occurs(value))
        if regex == "ab" and not any("\n" in value for value in values):
            assert list(map(bool, flagged)) == [pattern.occurs(value) for value in values]


def test_a_line_with_many_matches_is_one_match_of_a_line_pattern() -> None:
    # flag_lines costs a call into RE2 for each line it flags, not for each match (a value of 'false' a
    # thousand times over is one line).
    values = ["false" * 1000, "x", "a false b", "true"]
    assert len(list(LinePattern("false|true").spans("\n".join(values)))) == 3
    assert flag_lines(LinePattern("false|true"), values) == bytearray([1, 0, 1, 1])
    assert flag_lines(LinePattern("false|true"), values, most=2) is None  # past two flagged, it gives up
    assert flag_lines(LinePattern("x"), []) == bytearray()


def test_a_pass_that_flags_nothing_flags_no_line() -> None:
    assert flag_lines(LinePattern("zz"), ["a\nb", "", "c"]) == bytearray(3)


@given(st.lists(st.text(alphabet="ab\n", max_size=4), max_size=12), st.lists(st.booleans(), max_size=12))
def test_only_the_flagged_values_are_asked(values: list[str], flags: list[bool]) -> None:
    flagged = bytearray(map(int, (flags + [False] * len(values))[: len(values)]))
    asked: list[str] = []

    def ask(value: str) -> bool:
        asked.append(value)
        return "a" in value

    answers = asked_where_flagged(ask, values, flagged)
    assert answers == [bool(flag) and "a" in value for flag, value in zip(flagged, values, strict=True)]
    assert asked == [value for flag, value in zip(flagged, values, strict=True) if flag]
