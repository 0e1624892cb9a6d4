-- +goose Up

-- Indexes of the links list's shapes at the scale of 10 million links a workspace
-- (docs/benchmarks.md#workspaces-of-10-million-links).

-- The order by the links' last change (sort=updated and -updated, docs/api.md#listing-links)
-- walks a workspace's links in this index, a page at a time, each checked against the other
-- filters. Every edit moves updated_at forward (the caches order a link's versions by it).
CREATE INDEX links_workspace_updated ON links (workspace_id, updated_at, id);

-- The few links not active (disabled, banned, held: a few in a hundred) by ID, for status=
-- filters: without it a page of banned links walks every active link between two of them. A
-- create (active) adds nothing to it.
CREATE INDEX links_workspace_inactive ON links (workspace_id, status, id) WHERE status <> 'active';

-- The links with an expiry by ID, for status=expired: a create without one adds nothing to it.
CREATE INDEX links_workspace_expiring ON links (workspace_id, id) WHERE expires_at IS NOT NULL;

-- +goose Down
DROP INDEX links_workspace_expiring;
DROP INDEX links_workspace_inactive;
DROP INDEX links_workspace_updated;
