"""The /explain form in SimCord: opened without text, submitted with a long paste."""

from __future__ import annotations

from tests.bot.simbot import (  # noqa: F401
    CACHE,
    STATEFUL,
    Sim,
    footer_text,
    response_of,
    sim_fixture,
    simcord_bot_fixture,
)
from tests.conftest import SEED_IDS

STATEFUL_ID, CACHE_ID = SEED_IDS["stateful"], SEED_IDS["cache"]


async def test_explain_text_and_the_long_paste_form(sim: Sim) -> None:
    direct = await sim.member.slash(sim.help, "explain", text=CACHE)
    assert direct.ephemeral and CACHE_ID in footer_text(response_of(direct))
    chat = await sim.member.slash(sim.help, "explain", text="hello there")
    assert "does not look like a Python error" in response_of(chat).content
    form = await sim.member.slash(sim.help, "explain")
    assert form.modal is not None and form.modal["title"] == "Explain an error"
    submitted = await sim.member.submit_modal(form, {"tracebot:explain:text": STATEFUL})
    assert submitted.ephemeral and STATEFUL_ID in footer_text(response_of(submitted))
