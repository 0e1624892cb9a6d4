-- +goose Up

-- What a link's owner is told of its moderation (docs/moderation.md#what-the-owner-is-told): who
-- decided its state ('review': the automatic review; 'moderator'; 'domain': its domain's
-- record or a moderator's ban of the whole domain) and a reason code the web app translates
-- (a signal of the rules, a category, 'domain_banned', 'domain_record', 'incomplete', or a
-- moderator's standard reason), and the words a moderator gave the owner (owner_text). The
-- scorer's own words stay in reason, for moderators only.
ALTER TABLE link_moderation
    ADD COLUMN decided_by  TEXT NOT NULL DEFAULT 'review' CHECK (decided_by IN ('review', 'moderator', 'domain')),
    ADD COLUMN reason_code TEXT NOT NULL DEFAULT '',
    ADD COLUMN owner_text  TEXT NOT NULL DEFAULT '';

-- Links whose latest decision was a moderator's; links the worker banned on their domain.
UPDATE link_moderation lm SET decided_by = 'moderator', reason_code = last.reason, owner_text = lm.reason
FROM (SELECT DISTINCT ON (link_id) link_id, actor_id, reason FROM moderation_decisions
      WHERE link_id <> 0 ORDER BY link_id, id DESC) last
WHERE last.link_id = lm.link_id AND last.actor_id IS NOT NULL;
UPDATE link_moderation lm SET decided_by = 'domain',
    reason_code = CASE WHEN r.shared_from IS NULL THEN 'domain_banned' ELSE 'domain_record' END
FROM (SELECT DISTINCT ON (link_id) link_id, shared_how, shared_from FROM link_reviews
      ORDER BY link_id, id DESC) r
WHERE r.link_id = lm.link_id AND r.shared_how = 'domain' AND lm.decided_by = 'review';

-- An appeal's answer: upheld (approved or unbanned) or rejected (the ban kept, or banned), and
-- the moderator's words to the owner.
ALTER TABLE moderation_appeals
    ADD COLUMN outcome TEXT NOT NULL DEFAULT '' CHECK (outcome IN ('', 'upheld', 'rejected')),
    ADD COLUMN answer  TEXT NOT NULL DEFAULT '';
UPDATE moderation_appeals SET outcome = CASE WHEN resolution LIKE 'ban%' THEN 'rejected' ELSE 'upheld' END
WHERE resolved_at IS NOT NULL;

-- A moderator keeps a banned link's ban, answering its appeal (action keep_ban).
ALTER TABLE moderation_decisions DROP CONSTRAINT moderation_decisions_action_check;
ALTER TABLE moderation_decisions ADD CONSTRAINT moderation_decisions_action_check
    CHECK (action IN ('pass', 'flag', 'ban', 'approve', 'unban', 'keep_ban', 'ban_domain', 'clear_domain'));

-- +goose Down
DELETE FROM moderation_decisions WHERE action = 'keep_ban';
ALTER TABLE moderation_decisions DROP CONSTRAINT moderation_decisions_action_check;
ALTER TABLE moderation_decisions ADD CONSTRAINT moderation_decisions_action_check
    CHECK (action IN ('pass', 'flag', 'ban', 'approve', 'unban', 'ban_domain', 'clear_domain'));
ALTER TABLE moderation_appeals DROP COLUMN answer, DROP COLUMN outcome;
ALTER TABLE link_moderation DROP COLUMN owner_text, DROP COLUMN reason_code, DROP COLUMN decided_by;
