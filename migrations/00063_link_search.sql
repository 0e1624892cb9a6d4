-- +goose Up

-- The links list's text search (`q`) reads a table of its own, filled behind the creates: a
-- trigram index on links cost every create about 30 µs of PostgreSQL (docs/benchmarks.md), so
-- it is dropped here, and a link's searchable text (URL, key, title) is copied into link_search
-- by the server's search indexer (backend/linksearch) once a burst of changes settles. The
-- links' triggers below only note which links changed, a row a workspace and statement: a create pays one
-- small row per batch of the group commit. The list still decides on the links' own columns,
-- and the links not yet copied are read from the queue beside the table: a search answers as
-- fresh as the links (docs/api.md#listing-links).
DROP INDEX IF EXISTS links_search_trgm;

CREATE TABLE link_search (
    link_id      BIGINT PRIMARY KEY,
    workspace_id BIGINT NOT NULL,
    -- url || ' ' || key || ' ' || title, as the list's search reads them.
    doc          TEXT NOT NULL,
    -- The letters outside ASCII of doc, each and two by two (link_search_grams): a Chinese
    -- text has no trigram in a database whose locale is C, and one of two characters none in
    -- any locale.
    grams        TEXT[] NOT NULL DEFAULT '{}'
);

-- The links whose searchable text may have changed, a row per workspace and statement, seen once
-- the statement's transaction commits; the indexer deletes the rows it has copied in the same
-- transaction. A search reads its workspace's rows too: a link is always either here or in
-- link_search with its current text, so the search is as fresh as the links.
CREATE TABLE link_search_queue (
    seq          BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    workspace_id BIGINT NOT NULL,
    ids          BIGINT[] NOT NULL,
    queued_at    TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX link_search_queue_workspace ON link_search_queue (workspace_id);

-- +goose StatementBegin
CREATE FUNCTION link_search_grams(t TEXT) RETURNS TEXT[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE WHEN t !~ '[^\x01-\x7f]' THEN '{}'::text[] ELSE ARRAY(
        SELECT DISTINCT g FROM (SELECT lower(t) AS s) x
        CROSS JOIN generate_series(1, length(x.s)) i
        CROSS JOIN LATERAL (VALUES (substr(x.s, i, 1)), (substr(x.s, i, 2))) v (g)
        WHERE g ~ '^[^\x01-\x7f]{1,2}$') END
$$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE FUNCTION links_queue_search_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO link_search_queue (workspace_id, ids) SELECT workspace_id, array_agg(id) FROM fresh GROUP BY workspace_id;
    RETURN NULL;
END $$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE FUNCTION links_queue_search_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- Status, expiry and archive edits (bulk jobs of a million links) change no searched text.
    INSERT INTO link_search_queue (workspace_id, ids)
    SELECT n.workspace_id, array_agg(n.id) FROM fresh n JOIN stale o ON o.id = n.id
    WHERE n.url <> o.url OR n.key <> o.key OR n.title <> o.title OR n.workspace_id <> o.workspace_id
    GROUP BY n.workspace_id;
    RETURN NULL;
END $$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE FUNCTION links_queue_search_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO link_search_queue (workspace_id, ids) SELECT workspace_id, array_agg(id) FROM stale GROUP BY workspace_id;
    RETURN NULL;
END $$;
-- +goose StatementEnd

CREATE TRIGGER links_search_inserted AFTER INSERT ON links REFERENCING NEW TABLE AS fresh
    FOR EACH STATEMENT EXECUTE FUNCTION links_queue_search_insert();
CREATE TRIGGER links_search_updated AFTER UPDATE ON links REFERENCING OLD TABLE AS stale NEW TABLE AS fresh
    FOR EACH STATEMENT EXECUTE FUNCTION links_queue_search_update();
CREATE TRIGGER links_search_deleted AFTER DELETE ON links REFERENCING OLD TABLE AS stale
    FOR EACH STATEMENT EXECUTE FUNCTION links_queue_search_delete();

-- The links already there are queued in rows of up to 5,000; the indexer copies them after the
-- servers start (docs/benchmarks.md), and searches walk the links meanwhile.
INSERT INTO link_search_queue (workspace_id, ids)
SELECT workspace_id, array_agg(id ORDER BY id) FROM links GROUP BY workspace_id, id / 5000 ORDER BY id / 5000;

-- One GIN index answers a search within a workspace: its ID (btree_gin), the text's trigrams
-- (pg_trgm) and the letters outside ASCII. Both extensions ship with PostgreSQL and are trusted
-- (the database's owner may create them); where either is missing, the table is kept without
-- the index and the list reads the links as it did before it (the servers look for the index
-- once per process).
-- +goose StatementBegin
DO $$
BEGIN
    IF (SELECT count(*) FROM pg_available_extensions WHERE name IN ('pg_trgm', 'btree_gin')) < 2 THEN
        RAISE NOTICE 'pg_trgm or btree_gin is not installed: the links search cannot be indexed';
        RETURN;
    END IF;
    BEGIN
        CREATE EXTENSION IF NOT EXISTS pg_trgm;
        CREATE EXTENSION IF NOT EXISTS btree_gin;
    EXCEPTION WHEN insufficient_privilege THEN
        RAISE NOTICE 'pg_trgm or btree_gin may not be created by this role: the links search cannot be indexed';
        RETURN;
    END;
    CREATE INDEX link_search_gin ON link_search USING gin (workspace_id, doc gin_trgm_ops, grams);
END
$$;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER links_search_deleted ON links;
DROP TRIGGER links_search_updated ON links;
DROP TRIGGER links_search_inserted ON links;
DROP FUNCTION links_queue_search_delete();
DROP FUNCTION links_queue_search_update();
DROP FUNCTION links_queue_search_insert();
DROP FUNCTION link_search_grams(TEXT);
DROP TABLE link_search_queue;
DROP TABLE link_search;
