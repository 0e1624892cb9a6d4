-- +goose Up

-- The links list's text search (`q`: a part of the URL, the key or the title, any case) can read
-- a trigram index of the three together instead of every link of the workspace: List filters on
-- this very expression besides the three columns (any link whose column holds the text holds it
-- in the expression too), so the index narrows the search to the links holding the text's
-- trigrams and the columns decide. The index is not made here: keeping it up costs about 30 µs
-- of PostgreSQL a link created, a third of what a create costs in all; a deployment that searches
-- more than it creates makes it by hand (docs/benchmarks.md), and the servers use it after a
-- restart. This migration makes the extension it needs.
--
-- pg_trgm ships with PostgreSQL (Debian's postgresql package, the postgres and CloudNativePG
-- images) and is a trusted extension: the database's owner may create it. Where it is not
-- installed, or the role may not create it, this migration only says so.
-- +goose StatementBegin
DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'pg_trgm') THEN
        RAISE NOTICE 'pg_trgm is not installed: the links search cannot be indexed';
        RETURN;
    END IF;
    BEGIN
        CREATE EXTENSION IF NOT EXISTS pg_trgm;
    EXCEPTION WHEN insufficient_privilege THEN
        RAISE NOTICE 'pg_trgm may not be created by this role: the links search cannot be indexed';
        RETURN;
    END;
END
$$;
-- +goose StatementEnd

-- +goose Down
DROP INDEX IF EXISTS links_search_trgm;
