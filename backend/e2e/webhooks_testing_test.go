package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestWebhookTestTimeout: a test delivery waits on its receiver the deliveries' 10 s, not the
// requests' WRITE_TIMEOUT: a receiver slower than the latter is delivered, and one that never
// answers fails after the former.
func TestWebhookTestTimeout(t *testing.T) {
	d := newDeployment(t)
	setup := d.start(t, "WEBHOOK_ALLOW_LOOPBACK", "true")
	tn := setup.signupOn("hook-timeout@example.com", "personal") // a sign-up may take seconds on a busy machine
	s := d.start(t, "WEBHOOK_ALLOW_LOOPBACK", "true", "WRITE_TIMEOUT", "1s")
	rcv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Read to the end, so that the request's context ends when the sender hangs up.
		_, _ = io.Copy(io.Discard, r.Body)
		if r.URL.Path == "/hang" {
			<-r.Context().Done() // until the sender gives up
			return
		}
		select { // slower than WRITE_TIMEOUT
		case <-time.After(2 * time.Second):
		case <-r.Context().Done():
		}
		w.WriteHeader(http.StatusOK)
	}))
	t.Cleanup(rcv.Close)
	client := &http.Client{Timeout: 30 * time.Second}
	test := func(path string) (hookDelivery, time.Duration) {
		t.Helper()
		h := s.createHook(tn, rcv.URL+path, "link.created")
		req, err := http.NewRequest("POST", fmt.Sprintf("%s/api/v1/workspaces/%d/webhooks/%d/test", s.base, tn.WorkspaceID, h.ID), nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+tn.Token)
		start := time.Now()
		res, err := client.Do(req)
		if err != nil {
			t.Fatalf("test of %s: %v", path, err)
		}
		defer func() { _ = res.Body.Close() }()
		checkAccepted(t, req, nil, res.StatusCode)
		var body struct{ Delivery hookDelivery }
		if err := json.NewDecoder(res.Body).Decode(&body); err != nil || res.StatusCode != http.StatusOK {
			t.Fatalf("test of %s: %d %v", path, res.StatusCode, err)
		}
		return body.Delivery, time.Since(start)
	}
	if d, _ := test("/slow"); d.Status != "delivered" || d.ResponseCode == nil || *d.ResponseCode != http.StatusOK {
		t.Errorf("a receiver slower than WRITE_TIMEOUT: %+v", d)
	}
	hung, took := test("/hang")
	if hung.Status != "failed" || hung.ResponseCode != nil || !strings.Contains(strings.ToLower(hung.Error), "timeout") &&
		!strings.Contains(hung.Error, "deadline") {
		t.Errorf("a receiver that never answers: %+v", hung)
	}
	if took < 10*time.Second || took > 20*time.Second {
		t.Errorf("a receiver that never answers was given up after %v, want 10 s", took)
	}
}

// TestWebhookTestRecordedWhenCallerLeaves: a caller that disconnects while the receiver holds
// its test delivery does not cut the delivery: it is sent to its end and recorded, once.
func TestWebhookTestRecordedWhenCallerLeaves(t *testing.T) {
	s := newDeployment(t).start(t, "WEBHOOK_ALLOW_LOOPBACK", "true")
	tn := s.signupOn("hook-leaves@example.com", "personal")
	arrived, gone := make(chan struct{}), make(chan struct{})
	var cut, got atomic.Int64
	rcv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body) // so that the context ends should the sender hang up
		got.Add(1)
		close(arrived)
		<-gone
		// A slow receiver: it answers a while after the caller left, unless the sender
		// gives up on it first.
		select {
		case <-r.Context().Done():
			cut.Add(1)
			return
		case <-time.After(time.Second):
		}
		w.WriteHeader(http.StatusAccepted)
	}))
	t.Cleanup(rcv.Close)
	h := s.createHook(tn, rcv.URL+"/in", "link.created")

	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, "POST", fmt.Sprintf("%s/api/v1/workspaces/%d/webhooks/%d/test", s.base, tn.WorkspaceID, h.ID), nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+tn.Token)
	done := make(chan error, 1)
	go func() {
		res, err := http.DefaultClient.Do(req)
		if err == nil {
			_ = res.Body.Close()
		}
		done <- err
	}()
	select {
	case <-arrived:
	case <-time.After(15 * time.Second):
		t.Fatal("the test delivery never reached the receiver")
	}
	cancel()
	if err := <-done; err == nil {
		t.Fatal("the caller was answered before it left")
	}
	close(gone)

	// Recorded within the delivery's own time, long before its lease in the outbox (20 s) would
	// have let a dispatcher send it again.
	eventually(t, 12*time.Second, "the test delivery recorded", func() bool {
		ds := s.hookDeliveries(tn, h.ID)
		return len(ds) == 1 && ds[0].Status == "delivered" && ds[0].ResponseCode != nil && *ds[0].ResponseCode == http.StatusAccepted
	})
	if cut.Load() != 0 || got.Load() != 1 {
		t.Errorf("the delivery was cut %d times and sent %d times, want 0 and 1", cut.Load(), got.Load())
	}
}
