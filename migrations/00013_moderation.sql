-- +goose Up

-- What the moderation owes, durably: one row per link due for a review (moderation_due, made by
-- 00012), fed by the visit ingest (a power of two of people's visits), by the worker's scan of
-- new links (reason 'created'), by the first visit after a target change ('target_changed'), and
-- by moderators asking again. The Redis sorted set workers claim from is rebuilt from it. seq
-- changes with every new reason to review, so that a review finishing removes the row only when
-- nothing asked again while it ran.
ALTER TABLE moderation_due
    ADD COLUMN seq        BIGINT NOT NULL DEFAULT 1,
    ADD COLUMN attempts   INTEGER NOT NULL DEFAULT 0,
    ADD COLUMN last_error TEXT NOT NULL DEFAULT '';

-- The moderation state of each link that has one; a link without a row is 'pending'.
-- reviewed_url is the destination the last review saw: a visit after the target changed makes
-- the link due again.
CREATE TABLE link_moderation (
    link_id      BIGINT PRIMARY KEY,
    workspace_id BIGINT      NOT NULL,
    state        TEXT        NOT NULL CHECK (state IN ('pending', 'passed', 'flagged', 'banned')),
    score        REAL,
    category     TEXT        NOT NULL DEFAULT '',
    reason       TEXT        NOT NULL DEFAULT '',
    reviewed_url TEXT        NOT NULL DEFAULT '',
    reviewed_at  TIMESTAMPTZ,
    updated_at   TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX link_moderation_state ON link_moderation (state, updated_at DESC, link_id);

-- Every review the worker made: what it saw and what the scorer said.
CREATE TABLE link_reviews (
    id           BIGSERIAL PRIMARY KEY,
    link_id      BIGINT      NOT NULL,
    workspace_id BIGINT      NOT NULL,
    url          TEXT        NOT NULL,
    trigger      TEXT        NOT NULL,
    score        REAL        NOT NULL,
    category     TEXT        NOT NULL,
    reason       TEXT        NOT NULL,
    scorer       TEXT        NOT NULL CHECK (scorer IN ('model', 'heuristic')),
    model        TEXT        NOT NULL DEFAULT '',
    notes        TEXT[]      NOT NULL DEFAULT '{}',
    duration_ms  INTEGER     NOT NULL,
    created_at   TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX link_reviews_link ON link_reviews (link_id, id DESC);

-- What each visitor profile saw in a review; the screenshot as PNG.
CREATE TABLE review_captures (
    review_id   BIGINT  NOT NULL REFERENCES link_reviews (id) ON DELETE CASCADE,
    profile     TEXT    NOT NULL CHECK (profile IN ('desktop', 'mobile', 'wechat')),
    url         TEXT    NOT NULL,
    final_url   TEXT    NOT NULL DEFAULT '',
    redirects   TEXT[]  NOT NULL DEFAULT '{}',
    status      INTEGER NOT NULL DEFAULT 0,
    title       TEXT    NOT NULL DEFAULT '',
    description TEXT    NOT NULL DEFAULT '',
    text        TEXT    NOT NULL DEFAULT '',
    forms       JSONB   NOT NULL DEFAULT '[]',
    error       TEXT    NOT NULL DEFAULT '',
    duration_ms INTEGER NOT NULL DEFAULT 0,
    screenshot  BYTEA,
    PRIMARY KEY (review_id, profile)
);

-- Every decision on a link, automatic (actor_id NULL: the worker's) or a moderator's: the
-- operators' audit log.
CREATE TABLE moderation_decisions (
    id           BIGSERIAL PRIMARY KEY,
    link_id      BIGINT      NOT NULL,
    workspace_id BIGINT      NOT NULL,
    actor_id     BIGINT      REFERENCES users (id) ON DELETE SET NULL,
    action       TEXT        NOT NULL CHECK (action IN ('pass', 'flag', 'ban', 'approve', 'unban')),
    state        TEXT        NOT NULL,
    note         TEXT        NOT NULL DEFAULT '',
    review_id    BIGINT      REFERENCES link_reviews (id) ON DELETE SET NULL,
    created_at   TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX moderation_decisions_link ON moderation_decisions (link_id, id DESC);
CREATE INDEX moderation_decisions_created ON moderation_decisions (created_at DESC, id DESC);

-- An owner's appeal of a ban or flag: one per link.
CREATE TABLE moderation_appeals (
    link_id      BIGINT PRIMARY KEY,
    workspace_id BIGINT      NOT NULL,
    user_id      BIGINT      REFERENCES users (id) ON DELETE SET NULL,
    message      TEXT        NOT NULL,
    created_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
    resolved_at  TIMESTAMPTZ,
    resolution   TEXT        NOT NULL DEFAULT ''
);

-- +goose Down
DROP TABLE moderation_appeals;
DROP TABLE moderation_decisions;
DROP TABLE review_captures;
DROP TABLE link_reviews;
DROP TABLE link_moderation;
ALTER TABLE moderation_due DROP COLUMN last_error, DROP COLUMN attempts, DROP COLUMN seq;
