-- A vote counts once per person per record, whatever message carried the buttons: each ephemeral
-- `/error` answer is a new message, so keying votes by reply let one person vote many times. The
-- latest vote of each person on each record is kept; changing one's vote overwrites it.
CREATE TABLE votes_per_person (
    user_id   INTEGER NOT NULL,
    record_id TEXT NOT NULL,
    helpful   INTEGER NOT NULL CHECK (helpful IN (0, 1)),
    reply_id  INTEGER NOT NULL,  -- the message whose button cast the latest vote
    guild_id  INTEGER,
    voted_at  TEXT NOT NULL,
    PRIMARY KEY (user_id, record_id)
);

INSERT INTO votes_per_person (user_id, record_id, helpful, reply_id, guild_id, voted_at)
SELECT user_id, record_id, helpful, reply_id, guild_id, voted_at
FROM (
    SELECT v.*, row_number() OVER (PARTITION BY user_id, record_id ORDER BY voted_at DESC, reply_id DESC) AS newest
    FROM votes AS v
)
WHERE newest = 1;

DROP TABLE votes;
ALTER TABLE votes_per_person RENAME TO votes;
CREATE INDEX votes_record ON votes (record_id);
