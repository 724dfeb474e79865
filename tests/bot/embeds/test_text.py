"""The embed text helpers: clipping, code blocks, numbered lists, shrinking an embed to Discord's limits."""

from __future__ import annotations

import discord
import pytest

from bot.embeds.text import clip, code_block, fit, numbered, undouble
from tests.bot.samples import assert_within_limits


@pytest.mark.parametrize(
    ("text", "expected"),
    [("{{a}}", "{a}"), ("{name} and {{literal}}", "{name} and {literal}"), ("plain", "plain")],
)
def test_undouble(text: str, expected: str) -> None:
    assert undouble(text) == expected


def test_code_block_escapes_fences_and_keeps_its_closing_fence() -> None:
    block = code_block("a```b\n" + "x" * 5000, 200)
    assert len(block) <= 200 and block.startswith("```py\n") and block.endswith("\n```")
    assert block.count("```") == 2


def test_numbered_drops_what_does_not_fit() -> None:
    text = numbered(["a" * 600, "b" * 600, "c"], 1024)
    assert len(text) <= 1024 and text.startswith("1. aaa") and "\n2. bbb" in text


def test_clip_marks_the_cut() -> None:
    assert clip("abcdef", 4) == "abc…" and clip("abc", 4) == "abc" and clip("abc", 0) == ""


def test_fit_shrinks_to_6000_keeping_the_first_fields() -> None:
    embed = discord.Embed(title="t" * 256, description="d" * 4096)
    for i in range(25):
        embed.add_field(name=f"f{i}", value="v" * 1024)
    fit(embed)
    assert_within_limits(embed)
    assert embed.fields[0].name == "f0"


def test_fit_shrinks_the_longest_field_first_and_keeps_code_blocks_closed() -> None:
    embed = discord.Embed(title="t", description="d" * 1800)
    for name in ("a", "b", "c", "d"):
        embed.add_field(name=name, value=code_block("x = 1\n" * 400, 1024))
    embed.add_field(name="versions", value="5.24.0, 4.57.6")
    fit(embed)
    assert_within_limits(embed)
    assert [f.name for f in embed.fields] == ["a", "b", "c", "d", "versions"]
    assert all((f.value or "").endswith("\n```") and (f.value or "").count("```") == 2 for f in embed.fields[:4])
