-- +goose Up

-- An invitation mail's link carries a secret whose hash is kept here: whoever holds it (read
-- the mail) may see whom the invitation is from and join by signing up with the invited
-- address. Invitations sent before have none, and their links work as before: sign in first.
ALTER TABLE invitations ADD COLUMN token_hash BYTEA;

-- +goose Down
ALTER TABLE invitations DROP COLUMN token_hash;
