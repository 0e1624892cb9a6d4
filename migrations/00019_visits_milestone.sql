-- +goose Up

-- The rule that queues a link for another review as people's visits grow (Go's
-- moderation.Milestone, which the tests compare it with): going from before to after visits
-- reached a power of two, that is after has more binary digits than before. A plain SQL
-- function, inlined by the planner into the visit ingest statement.
CREATE FUNCTION visits_milestone(before BIGINT, after BIGINT) RETURNS BOOLEAN
LANGUAGE SQL IMMUTABLE PARALLEL SAFE
RETURN after > before AND before >= 0
    AND length(ltrim(after::bit(64)::text, '0')) > length(ltrim(before::bit(64)::text, '0'));

-- +goose Down
DROP FUNCTION visits_milestone(BIGINT, BIGINT);
