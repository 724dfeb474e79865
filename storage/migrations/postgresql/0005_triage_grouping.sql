-- PostgreSQL form of ../0005_triage_grouping.sql.
ALTER TABLE triage_groups ADD COLUMN frame TEXT COLLATE "C" NOT NULL DEFAULT '';
ALTER TABLE triage_groups ADD COLUMN loose_key TEXT COLLATE "C";
CREATE INDEX triage_groups_loose_key ON triage_groups (loose_key);

CREATE TABLE triage_aliases (
    fingerprint TEXT COLLATE "C" PRIMARY KEY,
    group_id    BIGINT NOT NULL REFERENCES triage_groups (id) ON DELETE CASCADE
);

INSERT INTO triage_aliases (fingerprint, group_id) SELECT fingerprint, id FROM triage_groups;

CREATE TABLE triage_merged (
    group_id  BIGINT PRIMARY KEY,
    into_id   BIGINT NOT NULL REFERENCES triage_groups (id) ON DELETE CASCADE,
    merged_at TEXT COLLATE "C" NOT NULL
);

CREATE TABLE triage_split_rules (
    group_id   BIGINT NOT NULL REFERENCES triage_groups (id) ON DELETE CASCADE,
    part       TEXT COLLATE "C" NOT NULL CHECK (part IN ('frame', 'message')),
    value      TEXT COLLATE "C" NOT NULL,
    target_id  BIGINT NOT NULL REFERENCES triage_groups (id) ON DELETE CASCADE,
    created_at TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (group_id, part, value)
);

CREATE TABLE triage_people (
    group_id  BIGINT NOT NULL REFERENCES triage_groups (id) ON DELETE CASCADE,
    author_id BIGINT NOT NULL,
    PRIMARY KEY (group_id, author_id)
);

INSERT INTO triage_people (group_id, author_id)
SELECT group_id, author_id FROM triage_samples WHERE author_id IS NOT NULL
ON CONFLICT DO NOTHING;

CREATE TABLE triage_versions (
    group_id BIGINT NOT NULL REFERENCES triage_groups (id) ON DELETE CASCADE,
    library  TEXT COLLATE "C" NOT NULL,
    version  TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (group_id, library, version)
);

ALTER TABLE triage_samples ADD COLUMN message_id BIGINT;
ALTER TABLE triage_samples ADD COLUMN frame TEXT COLLATE "C" NOT NULL DEFAULT '';
ALTER TABLE triage_samples ADD COLUMN detail TEXT NOT NULL DEFAULT '';
ALTER TABLE triage_samples ADD COLUMN answered_at TEXT COLLATE "C";
