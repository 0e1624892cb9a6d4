-- +goose Up

-- A link's rules (password, visit cap, geo, targets, variants, guide, form, Open Graph) as one
-- value, decided on by one function on the redirect path; NULL when the link has none.
ALTER TABLE links ADD COLUMN rules JSONB;

-- +goose Down
ALTER TABLE links DROP COLUMN rules;
