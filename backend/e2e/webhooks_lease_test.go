package e2e

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// TestWebhooksDomainVerified: verifying a custom domain delivers a signed domain.verified to
// the workspace's webhooks that subscribe to it, and to no other workspace's.
func TestWebhooksDomainVerified(t *testing.T) {
	ns := startDNS(t)
	s := newDeployment(t).start(t, "DNS_RESOLVER", ns.Addr, "WEBHOOK_ALLOW_LOOPBACK", "true")
	alice := s.signupOn("verified-hook@example.com", "enterprise")
	bob := s.signupOn("verified-hook-other@example.com", "enterprise")
	rcv, other := newHookReceiver(t), newHookReceiver(t)
	h := s.createHook(alice, rcv.url("/in"), "domain.verified")
	rcv.setSecret(h.Secret)
	oh := s.createHook(bob, other.url("/in"), "domain.verified", "link.created")
	other.setSecret(oh.Secret)

	d := s.addDomain(alice, "hooks.verified-example.com")
	ns.set(d.Verification.Name, d.Verification.Value)
	if got := s.verifyDomain(alice, d.ID); !got.Verified {
		t.Fatalf("not verified: %+v", got)
	}
	m := rcv.waitType("domain.verified", 1, 10*time.Second)[0]
	var data struct {
		Domain struct {
			ID         int64     `json:"id"`
			Hostname   string    `json:"hostname"`
			VerifiedAt time.Time `json:"verified_at"`
		} `json:"domain"`
	}
	if err := json.Unmarshal(m.Data, &data); err != nil {
		t.Fatalf("data %s: %v", m.Data, err)
	}
	if data.Domain.ID != d.ID || data.Domain.Hostname != "hooks.verified-example.com" || time.Since(data.Domain.VerifiedAt) > time.Minute {
		t.Errorf("domain.verified data: %s", m.Data)
	}
	if m.header.Get("webhook-id") != m.ID || m.header.Get("webhook-signature") == "" {
		t.Errorf("headers %v", m.header)
	}
	// Verifying again changes nothing and sends nothing more.
	s.verifyDomain(alice, d.ID)
	afterRounds(t, "dispatch rounds", s.app.WebhookDispatcher().Rounds) // a second delivery would show by now
	if n := len(rcv.ofType("domain.verified")); n != 1 {
		t.Errorf("%d domain.verified deliveries after a second check", n)
	}
	rcv.checkOnce()
	if got := other.ofType("domain.verified"); len(got) != 0 {
		t.Errorf("another workspace's webhook got %d domain.verified", len(got))
	}
	if log := s.hookDeliveries(alice, h.ID); len(log) != 1 || log[0].Event != "domain.verified" || log[0].Status != "delivered" {
		t.Errorf("delivery log: %+v", log)
	}
}

// TestWebhooksNodeKilledHoldingLeases: a node killed (SIGKILL) while it sends deliveries it
// has leased leaves them pending; another node sends each once the lease has run out (not
// before), and each message is accepted exactly once with its first recorded attempt.
func TestWebhooksNodeKilledHoldingLeases(t *testing.T) {
	d := newDeployment(t)
	env := []string{"WEBHOOK_ALLOW_LOOPBACK", "true"}
	p := d.startProcess(t, "hooks-killed", env...)
	api := p.api(d)
	tn := api.signupOn("killed-hook@example.com", "enterprise")

	// The receiver holds the killed node's requests open (it is mid-send when it dies) and
	// counts them; afterwards it answers as usual.
	rcv := newHookReceiver(t)
	var holding atomic.Bool
	var held atomic.Int32
	holding.Store(true)
	release := make(chan struct{})
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if holding.Load() {
			// The body read, the server notices the sender's connection closing.
			_, _ = io.Copy(io.Discard, r.Body)
			held.Add(1)
			select {
			case <-r.Context().Done():
			case <-release:
			}
			return
		}
		rcv.serve(w, r)
	}))
	t.Cleanup(front.Close)
	t.Cleanup(func() { close(release) }) // before Close, which waits for the handlers
	h := api.createHook(tn, front.URL+"/in", "link.created")
	rcv.setSecret(h.Secret)
	// One batch: its deliveries are written by one statement, so one claim leases them all.
	const n = 5
	links := make([]map[string]any, n)
	for i := range links {
		links[i] = map[string]any{"url": fmt.Sprintf("https://example.com/leased/%d", i)}
	}
	if r := api.do("POST", fmt.Sprintf("/api/v1/workspaces/%d/links/batch", tn.WorkspaceID), tn.Key, map[string]any{"links": links}); r.Status != http.StatusOK && r.Status != http.StatusCreated {
		t.Fatalf("batch: %d %s", r.Status, r.Body)
	}
	eventually(t, 10*time.Second, "the node sending every delivery", func() bool { return held.Load() == n })
	claimed := time.Now()
	p.signal(syscall.SIGKILL)
	if err := p.wait(10 * time.Second); err == nil {
		t.Fatal("the killed node exited cleanly")
	}
	holding.Store(false)

	// Another node on the same database: nothing is sent while the leases hold.
	s := d.start(t, env...)
	for _, dl := range s.hookDeliveries(tn, h.ID) {
		if dl.Status != "pending" || dl.Attempt != 0 {
			t.Errorf("after the kill: %+v", dl)
		}
	}
	lease := 30 * time.Second // webhook.Timeout × 3
	time.Sleep(time.Until(claimed.Add(lease - 5*time.Second)))
	// Dispatch rounds ran meanwhile, and rounds that began now: the node looked and left the
	// leased deliveries alone (the first arrival's time below proves the rest).
	afterRounds(t, "dispatch rounds", s.app.WebhookDispatcher().Rounds)
	if got := len(rcv.ofType("link.created")); got != 0 {
		t.Fatalf("%d deliveries sent before the lease ended", got)
	}
	rcv.waitType("link.created", n, 20*time.Second)
	afterRounds(t, "dispatch rounds", s.app.WebhookDispatcher().Rounds) // a second sending would show by now
	rcv.checkOnce()
	if got := len(rcv.ofType("link.created")); got != n {
		t.Errorf("%d deliveries accepted, want %d", got, n)
	}
	if first := rcv.ofType("link.created")[0].arrived; first.Before(claimed.Add(lease - time.Second)) {
		t.Errorf("first delivery %v after the claim, before the lease's end", first.Sub(claimed))
	}
	eventually(t, 5*time.Second, "the log shows every delivery", func() bool {
		log := s.hookDeliveries(tn, h.ID)
		if len(log) != n {
			return false
		}
		for _, dl := range log {
			if dl.Status != "delivered" || dl.Attempt != 1 {
				return false
			}
		}
		return true
	})
}
