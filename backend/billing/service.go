package billing

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/plan"
)

// Decision is what applying one event writes: the subscription (when Changed), the plan it
// grants and until when, and whether the trial starts (and when it ends).
type Decision struct {
	Outcome
	BilledPlan  string
	BilledUntil *time.Time
	TrialEndsAt time.Time
	// Changes are the subscription's fields the event changed, with their new values (nil:
	// none), for the workspace's audit log.
	Changes map[string]any
}

// AuditDetails are the details of the audit event recording the decision of event e: what
// changed, the plan it grants, and which Stripe event changed it.
func (d Decision) AuditDetails(e Event) map[string]any {
	details := map[string]any{"stripe_event": e.ID, "stripe_event_type": e.Type}
	for k, v := range d.Changes {
		details[k] = v
	}
	if d.Changed {
		details["billed_plan"], details["billed_until"] = d.BilledPlan, d.BilledUntil
	}
	return details
}

// Store keeps subscriptions and the IDs of applied events.
type Store interface {
	// Apply records event e once and, unless it was recorded before (applied false), calls
	// decide with the subscription of e's workspace (locked until the write) and whether e's
	// subscription is one a decision ended (Outcome.Ends), and writes the decision, in one
	// transaction. The workspace is e.WorkspaceID, else the one whose subscription or customer e
	// names; an event of no known workspace is recorded and nothing else changes.
	Apply(ctx context.Context, e Event, decide func(cur Subscription, ended bool) Decision) (applied bool, err error)
	// Subscription returns the workspace's subscription (Status None when it has none).
	Subscription(ctx context.Context, workspaceID int64) (Subscription, error)
}

// Service applies Stripe's events to workspaces' subscriptions and plans, and opens the
// payment pages of a workspace.
type Service struct {
	store    Store
	payments Payments
	plans    PlanStates
	appURL   string
	prices   Prices
	grace    time.Duration
	now      func() time.Time
	log      *slog.Logger
	catalog  *priceCatalog
}

// PlanStates tells whether a workspace may start its trial (plan.Service).
type PlanStates interface {
	State(ctx context.Context, workspaceID int64) (plan.State, error)
}

// Options are the Service's settings and collaborators.
type Options struct {
	Store    Store
	Payments Payments
	Plans    PlanStates
	// AppURL is the web app's base URL, where payment pages send people back.
	AppURL string
	Prices Prices
	Grace  time.Duration
	Now    func() time.Time
	Log    *slog.Logger
}

// NewService returns the billing service.
func NewService(o Options) *Service {
	return &Service{store: o.Store, payments: o.Payments, plans: o.Plans, appURL: strings.TrimSuffix(o.AppURL, "/"),
		prices: o.Prices, grace: o.Grace, now: o.Now, log: o.Log, catalog: &priceCatalog{}}
}

// Prices are the prices of STRIPE_PRICES.
func (s *Service) Prices() Prices { return s.prices }

// Decide is the decision for event e over cur at now; ended tells whether e's subscription
// ended before.
func (s *Service) Decide(cur Subscription, e Event, ended bool) Decision {
	d := Decision{Outcome: Apply(cur, e, ended, s.prices)}
	d.BilledPlan, d.BilledUntil = d.Subscription.Grant(s.grace)
	if d.Changed {
		d.Changes = Changes(cur, d.Subscription)
	}
	if d.StartTrial {
		d.TrialEndsAt = s.now().Add(plan.TrialLength).UTC().Truncate(time.Microsecond)
	}
	return d
}

// Handle applies event e once: a replay of an event applied before changes nothing. It
// returns the workspace whose billing the event changed (0: none).
func (s *Service) Handle(ctx context.Context, e Event) (int64, error) {
	var d Decision
	decided := false
	applied, err := s.store.Apply(ctx, e, func(cur Subscription, ended bool) Decision {
		d, decided = s.Decide(cur, e, ended), true
		return d
	})
	if err != nil {
		return 0, fmt.Errorf("billing event %s: %w", e.ID, err)
	}
	switch {
	case !applied:
		s.log.Info("billing event replayed", "event", e.ID, "type", e.Type)
	case !decided:
		s.log.Info("billing event of no known workspace", "event", e.ID, "type", e.Type)
	case d.Ignored != "":
		s.log.Info("billing event ignored", "event", e.ID, "type", e.Type, "why", d.Ignored)
	default:
		s.log.Info("billing event applied", "event", e.ID, "type", e.Type, "workspace", d.Subscription.WorkspaceID,
			"status", d.Subscription.Status, "plan", d.Subscription.Plan, "billed_plan", d.BilledPlan, "trial", d.StartTrial)
		return d.Subscription.WorkspaceID, nil
	}
	return 0, nil
}

// Subscription returns the workspace's subscription.
func (s *Service) Subscription(ctx context.Context, workspaceID int64) (Subscription, error) {
	return s.store.Subscription(ctx, workspaceID)
}

// ErrSignature is the error of a webhook payload whose signature does not check out.
var ErrSignature = errors.New("bad webhook signature")

// Invoice is one of a customer's invoices as the API lists them.
type Invoice struct {
	ID               string    `json:"id"`
	Number           string    `json:"number"`
	Amount           int64     `json:"amount"`
	Currency         string    `json:"currency"`
	Status           string    `json:"status"`
	Created          time.Time `json:"created"`
	HostedInvoiceURL string    `json:"hosted_invoice_url"`
}

// CheckoutRequest is a Checkout Session to open: a subscription to a price, or the one-off
// payment of the trial.
type CheckoutRequest struct {
	WorkspaceID  int64
	CustomerID   string
	PriceID      string
	Subscription bool
	SuccessURL   string
	CancelURL    string
}

// Payments is the payment provider: webhook events, Checkout and portal sessions, invoices.
type Payments interface {
	// Event checks the payload's signature (ErrSignature when it fails) and reads the event.
	Event(payload []byte, signature string) (Event, error)
	Checkout(ctx context.Context, r CheckoutRequest) (url string, err error)
	Portal(ctx context.Context, customerID, returnURL string) (url string, err error)
	Invoices(ctx context.Context, customerID string, limit int) ([]Invoice, error)
	// Price reads what a price of STRIPE_PRICES costs (docs/rules-and-plans.md#billing-on-stripe).
	Price(ctx context.Context, priceID string) (plan.Money, error)
}

// Event checks and reads a webhook payload (ErrSignature when its signature fails).
func (s *Service) Event(payload []byte, signature string) (Event, error) {
	return s.payments.Event(payload, signature)
}

// The web app's pages that payment pages send people back to (the app lives under /app).
const (
	planPage    = "/app/plan"
	billingPage = "/app/billing"
)

// back is the address of a web app page of the workspace, with more query after it.
func (s *Service) back(page string, workspaceID int64, query string) string {
	return s.appURL + page + "?workspace=" + strconv.FormatInt(workspaceID, 10) + query
}

// Checkout opens a Checkout Session subscribing the workspace to planName billed every
// interval. Returns invalid for another plan or interval, conflict (plan_on_request) for a plan
// and interval with no price in STRIPE_PRICES, conflict (subscription_active) when the
// workspace has a live subscription (changed in the portal).
func (s *Service) Checkout(ctx context.Context, workspaceID int64, planName, interval string) (string, error) {
	if !slices.Contains(Plans, planName) {
		return "", apperr.Errorf(apperr.Invalid, "plan must be one of %s", strings.Join(Plans, ", ")).For("value_invalid", "plan")
	}
	if !slices.Contains(Intervals, interval) {
		return "", apperr.Errorf(apperr.Invalid, "interval must be one of %s", strings.Join(Intervals, ", ")).For("value_invalid", "interval")
	}
	price, ok := s.prices.ID(planName, interval)
	if !ok {
		// A plan without a price here is sold on request: nobody is sent to pay for it.
		return "", apperr.Errorf(apperr.Conflict, "the %s plan billed every %s has no price on this service: ask the operator", planName, interval).For("plan_on_request", "plan")
	}
	sub, err := s.store.Subscription(ctx, workspaceID)
	if err != nil {
		return "", err
	}
	if sub.Status == Active || sub.Status == PastDue {
		return "", apperr.Errorf(apperr.Conflict, "this workspace has a subscription: change it in the billing portal").For("subscription_active", "")
	}
	return s.payments.Checkout(ctx, CheckoutRequest{WorkspaceID: workspaceID, CustomerID: sub.CustomerID, PriceID: price,
		Subscription: true, SuccessURL: s.back(planPage, workspaceID, "&checkout=success&plan="+planName), CancelURL: s.back(planPage, workspaceID, "&checkout=canceled")})
}

// TrialCheckout opens a Checkout Session for the one-off payment of the trial, whose success
// starts it. Returns trial_used if the workspace had its trial, conflict if it is not free.
func (s *Service) TrialCheckout(ctx context.Context, workspaceID int64) (string, error) {
	st, err := s.plans.State(ctx, workspaceID)
	if err != nil {
		return "", err
	}
	switch {
	case st.TrialUsed:
		return "", apperr.Errorf(apperr.TrialUsed, "this workspace has had its trial; a workspace gets one").For("trial_used", "")
	case st.At(s.now()) != plan.Free:
		return "", apperr.Errorf(apperr.Conflict, "this workspace is on a paid plan; the trial is for free workspaces").For("trial_not_free", "")
	}
	sub, err := s.store.Subscription(ctx, workspaceID)
	if err != nil {
		return "", err
	}
	return s.payments.Checkout(ctx, CheckoutRequest{WorkspaceID: workspaceID, CustomerID: sub.CustomerID, PriceID: s.prices.Trial(),
		SuccessURL: s.back(planPage, workspaceID, "&trial=success"), CancelURL: s.back(planPage, workspaceID, "&trial=canceled")})
}

// Portal opens a customer-portal session of the workspace's customer. Returns conflict
// (billing_no_customer) when the workspace never paid.
func (s *Service) Portal(ctx context.Context, workspaceID int64) (string, error) {
	sub, err := s.store.Subscription(ctx, workspaceID)
	if err != nil {
		return "", err
	}
	if sub.CustomerID == "" {
		return "", apperr.Errorf(apperr.Conflict, "this workspace has no billing account yet: subscribe first").For("billing_no_customer", "")
	}
	return s.payments.Portal(ctx, sub.CustomerID, s.back(billingPage, workspaceID, ""))
}

// Overview is the workspace's billing as GET …/billing answers it.
type Overview struct {
	Plan              string     `json:"plan"`
	Status            Status     `json:"status"`
	Interval          *string    `json:"interval"`
	CurrentPeriodEnd  *time.Time `json:"current_period_end"`
	CancelAtPeriodEnd bool       `json:"cancel_at_period_end"`
	PastDueSince      *time.Time `json:"past_due_since"`
	// GraceEndsAt is, while past due, when the plan falls back unless a payment succeeds.
	GraceEndsAt *time.Time `json:"grace_ends_at"`
	Invoices    []Invoice  `json:"invoices"`
}

// InvoicesShown is how many of the newest invoices the overview lists.
const InvoicesShown = 24

// Overview returns the workspace's plan now, its subscription and its newest invoices.
func (s *Service) Overview(ctx context.Context, workspaceID int64) (*Overview, error) {
	st, err := s.plans.State(ctx, workspaceID)
	if err != nil {
		return nil, err
	}
	sub, err := s.store.Subscription(ctx, workspaceID)
	if err != nil {
		return nil, err
	}
	o := &Overview{Plan: st.At(s.now()), Status: sub.Status, CurrentPeriodEnd: sub.PeriodEnd,
		CancelAtPeriodEnd: sub.CancelAtPeriodEnd, Invoices: []Invoice{}}
	if sub.Status == PastDue && sub.PastDueSince != nil {
		_, o.GraceEndsAt = sub.Grant(s.grace)
		o.PastDueSince = sub.PastDueSince
	}
	if sub.Interval != "" {
		o.Interval = &sub.Interval
	}
	if sub.CustomerID != "" {
		if o.Invoices, err = s.payments.Invoices(ctx, sub.CustomerID, InvoicesShown); err != nil {
			return nil, err
		}
	}
	return o, nil
}
