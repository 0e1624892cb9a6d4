-- +goose Up

-- The moderators' queue of links waiting for their first review reads the latest due first, by
-- (due_at, link_id) both ways (its cursor too): an index in that order answers a page without a
-- sort, where the one on due_at alone left PostgreSQL to sort links due at the same moment (a
-- batch's hundreds), and with poor estimates to sort the whole table.
CREATE INDEX moderation_due_queue ON moderation_due (due_at, link_id);
DROP INDEX moderation_due_due_at;

-- +goose Down
CREATE INDEX moderation_due_due_at ON moderation_due (due_at);
DROP INDEX moderation_due_queue;
