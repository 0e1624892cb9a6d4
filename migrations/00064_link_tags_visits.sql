-- +goose NO TRANSACTION
-- +goose Up

-- A link's people's visits kept beside each of its tags, so that a listing of a tag's links
-- by visits (docs/api.md#listing-links) walks link_tags_visits a page at a time, whatever the
-- tag's size, instead of reading every link of the tag and sorting them
-- (docs/benchmarks.md#workspaces-of-10-million-links). The ingest sets it from visit_totals
-- for the links whose visits a transaction changed, and a tag put on a link copies it
-- (postgres.Visits.Insert, setLinkTags). A constant default: adding the column rewrites nothing.
ALTER TABLE link_tags ADD COLUMN IF NOT EXISTS visits BIGINT NOT NULL DEFAULT 0;

-- The backfill, 20,000 visited links a transaction, so that no row of link_tags is locked for
-- longer than one short transaction and the ingest and tag edits go on beside it. A link visited
-- by a server of the version before while this runs has its count set again by its next visit.
-- +goose StatementBegin
DO $$
DECLARE
    after BIGINT := 0;
    upto  BIGINT;
BEGIN
    LOOP
        SELECT max(link_id) INTO upto FROM (
            SELECT link_id FROM visit_totals WHERE link_id > after AND visits > 0 ORDER BY link_id LIMIT 20000
        ) b;
        EXIT WHEN upto IS NULL;
        UPDATE link_tags lt SET visits = t.visits FROM visit_totals t
        WHERE t.link_id > after AND t.link_id <= upto AND t.visits > 0
            AND lt.link_id = t.link_id AND lt.visits <> t.visits;
        after := upto;
        COMMIT;
    END LOOP;
END
$$;
-- +goose StatementEnd

-- A tag's visited links by visits, then ID: the order by visits walks it in either direction
-- from a cursor (visits, id); the tag's links without visits are walked by ID in the key.
-- Made concurrently: tags are put on and taken off while it is built.
CREATE INDEX CONCURRENTLY IF NOT EXISTS link_tags_visits ON link_tags (tag_id, visits, link_id) WHERE visits > 0;

-- +goose Down
DROP INDEX CONCURRENTLY IF EXISTS link_tags_visits;
ALTER TABLE link_tags DROP COLUMN IF EXISTS visits;
