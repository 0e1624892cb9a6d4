-- +goose Up

-- Every recorded visit, one row each, as the ingest consumers write them from the visit stream
-- (or the nodes directly while Redis is down). Partitioned by day on the visit's time, so old
-- days are dropped whole; a row without its day's partition fails, and visits_create_partitions
-- makes them ahead. event_id makes a redelivered event a no-op: the unique key of a partitioned
-- table must hold the partition key, hence (event_id, at), and an event keeps its time.
-- visitor is a hash of the client's address and user agent salted per day: unique counts
-- within a day, no raw address. variant is -1 when the link has no variants.
CREATE TABLE visits (
    event_id     UUID        NOT NULL,
    at           TIMESTAMPTZ NOT NULL,
    link_id      BIGINT      NOT NULL,
    workspace_id BIGINT      NOT NULL,
    domain_id    BIGINT      NOT NULL,
    variant      INTEGER     NOT NULL DEFAULT -1,
    country      TEXT        NOT NULL DEFAULT '',
    device       TEXT        NOT NULL DEFAULT '',
    os           TEXT        NOT NULL DEFAULT '',
    browser      TEXT        NOT NULL DEFAULT '',
    referrer     TEXT        NOT NULL DEFAULT '',
    in_app       TEXT        NOT NULL DEFAULT '',
    bot          BOOLEAN     NOT NULL DEFAULT false,
    visitor      BYTEA       NOT NULL,
    PRIMARY KEY (event_id, at)
) PARTITION BY RANGE (at);

CREATE INDEX visits_link_at ON visits (link_id, at);
CREATE INDEX visits_workspace_at ON visits (workspace_id, at);

-- Visits per link and UTC hour, people and crawlers apart: what the series and totals read.
-- Only rows newly inserted into visits are added, in the same statement.
CREATE TABLE visit_hours (
    link_id      BIGINT      NOT NULL,
    hour         TIMESTAMPTZ NOT NULL,
    workspace_id BIGINT      NOT NULL,
    visits       BIGINT      NOT NULL DEFAULT 0,
    bots         BIGINT      NOT NULL DEFAULT 0,
    PRIMARY KEY (link_id, hour)
);

CREATE INDEX visit_hours_workspace_hour ON visit_hours (workspace_id, hour);

-- Creates the daily partitions of visits for the UTC days first .. first+days-1 that are
-- missing. Callers run it at once from several nodes: the lock makes them take turns.
-- +goose StatementBegin
CREATE FUNCTION visits_create_partitions(first DATE, days INTEGER) RETURNS void
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

SELECT visits_create_partitions((now() AT TIME ZONE 'UTC')::date - 1, 9);

-- +goose Down
DROP FUNCTION visits_create_partitions(DATE, INTEGER);
DROP TABLE visit_hours;
DROP TABLE visits;
