-- +goose Up

-- A link's statistics shared on a public page (docs/api.md#shared-statistics): the id is 128
-- random bits (base64url), the page's and its JSON route's address; whoever holds it reads the
-- link's statistics until it is revoked (the row deleted) or the link is deleted.
CREATE TABLE link_shares (
    id           TEXT        PRIMARY KEY,
    workspace_id BIGINT      NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    link_id      BIGINT      NOT NULL REFERENCES links (id) ON DELETE CASCADE,
    created_by   BIGINT      REFERENCES users (id) ON DELETE SET NULL,
    created_at   TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX link_shares_link ON link_shares (link_id, created_at);

-- +goose Down
DROP TABLE link_shares;
