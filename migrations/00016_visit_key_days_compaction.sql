-- +goose Up

-- The daily breakdowns (visit_key_days) are no longer added to by every batch of visits: once
-- a UTC day is over, its hourly breakdowns are summed into its daily rows in one pass
-- (postgres.Visits.CompactDays), and the statistics read the hours of the days not summed yet.
-- key_days_before is the first day not summed: every day before it is complete in
-- visit_key_days (visits that arrive late for such a day are added to both tables).
CREATE TABLE visit_rollups (
    id              BOOLEAN PRIMARY KEY DEFAULT true CHECK (id),
    key_days_before DATE    NOT NULL
);

-- Until now every batch added to the daily rows: the days before today are complete, and
-- today's are summed again from its hours when it is over.
INSERT INTO visit_rollups (key_days_before) VALUES ((now() AT TIME ZONE 'UTC')::date);

-- The pass over a day reads its hours: rows are added roughly in time order, so a BRIN index
-- finds them for next to nothing per insert.
CREATE INDEX visit_key_hours_hour_brin ON visit_key_hours USING brin (hour);

-- +goose Down
-- Every batch adds to the daily rows again: the days not summed yet are summed first.
INSERT INTO visit_key_days AS t (link_id, day, dim, key, visits)
SELECT link_id, (hour AT TIME ZONE 'UTC')::date, dim, key, sum(visits)
FROM visit_key_hours WHERE hour >= (SELECT key_days_before FROM visit_rollups)::timestamp AT TIME ZONE 'UTC'
GROUP BY 1, 2, 3, 4
ON CONFLICT (link_id, day, dim, key) DO UPDATE SET visits = EXCLUDED.visits;
DROP INDEX visit_key_hours_hour_brin;
DROP TABLE visit_rollups;
