-- +goose Up

-- A link's own QR style (docs/api.md#a-links-saved-qr-style): {"fg","bg","ec","logo"}, what the
-- link's image route draws when its request names no style of its own. NULL for every link
-- without one (the default black on white), so adding the column rewrites nothing and a new
-- link without a style writes nothing more than before.
ALTER TABLE links ADD COLUMN IF NOT EXISTS qr_style JSONB;

-- +goose Down
ALTER TABLE links DROP COLUMN IF EXISTS qr_style;
