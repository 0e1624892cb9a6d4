-- +goose Up

-- What a session's device said when its newest refresh token was issued, for the list of a
-- person's sessions: the browser and system families (never the raw user agent) and the
-- network (an IPv4 /24 or IPv6 /48, never the address itself). NULL for tokens issued before.
ALTER TABLE refresh_tokens ADD COLUMN browser TEXT, ADD COLUMN os TEXT, ADD COLUMN network TEXT;
-- Every API request of a session asks, at most every 5 s per node, whether the session is live:
-- none of its tokens revoked, one not expired. A family keeps every token it rotated through
-- (one per access-token lifetime), so both questions get an index of their own.
CREATE INDEX IF NOT EXISTS refresh_tokens_family_expires_idx ON refresh_tokens (family, expires_at);
CREATE INDEX IF NOT EXISTS refresh_tokens_revoked_family_idx ON refresh_tokens (family) WHERE revoked_at IS NOT NULL;

-- 'email': a link mailed to a new address; using it makes that address the account's.
ALTER TABLE email_tokens DROP CONSTRAINT IF EXISTS email_tokens_purpose_check;
ALTER TABLE email_tokens ADD CONSTRAINT email_tokens_purpose_check CHECK (purpose IN ('verify', 'reset', 'email'));

-- +goose Down
DELETE FROM email_tokens WHERE purpose = 'email';
ALTER TABLE email_tokens DROP CONSTRAINT IF EXISTS email_tokens_purpose_check;
ALTER TABLE email_tokens ADD CONSTRAINT email_tokens_purpose_check CHECK (purpose IN ('verify', 'reset'));
DROP INDEX IF EXISTS refresh_tokens_revoked_family_idx;
DROP INDEX IF EXISTS refresh_tokens_family_expires_idx;
ALTER TABLE refresh_tokens DROP COLUMN browser, DROP COLUMN os, DROP COLUMN network;
