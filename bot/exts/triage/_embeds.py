"""Embeds and messages of the triage cog: pure functions of plain data, tested through ``to_dict()``."""

from __future__ import annotations

import discord

from bot.triage_service import Notice, Page, Split, library_line
from storage.triage_models import Review, TriageGroup, TriageReport

COLOURS = {
    "new": discord.Colour.orange(),
    "linked": discord.Colour.green(),
    "dismissed": discord.Colour.light_grey(),
}
FIELD_CHARS = 1024
LIST_LINE_CHARS = 180
MAX_LINKS = 5
# Readable names for the credential kinds the redactor reports.
KIND_NAMES = {
    "huggingface_token": "Hugging Face token",
    "github_token": "GitHub token",
    "discord_token": "Discord bot token",
    "discord_webhook": "Discord webhook URL",
    "openai_key": "OpenAI API key",
    "anthropic_key": "Anthropic API key",
    "aws_access_key": "AWS access key",
    "aws_secret_key": "AWS secret key",
    "private_key": "private key",
    "url_credentials": "password in a URL",
    "generic_secret": "password or secret",
}


def code_block(text: str, limit: int) -> str:
    """Return text in a code block of at most ``limit`` characters (fences inside it broken)."""
    body = text.replace("```", "`\u200b``")
    room = limit - 8
    if len(body) > room:
        body = body[: room - 1] + "…"
    return f"```\n{body}\n```"


def headline(group: TriageGroup, limit: int = LIST_LINE_CHARS) -> str:
    """Return ``Class: masked message`` on one line, escaped for Discord markdown."""
    text = " ".join(f"{group.error_class or '(no class)'}: {group.masked}".split())
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return discord.utils.escape_markdown(text)


def list_embed(page: Page) -> discord.Embed:
    """Return one page of ``/triage list``."""
    scope = page.status or "all"
    embed = discord.Embed(title=f"Triage reports ({scope})", colour=discord.Colour.blurple())
    lines = [f"`#{g.id}` **{g.count}×** {g.status} · {headline(g)}" for g in page.groups]
    embed.description = "\n".join(lines) if lines else "No reports."
    embed.set_footer(text=f"page {page.number}/{page.pages} · {page.total} reports · highest count first")
    return embed


def report_embed(report: TriageReport) -> discord.Embed:
    """Return ``/triage show``: the masked message, counts, places, hints and the newest sample."""
    group = report.group
    embed = discord.Embed(
        title=f"Report #{group.id} · {group.status}",
        description=code_block(group.title or "(no message)", 1500),
        colour=COLOURS[group.status],
    )
    embed.add_field(name="Count", value=f"{group.count} ({group.not_helpful} not helpful)")
    embed.add_field(name="Seen", value=f"first {group.first_seen[:16]}\nlast {group.last_seen[:16]}")
    embed.add_field(name="Where", value=f"{group.guilds} servers, {group.channels} channels")
    embed.add_field(name="People", value=str(group.people))
    embed.add_field(name="Grouped by", value=grouped_by(group)[:FIELD_CHARS], inline=False)
    if group.libraries or group.versions:
        embed.add_field(
            name="Libraries", value=discord.utils.escape_markdown(library_line(group))[:FIELD_CHARS], inline=False
        )
    if status := _status_line(group):
        embed.add_field(name="Review", value=status[:FIELD_CHARS], inline=False)
    if report.samples:
        embed.add_field(name="Newest sample", value=code_block(report.samples[0].text, FIELD_CHARS), inline=False)
        ids = ", ".join(f"`{s.id}`" for s in report.samples)
        embed.add_field(name="Sample ids (for /triage split)", value=ids[:FIELD_CHARS], inline=False)
    if links := [s.jump_url for s in report.samples if s.jump_url][:MAX_LINKS]:
        embed.add_field(name="Jump to", value="\n".join(links)[:FIELD_CHARS], inline=False)
    embed.set_footer(text=f"{len(report.samples)} samples kept · fingerprint {group.fingerprint}")
    return embed


def grouped_by(group: TriageGroup) -> str:
    """Say why pastes grouped here: the class, the innermost library frame, the masked message."""
    frame = f"`{group.frame}`" if group.frame else "none shown (any, or none)"
    return f"class `{group.error_class or '(none)'}` · library frame {frame} · the message with its values masked"


def merge_message(source_id: int, review: Review) -> str:
    """Say what a merge did."""
    group = review.group
    return (
        f"Report #{source_id} merged into #{group.id} ({group.count} pastes); "
        f"pastes of either error count in #{group.id} from now on."
    )


def split_message(done: Split) -> str:
    """Say what a split did and the rule that keeps the two reports apart."""
    part = "library frame" if done.part == "frame" else "message"
    shown = ", ".join(f"`{discord.utils.escape_markdown(v[:80])}`" for v in done.values[:3])
    more = f" and {len(done.values) - 3} more" if len(done.values) > 3 else ""
    return (
        f"Report #{done.group.id} split: {done.new.count} sample(s) moved to new report #{done.new.id}; "
        f"pastes whose {part} is {shown}{more} go there from now on."
    )


def _status_line(group: TriageGroup) -> str | None:
    if group.status == "linked":
        return f"linked to record `{group.record_id}`"
    if group.status == "dismissed":
        return "dismissed: " + discord.utils.escape_markdown(group.reason or "(no reason given)")
    return None


def review_message(review: Review) -> str:
    """Say what a link, dismiss or reopen did."""
    group = review.group
    if group.status == "linked":
        added = len(review.added)
        return f"Report #{group.id} linked to `{group.record_id}`; {added} example(s) now match it."
    if group.status == "dismissed":
        return f"Report #{group.id} dismissed."
    return f"Report #{group.id} reopened."


def notice_embed(group: TriageGroup, notice: Notice) -> discord.Embed:
    """Return the triage channel notice for a new group, or one that reached the notice count."""
    title = "New unexplained error" if notice == "new" else f"Unexplained error seen {group.count} times"
    embed = discord.Embed(title=title, description=code_block(headline(group, 900), 1000))
    embed.colour = COLOURS["new"]
    embed.set_footer(text=f"report #{group.id} · /triage show report:{group.id}")
    return embed


def secret_warning(kinds: tuple[str, ...]) -> str:
    """Return the short warning for an author whose paste carried a credential (never the value)."""
    names = ", ".join(sorted({KIND_NAMES.get(kind, kind.replace("_", " ")) for kind in kinds}))
    return (
        f"Heads up: your message seems to contain a live credential ({names}). "
        "Revoke it and create a new one; tracebot stored only a redacted copy."
    )
