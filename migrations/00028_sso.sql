-- +goose Up

-- A workspace's single sign-on: its OpenID provider, the client secret sealed (AES-GCM under a
-- key derived from JWT_SECRET), and the email domain whose TXT record
-- _shortlink-sso.<email_domain> must hold token. verified_at is set once it did; one workspace
-- at most holds a domain proven. enforce refuses passwords for the domain's addresses.
CREATE TABLE workspace_sso (
    workspace_id  BIGINT PRIMARY KEY REFERENCES workspaces(id) ON DELETE CASCADE,
    issuer        TEXT NOT NULL,
    client_id     TEXT NOT NULL,
    client_secret BYTEA NOT NULL,
    email_domain  TEXT NOT NULL,
    token         TEXT NOT NULL,
    verified_at   TIMESTAMPTZ,
    enforce       BOOLEAN NOT NULL DEFAULT false,
    -- checked_at: the last background look at a pending domain's record (claimed by one node).
    checked_at    TIMESTAMPTZ,
    updated_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
    CHECK (NOT enforce OR verified_at IS NOT NULL)
);
CREATE UNIQUE INDEX workspace_sso_proven_domain ON workspace_sso (email_domain) WHERE verified_at IS NOT NULL;

-- Sign-ins sent to a provider and not back yet, by the SHA-256 of their state: each is taken
-- once, before it expires.
CREATE TABLE sso_states (
    state_hash   BYTEA PRIMARY KEY,
    workspace_id BIGINT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
    verifier     TEXT NOT NULL,
    nonce        TEXT NOT NULL,
    return_to    TEXT NOT NULL,
    expires_at   TIMESTAMPTZ NOT NULL
);
CREATE INDEX sso_states_expires ON sso_states (expires_at);

-- +goose Down
DROP TABLE sso_states;
DROP TABLE workspace_sso;
