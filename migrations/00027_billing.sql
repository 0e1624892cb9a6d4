-- +goose Up

-- A workspace's Stripe subscription, as the webhook's events built it (docs/rules-and-plans.md). One row per
-- workspace: a new subscription replaces the one before. last_event_at is the creation time of
-- the newest event applied to subscription_id: an older one changes nothing.
CREATE TABLE workspace_billing (
    workspace_id         BIGINT PRIMARY KEY REFERENCES workspaces (id) ON DELETE CASCADE,
    customer_id          TEXT NOT NULL DEFAULT '',
    subscription_id      TEXT NOT NULL DEFAULT '',
    plan                 TEXT NOT NULL DEFAULT '' CHECK (plan IN ('', 'personal', 'enterprise')),
    billing_interval     TEXT NOT NULL DEFAULT '' CHECK (billing_interval IN ('', 'month', 'year')),
    status               TEXT NOT NULL DEFAULT 'none' CHECK (status IN ('none', 'active', 'past_due', 'canceled')),
    current_period_end   TIMESTAMPTZ,
    cancel_at_period_end BOOLEAN NOT NULL DEFAULT false,
    past_due_since       TIMESTAMPTZ,
    last_event_at        TIMESTAMPTZ,
    updated_at           TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX workspace_billing_customer_idx ON workspace_billing (customer_id) WHERE customer_id <> '';
CREATE INDEX workspace_billing_subscription_idx ON workspace_billing (subscription_id) WHERE subscription_id <> '';

-- Every Stripe event applied (or acknowledged and ignored), by ID: a replay changes nothing.
CREATE TABLE billing_events (
    id           TEXT PRIMARY KEY,
    type         TEXT NOT NULL,
    workspace_id BIGINT REFERENCES workspaces (id) ON DELETE SET NULL,
    created_at   TIMESTAMPTZ NOT NULL,
    applied_at   TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- The plan a subscription grants, read with the workspace's own plan: billed_plan while
-- billed_until has not passed (NULL: no end), then the workspace's own plan again. Written by
-- the webhook with the subscription; '' when billing grants nothing.
ALTER TABLE workspaces ADD COLUMN billed_plan TEXT NOT NULL DEFAULT ''
    CHECK (billed_plan IN ('', 'free', 'personal', 'enterprise'));
ALTER TABLE workspaces ADD COLUMN billed_until TIMESTAMPTZ;

-- +goose Down
ALTER TABLE workspaces DROP COLUMN billed_until;
ALTER TABLE workspaces DROP COLUMN billed_plan;
DROP TABLE billing_events;
DROP TABLE workspace_billing;
