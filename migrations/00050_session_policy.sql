-- +goose Up

-- A workspace's session policy (docs/security.md#session-policy): how long a session may reach
-- the workspace after it began, and how long it may stay idle there; NULL: no limit. Applied
-- while the plan has sso; kept but not applied below it.
ALTER TABLE workspaces
    ADD COLUMN session_max_age_seconds BIGINT CHECK (session_max_age_seconds > 0),
    ADD COLUMN session_idle_timeout_seconds BIGINT CHECK (session_idle_timeout_seconds > 0);

-- The keyed hash of the address a session's token was issued to (never the address itself).
ALTER TABLE refresh_tokens ADD COLUMN ip_hash TEXT;

-- When a session (a refresh-token family) began, by the server's clock that applies the policy
-- (NULL for sessions begun before: their first token's created_at), and when it was last let
-- into a workspace (NULL: never). Each node writes what it saw at most once a minute per
-- session, in one statement for all of them.
CREATE TABLE session_activity (
    family         UUID PRIMARY KEY,
    started_at     TIMESTAMPTZ,
    last_active_at TIMESTAMPTZ
);

-- +goose Down
DROP TABLE session_activity;
ALTER TABLE refresh_tokens DROP COLUMN ip_hash;
ALTER TABLE workspaces DROP COLUMN session_max_age_seconds, DROP COLUMN session_idle_timeout_seconds;
