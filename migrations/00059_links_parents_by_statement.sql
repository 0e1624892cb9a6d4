-- +goose Up

-- A link's workspace and creator were foreign keys, checked row by row: each inserted link ran
-- two lookups of its parents, a fifth of PostgreSQL's work a create (the batch of 30 links
-- a create run writes per statement checked the same workspace 30 times). The insert now locks
-- each distinct workspace and creator once per statement, as the keys' checks did (FOR KEY
-- SHARE: a deletion of that workspace or person waits for the insert, and an insert waits for
-- such a deletion and then finds no parent; postgres.LinkStore.Insert), and what the keys did
-- on the parents' deletion is done here, a statement at a time: a workspace's links go with it,
-- a person's links keep no creator.
ALTER TABLE links DROP CONSTRAINT links_workspace_id_fkey;
ALTER TABLE links DROP CONSTRAINT links_created_by_fkey;

-- +goose StatementBegin
CREATE FUNCTION workspaces_delete_links() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM links l USING gone g WHERE l.workspace_id = g.id;
    RETURN NULL;
END $$;
-- +goose StatementEnd
CREATE TRIGGER workspaces_deleted_links AFTER DELETE ON workspaces REFERENCING OLD TABLE AS gone
    FOR EACH STATEMENT EXECUTE FUNCTION workspaces_delete_links();

-- +goose StatementBegin
CREATE FUNCTION users_forget_links() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE links l SET created_by = NULL FROM gone g WHERE l.created_by = g.id;
    RETURN NULL;
END $$;
-- +goose StatementEnd
CREATE TRIGGER users_deleted_links AFTER DELETE ON users REFERENCING OLD TABLE AS gone
    FOR EACH STATEMENT EXECUTE FUNCTION users_forget_links();

-- +goose Down
DROP TRIGGER users_deleted_links ON users;
DROP FUNCTION users_forget_links();
DROP TRIGGER workspaces_deleted_links ON workspaces;
DROP FUNCTION workspaces_delete_links();
DELETE FROM links l WHERE NOT EXISTS (SELECT 1 FROM workspaces w WHERE w.id = l.workspace_id);
UPDATE links l SET created_by = NULL
    WHERE created_by IS NOT NULL AND NOT EXISTS (SELECT 1 FROM users u WHERE u.id = l.created_by);
ALTER TABLE links ADD CONSTRAINT links_workspace_id_fkey
    FOREIGN KEY (workspace_id) REFERENCES workspaces (id) ON DELETE CASCADE;
ALTER TABLE links ADD CONSTRAINT links_created_by_fkey
    FOREIGN KEY (created_by) REFERENCES users (id) ON DELETE SET NULL;
