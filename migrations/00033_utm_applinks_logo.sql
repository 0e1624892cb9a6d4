-- +goose Up

-- A link's UTM parameters ({"source", "medium", "campaign", "term", "content"}, each optional),
-- merged into its destination's query on redirect; NULL when it has none. Adding a nullable
-- column rewrites nothing.
ALTER TABLE links ADD COLUMN utm JSONB;

-- Named sets of UTM parameters a workspace applies to its links.
CREATE TABLE utm_templates (
    id           BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    workspace_id BIGINT      NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    name         TEXT        NOT NULL,
    utm          JSONB       NOT NULL,
    created_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
    UNIQUE (workspace_id, name)
);

-- The app-link files a verified custom domain serves under /.well-known/ (the JSON as stored,
-- NULL when not set). Every node holds them in its domain table, so a change moves the epoch.
ALTER TABLE domains
    ADD COLUMN apple_app_site_association JSONB,
    ADD COLUMN assetlinks JSONB;
DROP TRIGGER domains_changed ON domains;
CREATE TRIGGER domains_changed AFTER INSERT OR DELETE OR UPDATE OF workspace_id, hostname, verified_at, root_url, removed_at,
        apple_app_site_association, assetlinks
    ON domains FOR EACH STATEMENT EXECUTE FUNCTION domains_changed();

-- A workspace's logo, drawn in the middle of its QR codes on request.
CREATE TABLE workspace_logos (
    workspace_id BIGINT      PRIMARY KEY REFERENCES workspaces (id) ON DELETE CASCADE,
    content_type TEXT        NOT NULL,
    data         BYTEA       NOT NULL,
    updated_at   TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- +goose Down
DROP TABLE workspace_logos;
DROP TRIGGER domains_changed ON domains;
CREATE TRIGGER domains_changed AFTER INSERT OR DELETE OR UPDATE OF workspace_id, hostname, verified_at, root_url, removed_at
    ON domains FOR EACH STATEMENT EXECUTE FUNCTION domains_changed();
ALTER TABLE domains DROP COLUMN assetlinks, DROP COLUMN apple_app_site_association;
DROP TABLE utm_templates;
ALTER TABLE links DROP COLUMN utm;
