-- +goose Up

-- The rollups the statistics read instead of the raw visits, all kept in step with them by the
-- one statement that stores a batch of visits (postgres.Visits.Insert): only rows newly
-- inserted into visits are added, so a redelivered batch changes none of them.

-- People seen for the first time on their UTC day (the visitor hash is salted per day), counted
-- in the hour of that first visit: summing visit_hours.uniques over a range of whole days gives
-- the daily unique visitors (docs/architecture.md).
ALTER TABLE visit_hours ADD COLUMN uniques BIGINT NOT NULL DEFAULT 0;
CREATE INDEX visit_hours_hour ON visit_hours (hour);

-- The hashes of the people already seen per link and UTC day, with the hour they were first
-- seen; partitioned by day like visits and kept only for a few days (a day's hashes are useless
-- once the day has passed).
CREATE TABLE visitors (
    link_id BIGINT      NOT NULL,
    day     DATE        NOT NULL,
    visitor BYTEA       NOT NULL,
    hour    TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (link_id, day, visitor)
) PARTITION BY RANGE (day);

-- People's visits per link, breakdown and key: per UTC hour (for the partial days at the ends of
-- a range in any time zone) and per UTC day (for the whole days between them, so that a busy
-- link's 90 days read a few thousand rows). dim is one of:
--   c country (ISO code), d device, o system, b browser, r referrer host, v variant (its index),
--   i in-app browser.
-- A visit whose value is unknown (no country, no referrer, no variant) is not in that breakdown.
CREATE TABLE visit_key_hours (
    link_id BIGINT      NOT NULL,
    hour    TIMESTAMPTZ NOT NULL,
    dim     "char"      NOT NULL,
    key     TEXT        NOT NULL,
    visits  BIGINT      NOT NULL,
    PRIMARY KEY (link_id, hour, dim, key)
);

CREATE TABLE visit_key_days (
    link_id BIGINT NOT NULL,
    day     DATE   NOT NULL,
    dim     "char" NOT NULL,
    key     TEXT   NOT NULL,
    visits  BIGINT NOT NULL,
    PRIMARY KEY (link_id, day, dim, key)
);

-- Every visit a link has had since it was made, past any retention: the exports' totals and
-- the moderation milestones (a power of two of people's visits).
CREATE TABLE visit_totals (
    link_id      BIGINT PRIMARY KEY,
    workspace_id BIGINT NOT NULL,
    visits       BIGINT NOT NULL DEFAULT 0,
    bots         BIGINT NOT NULL DEFAULT 0,
    uniques      BIGINT NOT NULL DEFAULT 0
);

-- Visits per workspace and hour: the dashboards.
CREATE TABLE workspace_visit_hours (
    workspace_id BIGINT      NOT NULL,
    hour         TIMESTAMPTZ NOT NULL,
    visits       BIGINT      NOT NULL DEFAULT 0,
    bots         BIGINT      NOT NULL DEFAULT 0,
    PRIMARY KEY (workspace_id, hour)
);
CREATE INDEX workspace_visit_hours_hour ON workspace_visit_hours (hour);

-- Reviews the moderation owes: a link whose people's visits reached a power of two (reason
-- 'visits', with that count). Written in the statement that stores the visit that reached it,
-- so it is as durable as the count; the Redis queue is fed from it and can be rebuilt from it.
-- One row per link: a later milestone before the review keeps the earlier due time.
CREATE TABLE moderation_due (
    link_id BIGINT      PRIMARY KEY,
    due_at  TIMESTAMPTZ NOT NULL,
    reason  TEXT        NOT NULL,
    visits  BIGINT      NOT NULL DEFAULT 0
);
CREATE INDEX moderation_due_due_at ON moderation_due (due_at);

-- Dashboards count the links created per day; BRIN costs creates next to nothing.
CREATE INDEX links_created_at_brin ON links USING brin (created_at);

-- The raw visits are read by workspace and time (exports) and no longer by link.
DROP INDEX visits_link_at;

-- The partitions of visits and visitors for the UTC days first .. first+days-1 that are missing.
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

-- Drops the partitions of visits whose whole day is before visits_before, and those of visitors
-- before visitors_before; returns how many tables it dropped.
-- +goose StatementBegin
CREATE FUNCTION visits_drop_partitions(visits_before DATE, visitors_before DATE) RETURNS integer
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

SELECT visits_create_partitions((now() AT TIME ZONE 'UTC')::date - 1, 9);

-- +goose Down
DROP FUNCTION visits_drop_partitions(DATE, DATE);
CREATE INDEX visits_link_at ON visits (link_id, at);
DROP INDEX links_created_at_brin;
DROP TABLE moderation_due;
DROP TABLE workspace_visit_hours;
DROP TABLE visit_totals;
DROP TABLE visit_key_days;
DROP TABLE visit_key_hours;
DROP TABLE visitors;
DROP INDEX visit_hours_hour;
ALTER TABLE visit_hours DROP COLUMN uniques;
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
    END LOOP;
END
$$;
-- +goose StatementEnd
