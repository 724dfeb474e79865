"""The triage cog in SimCord: pastes are logged and their authors warned; only maintainers review."""

from __future__ import annotations

from discord import app_commands

from tests.bot.exts.triage.simtriage import (  # noqa: F401
    DEV_GUILD,
    OTHER_TOKEN,
    RECORD,
    TOKEN,
    Sim,
    bot_messages,
    log_directly,
    paste,
    sim_fixture,
    simcord_bot_fixture,
)
from tests.bot.simbot import footer_text, response_of


async def test_an_unmatched_paste_is_logged_and_its_author_warned(sim: Sim) -> None:
    pasted = await sim.member.send(sim.help, paste())
    [group] = await sim.service.reports()
    assert group.count == 1 and group.status == "new"
    assert group.last_jump_url == pasted.jump_url
    [warning] = [m for m in bot_messages(sim, sim.help) if m.reference]
    assert warning.reference is not None and warning.reference.message_id == pasted.id
    assert "Hugging Face token" in warning.content and TOKEN[3:] not in warning.content
    [notice] = bot_messages(sim, sim.triage)
    assert notice.embeds[0].title == "New unexplained error"
    assert TOKEN[3:] not in str(notice.embeds[0].to_dict())
    posts = [r for r in sim.env.http_requests if r.method == "POST" and str(r.path).endswith("/messages")]
    assert posts and all(r.json["allowed_mentions"]["parse"] == [] for r in posts if r.json)


async def test_an_answered_paste_with_a_token_warns_its_author_and_logs_nothing(sim: Sim) -> None:
    text = f"HF_TOKEN={TOKEN}\nValueError: assisted generation is not supported with stateful models, such as X"
    pasted = await sim.member.send(sim.help, text)
    replies = [m for m in bot_messages(sim, sim.help) if m.reference and m.reference.message_id == pasted.id]
    assert any(m.embeds and RECORD in str(m.embeds[0].to_dict()) for m in replies)  # answered
    warnings = [m for m in replies if "Hugging Face token" in m.content]
    assert len(warnings) == 1 and TOKEN[3:] not in warnings[0].content
    assert await sim.service.reports() == []  # an answered paste is not triage


async def test_a_non_maintainer_is_refused_and_nothing_changes(sim: Sim) -> None:
    report = await log_directly(sim, paste(), author=1)
    before = await sim.service.show(report)
    for name, options in (
        ("triage dismiss", {"report": report, "reason": "noise"}),
        ("triage link", {"report": report, "record": RECORD}),
        ("triage reopen", {"report": report}),
        ("triage show", {"report": report}),
        ("triage list", {}),
    ):
        result = await sim.member.slash(sim.help, name, **options)
        assert result.ephemeral and result.response is not None
        assert result.response.content.startswith("Only maintainers"), name
        assert not result.response.embeds
    assert await sim.service.show(report) == before
    assert sim.bot.services.engine.match_text(paste(OTHER_TOKEN)).status == "unmatched"


async def test_a_maintainer_links_and_the_next_paste_matches(sim: Sim) -> None:
    report = await log_directly(sim, paste(), author=1)
    result = await sim.owner.slash(sim.help, "triage link", report=report, record=RECORD)
    assert result.ephemeral and result.response is not None
    assert result.response.content == f"Report #{report} linked to `{RECORD}`; 1 example(s) now match it."
    group = (await sim.service.show(report)).group
    assert group.status == "linked" and group.record_id == RECORD and group.reviewed_by == sim.owner.id
    variant = paste(OTHER_TOKEN, status=401)
    assert sim.bot.services.engine.match_text(variant).matches[0].id == RECORD
    await sim.member.send(sim.help, variant)
    assert (await sim.service.show(report)).group.count == 1  # matched now: not logged again


async def test_the_maintainer_role_dismisses_and_reopens(sim: Sim) -> None:
    report = await log_directly(sim, paste(), author=1)
    role = sim.guild.create_role("Helpers")
    helper = sim.guild.add_member(sim.env.create_user("dave"), roles=[role])
    refused = await helper.slash(sim.help, "triage dismiss", report=report, reason="a typo")
    assert refused.response is not None and refused.response.content.startswith("Only maintainers")
    await sim.bot.services.guilds.update_guild(DEV_GUILD, maintainer_role_id=role.id)
    result = await helper.slash(sim.help, "triage dismiss", report=report, reason="a typo in user code")
    assert (
        result.ephemeral and result.response is not None and result.response.content == f"Report #{report} dismissed."
    )
    group = (await sim.service.show(report)).group
    assert group.status == "dismissed" and group.reason == "a typo in user code"
    reopened = await helper.slash(sim.help, "triage reopen", report=report)
    assert reopened.response is not None and reopened.response.content == f"Report #{report} reopened."
    assert (await sim.service.show(report)).group.status == "new"


async def test_show_and_bad_ids(sim: Sim) -> None:
    report = await log_directly(sim, paste(), author=1)
    result = await sim.owner.slash(sim.help, "triage show", report=report)
    assert result.ephemeral and result.response is not None
    embed = result.response.embeds[0].to_dict()
    assert embed["title"] == f"Report #{report} · new"
    assert "[REDACTED:huggingface_token]" in embed["description"] and TOKEN[3:] not in str(embed)
    missing = await sim.owner.slash(sim.help, "triage show", report=99)
    assert missing.response is not None and missing.response.content == "⚠️ no triage report with id 99"
    bad = await sim.owner.slash(sim.help, "triage link", report=report, record="nope")
    assert bad.response is not None and bad.response.content == "⚠️ no record with id or slug 'nope'"
    assert (await sim.service.show(report)).group.status == "new"


async def test_list_pages_with_buttons(sim: Sim) -> None:
    for n in range(5):
        await log_directly(sim, paste(words="access denied" + " again" * n), author=n)
    result = await sim.owner.slash(sim.help, "triage list", status="new")
    assert result.response is not None
    first = result.response.embeds[0]
    assert first.footer.text == "page 1/3 · 5 reports · highest count first"
    assert first.description is not None and first.description.count("\n") == 1
    nxt = await sim.owner.click(result.response.message, label="Next")
    assert footer_text(response_of(nxt)).startswith("page 2/3")


async def test_notices_for_a_new_group_and_at_the_notice_count(sim: Sim) -> None:
    carol = sim.guild.add_member(sim.env.create_user("carol"))
    for person in (sim.member, sim.owner, carol, sim.member):
        await person.send(sim.help, paste(token="no token here"))
    titles = [m.embeds[0].title for m in bot_messages(sim, sim.triage)]
    assert titles == ["New unexplained error", "Unexplained error seen 3 times"]
    assert not [m for m in bot_messages(sim, sim.help) if m.reference]  # nothing to warn about
    [group] = await sim.service.reports()
    assert group.count == 4


STATEFUL = (
    "HF_TOKEN is {token}\n"
    "Traceback (most recent call last):\n"
    '  File "/home/a/spec.py", line 12, in <module>\n'
    "    out = model.generate(**inputs, assistant_model=draft)\n"
    '  File "/home/a/.venv/lib/python3.11/site-packages/transformers/generation/utils.py", line 1581, in generate\n'
    "    raise ValueError(\n"
    "ValueError: assisted generation is not supported with stateful models, such as MambaForCausalLM\n"
)


async def test_a_not_helpful_vote_is_logged(sim: Sim) -> None:
    pasted = await sim.member.send(sim.help, STATEFUL.format(token=TOKEN))
    [answer] = [m for m in bot_messages(sim, sim.help) if m.embeds]
    assert await sim.service.reports() == []  # matched: nothing to triage
    carol = sim.guild.add_member(sim.env.create_user("carol"))
    await carol.click(answer, label="Not helpful")
    [group] = await sim.service.reports()
    assert (group.count, group.not_helpful, group.error_class) == (1, 1, "ValueError")
    report = await sim.service.show(group.id)
    assert report.samples[0].source == "not_helpful" and report.samples[0].record_id == RECORD
    assert TOKEN[3:] not in report.samples[0].text
    warnings = [m for m in bot_messages(sim, sim.help) if m.reference and not m.embeds]
    assert [w.reference.message_id for w in warnings if w.reference] == [pasted.id]


def test_every_triage_command_is_described(sim: Sim) -> None:
    group = sim.bot.tree.get_command("triage")
    assert isinstance(group, app_commands.Group) and group.description
    names = set()
    for command in group.walk_commands():
        assert isinstance(command, app_commands.Command)
        names.add(command.name)
        assert command.description, command.name
        assert all(p.description and p.description != "…" for p in command.parameters), command.name
    assert names == {"list", "show", "link", "dismiss", "reopen", "merge", "split"}


async def test_maintainers_merge_and_split_and_both_stick(sim: Sim) -> None:
    base = 'Traceback (most recent call last):\n  File "/venv/lib/python3.11/site-packages/{lib}/core.py", line 9, in run\n    go()\nRuntimeError: engine {word} stalled\n'
    first = await log_directly(sim, base.format(lib="alpha", word="one"), author=1)
    second = await log_directly(sim, base.format(lib="alpha", word="two"), author=2)
    assert first != second
    refused = await sim.member.slash(sim.help, "triage merge", report=second, into=first)
    assert refused.response is not None and refused.response.content.startswith("Only maintainers")
    itself = await sim.owner.slash(sim.help, "triage merge", report=first, into=first)
    assert itself.response is not None and itself.response.content == f"⚠️ cannot merge report #{first} into itself"
    merged = await sim.owner.slash(sim.help, "triage merge", report=second, into=first)
    assert merged.response is not None and merged.response.content.startswith(f"Report #{second} merged into #{first}")
    assert await log_directly(sim, base.format(lib="alpha", word="two"), author=3) == first  # sticks
    gone = await sim.owner.slash(sim.help, "triage show", report=second)
    assert gone.response is not None and gone.response.content == f"⚠️ report #{second} was merged into report #{first}"
    await log_directly(sim, base.format(lib="beta", word="one"), author=4)  # another library frame: its own group
    report = await sim.service.show(first)
    ids = [s.id for s in report.samples if "two" in s.text]
    split = await sim.owner.slash(sim.help, "triage split", report=first, samples=" ".join(map(str, ids)))
    moved = response_of(split).content
    assert "moved to new report" in moved, moved
    new_id = int(moved.split("new report #")[1].split(";")[0])
    assert await log_directly(sim, base.format(lib="alpha", word="two"), author=5) == new_id  # sticks
    assert await log_directly(sim, base.format(lib="alpha", word="one"), author=6) == first
    lonely = await sim.owner.slash(sim.help, "triage split", report=new_id, samples="1")
    assert lonely.response is not None and lonely.response.content.startswith("⚠️ sample 1 is not a sample")
