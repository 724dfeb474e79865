"""The triage cog in SimCord: pastes are logged and their authors warned; only maintainers review."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import cast

import discord
import pytest
import simcord
from discord import app_commands

from bot.client import Services, TracebotBot
from bot.engine import Engine
from bot.exts.triage import TriageCog
from bot.settings import Settings, TriageSettings
from bot.triage_service import TriageService
from records.matching import IndexEntry
from records.triage import PasteOrigin
from storage.database import Database
from storage.importer import import_paths
from tests.bot.simbot import footer_text, response_of
from tests.conftest import SEED_IDS, SEEDS_JSONL

DEV_GUILD = 1_300_000_000_000_000_011
RECORD = SEED_IDS["stateful"]
TOKEN = "hf_COGq7Zt3Wv9Xy2Bn4Mk6Lp8Rs1Tu5Vw0abcd"
OTHER_TOKEN = "hf_ZZZq7Zt3Wv9Xy2Bn4Mk6Lp8Rs1Tu5Vw0wxyz"


def paste(token: str = TOKEN, status: int = 403, words: str = "access denied") -> str:
    return (
        "Traceback (most recent call last):\n"
        '  File "/home/alice/app/main.py", line 8, in <module>\n'
        "    client.fetch(repo)\n"
        f"PermissionError: {words} for token {token} while reading /home/alice/x.bin (status {status})\n"
    )


@dataclass
class Sim:
    env: simcord.Env
    bot: TracebotBot
    service: TriageService
    guild: simcord.GuildHandle
    help: simcord.ChannelHandle
    triage: simcord.ChannelHandle
    owner: simcord.MemberActor
    member: simcord.MemberActor


@pytest.fixture(name="simcord_bot")
async def simcord_bot_fixture(tmp_path: Path) -> AsyncIterator[TracebotBot]:
    db = await Database.open(tmp_path / "tracebot.db")
    await import_paths(db, [SEEDS_JSONL])
    engine = await Engine.load(db)
    triage_settings = TriageSettings(page_size=2, notify_count=3)
    settings = Settings(
        _env_file=None, db=db.path, dev_guild=DEV_GUILD, user_cooldown=0, channel_cooldown=0,
        global_budget=0, heartbeat_interval=0, reload_interval=0, triage=triage_settings,
    )  # fmt: skip
    bot = TracebotBot(Services.build(settings, db, engine, None), extensions=("bot.exts.answers", "bot.exts.triage"))
    try:
        yield bot
    finally:
        await db.close()


@pytest.fixture
async def sim(simcord_env: simcord.Env, simcord_bot: TracebotBot) -> Sim:
    env = simcord_env
    alice = env.create_user("alice")
    guild = env.create_guild("Triage Test", id=DEV_GUILD, owner=alice)
    help_channel, triage_channel = guild.create_text_channel("help"), guild.create_text_channel("triage")
    owner = guild.add_member(alice)
    member = guild.add_member(env.create_user("bob"))
    service = simcord_bot.services.triage
    service.settings.notify_channel_id = triage_channel.id
    await env.settle()
    return Sim(env, simcord_bot, service, guild, help_channel, triage_channel, owner, member)


def bot_messages(sim: Sim, channel: simcord.ChannelHandle) -> list[discord.Message]:
    me = sim.bot.user
    assert me is not None
    return [m for m in channel.history() if m.author.id == me.id]


async def log_directly(sim: Sim, text: str, author: int) -> int:
    result = await sim.service.log_paste(
        text, PasteOrigin(channel_id=sim.help.id, author_id=author, guild_id=DEV_GUILD)
    )
    assert result.group is not None
    return result.group.id


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


KEY_PASTE = (
    "Traceback (most recent call last):\n"
    '  File "/home/{user}/run.py", line 3, in <module>\n'
    "    model = AutoModel.from_pretrained(path)\n"
    '  File "/venv/lib/python3.11/site-packages/tokenmap/maps.py", line 40, in lookup\n'
    "    raise KeyError(key)\n"
    "KeyError: '{key}' not found in token map\n"
)


def key_paste(user: str = "alice", key: str = "input_ids") -> str:
    return KEY_PASTE.format(user=user, key=key)


def answers_to(sim: Sim, message: discord.Message) -> list[discord.Message]:
    return [m for m in bot_messages(sim, sim.help) if m.reference and m.reference.message_id == message.id and m.embeds]


async def test_linking_answers_the_recent_pastes_still_there(sim: Sim) -> None:
    carol = sim.guild.add_member(sim.env.create_user("carol"))
    dave = sim.guild.add_member(sim.env.create_user("dave"))
    first = await sim.member.send(sim.help, key_paste("bob", "input_ids"))
    second = await carol.send(sim.help, key_paste("carol", "attention_mask"))
    gone = await dave.send(sim.help, key_paste("dave", "labels"))
    await dave.delete(gone)
    [group] = await sim.service.reports()
    assert group.title == "KeyError: '<key>' not found in token map" and group.people == 3
    assert group.frame == "tokenmap/maps.py:lookup"
    result = await sim.owner.slash(sim.help, "triage link", report=group.id, record=RECORD)
    assert result.ephemeral and result.response is not None
    assert result.response.content == (
        f"Report #{group.id} linked to `{RECORD}`; 1 example(s) now match it. "
        "Answered 2 recent paste(s) of this error; 1 deleted."
    )
    for pasted in (first, second):
        [answer] = answers_to(sim, pasted)
        assert RECORD in str(answer.embeds[0].to_dict())
    posts = [r for r in sim.env.http_requests if r.method == "POST" and str(r.path).endswith("/messages")]
    assert all(r.json["allowed_mentions"]["parse"] == [] for r in posts if r.json)
    # Once per paste: linking again answers nothing more.
    await sim.owner.slash(sim.help, "triage reopen", report=group.id)
    again = await sim.owner.slash(sim.help, "triage link", report=group.id, record=RECORD)
    assert again.response is not None and again.response.content.endswith("now match it.")
    assert len(answers_to(sim, first)) == 1


async def test_a_paste_in_a_channel_the_bot_cannot_see_is_skipped(sim: Sim) -> None:
    hidden = sim.guild.create_text_channel("hidden")
    pasted = await sim.member.send(hidden, key_paste())
    [group] = await sim.service.reports()
    channel = sim.bot.get_channel(hidden.id)
    assert isinstance(channel, discord.TextChannel) and channel.guild.me is not None
    await channel.set_permissions(channel.guild.me, view_channel=False)
    await sim.env.settle()
    result = await sim.owner.slash(sim.help, "triage link", report=group.id, record=RECORD)
    assert result.response is not None
    assert result.response.content.endswith(
        "Answered 0 recent paste(s) of this error; 1 in a channel I can no longer see."
    )
    assert not [m for m in hidden.history() if m.reference and m.reference.message_id == pasted.id]


async def test_reanswering_is_off_with_zero_days(sim: Sim) -> None:
    sim.service.settings.reanswer_days = 0
    pasted = await sim.member.send(sim.help, key_paste())
    [group] = await sim.service.reports()
    result = await sim.owner.slash(sim.help, "triage link", report=group.id, record=RECORD)
    assert result.response is not None and result.response.content.endswith("now match it.")
    assert answers_to(sim, pasted) == []


async def test_an_import_answers_the_pastes_its_record_matches(sim: Sim, tmp_path: Path) -> None:
    pasted = await sim.member.send(sim.help, key_paste())
    record = {
        "id": "tokenmap-missing-key", "repo": "example/tokenmap", "errorClass": "KeyError",
        "errorMessage": "'{key}' not found in token map", "filePath": "tokenmap/maps.py", "lineNumber": 40,
        "documentation": "The token map has no entry for this key.", "solutions": ["Add the key to the map."],
    }  # fmt: skip
    path = tmp_path / "tokenmap.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    await import_paths(sim.bot.services.db, [path])
    # By name and behaviour: other tests reload the extension, so the class object may differ.
    found = sim.bot.get_cog("TriageCog")
    assert found is not None and hasattr(found, "reanswer_entries")
    cog = cast(TriageCog, found)
    engine = sim.bot.services.engine
    seen: list[int] = []

    async def count(entries: list[IndexEntry]) -> None:
        seen.append(len(entries))

    engine.reload_listeners.append(count)
    assert await engine.reload() >= 1
    for task in list(cog._tasks):
        await task
    await sim.env.settle()
    [answer] = answers_to(sim, pasted)
    assert "tokenmap-missing-key" in str(answer.embeds[0].to_dict()) and seen
    assert await cog.reanswer_entries([e async for e in engine.records.index_entries()]) is None  # once per paste


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
