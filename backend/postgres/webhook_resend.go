package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/shortlink/shortlink/backend/webhook"
)

// Delivery implements webhook.Store.
func (s *WebhookStore) Delivery(ctx context.Context, workspaceID, id, deliveryID int64) (*webhook.Delivery, error) {
	d, err := scanDelivery(s.db.Pool.QueryRow(ctx, `SELECT `+deliveryColumns+` FROM webhook_deliveries d
		WHERE d.workspace_id = $1 AND d.webhook_id = $2 AND d.id = $3`, workspaceID, id, deliveryID))
	if err != nil {
		return nil, fmt.Errorf("get webhook delivery: %w", notFound(err, "webhook delivery"))
	}
	return d, nil
}

// Resend implements webhook.Store: the webhook's row is locked (FOR SHARE) until the new
// delivery is written, so no edit disables it between allow's answer and the write.
func (s *WebhookStore) Resend(ctx context.Context, workspaceID, id, deliveryID int64, leaseUntil time.Time,
	allow func(webhook.Webhook, webhook.Delivery) error) (*webhook.Delivery, *webhook.Webhook, error) {
	tx, err := s.db.Pool.Begin(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("resend webhook delivery: %w", err)
	}
	defer func() { _ = tx.Rollback(ctx) }()
	w, err := scanWebhook(tx.QueryRow(ctx, `SELECT `+webhookColumns+` FROM webhooks WHERE workspace_id = $1 AND id = $2 FOR SHARE`, workspaceID, id))
	if err != nil {
		return nil, nil, fmt.Errorf("resend webhook delivery: %w", notFound(err, "webhook"))
	}
	orig, err := scanDelivery(tx.QueryRow(ctx, `SELECT `+deliveryColumns+` FROM webhook_deliveries d
		WHERE d.workspace_id = $1 AND d.webhook_id = $2 AND d.id = $3`, workspaceID, id, deliveryID))
	if err != nil {
		return nil, nil, fmt.Errorf("resend webhook delivery: %w", notFound(err, "webhook delivery"))
	}
	if err := allow(*w, *orig); err != nil {
		return nil, nil, err
	}
	// A copy of the message, not of its batch: click_second stays NULL, so the resend takes no
	// more clicks and stands beside the original's batch.
	d, err := scanDelivery(tx.QueryRow(ctx, `INSERT INTO webhook_deliveries AS d
			(webhook_id, workspace_id, message_id, event, created_at, data, clicks, resent_from, next_at, lease_until)
		SELECT webhook_id, workspace_id, message_id, event, created_at, data, clicks, id, $2, $2
		FROM webhook_deliveries WHERE id = $1
		RETURNING `+deliveryColumns, orig.ID, leaseUntil))
	if err != nil {
		return nil, nil, fmt.Errorf("resend webhook delivery: %w", err)
	}
	if err := commit(ctx, tx, "resend webhook delivery"); err != nil {
		return nil, nil, err
	}
	return d, w, nil
}
