"""storage/records.py: reads of the record store (autocomplete)."""

from __future__ import annotations

from storage.database import Database
from storage.importer import import_paths
from storage.records import RecordRepository
from tests.conftest import SEED_IDS, SEEDS_JSONL


async def test_autocomplete_exact_id_prefixes_and_message_words(db: Database) -> None:
    await import_paths(db, [SEEDS_JSONL])
    repo = RecordRepository(db)
    assert next(s.id for s in await repo.autocomplete(SEED_IDS["cache"])) == SEED_IDS["cache"]
    assert [s.id for s in await repo.autocomplete("4d5e")] == [SEED_IDS["stateful"]]
    assert [s.id for s in await repo.autocomplete("assisted-generation")] == [SEED_IDS["stateful"]]
    assert [s.id for s in await repo.autocomplete("requires a CACHE")] == [SEED_IDS["cache"]]
    assert len(await repo.autocomplete("")) == 3 and await repo.autocomplete("100%_") == []
