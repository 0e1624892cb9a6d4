package e2e

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// limits reads the RateLimit headers of an answer; ok is false when any is missing.
func limits(r response) (limit, remaining, reset int, ok bool) {
	var err [3]error
	limit, err[0] = strconv.Atoi(r.Header.Get("RateLimit-Limit"))
	remaining, err[1] = strconv.Atoi(r.Header.Get("RateLimit-Remaining"))
	reset, err[2] = strconv.Atoi(r.Header.Get("RateLimit-Reset"))
	return limit, remaining, reset, err[0] == nil && err[1] == nil && err[2] == nil
}

// wantLimits fails unless the answer carries the RateLimit headers with this limit and
// remaining count, and a reset within the minute.
func wantLimits(t *testing.T, what string, r response, limit, remaining int) {
	t.Helper()
	l, rem, reset, ok := limits(r)
	if !ok || l != limit || rem != remaining || reset < 1 || reset > 60 {
		t.Errorf("%s: %d with RateLimit-Limit %q, -Remaining %q, -Reset %q; want %d, %d, 1–60", what, r.Status,
			r.Header.Get("RateLimit-Limit"), r.Header.Get("RateLimit-Remaining"), r.Header.Get("RateLimit-Reset"), limit, remaining)
	}
}

// wantRateLimited fails unless the answer is 429 rate_limited with Retry-After.
func wantRateLimited(t *testing.T, what string, r response) {
	t.Helper()
	if r.Status != http.StatusTooManyRequests || r.errorCode(t) != "rate_limited" {
		t.Fatalf("%s: %d %s, want 429 rate_limited", what, r.Status, r.Body)
	}
	if n, err := strconv.Atoi(r.Header.Get("Retry-After")); err != nil || n < 1 || n > 60 {
		t.Errorf("%s: Retry-After %q, want 1–60 seconds", what, r.Header.Get("Retry-After"))
	}
}

// limiterDeployment is a deployment for a test that counts what the rate limiters let through.
// Such a test runs alone: the limiters count in Redis only while Redis answers within 100 ms,
// and on a machine busy with other tests they fall back to counting on each node, afresh.
func limiterDeployment(t *testing.T) *deployment {
	t.Helper()
	return newSerialDeployment(t)
}

// TestRateLimitPerWorkspace: a workspace's requests are counted together, members and API
// keys alike, on every node, and announced on every answer, errors included; past the
// plan's limit they answer 429. A bigger plan has a bigger limit at once on the node that
// changed it. Users outside workspaces have budgets of their own.
func TestRateLimitPerWorkspace(t *testing.T) {
	d := limiterDeployment(t)
	limitsEnv := "free.requests_per_minute=5,enterprise.requests_per_minute=50"
	s1 := d.start(t, "PLAN_LIMITS", limitsEnv)
	s2 := d.start(t, "PLAN_LIMITS", limitsEnv)

	alice := s1.signup("alice@example.com") // its API key's creation is the workspace's first request
	links := fmt.Sprintf("/api/v1/workspaces/%d/links", alice.WorkspaceID)
	wantLimits(t, "alice's key on node 2", s2.do("GET", links, alice.Key, nil), 5, 3)
	r := s1.do("GET", links+"/999999", alice.Token, nil)
	if r.Status != http.StatusNotFound {
		t.Fatalf("unknown link: %d %s", r.Status, r.Body)
	}
	wantLimits(t, "alice signed in, an unknown link on node 1", r, 5, 2)
	wantLimits(t, "node 2", s2.do("GET", links, alice.Key, nil), 5, 1)
	wantLimits(t, "node 1", s1.do("GET", links, alice.Key, nil), 5, 0)
	for i, s := range []*server{s2, s1} {
		r := s.do("GET", links, alice.Key, nil)
		wantRateLimited(t, fmt.Sprintf("past the limit on node %d", 2-i), r)
		wantLimits(t, "past the limit", r, 5, 0)
	}

	// Alice's own budget outside the workspace is untouched.
	wantLimits(t, "alice's /me", s1.do("GET", "/api/v1/me", alice.Token, nil), 5, 4)

	// A stranger to the workspace spends their own budget, not the workspace's.
	bob := s1.signup("bob@example.com")
	r = s1.do("GET", links, bob.Token, nil)
	if r.Status != http.StatusNotFound {
		t.Fatalf("bob in alice's workspace: %d %s", r.Status, r.Body)
	}
	wantLimits(t, "bob in alice's workspace", r, 5, 4)

	// On enterprise, bob's workspace has the bigger limit.
	s1.setPlan(bob, "enterprise")
	bobLinks := fmt.Sprintf("/api/v1/workspaces/%d/links", bob.WorkspaceID)
	for i := range 10 {
		r := s1.do("GET", bobLinks, bob.Key, nil)
		if r.Status != http.StatusOK {
			t.Fatalf("bob on enterprise, request %d: %d %s", i+1, r.Status, r.Body)
		}
		if l, rem, _, ok := limits(r); !ok || l != 50 || rem < 30 {
			t.Fatalf("bob on enterprise, request %d: limit %d, remaining %d", i+1, l, rem)
		}
	}
	// Alice's workspace is still spent.
	wantRateLimited(t, "alice after bob's requests", s1.do("GET", links, alice.Key, nil))
}

// TestRateLimitLeaseAcrossNodes: a budget big enough to be counted from leases (600 a minute:
// leases of up to 6 requests) still holds across two nodes under load, within the documented
// slack: no more pass than the budget plus its refill over the run and the lease age (a
// second), and no fewer than the budget less what the two nodes' leases hold. Every answer
// announces the limit; every refusal is a 429 with Retry-After.
func TestRateLimitLeaseAcrossNodes(t *testing.T) {
	d := limiterDeployment(t)
	const limit, perLease = 600, 6
	env := []string{"PLAN_LIMITS", fmt.Sprintf("free.requests_per_minute=%d", limit)}
	nodes := []*server{d.start(t, env...), d.start(t, env...)}
	alice := nodes[0].signup("alice@example.com") // its API key's creation is the first request
	links := fmt.Sprintf("/api/v1/workspaces/%d/links", alice.WorkspaceID)

	var ok, refused atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 100 {
				r := nodes[w%2].do("GET", links, alice.Key, nil)
				l, rem, _, has := limits(r)
				if !has || l != limit || rem < 0 || rem >= limit {
					t.Errorf("RateLimit-Limit %d, -Remaining %d (%v)", l, rem, has)
				}
				switch r.Status {
				case http.StatusOK:
					ok.Add(1)
				case http.StatusTooManyRequests:
					refused.Add(1)
					if n, err := strconv.Atoi(r.Header.Get("Retry-After")); err != nil || n < 1 || n > 60 {
						t.Errorf("429 with Retry-After %q", r.Header.Get("Retry-After"))
					}
				default:
					t.Errorf("%d %s", r.Status, r.Body)
				}
			}
		}()
	}
	wg.Wait()
	// The budget refills at limit a minute: over the run, and over the second a leased token
	// may wait, that many more may pass.
	refill := int64(float64(limit) * (time.Since(start) + time.Second).Minutes())
	most, least := int64(limit-1)+refill, int64(limit-1-2*perLease)
	if n := ok.Load(); n > most || n < least {
		t.Errorf("%d of 800 requests passed on two nodes (refused %d), want %d to %d", n, refused.Load(), least, most)
	}
	if refused.Load() == 0 {
		t.Error("800 requests against a budget of 600: none refused")
	}
}

// TestRateLimitAnonymous: requests without credentials are counted per client address (an
// IPv6 address by its /64), found through trusted proxies' X-Forwarded-For; X-Real-IP is not
// believed; a bad token counts against its address; logins keep their own limits per address.
func TestRateLimitAnonymous(t *testing.T) {
	s := limiterDeployment(t).start(t, "RATE_LIMIT_ANONYMOUS", "3", "TRUSTED_PROXIES", "127.0.0.1/32")
	from := func(method, path string, header ...string) response {
		t.Helper()
		req, err := http.NewRequest(method, s.base+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		return s.send(req)
	}
	const doc = "/api/v1/openapi.json"

	for i := range 3 {
		wantLimits(t, "openapi.json", from("GET", doc, "X-Forwarded-For", "203.0.113.7"), 3, 2-i)
	}
	wantRateLimited(t, "a fourth time", from("GET", doc, "X-Forwarded-For", "203.0.113.7"))
	wantRateLimited(t, "another X-Real-IP", from("GET", doc, "X-Forwarded-For", "203.0.113.7", "X-Real-IP", "198.51.100.1"))
	wantLimits(t, "another address", from("GET", doc, "X-Forwarded-For", "203.0.113.8"), 3, 2)

	// Errors are counted too; a bad token is an anonymous request.
	r := from("GET", "/api/v1/nothing", "X-Forwarded-For", "203.0.113.8")
	if r.Status != http.StatusNotFound {
		t.Fatalf("unknown endpoint: %d %s", r.Status, r.Body)
	}
	wantLimits(t, "unknown endpoint", r, 3, 1)
	r = from("GET", "/api/v1/me", "X-Forwarded-For", "203.0.113.8", "Authorization", "Bearer nonsense")
	if r.Status != http.StatusUnauthorized {
		t.Fatalf("bad token: %d %s", r.Status, r.Body)
	}
	wantLimits(t, "bad token", r, 3, 0)

	// One IPv6 /64 is one client.
	for i := range 3 {
		wantLimits(t, "IPv6", from("GET", doc, "X-Forwarded-For", fmt.Sprintf("2001:db8:1:2::%x", i+1)), 3, 2-i)
	}
	wantRateLimited(t, "the same /64", from("GET", doc, "X-Forwarded-For", "2001:db8:1:2:ffff::1"))
	wantLimits(t, "another /64", from("GET", doc, "X-Forwarded-For", "2001:db8:1:3::1"), 3, 2)

	// Without X-Forwarded-For the client is the peer, whatever X-Real-IP says.
	for i := range 3 {
		from("GET", doc, "X-Real-IP", fmt.Sprintf("198.51.100.%d", i+1))
	}
	wantRateLimited(t, "the proxy itself", from("GET", doc, "X-Real-IP", "198.51.100.99"))
}

// TestLoginLimitThroughProxy: the login limits find the client the same way: guesses from one
// address behind the proxy are stopped, another address is not.
func TestLoginLimitThroughProxy(t *testing.T) {
	s := limiterDeployment(t).start(t, "TRUSTED_PROXIES", "127.0.0.1/32")
	s.signup("carol@example.com")
	login := func(addr string) response {
		req, err := http.NewRequest("POST", s.base+"/api/v1/auth/login",
			strings.NewReader(`{"email":"carol@example.com","password":"wrong password"}`))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-Forwarded-For", addr)
		return s.send(req)
	}
	refused := false
	for range 10 {
		if r := login("203.0.113.20"); r.Status == http.StatusTooManyRequests {
			refused = true
			break
		}
	}
	if !refused {
		t.Fatal("ten wrong passwords from one address: never refused")
	}
	if r := login("203.0.113.21"); r.Status != http.StatusUnauthorized {
		t.Errorf("another address: %d %s, want 401", r.Status, r.Body)
	}
}
