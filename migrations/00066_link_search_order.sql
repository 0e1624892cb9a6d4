-- +goose Up

-- The links list's search of a text many links hold, walked in the order of the links' IDs
-- (docs/benchmarks.md#the-text-search): a GiST index of the search table by workspace, link and
-- the text's trigrams, whose scan answers the links holding the text nearest to a cursor first
-- (ORDER BY link_id <-> cursor), passing over the parts of the tree whose trigrams cannot hold
-- it. link_search_gin (migration 00063) finds the few links of a rare text; past 5,000 of them
-- the list walked the workspace's links by ID testing each, through every newer link not
-- holding it (2.2 s for a page of a word held by one link in eight, none of them among the
-- newest 280,000). The signature of 256 bytes keeps a link's hundred-odd trigrams apart (the
-- default of 12 is full for any URL). Only the search indexer writes link_search, after a
-- burst of creates: the creates do not pay for it. Built as migration 00063 built its index:
-- where btree_gist is missing or may not be created, the table is kept without it and the
-- list walks as before (the servers look for the index once per process).
-- +goose StatementBegin
DO $$
BEGIN
    IF to_regclass('link_search_gin') IS NULL THEN
        RAISE NOTICE 'link_search is not indexed: its order by link is not made either';
        RETURN;
    END IF;
    IF NOT EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'btree_gist') THEN
        RAISE NOTICE 'btree_gist is not installed: the links search cannot be walked by link';
        RETURN;
    END IF;
    BEGIN
        CREATE EXTENSION IF NOT EXISTS btree_gist;
    EXCEPTION WHEN insufficient_privilege THEN
        RAISE NOTICE 'btree_gist may not be created by this role: the links search cannot be walked by link';
        RETURN;
    END;
    CREATE INDEX link_search_order ON link_search USING gist (workspace_id, link_id, doc gist_trgm_ops (siglen = 256));
END
$$;
-- +goose StatementEnd

-- +goose Down
DROP INDEX IF EXISTS link_search_order;
