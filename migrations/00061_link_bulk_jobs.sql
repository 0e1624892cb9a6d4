-- +goose Up

-- Bulk jobs over the links a filter matches (docs/api.md#bulk-jobs). A job is submitted with
-- its filter and change; the node that first claims it writes the IDs of the links the filter
-- matched among those made before the submission (link_bulk_job_links, in chunks of a batch's
-- size, in one transaction) and then works through them a chunk at a time, lowest first, two
-- batches at once, each batch its own transaction that also drops its chunk and adds to the
-- job's counts: the chunks left are the job's checkpoint (next_chunk is past the highest done). A node holds a job through a lease
-- it renews (lease_owner, lease_until), as imports do; a job whose lease ran out is taken by
-- the next node that looks and resumed from its checkpoint.
CREATE TABLE link_bulk_jobs (
    id           BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    workspace_id BIGINT NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    -- actor is the audit log's actor of the submission (who), recorded with the job's event.
    actor        JSONB NOT NULL DEFAULT '{}',
    state        TEXT NOT NULL DEFAULT 'queued'
                 CHECK (state IN ('queued', 'running', 'done', 'failed', 'canceled')),
    -- filter is the listing's filter as submitted; edit the change (NULL for a deletion), with
    -- its tags resolved to IDs at submission.
    filter       JSONB NOT NULL,
    deletes      BOOLEAN NOT NULL,
    edit         JSONB,
    -- snapshot says the matching IDs are written; total counts them.
    snapshot     BOOLEAN NOT NULL DEFAULT false,
    total        BIGINT NOT NULL DEFAULT 0,
    next_chunk   INTEGER NOT NULL DEFAULT 0,
    done         BIGINT NOT NULL DEFAULT 0,
    failed       BIGINT NOT NULL DEFAULT 0,
    error        TEXT,
    cancel       BOOLEAN NOT NULL DEFAULT false,
    lease_owner  TEXT,
    lease_until  TIMESTAMPTZ,
    claims       INTEGER NOT NULL DEFAULT 0,
    created_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
    started_at   TIMESTAMPTZ,
    finished_at  TIMESTAMPTZ
);
CREATE INDEX link_bulk_jobs_workspace_idx ON link_bulk_jobs (workspace_id, id DESC);
CREATE INDEX link_bulk_jobs_pending_idx ON link_bulk_jobs (id) WHERE state IN ('queued', 'running');

-- The IDs of the links a job acts on, frozen when it starts, in ascending chunks (chunk 0 holds
-- the lowest): a row per batch rather than per link, so that freezing a million links writes a
-- few hundred rows. Each is dropped by the batch that does it, the rest when the job ends.
CREATE TABLE link_bulk_job_links (
    job_id   BIGINT NOT NULL REFERENCES link_bulk_jobs (id) ON DELETE CASCADE,
    chunk    INTEGER NOT NULL,
    link_ids BIGINT[] NOT NULL,
    PRIMARY KEY (job_id, chunk)
);

-- +goose Down
DROP TABLE link_bulk_job_links;
DROP TABLE link_bulk_jobs;
