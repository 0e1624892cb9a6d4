-- +goose Up

-- A held link: made while its destination's domain stood banned for phishing (or by a
-- moderator), it answers the warning page from its creation until its own review bans it or
-- releases it (status back to active). Owners cannot change a held link's status.
ALTER TABLE links DROP CONSTRAINT links_status_check;
ALTER TABLE links ADD CONSTRAINT links_status_check
    CHECK (status IN ('active', 'disabled', 'banned', 'held')) NOT VALID;
ALTER TABLE links VALIDATE CONSTRAINT links_status_check;

-- The domains whose new links are held: a domain's newest review that opened the browser banned
-- a page for phishing, none of its recent ones passed, and no moderator cleared it. Kept by the
-- recording of each review in the browser (in its transaction), read by every create. until is
-- when that ban leaves the domain's record (MODERATION_VERDICT_TTL after it).
CREATE TABLE moderation_holds (
    domain     TEXT PRIMARY KEY,
    review_id  BIGINT      REFERENCES link_reviews (id) ON DELETE SET NULL,
    until      TIMESTAMPTZ NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- The held links, whatever their age: the worker's scan makes each due (reason 'held').
CREATE INDEX links_held ON links (id) WHERE status = 'held';

-- +goose Down
DROP INDEX links_held;
DROP TABLE moderation_holds;
-- Never fail open: a link still held is banned (a moderator lifts that).
UPDATE links SET status = 'banned', updated_at = greatest(now(), updated_at + interval '1 microsecond')
    WHERE status = 'held';
ALTER TABLE links DROP CONSTRAINT links_status_check;
ALTER TABLE links ADD CONSTRAINT links_status_check CHECK (status IN ('active', 'disabled', 'banned'));
