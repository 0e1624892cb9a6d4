-- +goose Up

-- Custom domains: a workspace's own host names, each proven with a DNS TXT record before links
-- answer on it. A removed domain keeps its row (removed_at) so that its links, which stay in
-- the workspace, can still say which host they were made on; its ID is never reused, so a
-- host name added again (by anyone) starts with no links.
CREATE TABLE domains (
    id           BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    workspace_id BIGINT      NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    hostname     TEXT        NOT NULL,
    token        TEXT        NOT NULL,
    verified_at  TIMESTAMPTZ,
    root_url     TEXT        NOT NULL DEFAULT '',
    checked_at   TIMESTAMPTZ,
    check_error  TEXT        NOT NULL DEFAULT '',
    created_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
    removed_at   TIMESTAMPTZ
);
-- A host name is verified in one workspace at a time, and added once per workspace; several
-- workspaces may wait on the same name (the owner of its DNS decides which one verifies).
CREATE UNIQUE INDEX domains_verified_host ON domains (hostname) WHERE verified_at IS NOT NULL AND removed_at IS NULL;
CREATE UNIQUE INDEX domains_workspace_host ON domains (workspace_id, hostname) WHERE removed_at IS NULL;
CREATE INDEX domains_pending ON domains (checked_at NULLS FIRST) WHERE verified_at IS NULL AND removed_at IS NULL;

-- Every node keeps a host → domain table in memory; it reads this counter each second and
-- reloads the table when it moved (the bus tells nodes at once; this covers a lost message).
CREATE TABLE domain_epoch (
    one BOOLEAN PRIMARY KEY DEFAULT true CHECK (one),
    n   BIGINT  NOT NULL
);
INSERT INTO domain_epoch (n) VALUES (0);

-- +goose StatementBegin
CREATE FUNCTION domains_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE domain_epoch SET n = n + 1;
    RETURN NULL;
END;
$$;
-- +goose StatementEnd

-- Checks of pending domains (checked_at, check_error) change nothing the table holds.
CREATE TRIGGER domains_changed AFTER INSERT OR DELETE OR UPDATE OF workspace_id, hostname, verified_at, root_url, removed_at
    ON domains FOR EACH STATEMENT EXECUTE FUNCTION domains_changed();

-- +goose Down
DROP TABLE domains;
DROP TABLE domain_epoch;
DROP FUNCTION domains_changed();
