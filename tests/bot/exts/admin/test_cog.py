"""``/tracebot config`` in SimCord: maintainers change settings, anyone else is refused at run time."""

from __future__ import annotations

from tests.bot.simbot import STATEFUL, Sim, answers, response_of, sim_fixture, simcord_bot_fixture  # noqa: F401


async def test_a_non_maintainer_is_refused_and_nothing_changes(sim: Sim) -> None:
    result = await sim.stranger.slash(sim.help, "tracebot config", mode="off", reply_style="thread")
    assert result.ephemeral and "Only maintainers" in response_of(result).content
    config = await sim.services.guilds.config(sim.guild.id)
    assert config.channel_modes == {} and config.reply_style == "reply"
    await sim.member.send(sim.help, STATEFUL)
    assert len(answers(sim, sim.help)) == 1


async def test_the_owner_turns_a_channel_off(sim: Sim) -> None:
    result = await sim.owner.slash(sim.help, "tracebot config", mode="off")
    assert result.ephemeral and response_of(result).embeds[0].description == f"Changed: <#{sim.help.id}> mode: off."
    await sim.member.send(sim.help, STATEFUL)
    assert answers(sim, sim.help) == []


async def test_the_maintainer_role_grants_configuration(sim: Sim) -> None:
    role = sim.guild.create_role("Helpers")
    helper = sim.guild.add_member(sim.env.create_user("dave"), roles=[role])
    refused = await helper.slash(sim.help, "tracebot config")
    assert "Only maintainers" in response_of(refused).content
    await sim.owner.slash(sim.help, "tracebot config", maintainer_role=role)
    allowed = await helper.slash(sim.help, "tracebot config", channel=sim.other, allowed=True, threads="everyone")
    fields = {f.name: f.value for f in response_of(allowed).embeds[0].fields}
    assert fields["Channels"] == f"<#{sim.other.id}>" and fields["Maintainer role"] == f"<@&{role.id}>"
    config = await sim.services.guilds.config(sim.guild.id)
    assert config.allowed_channels == {sim.other.id} and config.thread_policy == "everyone"
    await sim.member.send(sim.help, STATEFUL)
    assert answers(sim, sim.help) == []


async def test_config_without_options_shows_the_defaults(sim: Sim) -> None:
    result = await sim.owner.slash(sim.help, "tracebot config")
    embed = response_of(result).embeds[0]
    fields = {f.name: f.value for f in embed.fields}
    assert embed.description is None and fields["Channels"] == "every channel tracebot can read"
    assert fields["Reply style"] == "reply"
