package billing

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/shortlink/shortlink/backend/plan"
)

// Decision is what applying one event writes: the subscription (when Changed), the plan it
// grants and until when, and whether the trial starts (and when it ends).
type Decision struct {
	Outcome
	BilledPlan  string
	BilledUntil *time.Time
	TrialEndsAt time.Time
}

// Store keeps subscriptions and the IDs of applied events.
type Store interface {
	// Apply records event e once and, unless it was recorded before (applied false), calls
	// decide with the subscription of e's workspace (locked until the write) and writes the
	// decision, in one transaction. The workspace is e.WorkspaceID, else the one whose
	// subscription or customer e names; an event of no known workspace is recorded and nothing
	// else changes.
	Apply(ctx context.Context, e Event, decide func(cur Subscription) Decision) (applied bool, err error)
	// Subscription returns the workspace's subscription (Status None when it has none).
	Subscription(ctx context.Context, workspaceID int64) (Subscription, error)
}

// Service applies Stripe's events to workspaces' subscriptions and plans.
type Service struct {
	store  Store
	prices Prices
	grace  time.Duration
	now    func() time.Time
	log    *slog.Logger
}

// NewService returns the billing service over store with the prices of STRIPE_PRICES and
// BILLING_GRACE.
func NewService(store Store, prices Prices, grace time.Duration, now func() time.Time, log *slog.Logger) *Service {
	return &Service{store: store, prices: prices, grace: grace, now: now, log: log}
}

// Prices are the prices of STRIPE_PRICES.
func (s *Service) Prices() Prices { return s.prices }

// Decide is the decision for event e over cur at now.
func (s *Service) Decide(cur Subscription, e Event) Decision {
	d := Decision{Outcome: Apply(cur, e, s.prices)}
	d.BilledPlan, d.BilledUntil = d.Subscription.Grant(s.grace)
	if d.StartTrial {
		d.TrialEndsAt = s.now().Add(plan.TrialLength).UTC().Truncate(time.Microsecond)
	}
	return d
}

// Handle applies event e once: a replay of an event applied before changes nothing.
func (s *Service) Handle(ctx context.Context, e Event) error {
	var d Decision
	applied, err := s.store.Apply(ctx, e, func(cur Subscription) Decision {
		d = s.Decide(cur, e)
		return d
	})
	if err != nil {
		return fmt.Errorf("billing event %s: %w", e.ID, err)
	}
	switch {
	case !applied:
		s.log.Info("billing event replayed", "event", e.ID, "type", e.Type)
	case d.Ignored != "":
		s.log.Info("billing event ignored", "event", e.ID, "type", e.Type, "why", d.Ignored)
	default:
		s.log.Info("billing event applied", "event", e.ID, "type", e.Type, "workspace", d.Subscription.WorkspaceID,
			"status", d.Subscription.Status, "plan", d.Subscription.Plan, "billed_plan", d.BilledPlan, "trial", d.StartTrial)
	}
	return nil
}

// Subscription returns the workspace's subscription.
func (s *Service) Subscription(ctx context.Context, workspaceID int64) (Subscription, error) {
	return s.store.Subscription(ctx, workspaceID)
}
