-- +goose Up

-- The links list's text search (`q`) reads the trigram index of migration 00036's expression
-- again (docs/benchmarks.md#workspaces-of-10-million-links): at 10 million links a search
-- without it reads the whole workspace. Made where pg_trgm is (migration 00036 made it when it
-- could); elsewhere this migration only says so and the search scans, as before. A deployment
-- that made the index by hand keeps it. On a large table the build holds off writes to links
-- while it runs: make it by hand first with CREATE INDEX CONCURRENTLY (docs/benchmarks.md).
-- +goose StatementBegin
DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
        RAISE NOTICE 'pg_trgm is not installed: the links search is not indexed';
        RETURN;
    END IF;
    CREATE INDEX IF NOT EXISTS links_search_trgm ON links USING gin ((url || ' ' || key || ' ' || title) gin_trgm_ops);
END
$$;
-- +goose StatementEnd

-- +goose Down
DROP INDEX IF EXISTS links_search_trgm;
