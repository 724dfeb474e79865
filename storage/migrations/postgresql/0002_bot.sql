-- PostgreSQL form of ../0002_bot.sql. Discord ids are 64-bit: BIGINT.
CREATE TABLE guild_settings (
    guild_id           BIGINT PRIMARY KEY,
    maintainer_role_id BIGINT,
    reply_style        TEXT NOT NULL DEFAULT 'reply' CHECK (reply_style IN ('reply', 'thread')),
    thread_policy      TEXT NOT NULL DEFAULT 'opener' CHECK (thread_policy IN ('opener', 'everyone')),
    updated_at         TEXT COLLATE "C" NOT NULL
);

CREATE TABLE channel_settings (
    guild_id   BIGINT NOT NULL,
    channel_id BIGINT NOT NULL,
    allowed    BIGINT NOT NULL DEFAULT 0 CHECK (allowed IN (0, 1)),
    mode       TEXT CHECK (mode IN ('auto', 'mention', 'off')),
    updated_at TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (guild_id, channel_id)
);

CREATE TABLE replies (
    message_id       BIGINT PRIMARY KEY,
    channel_id       BIGINT NOT NULL,
    guild_id         BIGINT,
    author_id        BIGINT NOT NULL,
    reply_id         BIGINT NOT NULL,
    reply_channel_id BIGINT NOT NULL,
    status           TEXT NOT NULL,
    record_ids       TEXT NOT NULL,
    created_at       TEXT COLLATE "C" NOT NULL,
    updated_at       TEXT COLLATE "C" NOT NULL
);

CREATE UNIQUE INDEX replies_reply ON replies (reply_id);

CREATE TABLE votes (
    reply_id  BIGINT NOT NULL,
    user_id   BIGINT NOT NULL,
    record_id TEXT COLLATE "C" NOT NULL,
    helpful   BIGINT NOT NULL CHECK (helpful IN (0, 1)),
    guild_id  BIGINT,
    voted_at  TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (reply_id, user_id, record_id)
);

CREATE INDEX votes_record ON votes (record_id);

CREATE TABLE bot_status (
    key        TEXT COLLATE "C" PRIMARY KEY,
    value      TEXT NOT NULL,
    updated_at TEXT COLLATE "C" NOT NULL
);

CREATE INDEX records_updated_at ON records (updated_at);
