"""The list embeds: an ambiguous answer's candidates and a search page, numbered."""

from __future__ import annotations

from bot.embeds import ambiguous_embed, search_embed
from tests.bot.samples import match


def test_ambiguous_list_numbers_each_answer() -> None:
    matches = [match(f"r{i}", 80 - i, error_message=f"problem {{{{x}}}} number {i}") for i in range(3)]
    data = ambiguous_embed(matches).to_dict()
    lines = data["description"].split("\n")
    assert len(lines) == 3 and lines[0].startswith("**1.** KeyError: problem {x} number 0 · `src/lib/core.py:10` · 80%")
    assert data["title"] == "Several records could explain this error"
    filled = ambiguous_embed([match("r1")], pasted="missing key 'lr'").to_dict()["description"]
    assert filled.startswith("**1.** KeyError: missing key 'lr' · ")


def test_search_page_numbers_from_its_start() -> None:
    data = search_embed("key", [match("a"), match("b")], start=6, page_number=2, pages=2, total=7).to_dict()
    assert data["description"].startswith("**6.** ") and "\n**7.** " in data["description"]
    assert data["footer"]["text"].startswith("page 2 of 2 · 7 results")
    assert search_embed("q", [], start=1, page_number=1, pages=1, total=0).description == "No record matches that."
