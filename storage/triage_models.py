"""Pydantic models the triage repository returns."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from records.matching.index import IndexEntry

Status = Literal["new", "linked", "dismissed"]
STATUSES: tuple[Status, ...] = ("new", "linked", "dismissed")
# "counted": a paste past its author's daily cap, added to its group's count with nothing stored.
Outcome = Literal["logged", "counted", "user_limit", "group_limit"]


class TriageGroup(BaseModel):
    """One fingerprint group, as maintainers review it."""

    id: int
    fingerprint: str
    error_class: str
    masked: str
    count: int
    not_helpful: int
    first_seen: str
    last_seen: str
    status: Status
    record_id: str | None
    reason: str | None
    reviewed_by: int | None
    reviewed_at: str | None
    libraries: dict[str, str | None] = Field(default_factory=dict)
    last_jump_url: str | None
    guilds: int = 0
    channels: int = 0
    frame: str = ""  # the innermost library frame the group's key holds, '' when none
    people: int = 0  # distinct people who pasted it
    versions: dict[str, list[str]] = Field(default_factory=dict)  # every library version seen, sorted

    @property
    def title(self) -> str:
        """The group as the error reads: ``KeyError: '<key>' not found in token map``."""
        return f"{self.error_class}: {self.masked}" if self.error_class else self.masked

    @property
    def parts(self) -> dict[str, str]:
        """Why pastes grouped here: the parts of the fingerprint."""
        return {"class": self.error_class, "frame": self.frame, "message": self.masked}


class TriageSample(BaseModel):
    """One redacted sample of a group."""

    id: int
    created_at: str
    source: str
    guild_id: int | None
    channel_id: int | None
    jump_url: str | None
    record_id: str | None
    text: str
    group_id: int | None = None
    author_id: int | None = None
    message_id: int | None = None  # the pasted message, to reply to when a record arrives
    frame: str = ""
    detail: str = ""  # the redacted message before masking
    answered_at: str | None = None


class TriagePlace(BaseModel):
    """A channel a group was seen in (``guild_id`` None for direct messages)."""

    guild_id: int | None
    channel_id: int
    count: int
    last_seen: str


class TriageReport(BaseModel):
    """A group with its samples (newest first) and the places it was seen."""

    group: TriageGroup
    samples: list[TriageSample] = Field(default_factory=list)
    places: list[TriagePlace] = Field(default_factory=list)


class Logged(BaseModel):
    """What logging one paste did."""

    outcome: Outcome
    group: TriageGroup | None = None
    new_group: bool = False
    sample_stored: bool = False


class Example(BaseModel):
    """A linked group's message template, standing for its record in the matching index."""

    record_id: str
    n: int
    template: str
    error_class: str | None
    repo: str | None = None
    file_path: str | None = None
    line_number: int | None = None
    curated: bool = True
    library_version: str | None = None

    @property
    def entry_id(self) -> str:
        """The index entry id: ``<record_id>~ex<n>``."""
        return example_id(self.record_id, self.n)

    def index_entry(self) -> IndexEntry:
        """Return the matching index entry that answers as the record."""
        return IndexEntry(
            id=self.entry_id,
            error_message=self.template,
            error_class=self.error_class,
            file_path=self.file_path,
            line_number=self.line_number,
            repo=self.repo,
            curated=self.curated,
            library_version=self.library_version,
            alias_of=self.record_id,
        )


class Review(BaseModel):
    """A review action's result: the group after it, examples added and example ids removed."""

    group: TriageGroup
    added: list[Example] = Field(default_factory=list)
    removed: list[str] = Field(default_factory=list)


class Purged(BaseModel):
    """What a retention purge deleted."""

    samples: int
    user_days: int


def example_id(record_id: str, n: int) -> str:
    """Return the index entry id of a record's n-th example."""
    return f"{record_id}~ex{n}"
