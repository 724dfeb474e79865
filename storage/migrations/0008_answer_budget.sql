-- The global answer budget shared by every bot process on one database (several shards): one row per
-- answer sent, with its time (seconds since the epoch); rows older than the window are deleted as
-- answers are counted. A single process on SQLite keeps its budget in memory and writes nothing here.
-- Never edit a migration once merged: add a new numbered file instead.
CREATE TABLE answer_budget (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    at REAL NOT NULL
);

CREATE INDEX answer_budget_at ON answer_budget (at);
