package e2e

import (
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"testing"
)

// TestPasswordHashingBusy: with one hashing slot and no queue, concurrent logins past the
// first are answered 503 unavailable with Retry-After (not 500, not a memory spike), and the
// answers match the API document. limiterDeployment: the test counts the address's login budget
// to the token, which a Redis slowed past the limiter's wait would blur.
func TestPasswordHashingBusy(t *testing.T) {
	d := limiterDeployment(t)
	d.fullHashes = true // a hash takes tens of milliseconds, as in a deployment
	s := d.start(t, "PASSWORD_HASH_CONCURRENCY", "1", "PASSWORD_HASH_WAIT", "0s")
	const n = 8 // within the address's burst of 10
	answers := make([]response, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Go(func() {
			<-start
			answers[i] = s.do("POST", "/api/v1/auth/login", "", map[string]string{
				"email": fmt.Sprintf("nobody%d@example.com", i), "password": "correct horse battery"})
		})
	}
	close(start)
	wg.Wait()
	busy := 0
	for _, r := range answers {
		switch r.Status {
		case http.StatusUnauthorized:
		case http.StatusServiceUnavailable:
			busy++
			if code := r.errorCode(t); code != "unavailable" {
				t.Errorf("busy answer code %q, want unavailable", code)
			}
			if sec, err := strconv.Atoi(r.Header.Get("Retry-After")); err != nil || sec < 1 {
				t.Errorf("busy answer Retry-After %q", r.Header.Get("Retry-After"))
			}
		default:
			t.Errorf("login: %d %s, want 401 or 503", r.Status, r.Body)
		}
	}
	// Each hash takes tens of milliseconds: eight logins released together cannot all
	// find the one slot free.
	if busy == 0 {
		t.Errorf("%d concurrent logins with one hashing slot and no queue all ran", n)
	}
	// The refused logins were never checked: they gave their tokens back, so the address
	// still has its burst of 10 less the failures.
	for i := range 10 - (n - busy) {
		r := s.do("POST", "/api/v1/auth/login", "", map[string]string{"email": fmt.Sprintf("later%d@example.com", i), "password": "correct horse battery"})
		if r.Status != http.StatusUnauthorized {
			t.Fatalf("login %d after the burst: %d %s, want 401", i+1, r.Status, r.Body)
		}
	}
}
