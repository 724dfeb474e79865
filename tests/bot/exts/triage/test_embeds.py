"""The triage cog's embeds and messages, tested through ``to_dict()``: pure functions of plain data."""

from __future__ import annotations

import pytest

from bot.exts.triage._embeds import (
    code_block,
    headline,
    list_embed,
    notice_embed,
    report_embed,
    review_message,
    secret_warning,
)
from bot.triage_service import Page
from storage.triage_models import Review, TriageGroup, TriageReport, TriageSample


def group(**changes: object) -> TriageGroup:
    values: dict[str, object] = {
        "id": 7, "fingerprint": "abc123", "error_class": "KeyError", "masked": "missing key <q> in **config**",
        "count": 12, "not_helpful": 2, "first_seen": "2026-03-01T10:00:00.000Z",
        "last_seen": "2026-03-02T11:30:00.000Z", "status": "new", "record_id": None, "reason": None,
        "reviewed_by": None, "reviewed_at": None, "libraries": {"torch": "2.3.0", "peft": None},
        "last_jump_url": None, "guilds": 2, "channels": 3,
    }  # fmt: skip
    return TriageGroup.model_validate(values | changes)


def sample(text: str) -> TriageSample:
    return TriageSample(
        id=1, created_at="2026-03-02T11:30:00.000Z", source="unmatched", guild_id=1, channel_id=2,
        jump_url="https://discord.com/channels/1/2/3", record_id=None, text=text,
    )  # fmt: skip


def test_list_embed() -> None:
    page = Page([group(), group(id=8, count=3, masked="x" * 500)], 1, 2, 4, "new")
    data = list_embed(page).to_dict()
    assert data["title"] == "Triage reports (new)"
    first, second = data["description"].split("\n")
    assert first == r"`#7` **12×** new · KeyError: missing key <q> in \*\*config\*\*"
    assert len(second) < 260 and second.endswith("…")
    assert data["footer"]["text"] == "page 1/2 · 4 reports · highest count first"
    assert list_embed(Page([], 1, 1, 0, None)).to_dict()["description"] == "No reports."


def test_report_embed_fits_and_breaks_fences() -> None:
    report = TriageReport(group=group(status="dismissed", reason="user typo"), samples=[sample("```\n" + "y" * 5000)])
    data = report_embed(report).to_dict()
    fields = {f["name"]: f["value"] for f in data["fields"]}
    assert data["title"] == "Report #7 · dismissed"
    assert fields["Count"] == "12 (2 not helpful)" and fields["Where"] == "2 servers, 3 channels"
    assert fields["Libraries"] == "torch 2.3.0, peft" and fields["Review"] == "dismissed: user typo"
    assert len(fields["Newest sample"]) <= 1024 and fields["Newest sample"].count("```") == 2
    assert fields["Jump to"] == "https://discord.com/channels/1/2/3"


@pytest.mark.parametrize("limit", [20, 100, 1024])
def test_code_block_limit(limit: int) -> None:
    block = code_block("a```b" * 500, limit)
    assert len(block) <= limit and block.startswith("```\n") and block.endswith("\n```")
    assert block.count("```") == 2


def test_messages() -> None:
    assert review_message(Review(group=group(status="linked", record_id="r1"))) == (
        "Report #7 linked to `r1`; 0 example(s) now match it."
    )
    assert review_message(Review(group=group(status="new"))) == "Report #7 reopened."
    assert notice_embed(group(), "count").to_dict()["title"] == "Unexplained error seen 12 times"
    assert headline(group(error_class="")) == r"(no class): missing key <q> in \*\*config\*\*"
    warning = secret_warning(("huggingface_token", "github_token", "some_new_kind"))
    assert "GitHub token, Hugging Face token, some new kind" in warning
