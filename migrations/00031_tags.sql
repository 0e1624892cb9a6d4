-- +goose Up

-- A workspace's tags: names unique per workspace whatever their case. folded is the name in
-- lower case as the service folds it (not lower(), whose folding depends on the database's
-- locale), so that the service and the database agree on which names are one.
CREATE TABLE tags (
    id           BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    workspace_id BIGINT      NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    name         TEXT        NOT NULL,
    folded       TEXT        NOT NULL,
    color        TEXT        NOT NULL,
    created_at   TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX tags_workspace_folded ON tags (workspace_id, folded);

-- The tags each link carries. The key walks one tag's links by ID, in either direction: a
-- listing filtered by a tag reads its page (newest first, after a cursor) from it alone, and the
-- statistics narrowed to a tag read its links from it. link_tags_link reads a link's tags.
-- Deleting a tag or a link takes its rows with it.
CREATE TABLE link_tags (
    tag_id  BIGINT NOT NULL REFERENCES tags (id) ON DELETE CASCADE,
    link_id BIGINT NOT NULL REFERENCES links (id) ON DELETE CASCADE,
    PRIMARY KEY (tag_id, link_id)
);
CREATE INDEX link_tags_link ON link_tags (link_id, tag_id);

-- +goose Down
DROP TABLE link_tags;
DROP TABLE tags;
