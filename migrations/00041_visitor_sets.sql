-- +goose Up

-- A link's people of a UTC day, while they are counted exactly (visit.ExactUniques), are one row
-- instead of one row each: the first 8 bytes of every person's visitor hash, sorted, side by
-- side (visit.Set). A batch of visits locks the rows of the link days it holds, finds its new
-- people in them, and writes them back (postgres.Visits.Insert): PostgreSQL writes a row per
-- link and day touched rather than one per new person, the most costly part of storing a visit.
-- hashes is NULL once the day's people are counted in the link's sketch (visitor_sketches).
-- Partitioned by day like the hashes before, and dropped with them; room is left on each page
-- for the row's next version (a heap-only update).
CREATE TABLE visitor_sets (
    link_id BIGINT NOT NULL,
    day     DATE   NOT NULL,
    hashes  BYTEA,
    PRIMARY KEY (link_id, day)
) PARTITION BY RANGE (day);

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION visits_create_partitions(first DATE, days INTEGER) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
    d DATE;
BEGIN
    PERFORM pg_advisory_xact_lock(hashtext('visits_create_partitions'));
    FOR i IN 0 .. days - 1 LOOP
        d := first + i;
        EXECUTE format(
            'CREATE TABLE IF NOT EXISTS %I PARTITION OF visits FOR VALUES FROM (%L) TO (%L)',
            'visits_' || to_char(d, 'YYYYMMDD'),
            d::timestamp AT TIME ZONE 'UTC',
            (d + 1)::timestamp AT TIME ZONE 'UTC');
        EXECUTE format(
            'CREATE TABLE IF NOT EXISTS %I PARTITION OF visitor_sets FOR VALUES FROM (%L) TO (%L)
                WITH (fillfactor = 70)',
            'visitor_sets_' || to_char(d, 'YYYYMMDD'), d, d + 1);
        EXECUTE format(
            'CREATE TABLE IF NOT EXISTS %I PARTITION OF visit_batches FOR VALUES FROM (%L) TO (%L)',
            'visit_batches_' || to_char(d, 'YYYYMMDD'), d, d + 1);
        EXECUTE format(
            'CREATE TABLE IF NOT EXISTS %I PARTITION OF visitor_sketches FOR VALUES FROM (%L) TO (%L)',
            'visitor_sketches_' || to_char(d, 'YYYYMMDD'), d, d + 1);
        EXECUTE format(
            'CREATE TABLE IF NOT EXISTS %I PARTITION OF workspace_visitor_sketches FOR VALUES FROM (%L) TO (%L)',
            'workspace_visitor_sketches_' || to_char(d, 'YYYYMMDD'), d, d + 1);
    END LOOP;
END
$$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION visits_drop_partitions(visits_before DATE, visitors_before DATE) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
    t RECORD;
    n INTEGER := 0;
BEGIN
    PERFORM pg_advisory_xact_lock(hashtext('visits_create_partitions'));
    FOR t IN
        SELECT c.relname, p.relname AS parent FROM pg_inherits i
        JOIN pg_class c ON c.oid = i.inhrelid
        JOIN pg_class p ON p.oid = i.inhparent
        WHERE p.relname IN ('visits', 'visitor_sets', 'visit_batches', 'visitor_sketches',
            'workspace_visitor_sketches')
    LOOP
        IF (t.parent = 'visits' AND t.relname ~ '^visits_[0-9]{8}$'
                AND to_date(substr(t.relname, 8), 'YYYYMMDD') < visits_before)
            OR (t.parent = 'visit_batches' AND t.relname ~ '^visit_batches_[0-9]{8}$'
                AND to_date(substr(t.relname, 15), 'YYYYMMDD') < visits_before)
            OR (t.parent = 'visitor_sets' AND t.relname ~ '^visitor_sets_[0-9]{8}$'
                AND to_date(right(t.relname, 8), 'YYYYMMDD') < visitors_before)
            OR (t.parent = 'visitor_sketches' AND t.relname ~ '^visitor_sketches_[0-9]{8}$'
                AND to_date(right(t.relname, 8), 'YYYYMMDD') < visitors_before)
            OR (t.parent = 'workspace_visitor_sketches'
                AND t.relname ~ '^workspace_visitor_sketches_[0-9]{8}$'
                AND to_date(right(t.relname, 8), 'YYYYMMDD') < visitors_before) THEN
            EXECUTE format('DROP TABLE %I', t.relname);
            n := n + 1;
        END IF;
    END LOOP;
    RETURN n;
END
$$;
-- +goose StatementEnd

-- The sets of the days that have hashes.
SELECT visits_create_partitions(to_date(right(min(c.relname), 8), 'YYYYMMDD'),
        (to_date(right(max(c.relname), 8), 'YYYYMMDD') - to_date(right(min(c.relname), 8), 'YYYYMMDD')) + 1)
FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class p ON p.oid = i.inhparent
WHERE p.relname = 'visitors' AND c.relname ~ '^visitors_[0-9]{8}$'
HAVING count(*) > 0;

INSERT INTO visitor_sets (link_id, day, hashes)
SELECT link_id, day, string_agg(DISTINCT substr(visitor || '\x0000000000000000'::bytea, 1, 8), ''::bytea
        ORDER BY substr(visitor || '\x0000000000000000'::bytea, 1, 8))
FROM visitors v
WHERE NOT EXISTS (SELECT 1 FROM visitor_sketches s WHERE s.link_id = v.link_id AND s.day = v.day)
GROUP BY 1, 2;

INSERT INTO visitor_sets (link_id, day, hashes)
SELECT link_id, day, NULL FROM visitor_sketches
ON CONFLICT DO NOTHING;

DROP TABLE visitors;

-- +goose Down
-- The people go back to a row each, with the 8 bytes kept of their hash and the first hour of
-- their day: a person seen before and again after counts twice that day, their new hash being
-- longer.
CREATE TABLE visitors (
    link_id BIGINT      NOT NULL,
    day     DATE        NOT NULL,
    visitor BYTEA       NOT NULL,
    hour    TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (link_id, day, visitor)
) PARTITION BY RANGE (day);

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION visits_drop_partitions(visits_before DATE, visitors_before DATE) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
    t RECORD;
    n INTEGER := 0;
BEGIN
    PERFORM pg_advisory_xact_lock(hashtext('visits_create_partitions'));
    FOR t IN
        SELECT c.relname, p.relname AS parent FROM pg_inherits i
        JOIN pg_class c ON c.oid = i.inhrelid
        JOIN pg_class p ON p.oid = i.inhparent
        WHERE p.relname IN ('visits', 'visitors', 'visit_batches', 'visitor_sketches',
            'workspace_visitor_sketches')
    LOOP
        IF (t.parent = 'visits' AND t.relname ~ '^visits_[0-9]{8}$'
                AND to_date(substr(t.relname, 8), 'YYYYMMDD') < visits_before)
            OR (t.parent = 'visit_batches' AND t.relname ~ '^visit_batches_[0-9]{8}$'
                AND to_date(substr(t.relname, 15), 'YYYYMMDD') < visits_before)
            OR (t.parent = 'visitors' AND t.relname ~ '^visitors_[0-9]{8}$'
                AND to_date(substr(t.relname, 10), 'YYYYMMDD') < visitors_before)
            OR (t.parent = 'visitor_sketches' AND t.relname ~ '^visitor_sketches_[0-9]{8}$'
                AND to_date(right(t.relname, 8), 'YYYYMMDD') < visitors_before)
            OR (t.parent = 'workspace_visitor_sketches'
                AND t.relname ~ '^workspace_visitor_sketches_[0-9]{8}$'
                AND to_date(right(t.relname, 8), 'YYYYMMDD') < visitors_before) THEN
            EXECUTE format('DROP TABLE %I', t.relname);
            n := n + 1;
        END IF;
    END LOOP;
    RETURN n;
END
$$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION visits_create_partitions(first DATE, days INTEGER) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
    d DATE;
BEGIN
    PERFORM pg_advisory_xact_lock(hashtext('visits_create_partitions'));
    FOR i IN 0 .. days - 1 LOOP
        d := first + i;
        EXECUTE format(
            'CREATE TABLE IF NOT EXISTS %I PARTITION OF visits FOR VALUES FROM (%L) TO (%L)',
            'visits_' || to_char(d, 'YYYYMMDD'),
            d::timestamp AT TIME ZONE 'UTC',
            (d + 1)::timestamp AT TIME ZONE 'UTC');
        EXECUTE format(
            'CREATE TABLE IF NOT EXISTS %I PARTITION OF visitors FOR VALUES FROM (%L) TO (%L)',
            'visitors_' || to_char(d, 'YYYYMMDD'), d, d + 1);
        EXECUTE format(
            'CREATE TABLE IF NOT EXISTS %I PARTITION OF visit_batches FOR VALUES FROM (%L) TO (%L)',
            'visit_batches_' || to_char(d, 'YYYYMMDD'), d, d + 1);
        EXECUTE format(
            'CREATE TABLE IF NOT EXISTS %I PARTITION OF visitor_sketches FOR VALUES FROM (%L) TO (%L)',
            'visitor_sketches_' || to_char(d, 'YYYYMMDD'), d, d + 1);
        EXECUTE format(
            'CREATE TABLE IF NOT EXISTS %I PARTITION OF workspace_visitor_sketches FOR VALUES FROM (%L) TO (%L)',
            'workspace_visitor_sketches_' || to_char(d, 'YYYYMMDD'), d, d + 1);
    END LOOP;
END
$$;
-- +goose StatementEnd

SELECT visits_create_partitions(to_date(right(min(c.relname), 8), 'YYYYMMDD'),
        (to_date(right(max(c.relname), 8), 'YYYYMMDD') - to_date(right(min(c.relname), 8), 'YYYYMMDD')) + 1)
FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class p ON p.oid = i.inhparent
WHERE p.relname = 'visitor_sets' AND c.relname ~ '^visitor_sets_[0-9]{8}$'
HAVING count(*) > 0;

INSERT INTO visitors (link_id, day, visitor, hour)
SELECT link_id, day, substr(hashes, 8 * i + 1, 8), day::timestamp AT TIME ZONE 'UTC'
FROM visitor_sets, generate_series(0, length(hashes) / 8 - 1) AS i
WHERE hashes IS NOT NULL;

DROP TABLE visitor_sets;
