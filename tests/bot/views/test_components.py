"""The persistent components: their custom ids and the templates that parse them back."""

from __future__ import annotations

import re

from bot.views import DeleteButton, PickSelect, VoteButton
from bot.views.components import vote_custom_id


def test_vote_custom_id_falls_back_to_the_message_for_long_ids() -> None:
    assert vote_custom_id("abc", True) == "tracebot:vote:up:abc"
    long_id = "a" * 128
    assert vote_custom_id(long_id, False) == "tracebot:vote:down:@"
    assert VoteButton(long_id, helpful=False).custom_id == "tracebot:vote:down:@"


def test_dynamic_templates_parse_their_own_custom_ids() -> None:
    for item in (VoteButton("rec.1:x-y", helpful=True), DeleteButton(123), PickSelect(77)):
        assert re.fullmatch(type(item).__discord_ui_compiled_template__, item.custom_id)
