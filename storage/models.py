"""Pydantic models the repositories return."""

from __future__ import annotations

from pydantic import BaseModel, Field

from records.model import Record


class StoredRecord(BaseModel):
    """A record as stored, with its bookkeeping."""

    record: Record
    dataset_version: str | None
    created_at: str
    updated_at: str


class RecordSummary(BaseModel):
    """One line of a record listing."""

    id: str
    slug: str | None
    repo: str | None
    error_class: str | None
    error_message: str
    file_path: str | None
    line_number: int | None
    origin: str
    library_version: str | None


class ImportRun(BaseModel):
    """One run of ``records import``."""

    id: int
    started_at: str
    finished_at: str
    source: str
    dataset_version: str | None
    added: int
    updated: int
    unchanged: int
    rejected: int


class RecordStats(BaseModel):
    """Counts that describe the record set."""

    total: int
    by_repo: dict[str, int] = Field(default_factory=dict)
    by_origin: dict[str, int] = Field(default_factory=dict)
    by_version: dict[str, int] = Field(default_factory=dict)
    top_classes: dict[str, int] = Field(default_factory=dict)
    import_runs: int = 0
    last_import: ImportRun | None = None


class ImportReport(BaseModel):
    """What an import did: counts, and every rejected record with its location."""

    source: str
    added: int = 0
    updated: int = 0
    unchanged: int = 0
    problems: list[str] = Field(default_factory=list)
    warnings: list[str] = Field(default_factory=list)  # imported, but something will not work as written
    dataset_version: str | None = None
    run_id: int | None = None
    retired: int = 0  # per-release records replaced by their site's record (``retire_superseded``)

    @property
    def rejected(self) -> int:
        """Number of records (or files) left out."""
        return len(self.problems)

    @property
    def changed_anything(self) -> bool:
        """True when the import added or updated at least one record."""
        return bool(self.added or self.updated)
