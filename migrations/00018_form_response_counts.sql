-- +goose Up

-- How many answers each link's form has kept, so that the cap on them (link.MaxFormResponses)
-- is checked and taken in one statement with the insert, without counting the answers: the
-- row is locked by the update, so concurrent posts to one link cannot pass the cap. It goes
-- with its link.
CREATE TABLE form_response_counts (
    link_id BIGINT PRIMARY KEY REFERENCES links (id) ON DELETE CASCADE,
    n       BIGINT NOT NULL CHECK (n >= 0)
);
INSERT INTO form_response_counts (link_id, n)
SELECT link_id, count(*) FROM form_responses GROUP BY link_id;

-- +goose Down
DROP TABLE form_response_counts;
