-- +goose Up

-- The breakdowns of whole UTC months (docs/benchmarks.md#statistics-at-a-billion-visits): a busy
-- link's breakdowns hold about 2,500 rows a day whatever its visits, so a long range read from
-- the days groups hundreds of thousands of rows. Once a month's days are all summed
-- (postgres.Visits.CompactDays), its daily rows are summed into one row per key here, and the
-- statistics read the whole months of a range from this table. key_months_before is the first
-- month not summed: visits that arrive late for a month before it are added here too, as they
-- are to the days.
CREATE TABLE visit_key_months (
    link_id BIGINT NOT NULL,
    month   DATE   NOT NULL, -- its first day
    dim     "char" NOT NULL,
    key     TEXT   NOT NULL,
    visits  BIGINT NOT NULL,
    PRIMARY KEY (link_id, month, dim, key)
);

ALTER TABLE visit_rollups ADD COLUMN key_months_before DATE;
UPDATE visit_rollups SET key_months_before = date_trunc('month', key_days_before)::date;
ALTER TABLE visit_rollups ALTER COLUMN key_months_before SET NOT NULL;

-- The months whose days are all summed, summed.
INSERT INTO visit_key_months (link_id, month, dim, key, visits)
SELECT link_id, date_trunc('month', day)::date, dim, key, sum(visits)
FROM visit_key_days WHERE day < (SELECT key_months_before FROM visit_rollups)
GROUP BY 1, 2, 3, 4;

-- Summing a month reads its days: they are added in time order, so a BRIN index finds them.
CREATE INDEX visit_key_days_day_brin ON visit_key_days USING brin (day);

-- +goose Down
DROP INDEX visit_key_days_day_brin;
ALTER TABLE visit_rollups DROP COLUMN key_months_before;
DROP TABLE visit_key_months;
