// Package billing holds the subscription of a workspace as Stripe reports it and the pure
// decisions about it: which price is which plan, how an event changes a subscription (stale
// events change nothing), and which plan a subscription grants at a given time (the grace of a
// failed payment, the paid period of a canceled one). It imports neither Stripe nor a database.
package billing

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/shortlink/shortlink/backend/plan"
)

// Billing intervals, the values of Checkout's "interval".
const (
	Month = "month"
	Year  = "year"
)

// Status is a subscription's state as the API shows it.
type Status string

// The subscription states (docs/rules-and-plans.md, billing).
const (
	None     Status = "none"
	Active   Status = "active"
	PastDue  Status = "past_due"
	Canceled Status = "canceled"
)

// Plans are the plans sold by subscription.
var Plans = []string{plan.Personal, plan.Enterprise}

// Intervals are the billing intervals.
var Intervals = []string{Month, Year}

// Prices maps Stripe price IDs to what they sell: "<plan>.<interval>" keys and "trial".
type Prices struct {
	ids   map[string]string // key → price ID
	names map[string]string // price ID → key
}

// ParsePrices reads STRIPE_PRICES: comma-separated `personal.month=price_…`, one for each plan
// and interval, and `trial=price_…`. An empty string gives no prices.
func ParsePrices(s string) (Prices, error) {
	p := Prices{ids: map[string]string{}, names: map[string]string{}}
	if strings.TrimSpace(s) == "" {
		return p, nil
	}
	var want []string
	for _, pl := range Plans {
		for _, iv := range Intervals {
			want = append(want, pl+"."+iv)
		}
	}
	want = append(want, "trial")
	for _, part := range strings.Split(s, ",") {
		key, id, ok := strings.Cut(strings.TrimSpace(part), "=")
		key, id = strings.TrimSpace(key), strings.TrimSpace(id)
		switch {
		case !ok || id == "":
			return Prices{}, fmt.Errorf("%q is not key=price_id", part)
		case !slices.Contains(want, key):
			return Prices{}, fmt.Errorf("unknown key %q (known: %s)", key, strings.Join(want, ", "))
		case p.ids[key] != "":
			return Prices{}, fmt.Errorf("%s is set twice", key)
		case p.names[id] != "":
			return Prices{}, fmt.Errorf("price %s is given to both %s and %s", id, p.names[id], key)
		}
		p.ids[key], p.names[id] = id, key
	}
	var missing []string
	for _, k := range want {
		if p.ids[k] == "" {
			missing = append(missing, k)
		}
	}
	if len(missing) > 0 {
		return Prices{}, errors.New("missing " + strings.Join(missing, ", "))
	}
	return p, nil
}

// Empty reports whether no prices are set.
func (p Prices) Empty() bool { return len(p.ids) == 0 }

// ID is the price of a plan billed every interval.
func (p Prices) ID(planName, interval string) (string, bool) {
	id, ok := p.ids[planName+"."+interval]
	return id, ok
}

// Trial is the price of the one-off payment that starts the trial.
func (p Prices) Trial() string { return p.ids["trial"] }

// Plan is the plan and interval a subscription price sells; false for the trial price and
// prices not in STRIPE_PRICES.
func (p Prices) Plan(priceID string) (planName, interval string, ok bool) {
	key := p.names[priceID]
	planName, interval, ok = strings.Cut(key, ".")
	return planName, interval, ok
}

// Subscription is a workspace's billing state, built from the events applied to it.
type Subscription struct {
	WorkspaceID    int64
	CustomerID     string
	SubscriptionID string
	// Plan and Interval are what the subscription's price sells ("" when unknown).
	Plan     string
	Interval string
	Status   Status
	// PeriodEnd is the end of the paid period; a canceled subscription keeps its plan until then.
	PeriodEnd         *time.Time
	CancelAtPeriodEnd bool
	// PastDueSince is when the payment failed first; the plan is kept for the grace from then.
	PastDueSince *time.Time
	// LastEvent is the creation time of the newest event applied to SubscriptionID.
	LastEvent *time.Time
}

// Grant is the plan the subscription grants and until when (nil: until the next event), with
// the given grace after a failed payment; "" when it grants none, and the workspace's own plan
// holds. Past the end, the workspace's own plan holds again (free unless an operator set one).
func (s Subscription) Grant(grace time.Duration) (planName string, until *time.Time) {
	if s.Plan == "" {
		return "", nil
	}
	switch s.Status {
	case Active:
		return s.Plan, nil
	case PastDue:
		if s.PastDueSince == nil {
			return s.Plan, nil
		}
		end := s.PastDueSince.Add(grace)
		return s.Plan, &end
	case Canceled:
		if s.PeriodEnd == nil {
			return "", nil
		}
		end := *s.PeriodEnd
		return s.Plan, &end
	}
	return "", nil
}

// PlanAt is the plan the subscription grants at now with the given grace: "" when none (the
// workspace's own plan holds).
func (s Subscription) PlanAt(now time.Time, grace time.Duration) string {
	p, until := s.Grant(grace)
	if until != nil && !now.Before(*until) {
		return ""
	}
	return p
}

// Changes are the fields of next that differ from cur, under their API names with their new
// values; nil when none did (an event that only repeats what is known).
func Changes(cur, next Subscription) map[string]any {
	c := map[string]any{}
	if cur.CustomerID != next.CustomerID {
		c["customer_id"] = next.CustomerID
	}
	if cur.SubscriptionID != next.SubscriptionID {
		c["subscription_id"] = next.SubscriptionID
	}
	if cur.Plan != next.Plan {
		c["plan"] = next.Plan
	}
	if cur.Interval != next.Interval {
		c["interval"] = next.Interval
	}
	if cur.Status != next.Status {
		c["status"] = string(next.Status)
	}
	if !sameTime(cur.PeriodEnd, next.PeriodEnd) {
		c["current_period_end"] = next.PeriodEnd
	}
	if cur.CancelAtPeriodEnd != next.CancelAtPeriodEnd {
		c["cancel_at_period_end"] = next.CancelAtPeriodEnd
	}
	if !sameTime(cur.PastDueSince, next.PastDueSince) {
		c["past_due_since"] = next.PastDueSince
	}
	if len(c) == 0 {
		return nil
	}
	return c
}

func sameTime(a, b *time.Time) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Equal(*b)
}
