-- +goose Up

-- The language a person reads Shortlink's mails in (docs/web-app.md#language-errors-and-confirmations): set at sign-up
-- from the web app's language or the browser's, and changed with PATCH /api/v1/me. A constant
-- default adds the column without rewriting the table.
ALTER TABLE users ADD COLUMN language TEXT NOT NULL DEFAULT 'en' CHECK (language IN ('en', 'zh'));

-- +goose Down
ALTER TABLE users DROP COLUMN language;
