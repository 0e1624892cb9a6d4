-- +goose Up

-- Verdicts shared by destination and host reputation. Every review records the destination as
-- moderation normalises it (tracking parameters dropped, the rest sorted) and its registrable
-- domain (public suffix list, private section included). A review that took another one's
-- verdict instead of opening the browser names it in shared_from; it has no captures.
ALTER TABLE link_reviews ADD COLUMN destination TEXT NOT NULL DEFAULT '';
ALTER TABLE link_reviews ADD COLUMN domain TEXT NOT NULL DEFAULT '';
ALTER TABLE link_reviews ADD COLUMN shared_from BIGINT REFERENCES link_reviews (id) ON DELETE SET NULL;
ALTER TABLE link_reviews ADD COLUMN shared_how TEXT NOT NULL DEFAULT ''
    CHECK (shared_how IN ('', 'destination', 'domain'));
-- The recent reviews of a destination that opened the browser: the ones shared.
CREATE INDEX link_reviews_destination ON link_reviews (destination, created_at DESC)
    WHERE destination <> '' AND shared_from IS NULL AND shared_how = '';
-- A domain's recent verdicts: its reputation.
CREATE INDEX link_reviews_domain ON link_reviews (domain, id DESC) WHERE domain <> '';

-- What a link's owner is told of a shared review: the review and its link only when they are
-- in the link's own workspace, and always when the shared review was made.
ALTER TABLE link_moderation ADD COLUMN shared_review_id BIGINT;
ALTER TABLE link_moderation ADD COLUMN shared_link_id BIGINT;
ALTER TABLE link_moderation ADD COLUMN shared_at TIMESTAMPTZ;

-- A moderator's decision on a whole registrable domain: banned (its new links are banned at
-- once) or cleared (its record of phishing bans no longer holds its new links).
CREATE TABLE moderation_domains (
    domain     TEXT PRIMARY KEY,
    state      TEXT        NOT NULL CHECK (state IN ('banned', 'cleared')),
    note       TEXT        NOT NULL DEFAULT '',
    actor_id   BIGINT      REFERENCES users (id) ON DELETE SET NULL,
    updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
-- Such decisions go to the moderators' audit log, with link 0 and the domain named.
ALTER TABLE moderation_decisions ADD COLUMN domain TEXT NOT NULL DEFAULT '';
ALTER TABLE moderation_decisions DROP CONSTRAINT moderation_decisions_action_check;
ALTER TABLE moderation_decisions ADD CONSTRAINT moderation_decisions_action_check
    CHECK (action IN ('pass', 'flag', 'ban', 'approve', 'unban', 'ban_domain', 'clear_domain'));

-- +goose Down
DELETE FROM moderation_decisions WHERE action IN ('ban_domain', 'clear_domain');
ALTER TABLE moderation_decisions DROP CONSTRAINT moderation_decisions_action_check;
ALTER TABLE moderation_decisions ADD CONSTRAINT moderation_decisions_action_check
    CHECK (action IN ('pass', 'flag', 'ban', 'approve', 'unban'));
ALTER TABLE moderation_decisions DROP COLUMN domain;
DROP TABLE moderation_domains;
ALTER TABLE link_moderation DROP COLUMN shared_at;
ALTER TABLE link_moderation DROP COLUMN shared_link_id;
ALTER TABLE link_moderation DROP COLUMN shared_review_id;
DROP INDEX link_reviews_domain;
DROP INDEX link_reviews_destination;
ALTER TABLE link_reviews DROP COLUMN shared_how;
ALTER TABLE link_reviews DROP COLUMN shared_from;
ALTER TABLE link_reviews DROP COLUMN domain;
ALTER TABLE link_reviews DROP COLUMN destination;
