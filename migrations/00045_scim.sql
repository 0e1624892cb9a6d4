-- +goose Up

-- SCIM 2.0 provisioning (docs/scim.md). A workspace's bearer tokens, by the SHA-256 of the
-- secret, which is shown once.
CREATE TABLE scim_tokens (
    id           BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    workspace_id BIGINT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
    name         TEXT NOT NULL,
    prefix       TEXT NOT NULL,
    token_hash   BYTEA NOT NULL UNIQUE,
    created_by   BIGINT REFERENCES users(id) ON DELETE SET NULL,
    created_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
    last_used_at TIMESTAMPTZ
);
CREATE INDEX scim_tokens_workspace ON scim_tokens (workspace_id);

-- The people an identity provider provisioned into a workspace: one row per account and
-- workspace. active false: deprovisioned, no membership; role is the one the membership gets
-- back when the person is reactivated (and the one groups give them).
CREATE TABLE scim_users (
    id           UUID PRIMARY KEY DEFAULT gen_random_uuid(),
    workspace_id BIGINT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
    user_id      BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    external_id  TEXT,
    given_name   TEXT NOT NULL DEFAULT '',
    family_name  TEXT NOT NULL DEFAULT '',
    formatted    TEXT NOT NULL DEFAULT '',
    display_name TEXT NOT NULL DEFAULT '',
    active       BOOLEAN NOT NULL DEFAULT true,
    role         TEXT NOT NULL DEFAULT 'member' CHECK (role IN ('owner', 'admin', 'member', 'viewer')),
    created_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
    UNIQUE (workspace_id, user_id)
);
CREATE INDEX scim_users_user ON scim_users (user_id);
CREATE UNIQUE INDEX scim_users_external_id ON scim_users (workspace_id, external_id) WHERE external_id IS NOT NULL;

-- Groups of a workspace's provider; a group whose name maps to a role gives it to its members.
CREATE TABLE scim_groups (
    id           UUID PRIMARY KEY DEFAULT gen_random_uuid(),
    workspace_id BIGINT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
    display_name TEXT NOT NULL,
    external_id  TEXT,
    created_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at   TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX scim_groups_name ON scim_groups (workspace_id, lower(display_name));

CREATE TABLE scim_group_members (
    group_id     UUID NOT NULL REFERENCES scim_groups(id) ON DELETE CASCADE,
    scim_user_id UUID NOT NULL REFERENCES scim_users(id) ON DELETE CASCADE,
    PRIMARY KEY (group_id, scim_user_id)
);
CREATE INDEX scim_group_members_user ON scim_group_members (scim_user_id);

-- An owner's own mapping of group names to roles, in place of the names admin, member, viewer.
CREATE TABLE scim_role_mappings (
    workspace_id BIGINT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
    group_name   TEXT NOT NULL,
    role         TEXT NOT NULL CHECK (role IN ('admin', 'member', 'viewer')),
    PRIMARY KEY (workspace_id, group_name)
);

-- +goose Down
DROP TABLE scim_role_mappings;
DROP TABLE scim_group_members;
DROP TABLE scim_groups;
DROP TABLE scim_users;
DROP TABLE scim_tokens;
