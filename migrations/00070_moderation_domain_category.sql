-- +goose Up

-- A moderator's ban of a whole domain names the category every link banned under it is shown
-- (one of a link ban's standard reasons: phishing, malware, scam, spam, adult, cloaking, other).
-- Bans made before it were all shown as phishing, and keep that; a cleared domain has none.
ALTER TABLE moderation_domains ADD COLUMN category TEXT NOT NULL DEFAULT ''
    CHECK (category IN ('', 'phishing', 'malware', 'scam', 'spam', 'adult', 'cloaking', 'other'));
UPDATE moderation_domains SET category = 'phishing' WHERE state = 'banned';

-- +goose Down
ALTER TABLE moderation_domains DROP COLUMN category;
