-- +goose Up

-- How a session (a refresh-token family) began: 'password' (sign-up or login, with the second
-- factor when 2FA is on) or 'sso' (a workspace's identity provider). Turning a workspace's
-- enforce on ends the password sessions of its domain's members (docs/security.md#single-sign-on);
-- sessions begun before this column count as password ones, which only ends more of them.
ALTER TABLE refresh_tokens ADD COLUMN signed_in_with TEXT NOT NULL DEFAULT 'password'
    CHECK (signed_in_with IN ('password', 'sso'));

-- The second step of a sign-in through a workspace's identity provider: the membership that
-- sign-in makes waits for the code.
ALTER TABLE mfa_challenges ADD COLUMN sso_workspace_id BIGINT REFERENCES workspaces(id) ON DELETE CASCADE;

-- +goose Down
ALTER TABLE mfa_challenges DROP COLUMN sso_workspace_id;
ALTER TABLE refresh_tokens DROP COLUMN signed_in_with;
