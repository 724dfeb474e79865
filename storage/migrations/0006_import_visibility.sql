-- Imports publish in short batches: rows an import has written but not yet published stay out of sight.
-- Never edit a migration once merged: add a new numbered file instead.

-- The rows themselves, published or not. Child tables' references follow the rename.
ALTER TABLE records RENAME TO records_all;
-- The import run that wrote the row; 0 for rows written before this migration.
ALTER TABLE records_all ADD COLUMN import_run INTEGER NOT NULL DEFAULT 0;
-- Finds an interrupted import's leftovers (rows above the published run) without a table scan.
CREATE INDEX records_all_import_run ON records_all (import_run);

-- New versions of records an import changes, copied in batches too. Before the import publishes they
-- are out of sight; once it has, the view shows them in place of the old versions until they are
-- merged into records_all (`merging` is then 1).
CREATE TABLE records_next (
    id              TEXT PRIMARY KEY,
    slug            TEXT,
    repo            TEXT,
    error_class     TEXT,
    error_message   TEXT NOT NULL,
    message_pattern TEXT,
    file_path       TEXT,
    line_number     INTEGER,
    origin          TEXT NOT NULL DEFAULT 'curated',
    library_version TEXT,
    dataset_version TEXT,
    content_hash    TEXT NOT NULL,
    data            TEXT NOT NULL,
    created_at      TEXT NOT NULL,
    updated_at      TEXT NOT NULL
) WITHOUT ROWID;

-- One row: the newest published import run (raising it publishes the run's new rows) and whether
-- published changed rows wait in records_next to be merged.
CREATE TABLE import_state (
    id        INTEGER PRIMARY KEY CHECK (id = 1),
    published INTEGER NOT NULL,
    merging   INTEGER NOT NULL DEFAULT 0
);
INSERT INTO import_state (id, published) VALUES (1, 0);

-- What every reader means by records: the published rows only. `+import_run` keeps the planner from
-- scanning by import run instead of using the id, slug and updated_at indexes. The importer replaces
-- this view by one that also shows records_next while it merges (storage/importer.py, same columns).
CREATE VIEW records AS
SELECT id, slug, repo, error_class, error_message, message_pattern, file_path, line_number, origin,
       library_version, dataset_version, content_hash, data, created_at, updated_at
FROM records_all
WHERE +import_run <= (SELECT published FROM import_state);

-- A maintainer's `DELETE FROM records WHERE ...` keeps working on the view.
CREATE TRIGGER records_delete INSTEAD OF DELETE ON records BEGIN DELETE FROM records_all WHERE id = old.id; DELETE FROM records_next WHERE id = old.id; END;
