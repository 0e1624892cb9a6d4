-- +goose Up

-- A moderator's decision says two things: a private note for the moderators and operators
-- (note), and a reason shown to the link's owner: a standard one the web app translates
-- (reason: phishing, malware, scam, spam, adult, cloaking, other) and words of the moderator's
-- own (reason_text). A link's state keeps what its owner is shown in link_moderation's
-- category (the standard reason, or the scorer's category) and reason (the words).
ALTER TABLE moderation_decisions
    ADD COLUMN reason      TEXT NOT NULL DEFAULT '',
    ADD COLUMN reason_text TEXT NOT NULL DEFAULT '';

-- Notes written before were shown to owners as the reason; from now on they stay private. A
-- link whose reason is a moderator's note shows its category and a general text instead, and
-- an appeal's resolution keeps only the deciding action.
UPDATE link_moderation lm SET reason = ''
WHERE lm.reason <> '' AND EXISTS (
    SELECT 1 FROM moderation_decisions d
    WHERE d.link_id = lm.link_id AND d.action IN ('approve', 'ban', 'unban') AND d.note = lm.reason);
UPDATE moderation_appeals SET resolution = split_part(resolution, ':', 1)
WHERE resolution LIKE '%:%';

-- The desk's tab of open appeals reads the latest appealed first, by (created_at, link_id)
-- both ways (its cursor too), backwards down this index.
CREATE INDEX moderation_appeals_open ON moderation_appeals (created_at, link_id)
    WHERE resolved_at IS NULL;

-- +goose Down
DROP INDEX moderation_appeals_open;
ALTER TABLE moderation_decisions DROP COLUMN reason_text, DROP COLUMN reason;
