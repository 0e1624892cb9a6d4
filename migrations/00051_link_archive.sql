-- +goose NO TRANSACTION
-- +goose Up

-- An archived link is hidden from the links list unless asked for (archived=true or all) and
-- keeps redirecting (docs/api.md#archived-links). The column is NULL for every link not archived,
-- so adding it rewrites nothing.
ALTER TABLE links ADD COLUMN IF NOT EXISTS archived_at TIMESTAMPTZ;

-- The default list (archived_at IS NULL) walks links_workspace_idx as before, passing over the
-- archived links it meets; the archived list walks this index of the archived links only. A
-- new link is not archived, so this index costs creates nothing (an index of the links not
-- archived would cost each create a second entry). Made concurrently: writes to links go on
-- while it is built.
CREATE INDEX CONCURRENTLY IF NOT EXISTS links_archived ON links (workspace_id, id DESC) WHERE archived_at IS NOT NULL;

-- +goose Down
DROP INDEX CONCURRENTLY IF EXISTS links_archived;
ALTER TABLE links DROP COLUMN IF EXISTS archived_at;
