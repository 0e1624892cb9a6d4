-- +goose Up

-- Link health (docs/api.md#link-health): one row per link once the sweep has seen it, about the
-- destination in url. A link without a row (new) or whose url is no longer the link's
-- (destination changed) has no health yet: the sweep gives it a row due at once, so that a
-- link's create costs no statement more.
CREATE TABLE link_health (
    link_id      BIGINT      PRIMARY KEY REFERENCES links (id) ON DELETE CASCADE,
    workspace_id BIGINT      NOT NULL,
    -- The destination checked, and its host (the per-host budgets and the claim's spread).
    url          TEXT        NOT NULL,
    host         TEXT        NOT NULL DEFAULT '',
    state        TEXT        NOT NULL DEFAULT 'unknown' CHECK (state IN ('unknown', 'ok', 'broken')),
    -- Checks failed in a row; two make the link broken.
    failures     INT         NOT NULL DEFAULT 0,
    status       INT,
    error        TEXT        NOT NULL DEFAULT '',
    detail       TEXT        NOT NULL DEFAULT '',
    checked_at   TIMESTAMPTZ,
    -- When the link last became broken: the digest lists those broken since the last one.
    broken_at    TIMESTAMPTZ,
    -- When the link is due; a checker's claim moves it to the end of its lease, so a checker
    -- that dies leaves the link due again then.
    next_at      TIMESTAMPTZ NOT NULL DEFAULT now()
);
-- The checkers' claim.
CREATE INDEX link_health_due ON link_health (next_at);
-- GET …/links?health=broken and the digests, by workspace, newest link first.
CREATE INDEX link_health_broken ON link_health (workspace_id, link_id DESC) WHERE state = 'broken';
-- The digests: a workspace's links broken since its last digest.
CREATE INDEX link_health_broken_at ON link_health (workspace_id, broken_at) WHERE state = 'broken';
-- GET …/links?health=ok.
CREATE INDEX link_health_ok ON link_health (workspace_id, link_id DESC) WHERE state = 'ok';

-- Where the sweep that gives links their rows has reached (one row, shared by every node:
-- a node takes it with FOR UPDATE SKIP LOCKED).
CREATE TABLE link_health_sweep (
    id       INT         PRIMARY KEY CHECK (id = 1),
    after_id BIGINT      NOT NULL DEFAULT 0,
    swept_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
INSERT INTO link_health_sweep (id) VALUES (1);

-- The last digest of broken links mailed to a workspace's owners, recorded before it is
-- mailed (a restart never sends it twice); previous_at is the one before, which the digest
-- counts from, and which a mail that failed makes the last again.
CREATE TABLE link_health_digests (
    workspace_id BIGINT      PRIMARY KEY REFERENCES workspaces (id) ON DELETE CASCADE,
    sent_at      TIMESTAMPTZ NOT NULL,
    previous_at  TIMESTAMPTZ
);

-- +goose Down
DROP TABLE link_health_digests;
DROP TABLE link_health_sweep;
DROP TABLE link_health;
