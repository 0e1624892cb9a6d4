-- +goose Up

-- The SHA-256 of the token that replaced a used refresh token. A token presented again
-- shortly after its use (two tabs refreshing at once) is answered with that same successor,
-- which the server derives again from the old token; the successor itself is never stored.
ALTER TABLE refresh_tokens ADD COLUMN replaced_by BYTEA;

-- +goose Down
ALTER TABLE refresh_tokens DROP COLUMN replaced_by;
