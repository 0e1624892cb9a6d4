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

-- +goose Down
DROP TRIGGER users_revoke_api_keys ON users;
DROP FUNCTION revoke_api_keys_of_deleted_user();
DROP INDEX api_keys_created_by_idx;
ALTER TABLE api_keys DROP COLUMN revoked_reason;
