-- +goose Up

-- The workspace audit log: append-only. No foreign key to workspaces: a deleted workspace's
-- rows could not be cascaded away (deletes are refused), so the retention purge removes them.
-- The client's address is kept only as a keyed hash.
CREATE TABLE audit_events (
    id           BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    workspace_id BIGINT      NOT NULL,
    at           TIMESTAMPTZ NOT NULL DEFAULT now(),
    actor_type   TEXT        NOT NULL CHECK (actor_type IN ('user', 'api_key', 'system')),
    actor_id     BIGINT,
    actor_email  TEXT        NOT NULL DEFAULT '',
    action       TEXT        NOT NULL,
    target       TEXT        NOT NULL DEFAULT '',
    details      JSONB       NOT NULL DEFAULT '{}',
    address_hash TEXT        NOT NULL DEFAULT ''
);

-- Pages of one workspace, newest first.
CREATE INDEX audit_events_workspace_id ON audit_events (workspace_id, id DESC);
-- The retention purge.
CREATE INDEX audit_events_at ON audit_events (at);

-- Rows are never changed, and removed only by the retention purge, which sets
-- shortlink.audit_purge for its own transaction.
-- +goose StatementBegin
CREATE FUNCTION audit_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' AND current_setting('shortlink.audit_purge', true) = 'on' THEN
        RETURN OLD;
    END IF;
    RAISE EXCEPTION 'audit_events is append-only' USING ERRCODE = 'insufficient_privilege';
END;
$$;
-- +goose StatementEnd

CREATE TRIGGER audit_events_append_only BEFORE UPDATE OR DELETE ON audit_events
    FOR EACH ROW EXECUTE FUNCTION audit_events_append_only();

CREATE TRIGGER audit_events_no_truncate BEFORE TRUNCATE ON audit_events
    FOR EACH STATEMENT EXECUTE FUNCTION audit_events_append_only();

-- +goose Down
DROP TABLE audit_events;
DROP FUNCTION audit_events_append_only();
