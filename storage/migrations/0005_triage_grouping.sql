-- Triage grouping that maintainers can correct, and answers that arrive when the record does.
-- Never edit a migration once merged: add a new numbered file instead.

-- Why a group grouped: the innermost library frame ('' when the pastes show none) beside the class
-- and the masked message; the key without the frame lets a bare final line find a traceback's group.
ALTER TABLE triage_groups ADD COLUMN frame TEXT NOT NULL DEFAULT '';
ALTER TABLE triage_groups ADD COLUMN loose_key TEXT;
CREATE INDEX triage_groups_loose_key ON triage_groups (loose_key);

-- Every fingerprint that routes to a group: its own, and those of the groups merged into it.
CREATE TABLE triage_aliases (
    fingerprint TEXT PRIMARY KEY,
    group_id    INTEGER NOT NULL REFERENCES triage_groups (id) ON DELETE CASCADE
) WITHOUT ROWID;

INSERT INTO triage_aliases (fingerprint, group_id) SELECT fingerprint, id FROM triage_groups;

-- Merged groups are gone; their ids say where they went.
CREATE TABLE triage_merged (
    group_id   INTEGER PRIMARY KEY,
    into_id    INTEGER NOT NULL REFERENCES triage_groups (id) ON DELETE CASCADE,
    merged_at  TEXT NOT NULL
);

-- A split's rule: pastes of group_id whose part (frame or message) equals value go to target_id.
CREATE TABLE triage_split_rules (
    group_id   INTEGER NOT NULL REFERENCES triage_groups (id) ON DELETE CASCADE,
    part       TEXT NOT NULL CHECK (part IN ('frame', 'message')),
    value      TEXT NOT NULL,
    target_id  INTEGER NOT NULL REFERENCES triage_groups (id) ON DELETE CASCADE,
    created_at TEXT NOT NULL,
    PRIMARY KEY (group_id, part, value)
) WITHOUT ROWID;

-- Distinct people per group (samples keep only a few), and every library version seen.
CREATE TABLE triage_people (
    group_id  INTEGER NOT NULL REFERENCES triage_groups (id) ON DELETE CASCADE,
    author_id INTEGER NOT NULL,
    PRIMARY KEY (group_id, author_id)
) WITHOUT ROWID;

INSERT OR IGNORE INTO triage_people (group_id, author_id)
SELECT group_id, author_id FROM triage_samples WHERE author_id IS NOT NULL;

CREATE TABLE triage_versions (
    group_id INTEGER NOT NULL REFERENCES triage_groups (id) ON DELETE CASCADE,
    library  TEXT NOT NULL,
    version  TEXT NOT NULL,
    PRIMARY KEY (group_id, library, version)
) WITHOUT ROWID;

-- What a re-answer needs: the pasted message to reply to, the parts a split compares, and whether
-- the paste was answered already (once per paste).
ALTER TABLE triage_samples ADD COLUMN message_id INTEGER;
ALTER TABLE triage_samples ADD COLUMN frame TEXT NOT NULL DEFAULT '';
ALTER TABLE triage_samples ADD COLUMN detail TEXT NOT NULL DEFAULT '';
ALTER TABLE triage_samples ADD COLUMN answered_at TEXT;
