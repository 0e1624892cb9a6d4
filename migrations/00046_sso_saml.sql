-- +goose Up

-- SAML 2.0 beside OpenID Connect (docs/security.md#saml): a workspace's single sign-on speaks
-- one protocol. For 'saml', idp_metadata holds the identity provider's metadata (as uploaded, or
-- as fetched from idp_metadata_url), issuer its entity ID, and client_id and client_secret are
-- empty.
ALTER TABLE workspace_sso
    ADD COLUMN protocol TEXT NOT NULL DEFAULT 'oidc' CHECK (protocol IN ('oidc', 'saml')),
    ADD COLUMN idp_metadata TEXT NOT NULL DEFAULT '',
    ADD COLUMN idp_metadata_url TEXT NOT NULL DEFAULT '';

-- Assertions a workspace's SAML provider signed in with, by ID, kept until they could no longer
-- be accepted anyway: each is accepted once.
CREATE TABLE saml_assertions (
    workspace_id BIGINT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
    assertion_id TEXT NOT NULL,
    expires_at   TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (workspace_id, assertion_id)
);
CREATE INDEX saml_assertions_expires ON saml_assertions (expires_at);

-- +goose Down
DROP TABLE saml_assertions;
ALTER TABLE workspace_sso DROP COLUMN idp_metadata_url, DROP COLUMN idp_metadata, DROP COLUMN protocol;
