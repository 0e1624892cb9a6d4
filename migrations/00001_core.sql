-- +goose Up

-- Users are people who log in; system_role grants moderation or operation rights across tenants.
CREATE TABLE users (
    id            BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    email         TEXT NOT NULL,
    password_hash TEXT NOT NULL,
    system_role   TEXT NOT NULL DEFAULT 'user' CHECK (system_role IN ('user', 'moderator', 'operator')),
    created_at    TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX users_email_key ON users (lower(email));

-- Workspaces are the tenants: every tenant row below carries workspace_id.
CREATE TABLE workspaces (
    id         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name       TEXT NOT NULL,
    plan       TEXT NOT NULL DEFAULT 'free' CHECK (plan IN ('free', 'trial', 'personal', 'enterprise')),
    created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE TABLE members (
    workspace_id BIGINT NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    user_id      BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    role         TEXT NOT NULL CHECK (role IN ('owner', 'admin', 'member', 'viewer')),
    created_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (workspace_id, user_id)
);
CREATE INDEX members_user_idx ON members (user_id);

-- Invitations name an existing user; the invitee accepts or declines.
CREATE TABLE invitations (
    id           BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    workspace_id BIGINT NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    user_id      BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    role         TEXT NOT NULL CHECK (role IN ('admin', 'member', 'viewer')),
    invited_by   BIGINT REFERENCES users (id) ON DELETE SET NULL,
    created_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
    UNIQUE (workspace_id, user_id)
);
CREATE INDEX invitations_user_idx ON invitations (user_id);

-- Refresh tokens rotate: each use replaces the token; reuse of a replaced one revokes its family.
CREATE TABLE refresh_tokens (
    id          BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id     BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    family      UUID NOT NULL,
    token_hash  BYTEA NOT NULL UNIQUE,
    expires_at  TIMESTAMPTZ NOT NULL,
    used_at     TIMESTAMPTZ,
    revoked_at  TIMESTAMPTZ,
    created_at  TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX refresh_tokens_family_idx ON refresh_tokens (family);

-- API keys belong to a workspace; only a hash of the secret is kept.
CREATE TABLE api_keys (
    id           BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    workspace_id BIGINT NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    name         TEXT NOT NULL,
    prefix       TEXT NOT NULL,
    key_hash     BYTEA NOT NULL UNIQUE,
    scopes       TEXT[] NOT NULL,
    created_by   BIGINT REFERENCES users (id) ON DELETE SET NULL,
    created_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
    last_used_at TIMESTAMPTZ,
    revoked_at   TIMESTAMPTZ
);
CREATE INDEX api_keys_workspace_idx ON api_keys (workspace_id);

-- Link IDs come from this sequence in blocks; the short code is the ID encrypted with FF3-1.
CREATE SEQUENCE link_ids AS BIGINT START WITH 1;

-- Links: domain_id 0 is the service's own short domain; key is the code or the custom alias.
CREATE TABLE links (
    id              BIGINT PRIMARY KEY,
    workspace_id    BIGINT NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    domain_id       BIGINT NOT NULL DEFAULT 0,
    key             TEXT NOT NULL,
    is_alias        BOOLEAN NOT NULL DEFAULT false,
    url             TEXT NOT NULL,
    url_hash        BIGINT NOT NULL,
    title           TEXT NOT NULL DEFAULT '',
    redirect_status SMALLINT NOT NULL DEFAULT 302 CHECK (redirect_status IN (301, 302, 307)),
    forward_query   BOOLEAN NOT NULL DEFAULT false,
    status          TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'disabled', 'banned')),
    expires_at      TIMESTAMPTZ,
    created_by      BIGINT REFERENCES users (id) ON DELETE SET NULL,
    created_at      TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at      TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX links_domain_key_key ON links (domain_id, key);
CREATE INDEX links_workspace_idx ON links (workspace_id, id DESC);
CREATE INDEX links_dedupe_idx ON links (workspace_id, url_hash);

-- Custom aliases that are shaped like generated codes: no ID whose code is one of these is issued.
CREATE TABLE reserved_ids (
    id BIGINT PRIMARY KEY
);

-- +goose Down
DROP TABLE reserved_ids;
DROP TABLE links;
DROP SEQUENCE link_ids;
DROP TABLE api_keys;
DROP TABLE refresh_tokens;
DROP TABLE invitations;
DROP TABLE members;
DROP TABLE workspaces;
DROP TABLE users;
