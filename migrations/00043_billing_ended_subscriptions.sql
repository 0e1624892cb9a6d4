-- +goose Up

-- Subscriptions that ended (deleted, or a status Stripe never leaves): final, so no later event
-- about one grants a plan again, whatever its creation time, even once the workspace holds
-- another subscription (billing.Apply; docs/rules-and-plans.md, "Billing on Stripe"). ended_at
-- is the creation time of the event that ended it.
CREATE TABLE billing_ended_subscriptions (
    workspace_id    BIGINT NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    subscription_id TEXT NOT NULL,
    ended_at        TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (workspace_id, subscription_id)
);

INSERT INTO billing_ended_subscriptions (workspace_id, subscription_id, ended_at)
SELECT workspace_id, subscription_id, COALESCE(last_event_at, updated_at)
FROM workspace_billing WHERE status = 'canceled' AND subscription_id <> '';

-- +goose Down
DROP TABLE billing_ended_subscriptions;
