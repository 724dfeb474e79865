"""The fake Discord against the real discord.py client: login, events, replies, errors, interactions."""

from __future__ import annotations

import asyncio
import io
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands
from discord.ext import commands

from tests.fakediscord import FakeDiscord, fixtures
from tests.fakediscord.validation import check_choices, check_message, check_modal

pytestmark = pytest.mark.e2e
# The fixtures under test; tests/conftest.py may also import them (same objects).
fake_discord = fixtures.fake_discord
discord_routed = fixtures.discord_routed
MESSAGES = "/channels/{channel_id}/messages"
EVENTS = ("message", "raw_message_edit", "raw_message_delete")


class ReportModal(discord.ui.Modal, title="Report a wrong answer"):
    """A one-field modal, to prove modal submits reach ``on_submit``."""

    reason: discord.ui.TextInput[Any] = discord.ui.TextInput(label="What is wrong?", custom_id="reason")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        """Thank the reporter privately."""
        await interaction.response.send_message(f"thanks: {self.reason.value}", ephemeral=True)


class ReportView(discord.ui.View):
    """A button that opens :class:`ReportModal`."""

    @discord.ui.button(label="Report", custom_id="report")
    async def report(self, interaction: discord.Interaction, _button: discord.ui.Button[Any]) -> None:
        """Open the modal."""
        await interaction.response.send_modal(ReportModal())


def build_commands() -> tuple[app_commands.Command[Any, ..., Any], app_commands.ContextMenu]:
    """Build a slash command with autocomplete and a message context menu."""

    @app_commands.command(name="explain", description="Explain a Python error")
    async def explain(interaction: discord.Interaction, error: str) -> None:
        embed = discord.Embed(title=error, description="What it means and how to fix it.")
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @explain.autocomplete("error")
    async def complete(_interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        names = ("KeyError", "KeyboardInterrupt", "TypeError")
        return [app_commands.Choice(name=name, value=name) for name in names if name.startswith(current)]

    async def explain_message(interaction: discord.Interaction, message: discord.Message) -> None:
        await interaction.response.defer(thinking=True)
        await interaction.edit_original_response(content=f"message {message.id} says: {message.content}")
        await interaction.followup.send("Was this right?", ephemeral=True)

    return explain, app_commands.ContextMenu(name="Explain this error", callback=explain_message)


class ProbeBot(commands.Bot):
    """A real ``commands.Bot`` that queues the events the tests look at."""

    def __init__(self, guild_id: int) -> None:
        intents = discord.Intents.default()
        intents.message_content = True
        intents.members = True
        super().__init__(command_prefix="!", intents=intents, guild_ready_timeout=0.05, help_command=None)
        self.guild_id = guild_id
        self.ready = asyncio.Event()
        self.queues: dict[str, asyncio.Queue[Any]] = {name: asyncio.Queue() for name in EVENTS}

    async def setup_hook(self) -> None:
        """Register the app commands on the test guild."""
        for command in build_commands():
            self.tree.add_command(command, guild=discord.Object(self.guild_id))

    async def on_ready(self) -> None:
        """Signal that the guild cache is filled."""
        self.ready.set()

    async def on_message(self, message: discord.Message) -> None:
        """Queue messages from people (not the bot's own echoes)."""
        if self.user is not None and message.author.id != self.user.id:
            await self.queues["message"].put(message)

    async def on_raw_message_edit(self, payload: discord.RawMessageUpdateEvent) -> None:
        """Queue raw edits."""
        await self.queues["raw_message_edit"].put(payload)

    async def on_raw_message_delete(self, payload: discord.RawMessageDeleteEvent) -> None:
        """Queue raw deletes."""
        await self.queues["raw_message_delete"].put(payload)

    async def next_event(self, name: str) -> Any:
        """Return the next queued event called ``name`` (bounded wait)."""
        return await asyncio.wait_for(self.queues[name].get(), 5.0)


@pytest.fixture
async def bot(discord_routed: FakeDiscord) -> AsyncIterator[ProbeBot]:
    """Run a ProbeBot against the fake until READY; close it cleanly afterwards."""
    probe = ProbeBot(discord_routed.guild_id)
    task = asyncio.create_task(probe.start(discord_routed.token))
    try:
        await asyncio.wait_for(probe.ready.wait(), 30.0)  # bounds only a hang: a loaded machine is slow
        yield probe
    finally:
        await probe.close()
        await asyncio.wait_for(task, 30.0)
    await discord_routed.wait_until_disconnected()
    # Client.close() sends 1000, but discord.py's own read loop races it with close(code=4000).
    assert discord_routed.gateway.close_codes[-1] in (1000, 4000)
    assert discord_routed.unknown_routes == [] and discord_routed.errors == []


def text_channel(bot: ProbeBot, fake: FakeDiscord) -> discord.TextChannel:
    """Return the fake's ``#help`` channel from the bot's cache."""
    channel = bot.get_channel(fake.text_channel_id)
    assert isinstance(channel, discord.TextChannel)
    return channel


async def test_login_fills_ready_and_guild_cache(bot: ProbeBot, discord_routed: FakeDiscord) -> None:
    fake = discord_routed
    guild = bot.get_guild(fake.guild_id)
    assert guild is not None and bot.user is not None
    assert bot.user.id == int(fake.bot_user["id"]) and bot.application_id == fake.application_id
    assert guild.owner_id == int(fake.owner_user["id"])
    assert {member.id for member in guild.members} >= {bot.user.id, int(fake.member_user["id"])}
    assert isinstance(guild.get_channel(fake.forum_channel_id), discord.ForumChannel)
    assert isinstance(guild.get_thread(fake.thread_id), discord.Thread)
    assert guild.get_role(fake.maintainer_role_id) is not None
    assert fake.gateway.handshakes[0]["compress"] == "zlib-stream"
    identify = next(frame for frame in fake.recorder.gateway_frames if frame["op"] == 2)
    assert identify["d"]["intents"] == bot.intents.value


async def test_wrong_token_is_a_login_failure(discord_routed: FakeDiscord) -> None:
    client = discord.Client(intents=discord.Intents.default())
    with pytest.raises(discord.LoginFailure):
        await client.login("not-the-token")
    await client.close()
    assert discord_routed.requests[-1].status == 401


async def test_disallowed_privileged_intents_close_with_4014(discord_routed: FakeDiscord) -> None:
    discord_routed.allowed_privileged_intents = 0
    probe = ProbeBot(discord_routed.guild_id)
    with pytest.raises(discord.PrivilegedIntentsRequired):
        await asyncio.wait_for(probe.start(discord_routed.token), 5.0)
    await probe.close()
    assert discord_routed.gateway.close_codes == [4014]


async def test_reconnect_resumes_without_losing_events(bot: ProbeBot, discord_routed: FakeDiscord) -> None:
    fake = discord_routed
    await fake.reconnect()
    # Sent right behind opcode 7, on a socket the client is abandoning: only RESUME's replay delivers it.
    await fake.create_message(fake.text_channel_id, fake.member_user, "sent during the reconnect")
    assert (await bot.next_event("message")).content == "sent during the reconnect"
    resume = await fake.wait_for_gateway_frame(6)
    assert resume["d"]["session_id"] in fake.gateway.sessions
    assert [frame["op"] for frame in fake.recorder.gateway_frames].count(2) == 1  # resumed, not re-identified
    assert bot.queues["message"].empty()


async def test_direct_message_reaches_on_message(bot: ProbeBot, discord_routed: FakeDiscord) -> None:
    fake = discord_routed
    await fake.create_message(fake.dm_channel_id(fake.member_user), fake.member_user, "KeyError in a DM")
    message = await bot.next_event("message")
    assert isinstance(message.channel, discord.DMChannel) and message.guild is None
    await message.channel.send("Here is what it means.")
    assert fake.sent_messages(fake.dm_channel_id(fake.member_user))[-1]["content"] == "Here is what it means."


async def test_message_create_reaches_on_message_with_attachment(bot: ProbeBot, discord_routed: FakeDiscord) -> None:
    fake = discord_routed
    text = 'Traceback (most recent call last):\nKeyError: "x"'
    await fake.create_message(fake.text_channel_id, fake.member_user, "see file", attachments=[("message.txt", text)])
    message = await bot.next_event("message")
    assert message.content == "see file" and message.author.id == int(fake.member_user["id"])
    assert message.guild is not None and message.channel.id == fake.text_channel_id
    assert (await message.attachments[0].read()).decode() == text


async def test_reply_records_reference_embed_and_allowed_mentions(bot: ProbeBot, discord_routed: FakeDiscord) -> None:
    fake = discord_routed
    await fake.create_message(fake.text_channel_id, fake.member_user, "KeyError: 'x'")
    message = await bot.next_event("message")
    embed = discord.Embed(title="KeyError", description="A missing dictionary key.")
    reply = await message.reply(embed=embed, allowed_mentions=discord.AllowedMentions.none())
    request = await fake.wait_for_request(lambda r: r.is_("POST", MESSAGES) and r.status == 200)
    assert int(request.json["message_reference"]["message_id"]) == message.id
    assert request.json["allowed_mentions"]["parse"] == []
    assert request.json["embeds"][0]["title"] == "KeyError"
    stored = fake.sent_messages(fake.text_channel_id)[-1]
    assert stored["id"] == str(reply.id) and stored["referenced_message"]["id"] == str(message.id)


@pytest.mark.parametrize(
    ("embeds", "field"),
    [
        ([discord.Embed(description="x" * 4097)], "embeds.0.description"),
        ([discord.Embed(title="t" * 257)], "embeds.0.title"),
        ([discord.Embed(description="x" * 4000), discord.Embed(description="y" * 2001)], "embeds"),
    ],
    ids=["description", "title", "total"],
)
async def test_oversize_embed_is_a_400(
    bot: ProbeBot, discord_routed: FakeDiscord, embeds: list[discord.Embed], field: str
) -> None:
    with pytest.raises(discord.HTTPException) as raised:
        await text_channel(bot, discord_routed).send(embeds=embeds)
    assert raised.value.status == 400 and raised.value.code == 50035
    assert [v.field for v in discord_routed.violations] == [field]
    assert discord_routed.sent_messages() == []


async def test_rate_limit_429_is_retried(bot: ProbeBot, discord_routed: FakeDiscord) -> None:
    fake = discord_routed
    rule = fake.rate_limit(MESSAGES, count=1, retry_after=0.2)
    sent = await text_channel(bot, fake).send("after the 429")
    statuses = [r.status for r in fake.requests if r.is_("POST", MESSAGES)]
    assert statuses == [429, 200] and rule.hits == 1
    stored = await fake.wait_for_sent_message(lambda m: m["content"] == "after the 429")
    assert stored["id"] == str(sent.id)


async def test_slash_command_and_autocomplete_answer_through_callback(
    bot: ProbeBot, discord_routed: FakeDiscord
) -> None:
    fake = discord_routed
    synced = await bot.tree.sync(guild=discord.Object(fake.guild_id))
    assert {c.name for c in synced} == {"explain", "Explain this error"}
    typing = await fake.send_autocomplete("explain", {"error": "Key"}, focused="error")
    choices = await fake.wait_for_interaction_response(typing)
    assert choices.type == 8 and [c["name"] for c in choices.data["choices"]] == [
        "KeyError",
        "KeyboardInterrupt",
    ]
    command = await fake.send_slash_command("explain", {"error": "KeyError"})
    answer = await fake.wait_for_interaction_response(command)
    assert answer.type == 4 and answer.data["embeds"][0]["title"] == "KeyError"
    assert answer.data["flags"] & 64  # ephemeral


async def test_context_menu_defers_then_follows_up(bot: ProbeBot, discord_routed: FakeDiscord) -> None:
    fake = discord_routed
    await bot.tree.sync(guild=discord.Object(fake.guild_id))
    target = await fake.create_message(fake.text_channel_id, fake.member_user, "NameError: name 'x'")
    interaction = await fake.send_message_command("Explain this error", int(target["id"]))
    assert (await fake.wait_for_interaction_response(interaction)).type == 5
    edited = await fake.wait_for_interaction_response(interaction, kind="edit_original")
    assert edited.message is not None and "NameError" in edited.message["content"]
    followup = await fake.wait_for_interaction_response(interaction, kind="followup")
    assert followup.message is not None and followup.message["flags"] & 64


async def test_button_opens_modal_and_submit_is_answered(bot: ProbeBot, discord_routed: FakeDiscord) -> None:
    fake = discord_routed
    sent = await text_channel(bot, fake).send("Was this helpful?", view=ReportView())
    click = await fake.click_button(sent.id, "report")
    modal = await fake.wait_for_interaction_response(click)
    assert modal.type == 9 and modal.data["title"] == "Report a wrong answer"
    submit = await fake.submit_modal({"reason": "wrong record"}, opened_by=click)
    answer = await fake.wait_for_interaction_response(submit)
    assert answer.type == 4 and answer.data["content"] == "thanks: wrong record"


async def test_edit_and_delete_reach_raw_events(bot: ProbeBot, discord_routed: FakeDiscord) -> None:
    fake = discord_routed
    posted = await fake.create_message(fake.text_channel_id, fake.member_user, "ValueError")
    await bot.next_event("message")
    await fake.edit_message(int(posted["id"]), content="ValueError: bad value")
    edit = await bot.next_event("raw_message_edit")
    assert edit.message_id == int(posted["id"]) and edit.message.content == "ValueError: bad value"
    await fake.delete_message(int(posted["id"]))
    deleted = await bot.next_event("raw_message_delete")
    assert deleted.message_id == int(posted["id"]) and deleted.channel_id == fake.text_channel_id


async def test_file_upload_thread_and_forum_post(bot: ProbeBot, discord_routed: FakeDiscord) -> None:
    fake = discord_routed
    upload = discord.File(io.BytesIO(b"Traceback ..."), filename="message.txt")
    sent = await text_channel(bot, fake).send("full log attached", file=upload)
    request = await fake.wait_for_request(lambda r: r.is_("POST", MESSAGES) and r.status == 200)
    assert request.files == [("files[0]", "message.txt", 13)]
    assert await sent.attachments[0].read() == b"Traceback ..."
    thread = await sent.create_thread(name="Explanation")
    assert thread.id == sent.id and (await thread.send("inside")).channel.id == thread.id
    forum = bot.get_channel(fake.forum_channel_id)
    assert isinstance(forum, discord.ForumChannel)
    post = await forum.create_thread(name="KeyError on startup", content="details")
    assert post.message.content == "details" and post.thread.parent_id == fake.forum_channel_id


def _button(**extra: Any) -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": "Go", **extra}


def _rows(*rows: list[dict[str, Any]]) -> dict[str, Any]:
    return {"components": [{"type": 1, "components": row} for row in rows]}


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"content": "x" * 2001}, "content"),
        ({"embeds": [{"fields": [{"name": "n", "value": "v"}] * 26}]}, "embeds.0.fields"),
        ({"embeds": [{"fields": [{"name": "n", "value": "v" * 1025}]}]}, "embeds.0.fields.0.value"),
        ({"embeds": [{"footer": {"text": "f" * 2049}}]}, "embeds.0.footer.text"),
        ({"embeds": [{"author": {"name": "a" * 257}}]}, "embeds.0.author.name"),
        ({"embeds": [{}] * 11}, "embeds"),
        (_rows(*[[_button(custom_id=f"b{i}")] for i in range(6)]), "components"),
        (_rows([_button(custom_id=f"b{i}") for i in range(6)]), "components.0.components"),
        (_rows([_button()]), "components.0.components.0.custom_id"),
        (_rows([_button(custom_id="c" * 101)]), "components.0.components.0.custom_id"),
        (
            _rows([_button(style=5, url="https://x.test", custom_id="no")]),
            "components.0.components.0.custom_id",
        ),
        (_rows([_button(style=5)]), "components.0.components.0.url"),
        (
            _rows([{"type": 3, "custom_id": "s", "options": [{"label": "o", "value": "o"}] * 26}]),
            "components.0.components.0.options",
        ),
        (
            _rows([_button(custom_id="same")], [_button(custom_id="same")]),
            "components.1.components.0.custom_id",
        ),
        ({"allowed_mentions": {"parse": ["users"], "users": ["1"]}}, "allowed_mentions"),
    ],
)
def test_message_limits(body: dict[str, Any], field: str) -> None:
    problems = check_message(body)
    assert [".".join(map(str, p.path)) for p in problems] == [field]


def test_interaction_answer_limits() -> None:
    choices = [{"name": str(i), "value": str(i)} for i in range(26)]
    assert [p.code for p in check_choices({"choices": choices})] == ["BASE_TYPE_BAD_LENGTH"]
    assert check_choices({"choices": [{"name": "n" * 101, "value": "v"}]})[0].path == (
        "data",
        "choices",
        0,
        "name",
    )
    assert check_modal({"title": "t" * 46, "custom_id": "m", "components": [{"type": 1, "components": []}]})
    assert check_choices({"choices": choices[:25]}) == []


async def test_paste_and_unknown_routes(fake_discord: FakeDiscord) -> None:
    url = fake_discord.add_paste("Traceback (most recent call last):\nOSError")
    headers = {"Authorization": f"Bot {fake_discord.token}"}
    async with aiohttp.ClientSession() as session:
        async with session.get(url) as paste:
            assert paste.status == 200 and (await paste.text()).endswith("OSError")
        async with session.get(fake_discord.api_url + "/stickers/1", headers=headers) as missing:
            assert missing.status == 404 and (await missing.json())["message"] == "Unknown route"
    assert fake_discord.unknown_routes == ["GET /api/v10/stickers/1"]
