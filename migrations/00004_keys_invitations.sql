-- +goose Up

-- An API key works only while its creator may still make it: a member whose role manages the
-- workspace. Keys are revoked when that ends, and say why.
ALTER TABLE api_keys ADD COLUMN revoked_reason TEXT;
UPDATE api_keys SET revoked_reason = 'revoked' WHERE revoked_at IS NOT NULL;
UPDATE api_keys k SET revoked_at = now(), revoked_reason = CASE
        WHEN k.created_by IS NULL THEN 'creator_deleted'
        WHEN NOT EXISTS (SELECT 1 FROM members m WHERE m.workspace_id = k.workspace_id AND m.user_id = k.created_by)
            THEN 'creator_removed'
        ELSE 'creator_demoted' END
    WHERE k.revoked_at IS NULL AND NOT EXISTS (SELECT 1 FROM members m WHERE m.workspace_id = k.workspace_id
        AND m.user_id = k.created_by AND m.role IN ('owner', 'admin'));
DROP INDEX IF EXISTS api_keys_created_by_idx;
CREATE INDEX api_keys_created_by_idx ON api_keys (created_by) WHERE revoked_at IS NULL;

-- Deleting a user sets created_by to NULL: revoke their keys first, whichever code deletes.
-- +goose StatementBegin
CREATE FUNCTION revoke_api_keys_of_deleted_user() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE api_keys SET revoked_at = now(), revoked_reason = 'creator_deleted'
        WHERE created_by = OLD.id AND revoked_at IS NULL;
    RETURN OLD;
END
$$;
-- +goose StatementEnd
CREATE TRIGGER users_revoke_api_keys BEFORE DELETE ON users
    FOR EACH ROW EXECUTE FUNCTION revoke_api_keys_of_deleted_user();

-- Invitations are addressed to a normalised email, whether or not it has an account yet, so
-- inviting tells nothing about which addresses have one. The invitee sees it once signed up.
ALTER TABLE invitations ADD COLUMN email TEXT;
UPDATE invitations i SET email = lower(u.email) FROM users u WHERE u.id = i.user_id;
ALTER TABLE invitations ALTER COLUMN email SET NOT NULL;
ALTER TABLE invitations DROP COLUMN user_id;
CREATE UNIQUE INDEX invitations_workspace_email_key ON invitations (workspace_id, email);
CREATE INDEX invitations_email_idx ON invitations (email);

-- +goose Down
DROP INDEX invitations_email_idx;
DROP INDEX invitations_workspace_email_key;
ALTER TABLE invitations ADD COLUMN user_id BIGINT REFERENCES users (id) ON DELETE CASCADE;
UPDATE invitations i SET user_id = u.id FROM users u WHERE lower(u.email) = i.email;
DELETE FROM invitations WHERE user_id IS NULL;
ALTER TABLE invitations ALTER COLUMN user_id SET NOT NULL;
ALTER TABLE invitations ADD CONSTRAINT invitations_workspace_id_user_id_key UNIQUE (workspace_id, user_id);
CREATE INDEX invitations_user_idx ON invitations (user_id);
ALTER TABLE invitations DROP COLUMN email;

DROP TRIGGER users_revoke_api_keys ON users;
DROP FUNCTION revoke_api_keys_of_deleted_user();
DROP INDEX api_keys_created_by_idx;
ALTER TABLE api_keys DROP COLUMN revoked_reason;
