-- +goose NO TRANSACTION
-- +goose Up

-- A workspace's links on one of its custom domains by ID, for the links list's domain= filter
-- (docs/api.md#listing-links): newest or oldest first, and the links without visits of an
-- order by visits, walk it a page at a time. Without it a page walked the workspace by ID,
-- passing every newer link on its other domains (a campaign's links are runs of IDs: 316 ms at
-- p95 for a domain of 7.5% of 1,000,000 links, docs/benchmarks.md#workspaces-of-10-million-links).
-- Links on the service's own domain (domain_id 0, nearly every create) add nothing to it.
-- Made concurrently: links are created and edited while it is built.
CREATE INDEX CONCURRENTLY IF NOT EXISTS links_workspace_domain ON links (workspace_id, domain_id, id) WHERE domain_id <> 0;

-- +goose Down
DROP INDEX CONCURRENTLY IF EXISTS links_workspace_domain;
