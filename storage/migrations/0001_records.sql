-- Records and import runs. Never edit a migration once merged: add a new numbered file instead.
CREATE TABLE records (
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
    data            TEXT NOT NULL,   -- canonical JSON of the whole record, extra fields included
    created_at      TEXT NOT NULL,
    updated_at      TEXT NOT NULL
) WITHOUT ROWID;

CREATE INDEX records_slug ON records (slug);
CREATE INDEX records_repo ON records (repo);

CREATE TABLE import_runs (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    started_at      TEXT NOT NULL,
    finished_at     TEXT NOT NULL,
    source          TEXT NOT NULL,
    dataset_version TEXT,
    added           INTEGER NOT NULL,
    updated         INTEGER NOT NULL,
    unchanged       INTEGER NOT NULL,
    rejected        INTEGER NOT NULL
);
