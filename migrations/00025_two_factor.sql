-- +goose Up

-- A person's TOTP secret, sealed (AES-GCM under a key derived from JWT_SECRET). A row with
-- enabled_at NULL is an enrolment not confirmed yet: sign-in ignores it. last_step is the
-- newest 30-second step whose code was accepted: a code of that step or an older one is
-- refused, so each code works once.
CREATE TABLE user_totp (
    user_id      BIGINT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    secret       BYTEA NOT NULL,
    enabled_at   TIMESTAMPTZ,
    last_step    BIGINT NOT NULL DEFAULT 0,
    created_at   TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- The one-time recovery codes of a person with 2FA on, by SHA-256; used_at set once used.
CREATE TABLE user_recovery_codes (
    user_id    BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    code_hash  BYTEA NOT NULL,
    used_at    TIMESTAMPTZ,
    PRIMARY KEY (user_id, code_hash)
);

-- The second step of a sign-in whose password was right: the token the answer carried, by
-- SHA-256, good for a few minutes and for one successful code.
CREATE TABLE mfa_challenges (
    token_hash BYTEA PRIMARY KEY,
    user_id    BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    expires_at TIMESTAMPTZ NOT NULL,
    used_at    TIMESTAMPTZ
);
CREATE INDEX mfa_challenges_expires ON mfa_challenges (expires_at);

-- +goose Down
DROP TABLE mfa_challenges;
DROP TABLE user_recovery_codes;
DROP TABLE user_totp;
