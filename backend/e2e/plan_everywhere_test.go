package e2e

import (
	"fmt"
	"net/http"
	"testing"
	"time"
)

// TestOnePlanEverywhere: a workspace on Enterprise bought through Stripe is on Enterprise in
// every answer that names its plan (the workspaces listing the switcher reads, /me, the
// workspace, the plan), as soon as the webhook has landed; nothing still says free.
func TestOnePlanEverywhere(t *testing.T) {
	_, s := startBilling(t)
	tn := s.signup("one-plan@example.com")
	ws := fmt.Sprintf("/api/v1/workspaces/%d", tn.WorkspaceID)
	paths := []string{"/api/v1/workspaces", "/api/v1/me", ws}
	for _, p := range paths {
		if r := s.do("GET", p, tn.Token, nil); r.Status != http.StatusOK || !r.has(`"plan":"free"`) {
			t.Fatalf("%s before: %d %s", p, r.Status, r.Body)
		}
	}
	payload := stripeEvent("evt_one_plan", "customer.subscription.created", time.Now(),
		subscriptionObject(tn.WorkspaceID, "sub_one_plan", "active", "price_ey", time.Now().Add(30*24*time.Hour), false))
	if r := s.webhook(payload, testWebhookSecret, time.Now()); r.Status != http.StatusOK {
		t.Fatalf("webhook: %d %s", r.Status, r.Body)
	}
	if got := s.planOf(tn); got != "enterprise" {
		t.Fatalf("the plan after the webhook: %s", got)
	}
	for _, p := range paths {
		if r := s.do("GET", p, tn.Token, nil); r.Status != http.StatusOK || !r.has(`"plan":"enterprise"`) || r.has(`"plan":"free"`) {
			t.Errorf("%s after the webhook: %d %s", p, r.Status, r.Body)
		}
	}
}
