-- +goose Up

-- Answers visitors gave to a link's form (docs/rules-and-plans.md#link-rules), one row per posted form: an object of
-- field name → answer. They go with their link: deleting the link removes them, and so does
-- deleting its workspace, whose links are removed in batches (or by the workspaces cascade).
-- workspace_id is the link's, written with the row so that every read names the tenant; it
-- has no foreign key of its own, which would make each workspace deletion scan this table.
CREATE TABLE form_responses (
    id           BIGSERIAL PRIMARY KEY,
    workspace_id BIGINT NOT NULL,
    link_id      BIGINT NOT NULL REFERENCES links (id) ON DELETE CASCADE,
    answers      JSONB NOT NULL CHECK (jsonb_typeof(answers) = 'object'),
    created_at   TIMESTAMPTZ NOT NULL DEFAULT now()
);
-- A link's responses newest first, paged by id; also what the cascade from links looks up.
CREATE INDEX form_responses_link_idx ON form_responses (link_id, id DESC);

-- +goose Down
DROP TABLE form_responses;
