"""The reply builders: the answer view, the choices view, layout limits, what each status posts."""

from __future__ import annotations

from typing import Any

import discord
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine import Answer
from bot.views import answer_reply, answer_view, choices_view
from bot.views.answer import pick_options, source_button
from records.extraction import extract
from records.matching import Match, MatchResult, Status
from records.model import Record
from tests.bot.samples import CURATED, match


def components(view: discord.ui.View) -> list[dict[str, Any]]:
    """Return a view as the JSON Discord receives."""
    return view.to_components()


def assert_layout_within_limits(view: discord.ui.View) -> None:
    """Check rows, row widths, custom ids, labels and select options against Discord's limits."""
    rows = components(view)
    assert len(rows) <= 5
    for row in rows:
        assert 1 <= len(row["components"]) <= 5
        for item in row["components"]:
            assert len(item.get("custom_id", "")) <= 100 and len(item.get("label", "")) <= 80
            assert len(item.get("options", [])) <= 25
            for option in item.get("options", []):
                assert len(option["label"]) <= 100 and len(option["value"]) <= 100
                assert len(option.get("description") or "") <= 100


def test_answer_view_has_votes_delete_and_the_source_link() -> None:
    [row] = components(answer_view(CURATED, author_id=42))
    ids = [c.get("custom_id") for c in row["components"]]
    assert ids == [f"tracebot:vote:up:{CURATED.id}", f"tracebot:vote:down:{CURATED.id}", "tracebot:delete:42", None]
    assert row["components"][3]["url"] == CURATED.github_url and row["components"][3]["style"] == 5


def test_ephemeral_answers_have_no_delete_and_bad_links_no_button() -> None:
    record = CURATED.model_copy(update={"github_url": "javascript:alert(1)"})
    [row] = components(answer_view(record, author_id=1, deletable=False))
    assert [c["label"] for c in row["components"]] == ["Helpful", "Not helpful"]
    assert source_button(CURATED.model_copy(update={"github_url": "https://x.test/" + "a" * 600})) is None


def test_choices_view_offers_at_most_25_records_and_skips_long_ids() -> None:
    matches = [match(f"r{i}") for i in range(30)] + [match("x" * 101)]
    view = choices_view(matches, author_id=9)
    rows = components(view)
    assert len(rows[0]["components"][0]["options"]) == 25 and rows[0]["components"][0]["custom_id"] == "tracebot:pick:9"
    assert rows[1]["components"][0]["custom_id"] == "tracebot:delete:9"
    assert all(len(o.value) <= 100 for o in pick_options(matches))


def _answer(status: Status, matches: tuple[Match, ...], records: dict[str, Record]) -> Answer:
    return Answer(MatchResult(status, matches, extract("KeyError: x")), records)


def test_answer_reply_for_each_status() -> None:
    found = match(CURATED.id)
    matched = answer_reply(_answer("matched", (found,), {CURATED.id: CURATED}), author_id=5)
    assert matched is not None and matched.status == "matched" and matched.record_ids == (CURATED.id,)
    missing = answer_reply(_answer("matched", (match("gone"),), {}), author_id=5)
    assert missing is not None and missing.embed.title == "KeyError: missing key …"
    ambiguous = answer_reply(_answer("ambiguous", (match("a"), match("b")), {}), author_id=5)
    assert ambiguous is not None and ambiguous.record_ids == ("a", "b")
    assert answer_reply(_answer("unmatched", (), {}), author_id=5) is None
    assert answer_reply(_answer("not_an_error", (), {}), author_id=5) is None


@settings(max_examples=40, deadline=None)
@given(
    record_id=st.from_regex(r"[A-Za-z0-9_.:-]{1,128}", fullmatch=True),
    author=st.integers(0, 2**64 - 1),
    url=st.text(max_size=700).map(lambda s: "https://" + s),
    messages=st.lists(st.text(max_size=3000), min_size=1, max_size=40),
)
def test_any_view_fits_discord_limits(record_id: str, author: int, url: str, messages: list[str]) -> None:
    record = Record(id=record_id, error_message="m", github_url=url[:200_000])
    assert_layout_within_limits(answer_view(record, author_id=author))
    matches = [match(f"{record_id[:90]}{i}", error_message=m or "x", error_class=m) for i, m in enumerate(messages)]
    assert_layout_within_limits(choices_view(matches, author_id=author))
