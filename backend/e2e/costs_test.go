package e2e

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync/atomic"
	"testing"
)

// remainingOf reads RateLimit-Remaining, failing the test when it is missing.
func remainingOf(t *testing.T, what string, r response) int {
	t.Helper()
	n, err := strconv.Atoi(r.Header.Get("RateLimit-Remaining"))
	if err != nil {
		t.Fatalf("%s: %d without RateLimit-Remaining (%q)", what, r.Status, r.Header.Get("RateLimit-Remaining"))
	}
	return n
}

// wantSpent fails unless a request took cost tokens of the budget between two answers' counts,
// or one token less: a budget of a few dozen a minute refills one every few seconds.
func wantSpent(t *testing.T, what string, before, after, cost int) {
	t.Helper()
	if spent := before - after; spent != cost && spent != cost-1 {
		t.Errorf("%s took %d tokens (%d → %d), want %d", what, spent, before, after, cost)
	}
}

// TestBulkEditCostsItsSize: a bulk edit and a batch create take one request of the workspace's
// budget per link they name; one the budget cannot pay is refused whole with 429 and changes
// nothing.
func TestBulkEditCostsItsSize(t *testing.T) {
	// Counts what the limiter let through: see limiterDeployment.
	s := limiterDeployment(t).start(t, "PLAN_LIMITS", "enterprise.requests_per_minute=100")
	tn := s.signupOn("bulk-cost@example.com", "enterprise")
	ws := fmt.Sprintf("/api/v1/workspaces/%d", tn.WorkspaceID)

	r := s.do("POST", ws+"/links/batch", tn.Key, map[string]any{"links": []any{
		map[string]any{"url": "https://cost.example/a"}, map[string]any{"url": "https://cost.example/b"},
		map[string]any{"url": "https://cost.example/c"}, map[string]any{"url": "https://cost.example/d"}}})
	made := answer[struct{ Results []struct{ Link *linkJSON } }](t, r, http.StatusOK, "batch of 4").Results
	batched := remainingOf(t, "the batch", r)
	if batched > 100-4 || batched < 100-4-2 {
		t.Errorf("a batch of 4 left %d of 100, want about 96", batched)
	}
	ids := make([]int64, 60)
	for i := range ids {
		ids[i] = made[i%len(made)].Link.ID
	}
	before := remainingOf(t, "a read", s.do("GET", ws+"/links", tn.Key, nil))
	r = s.do("PATCH", ws+"/links", tn.Key, map[string]any{"ids": ids, "set": map[string]any{"status": "disabled"}})
	if r.Status != http.StatusOK {
		t.Fatalf("bulk edit of 60 IDs: %d %s", r.Status, r.Body)
	}
	wantSpent(t, "a bulk edit of 60 IDs", before, remainingOf(t, "the bulk edit", r), 60)

	// About 35 left: another 60 are refused, and no link changes.
	r = s.do("PATCH", ws+"/links", tn.Key, map[string]any{"ids": ids, "set": map[string]any{"status": "active"}})
	wantRateLimited(t, "a bulk edit the budget cannot pay", r)
	r = s.do("GET", fmt.Sprintf("%s/links/%d", ws, made[0].Link.ID), tn.Key, nil)
	if l := answer[linkJSON](t, r, http.StatusOK, "a link after the refusal"); l.Status != "disabled" {
		t.Errorf("the refused bulk edit changed a link: %+v", l)
	}
	// A small edit still fits what is left.
	r = s.do("PATCH", ws+"/links", tn.Key, map[string]any{"ids": ids[:5], "set": map[string]any{"status": "active"}})
	if r.Status != http.StatusOK {
		t.Fatalf("bulk edit of 5 IDs: %d %s", r.Status, r.Body)
	}
}

// TestWebhookTestRateLimited: a test delivery, and the resend of a delivery, cost ten requests
// of the workspace's budget; past it they are refused with 429 and Retry-After, and nothing is
// sent.
func TestWebhookTestRateLimited(t *testing.T) {
	// Counts what the limiter let through: see limiterDeployment.
	s := limiterDeployment(t).start(t, "PLAN_LIMITS", "personal.requests_per_minute=30", "WEBHOOK_ALLOW_LOOPBACK", "true")
	tn := s.signupOn("hook-cost@example.com", "personal")
	var sent atomic.Int64
	rcv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		sent.Add(1)
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(rcv.Close)
	r := s.do("POST", fmt.Sprintf("/api/v1/workspaces/%d/webhooks", tn.WorkspaceID), tn.Token,
		map[string]any{"url": rcv.URL + "/in", "events": []string{"link.created"}})
	h := answer[hookJSON](t, r, http.StatusCreated, "create webhook")
	left := remainingOf(t, "create webhook", r)
	test := fmt.Sprintf("/api/v1/workspaces/%d/webhooks/%d/test", tn.WorkspaceID, h.ID)
	// A test, then the resend of its delivery, which costs what a test costs.
	var first hookDelivery
	for i, what := range []string{"test", "resend"} {
		path := test
		if what == "resend" {
			path = fmt.Sprintf("/api/v1/workspaces/%d/webhooks/%d/deliveries/%d/resend", tn.WorkspaceID, h.ID, first.ID)
		}
		r := s.do("POST", path, tn.Token, nil)
		d := answer[struct{ Delivery hookDelivery }](t, r, http.StatusOK, what).Delivery
		if d.Status != "delivered" {
			t.Fatalf("%s: %+v", what, d)
		}
		if i == 0 {
			first = d
		}
		now := remainingOf(t, what, r)
		wantSpent(t, what, left, now, 10)
		left = now
	}
	// About 9 left: a third send, test or resend, is refused before anything is sent.
	wantRateLimited(t, "a third test", s.do("POST", test, tn.Token, nil))
	wantRateLimited(t, "a second resend", s.do("POST", fmt.Sprintf("/api/v1/workspaces/%d/webhooks/%d/deliveries/%d/resend", tn.WorkspaceID, h.ID, first.ID), tn.Token, nil))
	if n := sent.Load(); n != 2 {
		t.Errorf("the receiver got %d requests, want the test and its resend", n)
	}
	if ds := s.hookDeliveries(tn, h.ID); len(ds) != 2 {
		t.Errorf("%d deliveries recorded, want the test and its resend: %+v", len(ds), ds)
	}
}
