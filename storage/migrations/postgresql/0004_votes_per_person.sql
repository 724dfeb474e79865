-- PostgreSQL form of ../0004_votes_per_person.sql.
CREATE TABLE votes_per_person (
    user_id   BIGINT NOT NULL,
    record_id TEXT COLLATE "C" NOT NULL,
    helpful   BIGINT NOT NULL CHECK (helpful IN (0, 1)),
    reply_id  BIGINT NOT NULL,
    guild_id  BIGINT,
    voted_at  TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (user_id, record_id)
);

INSERT INTO votes_per_person (user_id, record_id, helpful, reply_id, guild_id, voted_at)
SELECT user_id, record_id, helpful, reply_id, guild_id, voted_at
FROM (
    SELECT v.*, row_number() OVER (PARTITION BY user_id, record_id ORDER BY voted_at DESC, reply_id DESC) AS newest
    FROM votes AS v
) AS ranked
WHERE newest = 1;

DROP TABLE votes;
ALTER TABLE votes_per_person RENAME TO votes;
ALTER TABLE votes RENAME CONSTRAINT votes_per_person_pkey TO votes_pkey;
CREATE INDEX votes_record ON votes (record_id);
