package billing

import (
	"strings"
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/plan"
)

const testPrices = "personal.month=price_pm,personal.year=price_py,enterprise.month=price_em,enterprise.year=price_ey,trial=price_trial"

func mustPrices(t *testing.T) Prices {
	t.Helper()
	p, err := ParsePrices(testPrices)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestParsePrices(t *testing.T) {
	p := mustPrices(t)
	if id, _ := p.ID(plan.Enterprise, Year); id != "price_ey" {
		t.Errorf("enterprise.year = %q", id)
	}
	if p.Trial() != "price_trial" {
		t.Errorf("trial = %q", p.Trial())
	}
	if pl, iv, ok := p.Plan("price_py"); !ok || pl != plan.Personal || iv != Year {
		t.Errorf("price_py = %q %q %v", pl, iv, ok)
	}
	if _, _, ok := p.Plan("price_trial"); ok {
		t.Error("the trial price sells no plan")
	}
	if empty, err := ParsePrices(""); err != nil || !empty.Empty() {
		t.Errorf("empty: %v %v", empty, err)
	}
	for _, bad := range []struct{ in, want string }{
		{"personal.month=price_pm", "missing personal.year"},
		{testPrices + ",team.month=price_x", "unknown key"},
		{testPrices + ",trial=price_t2", "set twice"},
		{strings.Replace(testPrices, "price_py", "price_pm", 1), "given to both"},
		{"personal.month", "not key=price_id"},
	} {
		if _, err := ParsePrices(bad.in); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("ParsePrices(%q) = %v, want %q", bad.in, err, bad.want)
		}
	}
}

func TestApply(t *testing.T) {
	prices := mustPrices(t)
	t0 := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	at := func(d time.Duration) *time.Time { v := t0.Add(d); return &v }
	end := at(30 * 24 * time.Hour)
	active := Subscription{WorkspaceID: 7, CustomerID: "cus_1", SubscriptionID: "sub_1", Plan: plan.Personal,
		Interval: Month, Status: Active, PeriodEnd: end, LastEvent: at(0)}
	pastDue := active
	pastDue.Status, pastDue.PastDueSince = PastDue, at(0)
	subEvent := func(typ, status, price string, created time.Duration) Event {
		return Event{ID: "evt", Type: typ, Created: t0.Add(created), WorkspaceID: 7, CustomerID: "cus_1",
			SubscriptionID: "sub_1", StripeStatus: status, PriceID: price, PeriodEnd: end}
	}
	canceled := active
	canceled.Status, canceled.LastEvent = Canceled, at(time.Hour)
	other := func(e Event) Event { e.SubscriptionID = "sub_2"; return e }
	for _, tc := range []struct {
		name      string
		cur       Subscription
		e         Event
		ended     bool // e's subscription ended before
		changed   bool
		want      Subscription // compared when changed
		trial     bool
		ignoredIs string
		ends      string
	}{
		{name: "unknown type", cur: active, e: Event{Type: "charge.refunded"}, ignoredIs: "event type not handled"},
		{name: "subscription checkout names the customer", cur: Subscription{WorkspaceID: 7},
			e:       Event{Type: CheckoutCompleted, Mode: "subscription", CustomerID: "cus_1", SubscriptionID: "sub_1", Paid: true},
			changed: true, want: Subscription{WorkspaceID: 7, CustomerID: "cus_1", SubscriptionID: "sub_1", Status: None}},
		{name: "trial checkout paid", cur: Subscription{WorkspaceID: 7},
			e:       Event{Type: CheckoutCompleted, Mode: "payment", CustomerID: "cus_1", Paid: true},
			changed: true, want: Subscription{WorkspaceID: 7, CustomerID: "cus_1", Status: None}, trial: true},
		{name: "trial checkout unpaid", cur: Subscription{WorkspaceID: 7},
			e: Event{Type: CheckoutCompleted, Mode: "payment", CustomerID: "cus_1"}, ignoredIs: "trial checkout not paid"},
		{name: "created active", cur: Subscription{WorkspaceID: 7, Status: None},
			e: subEvent(SubscriptionCreated, "active", "price_pm", 0), changed: true, want: active},
		{name: "updated to a yearly enterprise price", cur: active,
			e: subEvent(SubscriptionUpdated, "active", "price_ey", time.Minute), changed: true,
			want: func() Subscription {
				s := active
				s.Plan, s.Interval, s.LastEvent = plan.Enterprise, Year, at(time.Minute)
				return s
			}()},
		{name: "stale update", cur: active, e: subEvent(SubscriptionUpdated, "canceled", "price_pm", -time.Second),
			ignoredIs: "stale event"},
		{name: "same second applies", cur: active, e: subEvent(SubscriptionUpdated, "past_due", "price_pm", 0),
			changed: true, want: pastDue},
		{name: "payment failed", cur: active, e: subEvent(InvoicePaymentFailed, "", "", 0), changed: true, want: pastDue},
		{name: "second failure keeps the first time", cur: pastDue, e: subEvent(InvoicePaymentFailed, "", "", time.Hour),
			changed: true, want: func() Subscription { s := pastDue; s.LastEvent = at(time.Hour); return s }()},
		{name: "invoice paid ends past due", cur: pastDue, e: subEvent(InvoicePaid, "", "", time.Hour), changed: true,
			want: func() Subscription { s := active; s.LastEvent = at(time.Hour); return s }()},
		{name: "deleted", cur: active, e: subEvent(SubscriptionDeleted, "canceled", "price_pm", time.Hour), changed: true,
			want: canceled, ends: "sub_1"},
		{name: "updated to canceled ends it", cur: active, e: subEvent(SubscriptionUpdated, "canceled", "price_pm", time.Hour),
			changed: true, want: canceled, ends: "sub_1"},
		{name: "deleted is final: active in the same second", cur: canceled,
			e: subEvent(SubscriptionUpdated, "active", "price_pm", time.Hour), ignoredIs: "subscription ended"},
		{name: "deleted is final: active later", cur: canceled,
			e: subEvent(SubscriptionUpdated, "active", "price_em", 2*time.Hour), ignoredIs: "subscription ended"},
		{name: "deleted is final: past due later", cur: canceled,
			e: subEvent(SubscriptionUpdated, "past_due", "price_pm", 2*time.Hour), ignoredIs: "subscription ended"},
		{name: "deleted is final: invoice paid", cur: canceled, e: subEvent(InvoicePaid, "", "", 2*time.Hour),
			ignoredIs: "subscription ended"},
		{name: "deleted is final: a later period end", cur: canceled,
			e: func() Event {
				e := subEvent(SubscriptionUpdated, "canceled", "price_pm", 2*time.Hour)
				e.PeriodEnd = at(60 * 24 * time.Hour)
				return e
			}(), ignoredIs: "subscription ended"},
		{name: "ended: the paid period ends sooner", cur: canceled,
			e: func() Event {
				e := subEvent(SubscriptionUpdated, "canceled", "price_em", 2*time.Hour)
				e.PeriodEnd = at(time.Hour)
				return e
			}(), changed: true,
			want: func() Subscription {
				s := canceled
				s.PeriodEnd, s.LastEvent = at(time.Hour), at(2*time.Hour)
				return s
			}(),
			ends: "sub_1"},
		{name: "ended by the store: active later", cur: active, ended: true,
			e: subEvent(SubscriptionUpdated, "active", "price_em", 2*time.Hour), ignoredIs: "subscription ended"},
		{name: "an ended other subscription replaces nothing", cur: func() Subscription { s := active; s.SubscriptionID = "sub_2"; return s }(),
			ended: true, e: subEvent(SubscriptionUpdated, "active", "price_em", 2*time.Hour), ignoredIs: "subscription ended"},
		{name: "another subscription's end is remembered", cur: active,
			e: other(subEvent(SubscriptionDeleted, "canceled", "price_em", time.Hour)), ignoredIs: "another subscription", ends: "sub_2"},
		{name: "a new subscription after the end", cur: canceled,
			e: other(subEvent(SubscriptionCreated, "active", "price_em", 2*time.Hour)), changed: true,
			want: Subscription{WorkspaceID: 7, CustomerID: "cus_1", SubscriptionID: "sub_2", Plan: plan.Enterprise, Interval: Month,
				Status: Active, PeriodEnd: end, LastEvent: at(2 * time.Hour)}},
		{name: "a stale end of the own subscription ends nothing", cur: active,
			e: subEvent(SubscriptionDeleted, "canceled", "price_pm", -time.Hour), ignoredIs: "stale event"},
		{name: "unknown price", cur: active, e: subEvent(SubscriptionUpdated, "active", "price_other", time.Hour),
			ignoredIs: "price not in STRIPE_PRICES"},
		{name: "another subscription not live", cur: active,
			e: func() Event {
				e := subEvent(SubscriptionUpdated, "incomplete", "price_em", time.Hour)
				e.SubscriptionID = "sub_2"
				return e
			}(), ignoredIs: "another subscription"},
		{name: "invoice without subscription", cur: active, e: Event{Type: InvoicePaid, Created: t0}, ignoredIs: "no subscription"},
		{name: "invoice of another subscription", cur: Subscription{WorkspaceID: 7, Status: None},
			e: subEvent(InvoicePaid, "", "", 0), ignoredIs: "invoice of another subscription"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Apply(tc.cur, tc.e, tc.ended, prices)
			if got.Changed != tc.changed || got.StartTrial != tc.trial || got.Ignored != tc.ignoredIs || got.Ends != tc.ends {
				t.Fatalf("Apply = changed %v trial %v ignored %q ends %q, want %v %v %q %q", got.Changed, got.StartTrial,
					got.Ignored, got.Ends, tc.changed, tc.trial, tc.ignoredIs, tc.ends)
			}
			if tc.changed && !equal(got.Subscription, tc.want) {
				t.Errorf("Apply =\n%+v\nwant\n%+v", got.Subscription, tc.want)
			}
		})
	}
}

func equal(a, b Subscription) bool {
	same := func(x, y *time.Time) bool { return (x == nil) == (y == nil) && (x == nil || x.Equal(*y)) }
	return same(a.PeriodEnd, b.PeriodEnd) && same(a.PastDueSince, b.PastDueSince) && same(a.LastEvent, b.LastEvent) &&
		a.WorkspaceID == b.WorkspaceID && a.CustomerID == b.CustomerID && a.SubscriptionID == b.SubscriptionID &&
		a.Plan == b.Plan && a.Interval == b.Interval && a.Status == b.Status && a.CancelAtPeriodEnd == b.CancelAtPeriodEnd
}

func TestPlanAt(t *testing.T) {
	t0 := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	grace := 168 * time.Hour
	end := t0.Add(10 * 24 * time.Hour)
	for _, tc := range []struct {
		name string
		s    Subscription
		now  time.Time
		want string
	}{
		{"none", Subscription{Status: None}, t0, ""},
		{"active", Subscription{Status: Active, Plan: plan.Enterprise}, t0, plan.Enterprise},
		{"past due within grace", Subscription{Status: PastDue, Plan: plan.Personal, PastDueSince: &t0}, t0.Add(grace - time.Second), plan.Personal},
		{"past due after grace", Subscription{Status: PastDue, Plan: plan.Personal, PastDueSince: &t0}, t0.Add(grace), ""},
		{"canceled in paid period", Subscription{Status: Canceled, Plan: plan.Personal, PeriodEnd: &end}, end.Add(-time.Second), plan.Personal},
		{"canceled after paid period", Subscription{Status: Canceled, Plan: plan.Personal, PeriodEnd: &end}, end, ""},
	} {
		if got := tc.s.PlanAt(tc.now, grace); got != tc.want {
			t.Errorf("%s: PlanAt = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestChanges(t *testing.T) {
	t.Parallel()
	end := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	sameEnd := end.In(time.FixedZone("x", 3600))
	cur := Subscription{CustomerID: "cus_1", SubscriptionID: "sub_1", Plan: "personal", Interval: Month, Status: Active, PeriodEnd: &end}
	if c := Changes(cur, cur); c != nil {
		t.Errorf("no change: %v", c)
	}
	same := cur
	same.PeriodEnd = &sameEnd
	if c := Changes(cur, same); c != nil {
		t.Errorf("same instant: %v", c)
	}
	next := cur
	next.Plan, next.Interval, next.Status, next.CancelAtPeriodEnd = "enterprise", Year, PastDue, true
	next.PeriodEnd = nil
	c := Changes(cur, next)
	want := map[string]any{"plan": "enterprise", "interval": Year, "status": "past_due", "cancel_at_period_end": true,
		"current_period_end": (*time.Time)(nil)}
	if len(c) != len(want) {
		t.Fatalf("changes: %v", c)
	}
	for k, v := range want {
		if c[k] != v {
			t.Errorf("%s = %v, want %v", k, c[k], v)
		}
	}
	d := Decision{Outcome: Outcome{Changed: true}, BilledPlan: "enterprise", Changes: c}
	details := d.AuditDetails(Event{ID: "evt_1", Type: SubscriptionUpdated})
	if details["stripe_event"] != "evt_1" || details["stripe_event_type"] != SubscriptionUpdated || details["billed_plan"] != "enterprise" ||
		details["status"] != "past_due" {
		t.Errorf("details: %v", details)
	}
}
