-- +goose Up

-- Visits are stored a batch at a time (postgres.Visits.Insert): the raw rows by COPY, the
-- rollups summed per link and hour before they are written. What makes a batch delivered
-- twice count once is no longer a unique key on every raw visit but the key of every batch
-- stored (visit.Batch.Key), kept here in the transaction that stores the batch. Partitioned
-- by the UTC day of the batch's earliest visit, like visits, and dropped with the visits of
-- that day: a batch is known as long as its visits are kept.
CREATE TABLE visit_batches (
    id  UUID NOT NULL,
    day DATE NOT NULL,
    PRIMARY KEY (id, day)
) PARTITION BY RANGE (day);

-- The raw visits lose their primary key: the exports read them by workspace and time
-- (visits_workspace_at), and the batch keys replace the event's key.
-- (at, event_id) still orders the exports' pages: event IDs stay unique, made by the nodes.
ALTER TABLE visits DROP CONSTRAINT visits_pkey;

-- Unique visitors past the exact count (visit.ExactUniques people of a link on a day): a
-- HyperLogLog sketch per link and UTC day, made from the day's stored hashes when the link
-- passes the count (sketch NULL: being made by the transaction holding the row), and per
-- workspace and day from the first visit. Needed while visits of the day may arrive, so kept
-- as long as the visitors' hashes.
CREATE TABLE visitor_sketches (
    link_id BIGINT NOT NULL,
    day     DATE   NOT NULL,
    sketch  BYTEA,
    PRIMARY KEY (link_id, day)
) PARTITION BY RANGE (day);

CREATE TABLE workspace_visitor_sketches (
    workspace_id BIGINT NOT NULL,
    day          DATE   NOT NULL,
    sketch       BYTEA  NOT NULL,
    PRIMARY KEY (workspace_id, day)
) PARTITION BY RANGE (day);

-- People first seen that UTC day in the workspace (any of its links), counted in the hour of
-- their first visit: the workspace's daily unique visitors, from its sketch.
ALTER TABLE workspace_visit_hours ADD COLUMN uniques BIGINT NOT NULL DEFAULT 0;

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

-- The batches and sketches of the days that have visit partitions already.
SELECT visits_create_partitions(to_date(substr(min(c.relname), 8), 'YYYYMMDD'),
        (to_date(substr(max(c.relname), 8), 'YYYYMMDD') - to_date(substr(min(c.relname), 8), 'YYYYMMDD')) + 1)
FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class p ON p.oid = i.inhparent
WHERE p.relname = 'visits' AND c.relname ~ '^visits_[0-9]{8}$'
HAVING count(*) > 0;

-- +goose Down
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
        WHERE p.relname IN ('visits', 'visitors')
    LOOP
        IF (t.parent = 'visits' AND t.relname ~ '^visits_[0-9]{8}$'
                AND to_date(substr(t.relname, 8), 'YYYYMMDD') < visits_before)
            OR (t.parent = 'visitors' AND t.relname ~ '^visitors_[0-9]{8}$'
                AND to_date(substr(t.relname, 10), 'YYYYMMDD') < visitors_before) THEN
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
    END LOOP;
END
$$;
-- +goose StatementEnd
ALTER TABLE visits ADD PRIMARY KEY (event_id, at);
ALTER TABLE workspace_visit_hours DROP COLUMN uniques;
DROP TABLE workspace_visitor_sketches;
DROP TABLE visitor_sketches;
DROP TABLE visit_batches;
