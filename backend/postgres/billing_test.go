package postgres_test

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/audit"
	"github.com/shortlink/shortlink/backend/billing"
	"github.com/shortlink/shortlink/backend/plan"
	"github.com/shortlink/shortlink/backend/postgres"
	"github.com/shortlink/shortlink/backend/testenv"
)

func TestBillingStore(t *testing.T) {
	t.Parallel()
	db := testenv.DB(t)
	accounts, plans, store := postgres.NewAccountStore(db), postgres.NewPlanStore(db), postgres.NewBillingStore(db)
	ctx := context.Background()
	_, w := newUser(t, accounts, "alice@example.com")
	prices, err := billing.ParsePrices("personal.month=price_pm,personal.year=price_py,enterprise.month=price_em,enterprise.year=price_ey,trial=price_t")
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now().UTC().Truncate(time.Second)
	svc := billing.NewService(billing.Options{Store: store, Prices: prices, Grace: time.Hour,
		Now: func() time.Time { return now }, Log: slog.New(slog.NewTextHandler(io.Discard, nil))})

	sub, err := store.Subscription(ctx, w.ID)
	if err != nil || sub.Status != billing.None {
		t.Fatalf("no subscription: %+v %v", sub, err)
	}
	end := now.Add(30 * 24 * time.Hour)
	created := billing.Event{ID: "evt_1", Type: billing.SubscriptionCreated, Created: now, WorkspaceID: w.ID,
		CustomerID: "cus_1", SubscriptionID: "sub_1", StripeStatus: "active", PriceID: "price_em", PeriodEnd: &end}
	for range 2 { // the replay changes nothing
		if _, err := svc.Handle(ctx, created); err != nil {
			t.Fatal(err)
		}
	}
	sub, err = store.Subscription(ctx, w.ID)
	if err != nil || sub.Status != billing.Active || sub.Plan != plan.Enterprise || sub.Interval != billing.Month ||
		sub.PeriodEnd == nil || !sub.PeriodEnd.Equal(end) || sub.CustomerID != "cus_1" {
		t.Fatalf("after created: %+v %v", sub, err)
	}
	if st, _ := plans.State(ctx, w.ID); st.At(now) != plan.Enterprise {
		t.Fatalf("plan after created: %+v", st)
	}

	// An invoice names only the subscription; its failure starts the grace.
	failed := billing.Event{ID: "evt_2", Type: billing.InvoicePaymentFailed, Created: now.Add(time.Minute), SubscriptionID: "sub_1"}
	if _, err := svc.Handle(ctx, failed); err != nil {
		t.Fatal(err)
	}
	st, _ := plans.State(ctx, w.ID)
	if st.At(now) != plan.Enterprise || st.At(now.Add(time.Hour+time.Minute)) != plan.Free {
		t.Fatalf("grace: %+v", st)
	}
	// An older event comes late: nothing changes.
	stale := created
	stale.ID, stale.Type, stale.Created = "evt_0", billing.SubscriptionUpdated, now.Add(-time.Minute)
	if _, err := svc.Handle(ctx, stale); err != nil {
		t.Fatal(err)
	}
	if sub, _ := store.Subscription(ctx, w.ID); sub.Status != billing.PastDue {
		t.Fatalf("stale event applied: %+v", sub)
	}

	// The paid trial starts the trial once, on a free workspace.
	_, w2 := newUser(t, accounts, "bob@example.com")
	trial := billing.Event{ID: "evt_3", Type: billing.CheckoutCompleted, Created: now, WorkspaceID: w2.ID,
		CustomerID: "cus_2", Mode: "payment", Paid: true}
	if _, err := svc.Handle(ctx, trial); err != nil {
		t.Fatal(err)
	}
	if st, _ := plans.State(ctx, w2.ID); st.Plan != plan.Trial || !st.TrialUsed || st.TrialEndsAt == nil {
		t.Fatalf("paid trial: %+v", st)
	}
	// An event of no known workspace is recorded and changes nothing.
	if _, err := svc.Handle(ctx, billing.Event{ID: "evt_4", Type: billing.InvoicePaid, Created: now, SubscriptionID: "sub_x"}); err != nil {
		t.Fatal(err)
	}

	// Each change is in the workspace's log, by the system, with the Stripe event that made it;
	// the replay and the stale event add nothing.
	log := postgres.NewAuditStore(db)
	es, err := log.Events(ctx, w.ID, 0, 10)
	if err != nil || len(es) != 2 {
		t.Fatalf("audit events: %+v %v", es, err)
	}
	for i, want := range []struct{ event, status string }{{"evt_2", "past_due"}, {"evt_1", "active"}} {
		e := es[i]
		if e.Action != audit.BillingChanged || e.Actor.Type != audit.ActorSystem || e.Target != audit.Target("workspace", w.ID) ||
			e.Details["stripe_event"] != want.event || e.Details["status"] != want.status {
			t.Errorf("audit event %d: %+v", i, e)
		}
	}
	if es[1].Details["plan"] != plan.Enterprise || es[1].Details["billed_plan"] != plan.Enterprise || es[0].Details["plan"] != nil {
		t.Errorf("audit details: %v / %v", es[1].Details, es[0].Details)
	}
	es, err = log.Events(ctx, w2.ID, 0, 10)
	if err != nil || len(es) != 2 || es[0].Action != audit.TrialStarted || es[0].Details["paid"] != true ||
		es[1].Action != audit.BillingChanged || es[1].Details["customer_id"] != "cus_2" {
		t.Fatalf("trial audit events: %+v %v", es, err)
	}
}

// An ended subscription is remembered apart from the workspace's own: once another
// subscription holds the workspace, a later event of the ended one replaces nothing.
func TestBillingStoreEndedIsFinal(t *testing.T) {
	t.Parallel()
	db := testenv.DB(t)
	accounts, plans, store := postgres.NewAccountStore(db), postgres.NewPlanStore(db), postgres.NewBillingStore(db)
	ctx := context.Background()
	_, w := newUser(t, accounts, "carol@example.com")
	prices, err := billing.ParsePrices("personal.month=price_pm,personal.year=price_py,enterprise.month=price_em,enterprise.year=price_ey,trial=price_t")
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now().UTC().Truncate(time.Second)
	svc := billing.NewService(billing.Options{Store: store, Prices: prices, Grace: time.Hour,
		Now: func() time.Time { return now }, Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	end := now.Add(30 * 24 * time.Hour)
	event := func(id, typ, sub, status, price string, at time.Duration) billing.Event {
		return billing.Event{ID: id, Type: typ, Created: now.Add(at), WorkspaceID: w.ID, CustomerID: "cus_c",
			SubscriptionID: sub, StripeStatus: status, PriceID: price, PeriodEnd: &end}
	}
	for _, e := range []billing.Event{
		event("evt_c1", billing.SubscriptionCreated, "sub_new", "active", "price_pm", 0),
		// The old subscription's end arrives while the new one holds the workspace.
		event("evt_c2", billing.SubscriptionDeleted, "sub_old", "canceled", "price_em", time.Minute),
		// Then an update of the old one, later still: active, it would replace a live one.
		event("evt_c3", billing.SubscriptionUpdated, "sub_old", "active", "price_em", 2*time.Minute),
	} {
		if _, err := svc.Handle(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	sub, err := store.Subscription(ctx, w.ID)
	if err != nil || sub.SubscriptionID != "sub_new" || sub.Plan != plan.Personal || sub.Status != billing.Active {
		t.Fatalf("an ended subscription came back: %+v %v", sub, err)
	}
	if st, _ := plans.State(ctx, w.ID); st.At(now) != plan.Personal {
		t.Fatalf("plan: %+v", st)
	}
}
