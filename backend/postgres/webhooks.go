package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/shortlink/shortlink/backend/locale"
	"github.com/shortlink/shortlink/backend/webhook"
)

// WebhookStore implements webhook.Store: the webhooks table and the outbox of their
// deliveries (webhook_deliveries).
type WebhookStore struct{ db *DB }

// NewWebhookStore returns the PostgreSQL store of webhooks.
func NewWebhookStore(db *DB) *WebhookStore { return &WebhookStore{db: db} }

var _ webhook.Store = (*WebhookStore)(nil)

// webhookLinkData is a link's data in the webhook events of links, from a row named l.
const webhookLinkData = `jsonb_build_object('link', jsonb_build_object('id', l.id, 'workspace_id', l.workspace_id,
	'domain_id', l.domain_id, 'code', l.key, 'is_alias', l.is_alias, 'url', l.url, 'title', l.title,
	'status', l.status, 'expires_at', l.expires_at, 'qr', l.qr_style, 'created_at', l.created_at, 'updated_at', l.updated_at))`

// linkOutbox is a common table expression that writes event into the outbox of every
// enabled webhook subscribed to it, for each link of the expression l before it: the
// deliveries are written in the statement, so in the transaction, of the change.
func linkOutbox(event string) string {
	return `, outbox AS (INSERT INTO webhook_deliveries (webhook_id, workspace_id, event, data)
		SELECT w.id, w.workspace_id, '` + event + `', ` + webhookLinkData + `
		FROM l JOIN webhooks w ON w.workspace_id = l.workspace_id AND w.enabled AND '` + event + `' = ANY (w.events))`
}

const webhookColumns = `id, workspace_id, url, events, secret, enabled, failures_in_row, created_at`

func scanWebhook(row pgx.Row) (*webhook.Webhook, error) {
	var w webhook.Webhook
	if err := row.Scan(&w.ID, &w.WorkspaceID, &w.URL, &w.Events, &w.Secret, &w.Enabled, &w.FailuresInRow, &w.CreatedAt); err != nil {
		return nil, err
	}
	return &w, nil
}

// Create implements webhook.Store.
func (s *WebhookStore) Create(ctx context.Context, w *webhook.Webhook) error {
	err := s.db.Pool.QueryRow(ctx, `INSERT INTO webhooks (workspace_id, url, events, secret)
		VALUES ($1, $2, $3, $4) RETURNING id, enabled, created_at`,
		w.WorkspaceID, w.URL, w.Events, w.Secret).Scan(&w.ID, &w.Enabled, &w.CreatedAt)
	if err != nil {
		if isForeignKeyViolation(err) {
			return fmt.Errorf("create webhook: %w", notFound(pgx.ErrNoRows, "workspace"))
		}
		return fmt.Errorf("create webhook: %w", err)
	}
	return nil
}

// List implements webhook.Store.
func (s *WebhookStore) List(ctx context.Context, workspaceID int64) ([]webhook.Webhook, error) {
	rows, err := s.db.Pool.Query(ctx, `SELECT `+webhookColumns+` FROM webhooks WHERE workspace_id = $1 ORDER BY id`, workspaceID)
	if err != nil {
		return nil, fmt.Errorf("list webhooks: %w", err)
	}
	defer rows.Close()
	out := []webhook.Webhook{}
	for rows.Next() {
		w, err := scanWebhook(rows)
		if err != nil {
			return nil, fmt.Errorf("list webhooks: %w", err)
		}
		out = append(out, *w)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list webhooks: %w", err)
	}
	return out, nil
}

// Get implements webhook.Store.
func (s *WebhookStore) Get(ctx context.Context, workspaceID, id int64) (*webhook.Webhook, error) {
	w, err := scanWebhook(s.db.Pool.QueryRow(ctx, `SELECT `+webhookColumns+` FROM webhooks WHERE workspace_id = $1 AND id = $2`, workspaceID, id))
	if err != nil {
		return nil, fmt.Errorf("get webhook: %w", notFound(err, "webhook"))
	}
	return w, nil
}

// Update implements webhook.Store. Enabling a webhook clears its count of failures.
func (s *WebhookStore) Update(ctx context.Context, workspaceID, id int64, p webhook.Patch) (*webhook.Webhook, error) {
	w, err := scanWebhook(s.db.Pool.QueryRow(ctx, `UPDATE webhooks SET
			url = coalesce($3, url),
			events = coalesce($4, events),
			failures_in_row = CASE WHEN $5::bool AND NOT enabled THEN 0 ELSE failures_in_row END,
			disabled_at = CASE WHEN $5::bool THEN NULL WHEN NOT $5::bool AND enabled THEN now() ELSE disabled_at END,
			enabled = coalesce($5, enabled),
			updated_at = now()
		WHERE workspace_id = $1 AND id = $2 RETURNING `+webhookColumns,
		workspaceID, id, p.URL, p.Events, p.Enabled))
	if err != nil {
		return nil, fmt.Errorf("update webhook: %w", notFound(err, "webhook"))
	}
	return w, nil
}

// Delete implements webhook.Store; the webhook's deliveries go with it.
func (s *WebhookStore) Delete(ctx context.Context, workspaceID, id int64) error {
	tag, err := s.db.Pool.Exec(ctx, `DELETE FROM webhooks WHERE workspace_id = $1 AND id = $2`, workspaceID, id)
	if err != nil {
		return fmt.Errorf("delete webhook: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("delete webhook: %w", notFound(pgx.ErrNoRows, "webhook"))
	}
	return nil
}

const deliveryColumns = `d.id, d.webhook_id, d.workspace_id, d.message_id, d.event, d.created_at, d.data,
	d.attempt, d.status, d.response_code, d.error, d.at,
	d.request_headers, d.response_body, d.response_truncated, d.response_content_type, d.resent_from`

func scanDelivery(row pgx.Row, extra ...any) (*webhook.Delivery, error) {
	var d webhook.Delivery
	var data, headers []byte
	var code *int32
	dest := append([]any{&d.ID, &d.WebhookID, &d.WorkspaceID, &d.MessageID, &d.Event, &d.CreatedAt, &data,
		&d.Attempt, &d.Status, &code, &d.Error, &d.At,
		&headers, &d.Answer, &d.AnswerTruncated, &d.AnswerContentType, &d.ResentFrom}, extra...)
	if err := row.Scan(dest...); err != nil {
		return nil, err
	}
	d.Data = json.RawMessage(data)
	if code != nil {
		c := int(*code)
		d.ResponseCode = &c
	}
	if headers != nil {
		if err := json.Unmarshal(headers, &d.RequestHeaders); err != nil {
			return nil, fmt.Errorf("delivery %d request headers: %w", d.ID, err)
		}
	}
	return &d, nil
}

// Deliveries implements webhook.Store.
func (s *WebhookStore) Deliveries(ctx context.Context, workspaceID, id int64, limit int) ([]webhook.Delivery, error) {
	if _, err := s.Get(ctx, workspaceID, id); err != nil {
		return nil, err
	}
	rows, err := s.db.Pool.Query(ctx, `SELECT `+deliveryColumns+` FROM webhook_deliveries d
		WHERE d.workspace_id = $1 AND d.webhook_id = $2 ORDER BY d.id DESC LIMIT $3`, workspaceID, id, limit)
	if err != nil {
		return nil, fmt.Errorf("list webhook deliveries: %w", err)
	}
	defer rows.Close()
	out := []webhook.Delivery{}
	for rows.Next() {
		d, err := scanDelivery(rows)
		if err != nil {
			return nil, fmt.Errorf("list webhook deliveries: %w", err)
		}
		out = append(out, *d)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list webhook deliveries: %w", err)
	}
	return out, nil
}

// Enqueue implements webhook.Store.
func (s *WebhookStore) Enqueue(ctx context.Context, workspaceID int64, event string, data any) error {
	b, err := json.Marshal(data)
	if err != nil {
		return fmt.Errorf("enqueue webhook event: %w", err)
	}
	_, err = s.db.Pool.Exec(ctx, `INSERT INTO webhook_deliveries (webhook_id, workspace_id, event, data)
		SELECT id, workspace_id, $2, $3::jsonb FROM webhooks
		WHERE workspace_id = $1 AND enabled AND $2 = ANY (events)`, workspaceID, event, string(b))
	if err != nil {
		return fmt.Errorf("enqueue webhook event: %w", err)
	}
	return nil
}

// EnqueueTest implements webhook.Store.
func (s *WebhookStore) EnqueueTest(ctx context.Context, workspaceID, id int64, data any, leaseUntil time.Time) (*webhook.Delivery, *webhook.Webhook, error) {
	b, err := json.Marshal(data)
	if err != nil {
		return nil, nil, fmt.Errorf("enqueue webhook test: %w", err)
	}
	var w webhook.Webhook
	d, err := scanDelivery(s.db.Pool.QueryRow(ctx, `WITH w AS (SELECT id, workspace_id, url, secret FROM webhooks WHERE workspace_id = $1 AND id = $2),
		d AS (INSERT INTO webhook_deliveries (webhook_id, workspace_id, event, data, next_at, lease_until)
			SELECT id, workspace_id, $3, $4::jsonb, $5, $5 FROM w RETURNING *)
		SELECT `+deliveryColumns+`, w.url, w.secret FROM d JOIN w ON w.id = d.webhook_id`,
		workspaceID, id, webhook.Test, string(b), leaseUntil), &w.URL, &w.Secret)
	if err != nil {
		return nil, nil, fmt.Errorf("enqueue webhook test: %w", notFound(err, "webhook"))
	}
	w.ID, w.WorkspaceID = id, workspaceID
	return d, &w, nil
}

// clickSecondsAhead bounds how many later seconds Clicked tries when a second's batch is
// full or already sent.
const clickSecondsAhead = 120

// Clicked implements webhook.Store. A batch takes clicks until it holds MaxClicks or is
// claimed; then the next second's batch takes them. A batch is due when its second ends.
func (s *WebhookStore) Clicked(ctx context.Context, clicks []webhook.Click) error {
	if len(clicks) == 0 {
		return nil
	}
	byWorkspace := map[int64][]webhook.Click{}
	var workspaces []int64
	for _, c := range clicks {
		if _, ok := byWorkspace[c.WorkspaceID]; !ok {
			workspaces = append(workspaces, c.WorkspaceID)
		}
		byWorkspace[c.WorkspaceID] = append(byWorkspace[c.WorkspaceID], c)
	}
	rows, err := s.db.Pool.Query(ctx, `SELECT id, workspace_id FROM webhooks
		WHERE workspace_id = ANY ($1) AND enabled AND $2 = ANY (events)`, workspaces, webhook.LinkClicked)
	if err != nil {
		return fmt.Errorf("webhook clicks: %w", err)
	}
	type hook struct{ id, ws int64 }
	var hooks []hook
	for rows.Next() {
		var h hook
		if err := rows.Scan(&h.id, &h.ws); err != nil {
			rows.Close()
			return fmt.Errorf("webhook clicks: %w", err)
		}
		hooks = append(hooks, h)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("webhook clicks: %w", err)
	}
	now := time.Now().Unix()
	for _, h := range hooks {
		cs := byWorkspace[h.ws]
		for len(cs) > 0 {
			n := min(len(cs), webhook.MaxClicks)
			if err := s.addClicks(ctx, h.id, h.ws, now, cs[:n]); err != nil {
				return err
			}
			cs = cs[n:]
		}
	}
	return nil
}

// addClicks adds at most MaxClicks clicks to the first batch of the webhook, from second on,
// that is not claimed and has room for them.
func (s *WebhookStore) addClicks(ctx context.Context, webhookID, workspaceID, second int64, clicks []webhook.Click) error {
	b, err := json.Marshal(clicks)
	if err != nil {
		return fmt.Errorf("webhook clicks: %w", err)
	}
	for sec := second; sec < second+clickSecondsAhead; sec++ {
		var id int64
		err := s.db.Pool.QueryRow(ctx, `INSERT INTO webhook_deliveries AS d
				(webhook_id, workspace_id, event, data, click_second, clicks, next_at)
			VALUES ($1, $2, $3, jsonb_build_object('clicks', $4::jsonb), $5::bigint, $6, to_timestamp($5::bigint + 1))
			ON CONFLICT (webhook_id, click_second) WHERE click_second IS NOT NULL DO UPDATE
				SET data = jsonb_set(d.data, '{clicks}', (d.data -> 'clicks') || (excluded.data -> 'clicks')),
					clicks = d.clicks + excluded.clicks
				WHERE d.lease_until IS NULL AND d.attempt = 0 AND d.clicks + excluded.clicks <= $7
			RETURNING d.id`,
			webhookID, workspaceID, webhook.LinkClicked, string(b), sec, len(clicks), webhook.MaxClicks).Scan(&id)
		if err == nil {
			return nil
		}
		if !errors.Is(err, pgx.ErrNoRows) {
			return fmt.Errorf("webhook clicks: %w", err)
		}
	}
	return fmt.Errorf("webhook clicks: no batch with room in %d seconds", clickSecondsAhead)
}

// Claim implements webhook.Store: due deliveries of enabled webhooks, oldest first, locked
// with SKIP LOCKED so that dispatchers on other nodes take others, and leased by moving
// next_at to the lease's end: a dispatcher that dies leaves them due again then.
func (s *WebhookStore) Claim(ctx context.Context, n int, leaseUntil time.Time) ([]webhook.Claimed, error) {
	rows, err := s.db.Pool.Query(ctx, `WITH due AS (
			SELECT d.id FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id AND w.enabled
			WHERE d.status = 'pending' AND d.next_at <= now()
			ORDER BY d.next_at LIMIT $1 FOR UPDATE OF d SKIP LOCKED)
		UPDATE webhook_deliveries d SET next_at = $2, lease_until = $2
		FROM due, webhooks w WHERE d.id = due.id AND w.id = d.webhook_id
		RETURNING `+deliveryColumns+`, w.url, w.secret`, n, leaseUntil)
	if err != nil {
		return nil, fmt.Errorf("claim webhook deliveries: %w", err)
	}
	defer rows.Close()
	var out []webhook.Claimed
	for rows.Next() {
		var c webhook.Claimed
		d, err := scanDelivery(rows, &c.URL, &c.Secret)
		if err != nil {
			return nil, fmt.Errorf("claim webhook deliveries: %w", err)
		}
		c.Delivery = *d
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("claim webhook deliveries: %w", err)
	}
	return out, nil
}

// Finish implements webhook.Store, in one transaction: the attempt recorded on the delivery
// (only if no other dispatcher recorded this attempt meanwhile), then the webhook's count of
// failures in a row, and its disabling.
func (s *WebhookStore) Finish(ctx context.Context, r webhook.Result, disableAfter int) (locale.Recipient, error) {
	tx, err := s.db.Pool.Begin(ctx)
	if err != nil {
		return locale.Recipient{}, fmt.Errorf("finish webhook delivery: %w", err)
	}
	defer func() { _ = tx.Rollback(ctx) }()
	var next *time.Time
	if r.Status == webhook.Pending {
		next = &r.NextAt
	}
	var headers []byte // NULL when nothing was sent (a dropped delivery)
	if len(r.Exchange.RequestHeaders) > 0 {
		if headers, err = json.Marshal(r.Exchange.RequestHeaders); err != nil {
			return locale.Recipient{}, fmt.Errorf("finish webhook delivery: %w", err)
		}
	}
	tag, err := tx.Exec(ctx, `UPDATE webhook_deliveries SET status = $2, attempt = $3, response_code = $4, error = $5,
			next_at = coalesce($6, next_at), lease_until = NULL, at = now(),
			request_headers = $7::jsonb, response_body = $8, response_truncated = $9, response_content_type = $10
		WHERE id = $1 AND attempt = $3 - 1 AND status = 'pending'`,
		r.ID, r.Status, r.Attempt, r.ResponseCode, r.Error, next,
		headers, r.Exchange.Answer, r.Exchange.AnswerTruncated, r.Exchange.AnswerContentType)
	if err != nil {
		return locale.Recipient{}, fmt.Errorf("finish webhook delivery: %w", err)
	}
	if tag.RowsAffected() == 0 || !r.CountsToDisable || r.Status == webhook.Pending {
		return locale.Recipient{}, commit(ctx, tx, "finish webhook delivery")
	}
	if r.Status == webhook.Delivered {
		if _, err := tx.Exec(ctx, `UPDATE webhooks SET failures_in_row = 0 WHERE id = $1 AND failures_in_row <> 0`, r.WebhookID); err != nil {
			return locale.Recipient{}, fmt.Errorf("finish webhook delivery: %w", err)
		}
		return locale.Recipient{}, commit(ctx, tx, "finish webhook delivery")
	}
	var failures int
	var enabled bool
	var workspaceID int64
	err = tx.QueryRow(ctx, `UPDATE webhooks SET failures_in_row = failures_in_row + 1 WHERE id = $1
		RETURNING failures_in_row, enabled, workspace_id`, r.WebhookID).Scan(&failures, &enabled, &workspaceID)
	if errors.Is(err, pgx.ErrNoRows) {
		return locale.Recipient{}, commit(ctx, tx, "finish webhook delivery") // deleted meanwhile
	}
	if err != nil {
		return locale.Recipient{}, fmt.Errorf("finish webhook delivery: %w", err)
	}
	var owner locale.Recipient
	if enabled && webhook.ShouldDisable(failures, disableAfter) {
		if _, err := tx.Exec(ctx, `UPDATE webhooks SET enabled = false, disabled_at = now(), updated_at = now() WHERE id = $1`, r.WebhookID); err != nil {
			return locale.Recipient{}, fmt.Errorf("disable webhook: %w", err)
		}
		err := tx.QueryRow(ctx, `SELECT u.email, u.language FROM members m JOIN users u ON u.id = m.user_id
			WHERE m.workspace_id = $1 AND m.role = 'owner' ORDER BY m.created_at LIMIT 1`, workspaceID).Scan(&owner.Email, &owner.Language)
		if err != nil && !errors.Is(err, pgx.ErrNoRows) {
			return locale.Recipient{}, fmt.Errorf("disable webhook: owner: %w", err)
		}
	}
	return owner, commit(ctx, tx, "finish webhook delivery")
}

func commit(ctx context.Context, tx pgx.Tx, what string) error {
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return nil
}

// PurgeBefore implements webhook.Store.
func (s *WebhookStore) PurgeBefore(ctx context.Context, t time.Time) (int64, error) {
	tag, err := s.db.Pool.Exec(ctx, `DELETE FROM webhook_deliveries WHERE status <> 'pending' AND at < $1`, t)
	if err != nil {
		return 0, fmt.Errorf("purge webhook deliveries: %w", err)
	}
	return tag.RowsAffected(), nil
}
