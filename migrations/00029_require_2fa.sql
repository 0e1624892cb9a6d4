-- +goose Up

-- A workspace whose plan has sso may require two-factor sign-in of its members: a member
-- without it is refused on the workspace's routes (API keys are not persons and keep working).
-- On a plan without sso the setting is kept but does not apply.
ALTER TABLE workspaces ADD COLUMN require_2fa BOOLEAN NOT NULL DEFAULT false;

-- +goose Down
ALTER TABLE workspaces DROP COLUMN require_2fa;
