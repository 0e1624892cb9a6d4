-- +goose Up

-- CSV imports (docs/domains-and-imports.md#csv-imports). The uploaded file is kept here, in parts, before the upload is
-- answered, so that any node can run the job or resume it after a crash. A node holds a job
-- through a lease it renews (lease_owner, lease_until); a job whose lease ran out is taken by
-- the next node that looks. next_row is the checkpoint: every row before it has its result.
CREATE TABLE imports (
    id           BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    workspace_id BIGINT NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    created_by   BIGINT REFERENCES users (id) ON DELETE SET NULL,
    state        TEXT NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'running', 'done', 'failed')),
    filename     TEXT NOT NULL DEFAULT '',
    format       TEXT NOT NULL,
    bytes        BIGINT NOT NULL,
    rows         INTEGER NOT NULL,
    next_row     INTEGER NOT NULL DEFAULT 1,
    done         INTEGER NOT NULL DEFAULT 0,
    failed       INTEGER NOT NULL DEFAULT 0,
    error        TEXT,
    lease_owner  TEXT,
    lease_until  TIMESTAMPTZ,
    claims       INTEGER NOT NULL DEFAULT 0,
    created_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
    started_at   TIMESTAMPTZ,
    finished_at  TIMESTAMPTZ
);
CREATE INDEX imports_workspace_idx ON imports (workspace_id, id DESC);
CREATE INDEX imports_pending_idx ON imports (id) WHERE state IN ('queued', 'running');

-- The uploaded file in parts of up to 1 MiB, in order; dropped once the job has finished.
CREATE TABLE import_parts (
    import_id    BIGINT NOT NULL REFERENCES imports (id) ON DELETE CASCADE,
    workspace_id BIGINT NOT NULL,
    seq          INTEGER NOT NULL,
    data         BYTEA NOT NULL,
    PRIMARY KEY (import_id, seq)
);

-- One row per data row of the file. A row that makes a link is written here with the link's
-- ID (and short URL) before the link itself: a job resumed after a crash finds which of those
-- links exist and writes only the others, under the same IDs, so no row makes two links.
-- error_code and error are set for a row that failed.
CREATE TABLE import_rows (
    import_id    BIGINT NOT NULL REFERENCES imports (id) ON DELETE CASCADE,
    workspace_id BIGINT NOT NULL,
    row_no       INTEGER NOT NULL,
    line         INTEGER NOT NULL,
    url          TEXT NOT NULL,
    link_id      BIGINT,
    short_url    TEXT,
    error_code   TEXT,
    error        TEXT,
    PRIMARY KEY (import_id, row_no)
);

-- +goose Down
DROP TABLE import_rows;
DROP TABLE import_parts;
DROP TABLE imports;
