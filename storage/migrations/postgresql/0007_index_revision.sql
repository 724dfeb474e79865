-- PostgreSQL form of ../0007_index_revision.sql: a random token replaced by every write to what the
-- matching index is built from. Each replacement also notifies channel `tracebot_index`, which
-- the bot processes LISTEN on to reload without polling (storage/postgres.py).
CREATE TABLE index_revision (
    id    BIGINT PRIMARY KEY CHECK (id = 1),
    token TEXT NOT NULL
);
INSERT INTO index_revision (id, token) VALUES (1, replace(gen_random_uuid()::text, '-', ''));

CREATE FUNCTION index_revision_bump() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    fresh TEXT := replace(gen_random_uuid()::text, '-', '');
BEGIN
    UPDATE index_revision SET token = fresh;
    PERFORM pg_notify('tracebot_index', '');  -- one payload: a transaction's notices collapse into one
    RETURN NULL;
END;
$$;

CREATE TRIGGER index_revision_records AFTER INSERT OR UPDATE OR DELETE ON records_all
    FOR EACH STATEMENT EXECUTE FUNCTION index_revision_bump();
CREATE TRIGGER index_revision_next AFTER INSERT OR UPDATE OR DELETE ON records_next
    FOR EACH STATEMENT EXECUTE FUNCTION index_revision_bump();
CREATE TRIGGER index_revision_published AFTER UPDATE ON import_state
    FOR EACH STATEMENT EXECUTE FUNCTION index_revision_bump();
CREATE TRIGGER index_revision_examples AFTER INSERT OR UPDATE OR DELETE ON triage_examples
    FOR EACH STATEMENT EXECUTE FUNCTION index_revision_bump();
