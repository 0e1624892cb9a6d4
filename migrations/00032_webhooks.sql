-- +goose Up

-- A workspace's webhooks. The secret is kept as it is (it signs every delivery, so it cannot
-- be hashed); the API shows it once, at creation.
CREATE TABLE webhooks (
    id               BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    workspace_id     BIGINT      NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    url              TEXT        NOT NULL,
    events           TEXT[]      NOT NULL,
    secret           TEXT        NOT NULL,
    enabled          BOOLEAN     NOT NULL DEFAULT true,
    -- Deliveries that failed (every retry spent) since the last one delivered.
    failures_in_row  INT         NOT NULL DEFAULT 0,
    disabled_at      TIMESTAMPTZ,
    created_at       TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at       TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX webhooks_workspace_id ON webhooks (workspace_id, id);

-- The outbox and the delivery log in one: a row is one message to one webhook, written in
-- the transaction of the change it reports (link creates, edits and deletes) or right after
-- (clicks, bans, domains, imports). Dispatchers on every node claim due rows with
-- FOR UPDATE SKIP LOCKED and a lease (lease_until); a node that dies mid-send leaves its
-- rows to be claimed again when the lease ends.
CREATE TABLE webhook_deliveries (
    id            BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    webhook_id    BIGINT      NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    workspace_id  BIGINT      NOT NULL,
    -- The message's id (webhook-id), the same on every attempt.
    message_id    TEXT        NOT NULL DEFAULT 'msg_' || replace(gen_random_uuid()::text, '-', ''),
    event         TEXT        NOT NULL,
    created_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
    data          JSONB       NOT NULL,
    -- link.clicked: the second (Unix time) whose clicks the row gathers, and how many.
    click_second  BIGINT,
    clicks        INT         NOT NULL DEFAULT 0,
    status        TEXT        NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
    attempt       INT         NOT NULL DEFAULT 0,
    next_at       TIMESTAMPTZ NOT NULL DEFAULT now(),
    lease_until   TIMESTAMPTZ,
    response_code INT,
    error         TEXT        NOT NULL DEFAULT '',
    at            TIMESTAMPTZ NOT NULL DEFAULT now()
);
-- The dispatchers' claim.
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_at) WHERE status = 'pending';
-- The delivery log of a webhook, newest first.
CREATE INDEX webhook_deliveries_webhook ON webhook_deliveries (webhook_id, id DESC);
-- The hourly purge of the log (delivered and failed rows past 30 days).
CREATE INDEX webhook_deliveries_at ON webhook_deliveries (at) WHERE status <> 'pending';
-- One batch of clicks per webhook and second.
CREATE UNIQUE INDEX webhook_deliveries_clicks ON webhook_deliveries (webhook_id, click_second)
    WHERE click_second IS NOT NULL;

-- +goose Down
DROP TABLE webhook_deliveries;
DROP TABLE webhooks;
