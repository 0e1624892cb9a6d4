package e2e

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestBillingOperators: every change a webhook applies is in the workspace's audit log, by
// the system, naming the Stripe event; operators see each workspace's billing in their list;
// webhook calls that apply nothing are counted by reason on /metrics.
func TestBillingOperators(t *testing.T) {
	d, s := startBilling(t, "METRICS_ADDR", "127.0.0.1:0", "BILLING_GRACE", "48h")
	tn := s.signup("billing-ops@example.com")
	t0 := time.Now().Add(-time.Hour).Truncate(time.Second)
	end := time.Now().Add(365 * 24 * time.Hour).Truncate(time.Second)
	sub := subscriptionObject(tn.WorkspaceID, "sub_ops", "active", "price_ey", end, false)
	if r := s.webhook(stripeEvent("evt_ops_1", "customer.subscription.created", t0, sub), testWebhookSecret, time.Now()); r.Status != http.StatusOK {
		t.Fatalf("created: %d %s", r.Status, r.Body)
	}
	if r := s.webhook(stripeEvent("evt_ops_2", "invoice.payment_failed", t0.Add(time.Minute), invoiceObject(tn.WorkspaceID, "sub_ops")),
		testWebhookSecret, time.Now()); r.Status != http.StatusOK {
		t.Fatalf("payment failed: %d %s", r.Status, r.Body)
	}

	// The audit log (the workspace is on enterprise now, which has it).
	type eventJSON struct {
		Action string `json:"action"`
		Actor  struct {
			Type string `json:"type"`
		} `json:"actor"`
		Target  string         `json:"target"`
		Details map[string]any `json:"details"`
	}
	r := s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/audit", tn.WorkspaceID), tn.Token, nil)
	var log []eventJSON
	for _, e := range answer[struct{ Events []eventJSON }](t, r, http.StatusOK, "audit").Events {
		if e.Action != "api_key.created" { // the sign-up's own key
			log = append(log, e)
		}
	}
	if len(log) != 2 {
		t.Fatalf("audit events: %s", r.Body)
	}
	for i, want := range []struct{ event, typ, status string }{
		{"evt_ops_2", "invoice.payment_failed", "past_due"}, {"evt_ops_1", "customer.subscription.created", "active"},
	} {
		e := log[i]
		if e.Action != "billing.changed" || e.Actor.Type != "system" || e.Target != fmt.Sprintf("workspace:%d", tn.WorkspaceID) ||
			e.Details["stripe_event"] != want.event || e.Details["stripe_event_type"] != want.typ || e.Details["status"] != want.status {
			t.Errorf("audit event %d: %+v", i, e)
		}
	}
	if log[1].Details["plan"] != "enterprise" || log[1].Details["interval"] != "year" || log[1].Details["billed_plan"] != "enterprise" {
		t.Errorf("created's details: %v", log[1].Details)
	}

	// The owner's overview gives the grace's end; the operators' list the billing at a glance.
	var over struct {
		Status       string     `json:"status"`
		PastDueSince *time.Time `json:"past_due_since"`
		GraceEndsAt  *time.Time `json:"grace_ends_at"`
	}
	s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/billing", tn.WorkspaceID), tn.Token, nil).json(t, &over)
	if over.Status != "past_due" || over.PastDueSince == nil || !over.PastDueSince.Equal(t0.Add(time.Minute)) ||
		over.GraceEndsAt == nil || !over.GraceEndsAt.Equal(t0.Add(time.Minute+48*time.Hour)) {
		t.Errorf("overview while past due: %+v", over)
	}
	type summary struct {
		Status       string     `json:"status"`
		BilledPlan   string     `json:"billed_plan"`
		BilledUntil  *time.Time `json:"billed_until"`
		PastDueSince *time.Time `json:"past_due_since"`
	}
	other := s.signup("billing-ops-other@example.com")
	r = s.do("GET", "/api/v1/admin/workspaces", s.operatorToken(), nil)
	list := answer[struct {
		Workspaces []struct {
			ID      int64    `json:"id"`
			Billing *summary `json:"billing"`
		}
	}](t, r, http.StatusOK, "admin workspaces").Workspaces
	seen := 0
	for _, w := range list {
		switch w.ID {
		case tn.WorkspaceID:
			seen++
			b := w.Billing
			if b == nil || b.Status != "past_due" || b.BilledPlan != "enterprise" || b.BilledUntil == nil ||
				!b.BilledUntil.Equal(t0.Add(time.Minute+48*time.Hour)) || b.PastDueSince == nil {
				t.Errorf("billed workspace in the list: %+v", b)
			}
		case other.WorkspaceID:
			seen++
			if b := w.Billing; b == nil || b.Status != "none" || b.BilledPlan != "" || b.BilledUntil != nil || b.PastDueSince != nil {
				t.Errorf("unbilled workspace in the list: %+v", b)
			}
		}
	}
	if seen != 2 {
		t.Errorf("workspaces in the list: %s", r.Body)
	}

	// Failures, each counted under its reason.
	failures := func() map[string]float64 {
		m := string(s.metrics().Body)
		out := map[string]float64{}
		for _, reason := range []string{"signature", "unparsable", "store"} {
			out[reason] = metricValue(m, fmt.Sprintf(`shortlink_billing_webhook_failures_total{reason=%q}`, reason))
		}
		return out
	}
	// With billing on, each reason's series is there before any failure (0 unless another test
	// of this process failed a webhook).
	for _, reason := range []string{"signature", "unparsable", "store"} {
		if !strings.Contains(string(s.metrics().Body), fmt.Sprintf(`shortlink_billing_webhook_failures_total{reason=%q}`, reason)) {
			t.Errorf("no series of reason %s on /metrics", reason)
		}
	}
	before := failures()
	event := stripeEvent("evt_ops_3", "customer.subscription.updated", t0.Add(2*time.Minute), sub)
	if r := s.webhook(event, "whsec_forged", time.Now()); r.Status != http.StatusBadRequest {
		t.Errorf("forged: %d %s", r.Status, r.Body)
	}
	if r := s.webhook([]byte(`{"not": "an event"`), testWebhookSecret, time.Now()); r.Status != http.StatusBadRequest {
		t.Errorf("unparsable: %d %s", r.Status, r.Body)
	}
	// The database refuses the write: the call fails (Stripe retries it) and nothing changes.
	conn := d.conn(t)
	if _, err := conn.Exec(context.Background(), `ALTER TABLE billing_events RENAME TO billing_events_away`); err != nil {
		t.Fatal(err)
	}
	r = s.webhook(event, testWebhookSecret, time.Now())
	if _, err := conn.Exec(context.Background(), `ALTER TABLE billing_events_away RENAME TO billing_events`); err != nil {
		t.Fatal(err)
	}
	if r.Status != http.StatusInternalServerError {
		t.Errorf("store failure: %d %s", r.Status, r.Body)
	}
	after := failures()
	for reason, n := range before {
		if after[reason] < n+1 {
			t.Errorf("failures of reason %s: %v then %v", reason, n, after[reason])
		}
	}
	// Stripe's retry goes through.
	if r := s.webhook(event, testWebhookSecret, time.Now()); r.Status != http.StatusOK {
		t.Errorf("retry: %d %s", r.Status, r.Body)
	}
}
