-- +goose Up

-- The campaign a visit came from: the utm_source, utm_medium and utm_campaign parameters of the
-- short link's query string ('' when absent). The breakdowns count them under the dimensions
-- s (source), m (medium) and n (campaign name) of visit_key_hours and visit_key_days, which need
-- no change. A column with a constant default is added without rewriting the partitions.
ALTER TABLE visits
    ADD COLUMN utm_source   TEXT NOT NULL DEFAULT '',
    ADD COLUMN utm_medium   TEXT NOT NULL DEFAULT '',
    ADD COLUMN utm_campaign TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE visits DROP COLUMN utm_campaign, DROP COLUMN utm_medium, DROP COLUMN utm_source;
