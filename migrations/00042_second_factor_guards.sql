-- +goose Up

-- The bound on guessing a person's second factor (docs/security.md#two-factor-sign-in), per
-- account whatever the client's address: attempts counts the codes taken since the last right
-- one or the start of the last lockout (each is counted before it is checked), lockouts the
-- lockouts since the last right code, and no code is checked before locked_until. A right code
-- zeroes the row. It is kept when 2FA is turned off, so turning it off and on again starts
-- no count afresh, and goes with the account.
CREATE TABLE second_factor_guards (
    user_id      BIGINT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    attempts     INTEGER NOT NULL DEFAULT 0,
    lockouts     INTEGER NOT NULL DEFAULT 0,
    locked_until TIMESTAMPTZ,
    updated_at   TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- +goose Down
DROP TABLE second_factor_guards;
