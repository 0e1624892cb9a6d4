-- +goose Up

-- When the owner of the address proved they read mail sent to it; NULL until then.
ALTER TABLE users ADD COLUMN email_verified_at TIMESTAMPTZ;
-- Moderators and operators were chosen by an operator or the deployer: they count as verified.
UPDATE users SET email_verified_at = now() WHERE system_role <> 'user';
-- When the system role last changed: access tokens issued before it carry no system rights.
ALTER TABLE users ADD COLUMN system_role_since TIMESTAMPTZ NOT NULL DEFAULT now();

-- One-time tokens sent by email: verification links and password resets. Only a hash of the
-- token is kept; using one sets used_at, so it works once. email is the address it was sent to.
CREATE TABLE email_tokens (
    id         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id    BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    purpose    TEXT NOT NULL CHECK (purpose IN ('verify', 'reset')),
    email      TEXT NOT NULL,
    token_hash BYTEA NOT NULL UNIQUE,
    expires_at TIMESTAMPTZ NOT NULL,
    used_at    TIMESTAMPTZ,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX email_tokens_user_idx ON email_tokens (user_id, purpose);

-- Promotion to a system role and password resets revoke every session and key of an account.
CREATE INDEX IF NOT EXISTS refresh_tokens_user_idx ON refresh_tokens (user_id);
CREATE INDEX IF NOT EXISTS api_keys_created_by_idx ON api_keys (created_by);

-- +goose Down
DROP INDEX IF EXISTS api_keys_created_by_idx;
DROP INDEX IF EXISTS refresh_tokens_user_idx;
DROP TABLE email_tokens;
ALTER TABLE users DROP COLUMN system_role_since;
ALTER TABLE users DROP COLUMN email_verified_at;
