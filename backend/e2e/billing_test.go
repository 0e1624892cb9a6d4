package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/stripe"
	"github.com/shortlink/shortlink/backend/testenv"
)

const (
	testWebhookSecret = "whsec_test_billing"
	testPrices        = "personal.month=price_pm,personal.year=price_py,enterprise.month=price_em,enterprise.year=price_ey,trial=price_trial"
)

// startBilling starts a server with billing on, its Stripe API answered by a stripe-mock.
func startBilling(t *testing.T, overrides ...string) (*deployment, *server) {
	t.Helper()
	d := newDeployment(t)
	return d, startBillingOn(t, d, overrides...)
}

// startBillingOn is startBilling on a deployment the test set up (its log kept, say).
func startBillingOn(t *testing.T, d *deployment, overrides ...string) *server {
	t.Helper()
	mock := testenv.NewStripeMock(t)
	return d.start(t, append([]string{
		"STRIPE_SECRET_KEY", "sk_test_billing", "STRIPE_WEBHOOK_SECRET", testWebhookSecret,
		"STRIPE_PRICES", testPrices, "STRIPE_API_BASE", mock.URL()}, overrides...)...)
}

// stripeEvent is an event's payload as Stripe sends it.
func stripeEvent(id, typ string, created time.Time, object map[string]any) []byte {
	b, _ := json.Marshal(map[string]any{"id": id, "object": "event", "type": typ, "created": created.Unix(),
		"api_version": "2025-08-27.basil", "livemode": false, "data": map[string]any{"object": object}})
	return b
}

func subscriptionObject(ws int64, id, status, price string, periodEnd time.Time, cancelAtEnd bool) map[string]any {
	return map[string]any{"id": id, "object": "subscription", "customer": "cus_" + id, "status": status,
		"cancel_at_period_end": cancelAtEnd, "metadata": map[string]string{"workspace_id": fmt.Sprint(ws)},
		"items": map[string]any{"object": "list", "data": []any{map[string]any{"id": "si_" + id, "object": "subscription_item",
			"price": map[string]any{"id": price, "object": "price"}, "current_period_end": periodEnd.Unix()}}}}
}

func invoiceObject(ws int64, sub string) map[string]any {
	return map[string]any{"id": "in_" + sub, "object": "invoice", "customer": "cus_" + sub,
		"parent": map[string]any{"type": "subscription_details", "subscription_details": map[string]any{
			"subscription": sub, "metadata": map[string]string{"workspace_id": fmt.Sprint(ws)}}}}
}

// webhook posts payload to the webhook route signed with secret at the given time, as Stripe
// signs it; an empty secret sends no signature.
func (s *server) webhook(payload []byte, secret string, at time.Time) response {
	s.t.Helper()
	return s.webhookSent(payload, payload, secret, at)
}

// webhookSent is webhook with a body other than the signed payload.
func (s *server) webhookSent(signed, sent []byte, secret string, at time.Time) response {
	s.t.Helper()
	req, err := http.NewRequest(http.MethodPost, s.base+"/api/v1/billing/webhook", strings.NewReader(string(sent)))
	if err != nil {
		s.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if secret != "" {
		req.Header.Set("Stripe-Signature", stripe.SignWebhook(signed, secret, at))
	}
	return s.send(req)
}

func (s *server) planOf(tn tenant) string {
	s.t.Helper()
	r := s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/plan", tn.WorkspaceID), tn.Token, nil)
	return answer[struct{ Plan string }](s.t, r, http.StatusOK, "plan").Plan
}

type billingJSON struct {
	Plan              string     `json:"plan"`
	Status            string     `json:"status"`
	Interval          *string    `json:"interval"`
	CurrentPeriodEnd  *time.Time `json:"current_period_end"`
	CancelAtPeriodEnd bool       `json:"cancel_at_period_end"`
	Invoices          []struct {
		ID       string `json:"id"`
		Amount   int64  `json:"amount"`
		Currency string `json:"currency"`
	} `json:"invoices"`
}

func (s *server) billingOf(tn tenant) billingJSON {
	s.t.Helper()
	r := s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/billing", tn.WorkspaceID), tn.Token, nil)
	return answer[billingJSON](s.t, r, http.StatusOK, "billing")
}

// Without STRIPE_SECRET_KEY billing is off: its routes answer billing_disabled and the trial is
// free, started at once.
func TestBillingOff(t *testing.T) {
	s := newDeployment(t).start(t, "PLAN_PRICES", "personal.monthly=2900 CNY,personal.yearly=29000 CNY,trial.once=none")
	// With billing off, the listing shows the operator's prices (PLAN_PRICES).
	var listing struct {
		Plans []struct {
			ID     string `json:"id"`
			Prices struct {
				Monthly, Yearly, Once *struct {
					Amount   int64  `json:"amount"`
					Currency string `json:"currency"`
				}
			} `json:"prices"`
		} `json:"plans"`
	}
	if r := s.do("GET", "/api/v1/plans", "", nil); r.Status != http.StatusOK {
		t.Fatalf("plans: %d %s", r.Status, r.Body)
	} else {
		r.json(t, &listing)
	}
	for _, p := range listing.Plans {
		switch p.ID {
		case "personal":
			if m, y := p.Prices.Monthly, p.Prices.Yearly; m == nil || m.Amount != 2900 || m.Currency != "CNY" || y == nil || y.Amount != 29000 {
				t.Errorf("personal's prices with PLAN_PRICES: %+v %+v", m, y)
			}
		case "enterprise":
			if p.Prices.Monthly != nil || p.Prices.Yearly != nil {
				t.Errorf("enterprise priced without a price set: %+v", p.Prices)
			}
		case "trial":
			if p.Prices.Once != nil {
				t.Errorf("trial.once=none still priced: %+v", p.Prices.Once)
			}
		}
	}
	tn := s.signup("billing-off@example.com")
	ws := fmt.Sprintf("/api/v1/workspaces/%d", tn.WorkspaceID)
	for _, c := range []struct{ method, path string }{
		{"GET", ws + "/billing"}, {"POST", ws + "/billing/portal"},
	} {
		expectRefusal(t, s.do(c.method, c.path, tn.Token, nil), http.StatusConflict, "billing_disabled", "")
	}
	expectRefusal(t, s.do("POST", ws+"/billing/checkout", tn.Token, map[string]string{"plan": "personal", "interval": "month"}),
		http.StatusConflict, "billing_disabled", "")
	payload := stripeEvent("evt_off", "customer.subscription.created", time.Now(),
		subscriptionObject(tn.WorkspaceID, "sub_off", "active", "price_em", time.Now().Add(time.Hour), false))
	expectRefusal(t, s.webhook(payload, testWebhookSecret, time.Now()), http.StatusConflict, "billing_disabled", "")
	r := s.do("POST", ws+"/trial", tn.Token, nil)
	if r.Status != http.StatusOK || !strings.Contains(string(r.Body), "trial_ends_at") || s.planOf(tn) != "trial" {
		t.Errorf("free trial: %d %s", r.Status, r.Body)
	}
}

// The webhook: forged, missing and old signatures change nothing; events apply once, an older
// one than the last applied changes nothing; the plan follows the subscription.
func TestBillingWebhook(t *testing.T) {
	_, s := startBilling(t, "BILLING_GRACE", "6s")
	tn := s.signup("billing-owner@example.com")
	t0 := time.Now().Add(-time.Hour).Truncate(time.Second)
	end := time.Now().Add(30 * 24 * time.Hour).Truncate(time.Second)
	created := stripeEvent("evt_created", "customer.subscription.created", t0,
		subscriptionObject(tn.WorkspaceID, "sub_a", "active", "price_pm", end, false))

	for name, r := range map[string]response{
		"no signature": s.webhook(created, "", time.Now()),
		"forged":       s.webhook(created, "whsec_someone_else", time.Now()),
		"too old":      s.webhook(created, testWebhookSecret, time.Now().Add(-6*time.Minute)),
		"body not as signed": s.webhookSent(created, []byte(strings.Replace(string(created), "price_pm", "price_em", 1)),
			testWebhookSecret, time.Now()),
	} {
		if r.Status != http.StatusBadRequest {
			t.Errorf("%s: %d %s", name, r.Status, r.Body)
		}
	}
	if p := s.planOf(tn); p != "free" {
		t.Fatalf("plan after refused events: %s", p)
	}

	if r := s.webhook(created, testWebhookSecret, time.Now()); r.Status != http.StatusOK {
		t.Fatalf("created: %d %s", r.Status, r.Body)
	}
	b := s.billingOf(tn)
	if b.Plan != "personal" || b.Status != "active" || b.Interval == nil || *b.Interval != "month" ||
		b.CurrentPeriodEnd == nil || !b.CurrentPeriodEnd.Equal(end) || b.CancelAtPeriodEnd {
		t.Fatalf("after created: %+v", b)
	}

	// Upgraded to enterprise; then the creation event comes again, and an update older than
	// the upgrade arrives late: neither changes anything.
	upgraded := stripeEvent("evt_upgraded", "customer.subscription.updated", t0.Add(2*time.Minute),
		subscriptionObject(tn.WorkspaceID, "sub_a", "active", "price_ey", end, false))
	late := stripeEvent("evt_late", "customer.subscription.updated", t0.Add(time.Minute),
		subscriptionObject(tn.WorkspaceID, "sub_a", "canceled", "price_pm", end, false))
	for _, p := range [][]byte{upgraded, created, late, upgraded} {
		if r := s.webhook(p, testWebhookSecret, time.Now()); r.Status != http.StatusOK {
			t.Fatalf("event: %d %s", r.Status, r.Body)
		}
	}
	if b := s.billingOf(tn); b.Plan != "enterprise" || b.Status != "active" || *b.Interval != "year" {
		t.Fatalf("after the upgrade, a replay and a late event: %+v", b)
	}
	// Other event types are acknowledged.
	if r := s.webhook(stripeEvent("evt_other", "charge.refunded", t0, map[string]any{"id": "ch_1", "object": "charge"}),
		testWebhookSecret, time.Now()); r.Status != http.StatusOK {
		t.Errorf("other type: %d %s", r.Status, r.Body)
	}

	// A failed payment keeps the plan for BILLING_GRACE, then the workspace is free; paying
	// brings the plan back.
	failed := stripeEvent("evt_failed", "invoice.payment_failed", time.Now(), invoiceObject(tn.WorkspaceID, "sub_a"))
	if r := s.webhook(failed, testWebhookSecret, time.Now()); r.Status != http.StatusOK {
		t.Fatalf("failed: %d %s", r.Status, r.Body)
	}
	if b := s.billingOf(tn); b.Status != "past_due" || b.Plan != "enterprise" {
		t.Fatalf("in the grace: %+v", b)
	}
	testenv.Eventually(t, 30*time.Second, "the plan lapses after the grace", func() bool { return s.planOf(tn) == "free" })
	paid := stripeEvent("evt_paid", "invoice.paid", time.Now().Add(time.Second), invoiceObject(tn.WorkspaceID, "sub_a"))
	if r := s.webhook(paid, testWebhookSecret, time.Now()); r.Status != http.StatusOK {
		t.Fatalf("paid: %d %s", r.Status, r.Body)
	}
	if b := s.billingOf(tn); b.Status != "active" || b.Plan != "enterprise" {
		t.Fatalf("after paying: %+v", b)
	}

	// Canceled: the plan stays until the end of the paid period.
	deleted := stripeEvent("evt_deleted", "customer.subscription.deleted", time.Now().Add(2*time.Second),
		subscriptionObject(tn.WorkspaceID, "sub_a", "canceled", "price_ey", end, false))
	if r := s.webhook(deleted, testWebhookSecret, time.Now()); r.Status != http.StatusOK {
		t.Fatalf("deleted: %d %s", r.Status, r.Body)
	}
	if b := s.billingOf(tn); b.Status != "canceled" || b.Plan != "enterprise" {
		t.Fatalf("canceled in the paid period: %+v", b)
	}
	over := stripeEvent("evt_over", "customer.subscription.updated", time.Now().Add(3*time.Second),
		subscriptionObject(tn.WorkspaceID, "sub_a", "canceled", "price_ey", time.Now().Add(-time.Minute), false))
	if r := s.webhook(over, testWebhookSecret, time.Now()); r.Status != http.StatusOK {
		t.Fatalf("period over: %d %s", r.Status, r.Body)
	}
	if p := s.planOf(tn); p != "free" {
		t.Fatalf("canceled after the paid period: %s", p)
	}
}

// A deleted subscription is final: an update of it in the same second, or later, grants no
// plan again, even once another subscription holds the workspace; a new subscription does.
func TestBillingDeletedIsFinal(t *testing.T) {
	_, s := startBilling(t)
	tn := s.signup("billing-final@example.com")
	t0 := time.Now().Add(-time.Hour).Truncate(time.Second)
	end := time.Now().Add(30 * 24 * time.Hour).Truncate(time.Second)
	send := func(id, typ string, at time.Time, object map[string]any) {
		t.Helper()
		if r := s.webhook(stripeEvent(id, typ, at, object), testWebhookSecret, time.Now()); r.Status != http.StatusOK {
			t.Fatalf("%s: %d %s", id, r.Status, r.Body)
		}
	}
	send("evt_fin_created", "customer.subscription.created", t0, subscriptionObject(tn.WorkspaceID, "sub_fin", "active", "price_pm", end, false))
	if p := s.planOf(tn); p != "personal" {
		t.Fatalf("plan of the subscription: %s", p)
	}
	// Deleted at once, its period over; then an update saying active, created the same second.
	deletedAt := t0.Add(time.Minute)
	send("evt_fin_deleted", "customer.subscription.deleted", deletedAt,
		subscriptionObject(tn.WorkspaceID, "sub_fin", "canceled", "price_pm", time.Now().Add(-time.Minute), false))
	send("evt_fin_tie", "customer.subscription.updated", deletedAt, subscriptionObject(tn.WorkspaceID, "sub_fin", "active", "price_pm", end, false))
	if b := s.billingOf(tn); b.Plan != "free" || b.Status != "canceled" {
		t.Fatalf("an update in the deletion's second revived it: %+v", b)
	}
	send("evt_fin_later", "customer.subscription.updated", deletedAt.Add(time.Minute),
		subscriptionObject(tn.WorkspaceID, "sub_fin", "active", "price_em", end, false))
	send("evt_fin_paid", "invoice.paid", deletedAt.Add(2*time.Minute), invoiceObject(tn.WorkspaceID, "sub_fin"))
	if b := s.billingOf(tn); b.Plan != "free" || b.Status != "canceled" {
		t.Fatalf("a later update or invoice revived it: %+v", b)
	}

	// A new subscription grants its plan; the ended one, heard of again, replaces nothing.
	send("evt_fin_new", "customer.subscription.created", deletedAt.Add(3*time.Minute),
		subscriptionObject(tn.WorkspaceID, "sub_fin2", "active", "price_em", end, false))
	if b := s.billingOf(tn); b.Plan != "enterprise" || b.Status != "active" {
		t.Fatalf("a new subscription after the deleted one: %+v", b)
	}
	send("evt_fin_old", "customer.subscription.updated", deletedAt.Add(4*time.Minute),
		subscriptionObject(tn.WorkspaceID, "sub_fin", "active", "price_pm", end, false))
	if b := s.billingOf(tn); b.Plan != "enterprise" || *b.Interval != "month" {
		t.Fatalf("the deleted subscription replaced the new one: %+v", b)
	}
}

// Checkout, portal, the overview and the paid trial against stripe-mock; who may call them.
func TestBillingPages(t *testing.T) {
	d, s := startBilling(t)
	owner := s.signup("pages-owner@example.com")
	admin := s.signup("pages-admin@example.com")
	if _, err := d.conn(t).Exec(context.Background(), `INSERT INTO members (workspace_id, user_id, role) VALUES ($1, $2, 'admin')`,
		owner.WorkspaceID, admin.UserID); err != nil {
		t.Fatal(err)
	}
	admin.WorkspaceID = owner.WorkspaceID
	ws := fmt.Sprintf("/api/v1/workspaces/%d", owner.WorkspaceID)

	r := s.do("POST", ws+"/billing/checkout", owner.Token, map[string]string{"plan": "personal", "interval": "year"})
	if u := answer[struct{ URL string }](t, r, http.StatusOK, "checkout").URL; !strings.HasPrefix(u, "https://") {
		t.Errorf("checkout url %q", u)
	}
	expectRefusal(t, s.do("POST", ws+"/billing/checkout", owner.Token, map[string]string{"plan": "free", "interval": "year"}),
		http.StatusBadRequest, "value_invalid", "plan")
	expectRefusal(t, s.do("POST", ws+"/billing/checkout", owner.Token, map[string]string{"plan": "personal", "interval": "week"}),
		http.StatusBadRequest, "value_invalid", "interval")
	// Paying is the owner's: the admin's checkout, and the admin's paid trial, are refused alike.
	expectRefusal(t, s.do("POST", ws+"/billing/checkout", admin.Token, map[string]string{"plan": "personal", "interval": "year"}),
		http.StatusForbidden, "role_forbidden", "")
	expectRefusal(t, s.do("POST", ws+"/trial", admin.Token, nil), http.StatusForbidden, "role_forbidden", "")
	expectRefusal(t, s.do("POST", ws+"/billing/portal", owner.Token, nil), http.StatusConflict, "billing_no_customer", "")
	if b := s.billingOf(admin); b.Status != "none" || b.Plan != "free" || b.Interval != nil || len(b.Invoices) != 0 {
		t.Errorf("billing before paying, as the admin sees it: %+v", b)
	}

	// The paid trial: POST …/trial answers the payment page; the payment starts the trial.
	r = s.do("POST", ws+"/trial", owner.Token, nil)
	if u := answer[struct{ URL string }](t, r, http.StatusOK, "trial").URL; !strings.HasPrefix(u, "https://") {
		t.Errorf("trial url %q", u)
	}
	if p := s.planOf(owner); p != "free" {
		t.Fatalf("plan before the trial's payment: %s", p)
	}
	paid := stripeEvent("evt_trial", "checkout.session.completed", time.Now(), map[string]any{"id": "cs_trial",
		"object": "checkout.session", "client_reference_id": fmt.Sprint(owner.WorkspaceID), "mode": "payment",
		"payment_status": "paid", "customer": "cus_pages"})
	if r := s.webhook(paid, testWebhookSecret, time.Now()); r.Status != http.StatusOK {
		t.Fatalf("trial paid: %d %s", r.Status, r.Body)
	}
	if p := s.planOf(owner); p != "trial" {
		t.Fatalf("plan after the trial's payment: %s", p)
	}
	expectRefusal(t, s.do("POST", ws+"/trial", owner.Token, nil), http.StatusConflict, "trial_used", "")

	// With a customer: the portal opens and the overview lists the customer's invoices.
	r = s.do("POST", ws+"/billing/portal", owner.Token, nil)
	if u := answer[struct{ URL string }](t, r, http.StatusOK, "portal").URL; !strings.HasPrefix(u, "https://") {
		t.Errorf("portal url %q", u)
	}
	if b := s.billingOf(owner); len(b.Invoices) == 0 || b.Invoices[0].ID == "" {
		t.Errorf("invoices: %+v", b)
	}
	if r := s.do("POST", ws+"/billing/portal", admin.Token, nil); r.Status != http.StatusForbidden {
		t.Errorf("admin's portal: %d %s", r.Status, r.Body)
	}
}

// Malformed bodies and events with billing on: 4xx in the error shape, nothing changed.
func TestBillingBadInput(t *testing.T) {
	_, s := startBilling(t, "MAX_BODY_BYTES", "65536")
	tn := s.signup("billing-bad@example.com")
	checkout := fmt.Sprintf("/api/v1/workspaces/%d/billing/checkout", tn.WorkspaceID)
	for _, c := range []struct {
		name   string
		body   any
		status int
		reason string
	}{
		{"no body", nil, 400, "json_invalid"},
		{"not JSON", "{plan:", 400, "json_invalid"},
		{"array", "[]", 400, "json_invalid"},
		{"unknown field", map[string]any{"plan": "personal", "interval": "month", "price": "price_x"}, 400, "json_invalid"},
		{"plan number", map[string]any{"plan": 1, "interval": "month"}, 400, ""},
		{"plan missing", map[string]any{"interval": "month"}, 400, "value_invalid"},
		{"plan trial", map[string]any{"plan": "trial", "interval": "month"}, 400, "value_invalid"},
		{"plan case", map[string]any{"plan": "Personal", "interval": "month"}, 400, "value_invalid"},
		{"interval missing", map[string]any{"plan": "personal"}, 400, "value_invalid"},
		{"too large", `{"plan":"` + strings.Repeat("a", 70000) + `"}`, 413, ""},
	} {
		r := s.do("POST", checkout, tn.Token, c.body)
		if r.Status != c.status || (c.reason != "" && refusalOf(t, r).Reason != c.reason) {
			t.Errorf("%s: %d %s, want %d %s", c.name, r.Status, r.Body, c.status, c.reason)
		}
	}
	// Signed, but not an event.
	for name, payload := range map[string][]byte{"not JSON": []byte("{id:"), "empty": []byte(""), "array": []byte("[]"), "no id": []byte(`{"type":"invoice.paid"}`)} {
		r := s.webhook(payload, testWebhookSecret, time.Now())
		if r.Status != http.StatusBadRequest || refusalOf(t, r).Reason != "json_invalid" {
			t.Errorf("webhook %s: %d %s", name, r.Status, r.Body)
		}
	}
	big := stripeEvent("evt_big", "customer.subscription.created", time.Now(), map[string]any{"id": strings.Repeat("a", 70000)})
	if r := s.webhook(big, testWebhookSecret, time.Now()); r.Status != http.StatusRequestEntityTooLarge {
		t.Errorf("webhook too large: %d %s", r.Status, r.Body)
	}
	// A handled event naming no workspace, or a workspace that does not exist: acknowledged,
	// nothing changes.
	for i, ws := range []int64{0, 999999} {
		p := stripeEvent(fmt.Sprintf("evt_nobody_%d", i), "customer.subscription.created", time.Now(),
			subscriptionObject(ws, "sub_nobody", "active", "price_em", time.Now().Add(time.Hour), false))
		if r := s.webhook(p, testWebhookSecret, time.Now()); r.Status != http.StatusOK {
			t.Errorf("event of workspace %d: %d %s", ws, r.Status, r.Body)
		}
	}
	if p := s.planOf(tn); p != "free" {
		t.Errorf("plan after bad input: %s", p)
	}
}

// No request reaches another workspace's billing: checkout, portal and overview of a workspace
// the caller is not in answer 404, and an event naming one workspace changes no other.
func TestBillingTenancy(t *testing.T) {
	_, s := startBilling(t)
	alice, bob := s.signup("billing-alice@example.com"), s.signup("billing-bob@example.com")
	bobWS := fmt.Sprintf("/api/v1/workspaces/%d", bob.WorkspaceID)
	for _, c := range []struct {
		method, path string
		body         any
	}{
		{"GET", bobWS + "/billing", nil},
		{"POST", bobWS + "/billing/portal", nil},
		{"POST", bobWS + "/billing/checkout", map[string]string{"plan": "enterprise", "interval": "month"}},
		{"POST", bobWS + "/trial", nil},
	} {
		if r := s.do(c.method, c.path, alice.Token, c.body); r.Status != http.StatusNotFound && r.Status != http.StatusForbidden {
			t.Errorf("alice %s %s: %d %s", c.method, c.path, r.Status, r.Body)
		}
	}
	p := stripeEvent("evt_alice", "customer.subscription.created", time.Now(),
		subscriptionObject(alice.WorkspaceID, "sub_alice", "active", "price_em", time.Now().Add(time.Hour), false))
	if r := s.webhook(p, testWebhookSecret, time.Now()); r.Status != http.StatusOK {
		t.Fatalf("alice's event: %d %s", r.Status, r.Body)
	}
	// An invoice of alice's subscription that names bob's workspace in its metadata cannot
	// move bob's plan: bob has no such subscription.
	inv := stripeEvent("evt_cross", "invoice.paid", time.Now().Add(time.Second), invoiceObject(bob.WorkspaceID, "sub_alice"))
	if r := s.webhook(inv, testWebhookSecret, time.Now()); r.Status != http.StatusOK {
		t.Fatalf("cross event: %d %s", r.Status, r.Body)
	}
	if a, b := s.billingOf(alice), s.billingOf(bob); a.Plan != "enterprise" || b.Plan != "free" || b.Status != "none" {
		t.Errorf("alice %+v, bob %+v", a, b)
	}
}

// Two workspaces of one owner are billed apart, each by its own subscription; a plan changed
// in Stripe's portal moves down as it moves up, and a cancellation at the period's end keeps
// the plan until then.
func TestBillingTwoWorkspacesOneOwner(t *testing.T) {
	_, s := startBilling(t)
	a := s.signup("two-workspaces@example.com")
	r := s.do("POST", "/api/v1/workspaces", a.Token, map[string]any{"name": "second"})
	b := a
	b.WorkspaceID = answer[struct{ ID int64 }](t, r, http.StatusCreated, "second workspace").ID
	t0 := time.Now().Add(-time.Hour).Truncate(time.Second)
	end := time.Now().Add(30 * 24 * time.Hour).Truncate(time.Second)
	send := func(id, typ string, at time.Time, object map[string]any) {
		t.Helper()
		if r := s.webhook(stripeEvent(id, typ, at, object), testWebhookSecret, time.Now()); r.Status != http.StatusOK {
			t.Fatalf("%s: %d %s", id, r.Status, r.Body)
		}
	}
	send("evt_a1", "customer.subscription.created", t0, subscriptionObject(a.WorkspaceID, "sub_wa", "active", "price_em", end, false))
	send("evt_b1", "customer.subscription.created", t0, subscriptionObject(b.WorkspaceID, "sub_wb", "active", "price_py", end, false))
	if pa, pb := s.billingOf(a), s.billingOf(b); pa.Plan != "enterprise" || *pa.Interval != "month" || pb.Plan != "personal" || *pb.Interval != "year" {
		t.Fatalf("two subscriptions: %+v / %+v", pa, pb)
	}

	// Down from enterprise to personal in the portal: only the first workspace moves.
	send("evt_a2", "customer.subscription.updated", t0.Add(time.Minute), subscriptionObject(a.WorkspaceID, "sub_wa", "active", "price_pm", end, false))
	if pa, pb := s.billingOf(a), s.billingOf(b); pa.Plan != "personal" || *pa.Interval != "month" || pb.Plan != "personal" || *pb.Interval != "year" {
		t.Fatalf("after the downgrade: %+v / %+v", pa, pb)
	}
	if p := s.planOf(a); p != "personal" {
		t.Fatalf("plan after the downgrade: %s", p)
	}

	// Canceled at the period's end: the plan stays, the flag shows; the other workspace's
	// failed payment is its own.
	send("evt_a3", "customer.subscription.updated", t0.Add(2*time.Minute), subscriptionObject(a.WorkspaceID, "sub_wa", "active", "price_pm", end, true))
	send("evt_b2", "invoice.payment_failed", t0.Add(2*time.Minute), invoiceObject(b.WorkspaceID, "sub_wb"))
	pa, pb := s.billingOf(a), s.billingOf(b)
	if pa.Plan != "personal" || pa.Status != "active" || !pa.CancelAtPeriodEnd {
		t.Fatalf("canceled at the period's end: %+v", pa)
	}
	if pb.Status != "past_due" || pb.Plan != "personal" || pb.CancelAtPeriodEnd {
		t.Fatalf("the other workspace's failed payment: %+v", pb)
	}
	// An invoice of the first workspace's subscription never settles the second's.
	send("evt_a4", "invoice.paid", t0.Add(3*time.Minute), invoiceObject(b.WorkspaceID, "sub_wa"))
	if pb := s.billingOf(b); pb.Status != "past_due" {
		t.Fatalf("another subscription's invoice settled the second workspace: %+v", pb)
	}
}
