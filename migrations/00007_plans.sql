-- +goose Up

-- A workspace gets one trial: trial_used is set when it starts, trial_ends_at is when it ends
-- (a trial past its end answers as free; the plan column keeps saying 'trial').
ALTER TABLE workspaces ADD COLUMN trial_ends_at TIMESTAMPTZ;
ALTER TABLE workspaces ADD COLUMN trial_used BOOLEAN NOT NULL DEFAULT false;

-- A plan set without a trial end (an operator's change) is not a timed trial: the end of an
-- earlier trial must not carry over, so an operator's 'trial' lasts until changed and a paid
-- plan shows no trial end. Starting the trial sets plan and end together and keeps its end.
-- +goose StatementBegin
CREATE FUNCTION workspaces_plan_set() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.trial_ends_at IS NOT DISTINCT FROM OLD.trial_ends_at THEN
        NEW.trial_ends_at := NULL;
    END IF;
    RETURN NEW;
END $$;
-- +goose StatementEnd
CREATE TRIGGER workspaces_plan_set BEFORE UPDATE OF plan ON workspaces
    FOR EACH ROW EXECUTE FUNCTION workspaces_plan_set();

-- New links counted per workspace and calendar month (UTC), for the monthly quota. Rows are
-- changed once per round of reservations (many creates at once), never once per create.
CREATE TABLE link_usage (
    workspace_id BIGINT NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    month        DATE NOT NULL,
    links        BIGINT NOT NULL DEFAULT 0 CHECK (links >= 0),
    PRIMARY KEY (workspace_id, month)
);

-- +goose Down
DROP TABLE link_usage;
DROP TRIGGER workspaces_plan_set ON workspaces;
DROP FUNCTION workspaces_plan_set();
ALTER TABLE workspaces DROP COLUMN trial_used;
ALTER TABLE workspaces DROP COLUMN trial_ends_at;
