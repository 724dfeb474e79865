"""A record file cannot mislead: its text is shown, not interpreted; its links open only on allowed hosts."""

from __future__ import annotations

import json

import pytest

from bot.embeds import answer_embed
from bot.embeds.text import safe_markdown
from bot.views.answer import link_allowed, record_reply, source_button
from tests.bot.samples import CURATED

HOSTILE = CURATED.model_copy(
    update={
        "documentation": "Read [the official fix](http://evil.example/phish) now, <@123> and @everyone.\n# LOUD",
        "solutions": ["Run [this](https://evil.example/x) as <@&42>", "Use `pad_token` as **usual**"],
        "github_url": "https://evil.example/blob/main/x.py#L1",
    }
)


def test_masked_links_mentions_and_block_markup_are_shown_not_interpreted() -> None:
    text = safe_markdown("[label](http://evil.example/p) <@1> <@&2> <#3> @here\n> quote\n## head")
    assert "](" not in text and "http://evil" not in text and "evil.example/p" in text
    assert "<@1>" not in text and "<@&2>" not in text and "<#3>" not in text and "@here" not in text
    assert "\n\\> quote" in text and "\\## head" in text


def test_inline_code_and_emphasis_stay() -> None:
    assert safe_markdown("set `tokenizer.pad_token` to **eos**") == "set `tokenizer.pad_token` to **eos**"


def test_the_answer_embed_carries_no_live_link_or_mention_from_a_record_file() -> None:
    data = json.dumps(answer_embed(HOSTILE).to_dict(), ensure_ascii=False)
    assert "](http" not in data and "<@123>" not in data and "<@&42>" not in data and "@everyone" not in data
    assert "the official fix" in data  # the words are still there, as text
    assert "`pad_token`" in data


@pytest.mark.parametrize(
    ("url", "allowed"),
    [
        ("https://github.com/huggingface/transformers/blob/v5.24.0/x.py#L1", True),
        ("https://gist.github.com/x", True),
        ("https://github.com.evil.example/x", False),
        ("https://evil.example/github.com/x", False),
        ("http://github.com/x", False),
        ("javascript:alert(1)", False),
    ],
)
def test_link_buttons_only_to_allowed_hosts(url: str, allowed: bool) -> None:
    assert link_allowed(url) is allowed


def test_a_record_pointing_elsewhere_gets_no_button_and_shows_its_link_as_text() -> None:
    assert source_button(HOSTILE) is None
    content = record_reply(HOSTILE, None, author_id=1)
    buttons = [item for item in content.view.children if getattr(item, "url", None)]
    assert buttons == []
    assert "evil.example" in (content.embed.footer.text or "")


def test_operators_may_allow_more_hosts() -> None:
    assert source_button(HOSTILE, ("github.com", "evil.example")) is not None
