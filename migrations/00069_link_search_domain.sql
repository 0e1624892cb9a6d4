-- +goose Up

-- The links list's search within one custom domain (`domain=go.shop-a.com&q=renew`), walked in
-- the order of the links' IDs: the search table keeps each link's domain, and a GiST index of
-- it by workspace, domain, link and the text's trigrams answers the domain's links holding the
-- text nearest to a cursor first. Without it the walk of link_search_order (migration 00066)
-- passed the text's links of the workspace's other domains (88,133 of them before a page at
-- 1,000,000 links, 235-263 ms at p95: docs/benchmarks.md#workspaces-of-10-million-links). Only
-- the links on a custom domain are in it, and only the search indexer writes link_search: the
-- creates do not pay for it. A link's domain is set when it is made; the indexer copies it
-- again whenever it changes all the same.
ALTER TABLE link_search ADD COLUMN domain_id BIGINT NOT NULL DEFAULT 0;
UPDATE link_search s SET domain_id = l.domain_id FROM links l WHERE l.id = s.link_id AND l.domain_id <> 0;

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION links_queue_search_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- Status, expiry and archive edits (bulk jobs of a million links) change no searched text.
    INSERT INTO link_search_queue (workspace_id, ids)
    SELECT n.workspace_id, array_agg(n.id) FROM fresh n JOIN stale o ON o.id = n.id
    WHERE n.url <> o.url OR n.key <> o.key OR n.title <> o.title OR n.workspace_id <> o.workspace_id
        OR n.domain_id <> o.domain_id
    GROUP BY n.workspace_id;
    RETURN NULL;
END $$;
-- +goose StatementEnd

-- +goose StatementBegin
DO $$
BEGIN
    IF to_regclass('link_search_order') IS NULL THEN
        RAISE NOTICE 'link_search is not ordered by link: its domains are not either';
        RETURN;
    END IF;
    CREATE INDEX IF NOT EXISTS link_search_domain_order ON link_search
        USING gist (workspace_id, domain_id, link_id, doc gist_trgm_ops (siglen = 256)) WHERE domain_id <> 0;
END
$$;
-- +goose StatementEnd

-- +goose Down
DROP INDEX IF EXISTS link_search_domain_order;
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION links_queue_search_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO link_search_queue (workspace_id, ids)
    SELECT n.workspace_id, array_agg(n.id) FROM fresh n JOIN stale o ON o.id = n.id
    WHERE n.url <> o.url OR n.key <> o.key OR n.title <> o.title OR n.workspace_id <> o.workspace_id
    GROUP BY n.workspace_id;
    RETURN NULL;
END $$;
-- +goose StatementEnd
ALTER TABLE link_search DROP COLUMN domain_id;
