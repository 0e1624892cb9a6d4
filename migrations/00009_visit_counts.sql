-- +goose Up

-- How many people passed each link that has a visit cap (max_visits): the durable side of the
-- counter that Redis keeps for every node. Nodes write the totals they counted about once a
-- second, never lowering one; while Redis is down they count here directly. A Redis that lost
-- its keys is seeded from these rows. No foreign key: a link's ID is never issued again, so the
-- row of a deleted link is harmless, and counting must not wait on the links table.
CREATE TABLE visit_counts (
    link_id BIGINT PRIMARY KEY,
    visits  BIGINT NOT NULL CHECK (visits >= 0)
);

-- +goose Down
DROP TABLE visit_counts;
