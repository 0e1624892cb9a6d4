-- +goose Up

-- The links list in order of the links' last change (sort=updated and -updated, docs/api.md#listing-links)
-- walks a workspace's links in this index, a page at a time, each checked against the other
-- filters. Every edit moves updated_at forward (the caches order a link's versions by it).
CREATE INDEX links_workspace_updated ON links (workspace_id, updated_at, id);

-- +goose Down
DROP INDEX links_workspace_updated;
