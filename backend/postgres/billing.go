package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/shortlink/shortlink/backend/audit"
	"github.com/shortlink/shortlink/backend/billing"
	"github.com/shortlink/shortlink/backend/plan"
)

// BillingStore implements billing.Store: workspaces' subscriptions and the applied events.
type BillingStore struct{ db *DB }

// NewBillingStore returns the PostgreSQL billing store.
func NewBillingStore(db *DB) *BillingStore { return &BillingStore{db: db} }

var _ billing.Store = (*BillingStore)(nil)

const subscriptionColumns = `workspace_id, customer_id, subscription_id, plan, billing_interval, status,
	current_period_end, cancel_at_period_end, past_due_since, last_event_at`

func scanSubscription(row pgx.Row) (billing.Subscription, error) {
	var s billing.Subscription
	var status string
	err := row.Scan(&s.WorkspaceID, &s.CustomerID, &s.SubscriptionID, &s.Plan, &s.Interval, &status,
		&s.PeriodEnd, &s.CancelAtPeriodEnd, &s.PastDueSince, &s.LastEvent)
	s.Status = billing.Status(status)
	return s, err
}

// Apply implements billing.Store.
func (s *BillingStore) Apply(ctx context.Context, e billing.Event, decide func(billing.Subscription, bool) billing.Decision) (bool, error) {
	applied := false
	err := s.db.inTx(ctx, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `INSERT INTO billing_events (id, type, created_at) VALUES ($1, $2, $3)
			ON CONFLICT (id) DO NOTHING`, e.ID, e.Type, e.Created)
		if err != nil || tag.RowsAffected() == 0 {
			return err
		}
		applied = true
		workspaceID, err := billingWorkspace(ctx, tx, e)
		if err != nil || workspaceID == 0 {
			return err
		}
		if _, err := tx.Exec(ctx, `INSERT INTO workspace_billing (workspace_id)
			SELECT id FROM workspaces WHERE id = $1 AND deleted_at IS NULL
			ON CONFLICT (workspace_id) DO NOTHING`, workspaceID); err != nil {
			return err
		}
		cur, err := scanSubscription(tx.QueryRow(ctx, `SELECT `+subscriptionColumns+` FROM workspace_billing
			WHERE workspace_id = $1 FOR UPDATE`, workspaceID))
		if errors.Is(err, pgx.ErrNoRows) {
			return nil // no such workspace (or deleted): the event is recorded, nothing else changes
		}
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE billing_events SET workspace_id = $2 WHERE id = $1`, e.ID, workspaceID); err != nil {
			return err
		}
		var ended bool
		if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM billing_ended_subscriptions
			WHERE workspace_id = $1 AND subscription_id = $2)`, workspaceID, e.SubscriptionID).Scan(&ended); err != nil {
			return err
		}
		d := decide(cur, ended)
		if d.Ends != "" {
			if _, err := tx.Exec(ctx, `INSERT INTO billing_ended_subscriptions (subscription_id, workspace_id, ended_at)
				VALUES ($1, $2, $3) ON CONFLICT (workspace_id, subscription_id) DO NOTHING`, d.Ends, workspaceID, e.Created); err != nil {
				return err
			}
		}
		if d.Changed {
			n := d.Subscription
			if _, err := tx.Exec(ctx, `UPDATE workspace_billing SET customer_id = $2, subscription_id = $3,
				plan = $4, billing_interval = $5, status = $6, current_period_end = $7, cancel_at_period_end = $8,
				past_due_since = $9, last_event_at = $10, updated_at = now()
				WHERE workspace_id = $1`, workspaceID, n.CustomerID, n.SubscriptionID, n.Plan, n.Interval,
				string(n.Status), n.PeriodEnd, n.CancelAtPeriodEnd, n.PastDueSince, n.LastEvent); err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, `UPDATE workspaces SET billed_plan = $2, billed_until = $3
				WHERE id = $1 AND deleted_at IS NULL`, workspaceID, d.BilledPlan, d.BilledUntil); err != nil {
				return err
			}
			if len(d.Changes) > 0 {
				// The log holds the change exactly when the change holds.
				if err := appendAudit(ctx, tx, audit.Event{WorkspaceID: workspaceID, Actor: audit.System(),
					Action: audit.BillingChanged, Target: audit.Target("workspace", workspaceID), Details: d.AuditDetails(e)}); err != nil {
					return err
				}
			}
		}
		if d.StartTrial {
			// Once per workspace, as the free trial: the condition and the change are one statement.
			tag, err := tx.Exec(ctx, `UPDATE workspaces SET plan = 'trial', trial_ends_at = $2, trial_used = true
				WHERE id = $1 AND deleted_at IS NULL AND NOT trial_used AND plan = 'free'`,
				workspaceID, d.TrialEndsAt)
			if err != nil {
				return err
			}
			if tag.RowsAffected() == 1 {
				if err := appendAudit(ctx, tx, audit.Event{WorkspaceID: workspaceID, Actor: audit.System(),
					Action: audit.TrialStarted, Target: audit.Target("workspace", workspaceID),
					Details: map[string]any{"plan": plan.Trial, "ends_at": d.TrialEndsAt, "paid": true,
						"stripe_event": e.ID, "stripe_event_type": e.Type}}); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		return false, fmt.Errorf("apply billing event: %w", err)
	}
	return applied, nil
}

// billingWorkspace is the workspace an event belongs to: the one it names, else the one whose
// subscription or customer it names; 0 when none.
func billingWorkspace(ctx context.Context, tx pgx.Tx, e billing.Event) (int64, error) {
	if e.WorkspaceID != 0 {
		return e.WorkspaceID, nil
	}
	var id int64
	err := tx.QueryRow(ctx, `SELECT workspace_id FROM workspace_billing
		WHERE ($1 <> '' AND subscription_id = $1) OR ($2 <> '' AND customer_id = $2)
		ORDER BY (subscription_id = $1) DESC LIMIT 1`, e.SubscriptionID, e.CustomerID).Scan(&id)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, nil
	}
	return id, err
}

// Subscription implements billing.Store.
func (s *BillingStore) Subscription(ctx context.Context, workspaceID int64) (billing.Subscription, error) {
	sub, err := scanSubscription(s.db.Pool.QueryRow(ctx, `SELECT `+subscriptionColumns+` FROM workspace_billing
		WHERE workspace_id = $1`, workspaceID))
	if errors.Is(err, pgx.ErrNoRows) {
		return billing.Subscription{WorkspaceID: workspaceID, Status: billing.None}, nil
	}
	if err != nil {
		return billing.Subscription{}, fmt.Errorf("subscription: %w", err)
	}
	return sub, nil
}
