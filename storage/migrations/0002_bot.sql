-- The Discord side: per-server settings, per-channel modes and allow-list, the bot's replies (so a
-- reply follows edits and deletes of the message it answers), votes on answers, and the heartbeat
-- the running bot writes for `tracebot health`. Discord ids are plain integers.
CREATE TABLE guild_settings (
    guild_id           INTEGER PRIMARY KEY,
    maintainer_role_id INTEGER,
    reply_style        TEXT NOT NULL DEFAULT 'reply' CHECK (reply_style IN ('reply', 'thread')),
    thread_policy      TEXT NOT NULL DEFAULT 'opener' CHECK (thread_policy IN ('opener', 'everyone')),
    updated_at         TEXT NOT NULL
);

CREATE TABLE channel_settings (
    guild_id   INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    allowed    INTEGER NOT NULL DEFAULT 0 CHECK (allowed IN (0, 1)),
    mode       TEXT CHECK (mode IN ('auto', 'mention', 'off')),
    updated_at TEXT NOT NULL,
    PRIMARY KEY (guild_id, channel_id)
) WITHOUT ROWID;

CREATE TABLE replies (
    message_id       INTEGER PRIMARY KEY,
    channel_id       INTEGER NOT NULL,
    guild_id         INTEGER,
    author_id        INTEGER NOT NULL,
    reply_id         INTEGER NOT NULL,
    reply_channel_id INTEGER NOT NULL,
    status           TEXT NOT NULL,
    record_ids       TEXT NOT NULL,
    created_at       TEXT NOT NULL,
    updated_at       TEXT NOT NULL
);

CREATE UNIQUE INDEX replies_reply ON replies (reply_id);

CREATE TABLE votes (
    reply_id  INTEGER NOT NULL,
    user_id   INTEGER NOT NULL,
    record_id TEXT NOT NULL,
    helpful   INTEGER NOT NULL CHECK (helpful IN (0, 1)),
    guild_id  INTEGER,
    voted_at  TEXT NOT NULL,
    PRIMARY KEY (reply_id, user_id, record_id)
);

CREATE INDEX votes_record ON votes (record_id);

CREATE TABLE bot_status (
    key        TEXT PRIMARY KEY,
    value      TEXT NOT NULL,
    updated_at TEXT NOT NULL
) WITHOUT ROWID;

-- The running bot reloads its index whenever another connection commits (its own reply and vote
-- writes included): "records updated since the watermark" must be an index range, not a table scan
-- (135 ms at 100k records, blocking the reader connection the answers use).
CREATE INDEX records_updated_at ON records (updated_at);
