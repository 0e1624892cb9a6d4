-- +goose Up

-- Every committed change to a link that a cache may hold: each node reads this feed about once
-- a second, rewrites the Redis entry from the row and drops its own copy. The bus announces the
-- same changes within milliseconds; this feed is what makes a change stick when a cache write
-- or a bus message was lost (Redis paused, restarted or unreachable, a node gone mid-write).
-- version orders the entries of one key: the row's updated_at in microseconds, and for a
-- deletion one more than the deleted row's, as the caches count versions.
CREATE TABLE link_changes (
    seq        BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    domain_id  BIGINT NOT NULL,
    key        TEXT NOT NULL,
    version    BIGINT NOT NULL,
    deleted    BOOLEAN NOT NULL,
    changed_at TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX link_changes_changed_at_idx ON link_changes (changed_at);

-- A trigger rather than code in each statement: cascades (a deleted workspace) and every later
-- writer (moderation bans) are covered. Edits move updated_at; writes that do not (counters)
-- are not changes any cache holds.
-- +goose StatementBegin
CREATE FUNCTION links_note_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF OLD.domain_id <> NEW.domain_id OR OLD.key <> NEW.key THEN
        INSERT INTO link_changes (domain_id, key, version, deleted)
        VALUES (OLD.domain_id, OLD.key, (extract(epoch FROM NEW.updated_at) * 1000000)::bigint, true);
    END IF;
    INSERT INTO link_changes (domain_id, key, version, deleted)
    VALUES (NEW.domain_id, NEW.key, (extract(epoch FROM NEW.updated_at) * 1000000)::bigint, false);
    RETURN NULL;
END $$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE FUNCTION links_note_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO link_changes (domain_id, key, version, deleted)
    SELECT domain_id, key, (extract(epoch FROM updated_at) * 1000000)::bigint + 1, true FROM gone;
    -- A deleted alias no longer keeps its code's ID from being issued.
    DELETE FROM reserved_ids r USING gone g WHERE g.is_alias AND r.domain_id = g.domain_id AND r.key = g.key;
    RETURN NULL;
END $$;
-- +goose StatementEnd

CREATE TRIGGER links_changed AFTER UPDATE ON links FOR EACH ROW
    WHEN (OLD.updated_at IS DISTINCT FROM NEW.updated_at OR OLD.key <> NEW.key OR OLD.domain_id <> NEW.domain_id)
    EXECUTE FUNCTION links_note_update();
CREATE TRIGGER links_deleted AFTER DELETE ON links REFERENCING OLD TABLE AS gone
    FOR EACH STATEMENT EXECUTE FUNCTION links_note_delete();

-- Reservations are read incrementally (seq) and counted per workspace (a free account must not
-- grow every node's memory without bound).
-- The alias that spells a reservation is kept with it, so that deleting the alias's link
-- deletes the reservation too (the trigger above): a deleted workspace's aliases stop taking
-- memory with their links.
ALTER TABLE reserved_ids ADD COLUMN seq BIGINT GENERATED ALWAYS AS IDENTITY;
ALTER TABLE reserved_ids ADD COLUMN workspace_id BIGINT REFERENCES workspaces (id) ON DELETE SET NULL;
ALTER TABLE reserved_ids ADD COLUMN domain_id BIGINT;
ALTER TABLE reserved_ids ADD COLUMN key TEXT;
CREATE UNIQUE INDEX reserved_ids_seq_key ON reserved_ids (seq);
CREATE INDEX reserved_ids_workspace_idx ON reserved_ids (workspace_id);
CREATE INDEX reserved_ids_key_idx ON reserved_ids (domain_id, key);

-- A deleted workspace is marked at once (its links stop redirecting everywhere) and its rows
-- are removed in batches in the background.
ALTER TABLE workspaces ADD COLUMN deleted_at TIMESTAMPTZ;
CREATE INDEX workspaces_deleted_idx ON workspaces (deleted_at) WHERE deleted_at IS NOT NULL;

-- +goose Down
DROP INDEX workspaces_deleted_idx;
ALTER TABLE workspaces DROP COLUMN deleted_at;
DROP INDEX reserved_ids_key_idx;
ALTER TABLE reserved_ids DROP COLUMN key;
ALTER TABLE reserved_ids DROP COLUMN domain_id;
DROP INDEX reserved_ids_workspace_idx;
DROP INDEX reserved_ids_seq_key;
ALTER TABLE reserved_ids DROP COLUMN workspace_id;
ALTER TABLE reserved_ids DROP COLUMN seq;
DROP TRIGGER links_deleted ON links;
DROP TRIGGER links_changed ON links;
DROP FUNCTION links_note_delete();
DROP FUNCTION links_note_update();
DROP TABLE link_changes;
