"""The record model: one known error, as published in the record set's JSON form.

Field names are snake_case in Python and camelCase on the wire (the published JSON form). Unknown
fields that a newer schema adds are kept (``extra="allow"``) so that an export gives them back.
"""

from __future__ import annotations

import hashlib
import json
from functools import cached_property
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr, field_validator
from pydantic.alias_generators import to_camel

SUPPORTED_SCHEMA_VERSIONS = frozenset({1, 2})
CURRENT_SCHEMA_VERSION = 2

# Why a cap: a record is read from files people hand us; a 10 MB string is a mistake or an attack,
# never a real error explanation, and it would bloat the store and every embed built from it.
MAX_TEXT_CHARS = 200_000
MAX_LIST_ITEMS = 200

# The fields whose text the miner may generate (wire names), as listed in ``Record.generated``.
GENERATABLE_FIELDS = frozenset(
    {"documentation", "triggerScenarios", "commonSituations", "solutions", "exampleFix", "validationCode"}
)

# Where a record's text came from: written by a person, or mined from the library's source (raise site
# and message only, explanations generated). Compared in one place: ``Record.is_mined``.
Origin = Literal["curated", "mined"]
MINED: Origin = "mined"

Text = Annotated[StrictStr, Field(max_length=MAX_TEXT_CHARS)]
TextList = Annotated[list[Text], Field(max_length=MAX_LIST_ITEMS)]
Line = Annotated[StrictInt, Field(ge=0)]


class SiteVersion(BaseModel):
    """Where one release raises a mined record's error: its line, source window and pinned link.

    ``source_code`` is only given when it differs from the record's own (that of its newest release).
    """

    model_config = ConfigDict(
        alias_generator=to_camel, populate_by_name=True, extra="forbid", frozen=True, hide_input_in_errors=True
    )

    version: Annotated[StrictStr, Field(min_length=1, max_length=64)]
    line_number: Line | None = None
    source_code_start: Line | None = None
    source_code_end: Line | None = None
    github_url: Text | None = None
    analyzed_sha: Text | None = None
    source_code: Text | None = None


class Record(BaseModel):
    """One known error: what raises it, where, what it means and how to fix it."""

    model_config = ConfigDict(
        alias_generator=to_camel,
        populate_by_name=True,
        extra="allow",
        frozen=True,
        hide_input_in_errors=True,  # validation errors must never echo pasted values (secrets)
    )

    id: Annotated[StrictStr, Field(min_length=1, max_length=128, pattern=r"^[A-Za-z0-9_.:-]+$")]
    error_message: Annotated[StrictStr, Field(min_length=1, max_length=MAX_TEXT_CHARS)]
    repo: Text | None = None
    slug: Text | None = None
    error_code: Text | None = None
    message_pattern: Text | None = None
    error_type: Text | None = None
    error_class: Text | None = None
    http_status: StrictInt | None = None
    severity: Text | None = None
    file_path: Text | None = None
    line_number: Annotated[StrictInt, Field(ge=0)] | None = None
    source_code: Text | None = None
    source_code_start: Annotated[StrictInt, Field(ge=0)] | None = None
    source_code_end: Annotated[StrictInt, Field(ge=0)] | None = None
    github_url: Text | None = None
    documentation: Text | None = None
    trigger_scenarios: Text | None = None
    common_situations: Text | None = None
    solutions: TextList = Field(default_factory=list)
    example_fix: Text | None = None
    handling_strategy: Text | None = None
    validation_code: Text | None = None
    type_guard: Text | None = None
    try_catch_pattern: Text | None = None
    prevention_tips: TextList = Field(default_factory=list)
    tags: TextList = Field(default_factory=list)
    background_tag: Text | None = None
    analyzed_sha: Text | None = None
    analyzed_at: Text | None = None
    schema_version: StrictInt | None = None
    # Added by tracebot (not in the published schema): where a record came from and which release
    # of the library it was mined from, so answers can prefer curated text and the newest version.
    origin: Origin | None = None  # None means curated
    library_version: Text | None = None
    enclosing_function: Text | None = None
    enclosing_class: Text | None = None
    # Provenance: the wire names of the fields whose text the miner generated (not written by a person),
    # so a curated value always wins over them and a reviewer can tell the two apart.
    generated: TextList = Field(default_factory=list)
    # A raise site mined from several releases: one record, the newest release's location at the top
    # level, and every release that raises it here, newest first (the first is the top level's).
    versions: Annotated[list[SiteVersion], Field(max_length=MAX_LIST_ITEMS)] = Field(default_factory=list)
    first_version: Text | None = None
    last_version: Text | None = None

    @field_validator("schema_version")
    @classmethod
    def _known_schema(cls, value: int | None) -> int | None:
        if value is not None and value not in SUPPORTED_SCHEMA_VERSIONS:
            supported = ", ".join(str(v) for v in sorted(SUPPORTED_SCHEMA_VERSIONS))
            raise ValueError(f"unsupported schema version (this tracebot reads {supported})")
        return value

    @field_validator("generated")
    @classmethod
    def _known_generated_fields(cls, value: list[str]) -> list[str]:
        unknown = [name for name in value if name not in GENERATABLE_FIELDS]
        if unknown:
            raise ValueError(f"not a field the miner generates: {', '.join(unknown)}")
        return value

    @field_validator("versions")
    @classmethod
    def _distinct_versions(cls, value: list[SiteVersion]) -> list[SiteVersion]:
        names = [v.version for v in value]
        if len(set(names)) != len(names):
            raise ValueError(
                f"a release is listed twice: {', '.join(sorted({n for n in names if names.count(n) > 1}))}"
            )
        return value

    def at_version(self, version: str | None) -> Record:
        """Return the record located where ``version`` raises it (itself for its newest or an unknown one)."""
        site = next((v for v in self.versions if v.version == version), None)
        if site is None or version == self.library_version:
            return self
        update = {
            "library_version": site.version,
            "line_number": site.line_number,
            "source_code_start": site.source_code_start,
            "source_code_end": site.source_code_end,
            "github_url": site.github_url,
            "analyzed_sha": site.analyzed_sha,
        }
        if site.source_code is not None:
            update["source_code"] = site.source_code
        return self.model_copy(update=update)

    @property
    def version_lines(self) -> tuple[tuple[str, int], ...]:
        """Return (release, raising line) of every release but the newest, as the index posts them."""
        return tuple((v.version, v.line_number) for v in self.versions[1:] if v.line_number is not None)

    def to_wire(self) -> dict[str, Any]:
        """Return the record in its published camelCase JSON form, extra fields included."""
        return self.model_dump(by_alias=True, mode="json")

    def canonical_json(self) -> str:
        """Return a deterministic JSON text of the record (sorted keys, no spaces)."""
        return self._canonical

    def content_hash(self) -> str:
        """Return a short hash of the canonical JSON, used to tell changed records from unchanged."""
        return hashlib.sha256(self._canonical.encode()).hexdigest()[:32]

    @cached_property
    def _canonical(self) -> str:
        # The record is frozen, so its JSON text never changes; imports ask for it several times.
        return json.dumps(self.to_wire(), sort_keys=True, separators=(",", ":"), ensure_ascii=False)

    @property
    def is_mined(self) -> bool:
        """Whether the record was mined from source (no person wrote its explanation)."""
        return self.origin == MINED

    @property
    def extra_fields(self) -> dict[str, Any]:
        """Fields a newer schema added that this model does not name."""
        return dict(self.model_extra or {})


class RecordEnvelope(BaseModel):
    """The JSON API form: ``{"record": {...}, "datasetVersion": "..."}``."""

    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, hide_input_in_errors=True)

    record: Record
    dataset_version: Text | None = None
