-- +goose Up

-- The links list in order of people's visits walks a workspace's links that have visits in this
-- index, a page at a time (the links with none are read by ID after them). The ingest already
-- keeps visit_totals in step with the visits, in the statement that stores them.
CREATE INDEX visit_totals_workspace_visits ON visit_totals (workspace_id, visits, link_id) WHERE visits > 0;

-- +goose Down
DROP INDEX visit_totals_workspace_visits;
