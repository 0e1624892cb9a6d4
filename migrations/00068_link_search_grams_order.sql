-- +goose Up

-- The links list's search of a text without trigrams (Chinese, say: "春季"), walked in the
-- order of the links' IDs as link_search_order (migration 00066) walks a text with them: a GiST
-- index of the search table by workspace, link and the text's letters outside ASCII (grams,
-- migration 00063, as a tsvector whose lexemes they are), whose scan answers the links holding
-- every letter and pair of letters of the text nearest to a cursor first (ORDER BY link_id <->
-- cursor). Without it a text of more than 5,000 links walked the workspace's links by ID
-- testing each, through the runs of campaigns whose titles lack it (316 ms at p95 for one link
-- in 80 of 1,000,000, docs/benchmarks.md#workspaces-of-10-million-links). Only the rows with
-- such letters are in it (one link in ten in the scale run's seed), and only the search indexer
-- writes link_search: the creates do not pay for it. Made where link_search_order could be
-- (btree_gist); elsewhere the list walks as before (the servers look for it once per process).
-- +goose StatementBegin
DO $$
BEGIN
    IF to_regclass('link_search_order') IS NULL THEN
        RAISE NOTICE 'link_search is not ordered by link: its letters are not either';
        RETURN;
    END IF;
    CREATE INDEX IF NOT EXISTS link_search_grams_order ON link_search
        USING gist (workspace_id, link_id, array_to_tsvector(grams)) WHERE grams <> '{}';
END
$$;
-- +goose StatementEnd

-- +goose Down
DROP INDEX IF EXISTS link_search_grams_order;
