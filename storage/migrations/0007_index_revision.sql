-- A token that changes with every write to what the matching index is built from: the records (their
-- rows, an import's staged changes, the published run) and the triage examples. An index saved beside
-- the database names the token it was built at and is used only while the token is unchanged.
-- Random, not a counter: a restored backup or another database never repeats a token a saved index names.
-- Never edit a migration once merged: add a new numbered file instead.
CREATE TABLE index_revision (
    id    INTEGER PRIMARY KEY CHECK (id = 1),
    token TEXT NOT NULL
);
INSERT INTO index_revision (id, token) VALUES (1, lower(hex(randomblob(16))));

CREATE TRIGGER index_revision_records_insert AFTER INSERT ON records_all BEGIN UPDATE index_revision SET token = lower(hex(randomblob(16))); END;
CREATE TRIGGER index_revision_records_update AFTER UPDATE ON records_all BEGIN UPDATE index_revision SET token = lower(hex(randomblob(16))); END;
CREATE TRIGGER index_revision_records_delete AFTER DELETE ON records_all BEGIN UPDATE index_revision SET token = lower(hex(randomblob(16))); END;
CREATE TRIGGER index_revision_next_insert AFTER INSERT ON records_next BEGIN UPDATE index_revision SET token = lower(hex(randomblob(16))); END;
CREATE TRIGGER index_revision_next_update AFTER UPDATE ON records_next BEGIN UPDATE index_revision SET token = lower(hex(randomblob(16))); END;
CREATE TRIGGER index_revision_next_delete AFTER DELETE ON records_next BEGIN UPDATE index_revision SET token = lower(hex(randomblob(16))); END;
CREATE TRIGGER index_revision_published AFTER UPDATE ON import_state BEGIN UPDATE index_revision SET token = lower(hex(randomblob(16))); END;
CREATE TRIGGER index_revision_examples_insert AFTER INSERT ON triage_examples BEGIN UPDATE index_revision SET token = lower(hex(randomblob(16))); END;
CREATE TRIGGER index_revision_examples_update AFTER UPDATE ON triage_examples BEGIN UPDATE index_revision SET token = lower(hex(randomblob(16))); END;
CREATE TRIGGER index_revision_examples_delete AFTER DELETE ON triage_examples BEGIN UPDATE index_revision SET token = lower(hex(randomblob(16))); END;
