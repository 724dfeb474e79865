-- PostgreSQL form of ../0006_import_visibility.sql. The tables and the view are the same; a PostgreSQL
-- import writes in one transaction (readers keep their snapshot meanwhile), so records_next stays
-- empty here and the view keeps its plain form.
ALTER TABLE records RENAME TO records_all;
ALTER TABLE records_all ADD COLUMN import_run BIGINT NOT NULL DEFAULT 0;
CREATE INDEX records_all_import_run ON records_all (import_run);

CREATE TABLE records_next (LIKE records_all INCLUDING DEFAULTS INCLUDING CONSTRAINTS);
ALTER TABLE records_next DROP COLUMN import_run;
ALTER TABLE records_next ADD PRIMARY KEY (id);

CREATE TABLE import_state (
    id        BIGINT PRIMARY KEY CHECK (id = 1),
    published BIGINT NOT NULL,
    merging   BIGINT NOT NULL DEFAULT 0
);
INSERT INTO import_state (id, published) VALUES (1, 0);

CREATE VIEW records AS
SELECT id, slug, repo, error_class, error_message, message_pattern, file_path, line_number, origin,
       library_version, dataset_version, content_hash, data, created_at, updated_at
FROM records_all
WHERE import_run <= (SELECT published FROM import_state);

-- A maintainer's `DELETE FROM records WHERE ...` keeps working on the view.
CREATE FUNCTION records_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM records_all WHERE id = OLD.id;
    DELETE FROM records_next WHERE id = OLD.id;
    RETURN OLD;
END;
$$;
CREATE TRIGGER records_delete INSTEAD OF DELETE ON records FOR EACH ROW EXECUTE FUNCTION records_delete();
