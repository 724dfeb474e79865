-- Triage: unexplained errors, grouped by fingerprint, for maintainers to link or dismiss.
-- Nothing here holds raw paste text: samples are redacted and cut before they are written.
-- Never edit a migration once merged: add a new numbered file instead.
CREATE TABLE triage_groups (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,  -- the report id maintainers type
    fingerprint   TEXT NOT NULL UNIQUE,
    error_class   TEXT NOT NULL,                      -- short class name, '' when none was printed
    masked        TEXT NOT NULL,                      -- the message with its variable parts masked
    count         INTEGER NOT NULL DEFAULT 0,         -- every paste, kept when samples are purged
    not_helpful   INTEGER NOT NULL DEFAULT 0,         -- of which answers voted not helpful
    first_seen    TEXT NOT NULL,
    last_seen     TEXT NOT NULL,
    status        TEXT NOT NULL DEFAULT 'new' CHECK (status IN ('new', 'linked', 'dismissed')),
    record_id     TEXT,                               -- set while linked
    reason        TEXT,                               -- set while dismissed
    reviewed_by   INTEGER,                            -- Discord user id, NULL from the command line
    reviewed_at   TEXT,
    libraries     TEXT NOT NULL DEFAULT '{}',         -- JSON {library: version or null}
    last_jump_url TEXT
);

CREATE INDEX triage_groups_status_count ON triage_groups (status, count DESC);

CREATE TABLE triage_places (
    group_id   INTEGER NOT NULL REFERENCES triage_groups (id) ON DELETE CASCADE,
    guild_id   INTEGER NOT NULL,                      -- 0 for direct messages
    channel_id INTEGER NOT NULL,
    count      INTEGER NOT NULL,
    last_seen  TEXT NOT NULL,
    PRIMARY KEY (group_id, guild_id, channel_id)
) WITHOUT ROWID;

CREATE TABLE triage_samples (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    group_id   INTEGER NOT NULL REFERENCES triage_groups (id) ON DELETE CASCADE,
    created_at TEXT NOT NULL,
    source     TEXT NOT NULL,                         -- 'unmatched' or 'not_helpful'
    guild_id   INTEGER,
    channel_id INTEGER,
    author_id  INTEGER,
    jump_url   TEXT,
    record_id  TEXT,                                  -- the record a not-helpful answer showed
    text       TEXT NOT NULL                          -- redacted, cleaned and cut
);

CREATE INDEX triage_samples_group ON triage_samples (group_id, id);
CREATE INDEX triage_samples_created ON triage_samples (created_at);

-- Per-user daily counters: one user cannot flood the tables.
CREATE TABLE triage_user_days (
    author_id INTEGER NOT NULL,
    day       TEXT NOT NULL,                          -- YYYY-MM-DD, UTC
    pastes    INTEGER NOT NULL DEFAULT 0,
    new_groups INTEGER NOT NULL DEFAULT 0,            -- groups this user created that day
    PRIMARY KEY (author_id, day)
) WITHOUT ROWID;

-- Linked groups become examples: extra index entries that answer as their record.
CREATE TABLE triage_examples (
    record_id  TEXT NOT NULL REFERENCES records (id) ON DELETE CASCADE,
    n          INTEGER NOT NULL,                      -- entry id is '<record_id>~ex<n>'
    group_id   INTEGER NOT NULL REFERENCES triage_groups (id) ON DELETE CASCADE,
    template   TEXT NOT NULL,
    error_class TEXT,
    created_at TEXT NOT NULL,
    removed_at TEXT,                                  -- kept so a running index can drop it
    PRIMARY KEY (record_id, n)
) WITHOUT ROWID;

CREATE UNIQUE INDEX triage_examples_template ON triage_examples (record_id, template);
CREATE INDEX triage_examples_group ON triage_examples (group_id);
