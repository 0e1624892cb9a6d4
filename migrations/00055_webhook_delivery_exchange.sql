-- +goose Up

-- What a delivery's last attempt sent and got back (docs/api.md, "Webhooks"): the request's
-- headers (the signature reduced to its scheme; the body is rebuilt from the row's event and
-- data, byte for byte what was sent), the receiver's Content-Type and the first 4 KiB of its
-- answer as text, marked truncated when it was longer. The rows keep their retention: the
-- hourly purge removes these with them. resent_from names the delivery a resend sent again; no
-- foreign key, so the purge of an original needs no look-up of its resends and leaves the id.
ALTER TABLE webhook_deliveries
    ADD COLUMN request_headers       JSONB,
    ADD COLUMN response_body         TEXT    NOT NULL DEFAULT '' CHECK (octet_length(response_body) <= 4096),
    ADD COLUMN response_truncated    BOOLEAN NOT NULL DEFAULT false,
    ADD COLUMN response_content_type TEXT    NOT NULL DEFAULT '',
    ADD COLUMN resent_from           BIGINT;

-- +goose Down
ALTER TABLE webhook_deliveries
    DROP COLUMN request_headers,
    DROP COLUMN response_body,
    DROP COLUMN response_truncated,
    DROP COLUMN response_content_type,
    DROP COLUMN resent_from;
