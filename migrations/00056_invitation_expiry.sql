-- +goose Up

-- An invitation is valid for a fixed period from when it was sent or last resent
-- (docs/api.md#workspaces-members-and-invitations); those already waiting get the period from when they were sent.
ALTER TABLE invitations ADD COLUMN expires_at TIMESTAMPTZ;
UPDATE invitations SET expires_at = created_at + interval '7 days';
ALTER TABLE invitations ALTER COLUMN expires_at SET NOT NULL;

-- The audit log names a target whose row is gone from the events that recorded it
-- (docs/api.md#names-in-the-log): they are found by workspace and target.
CREATE INDEX audit_events_target ON audit_events (workspace_id, target, id DESC);

-- +goose Down
DROP INDEX audit_events_target;
ALTER TABLE invitations DROP COLUMN expires_at;
