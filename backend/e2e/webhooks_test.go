package e2e

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"
)

// hookMessage is one delivery a receiver accepted, its signature verified.
type hookMessage struct {
	ID        string          `json:"id"`
	Type      string          `json:"type"`
	CreatedAt time.Time       `json:"created_at"`
	Data      json.RawMessage `json:"data"`
	header    http.Header
	arrived   time.Time
}

// hookReceiver is a webhook receiver started in the test. It verifies every delivery with
// the Standard Webhooks project's own Go library (not the service's code), answers with the
// status the test sets (failing a message's first attempts when failFirst is set), and counts
// the attempts and the accepted deliveries of each message.
type hookReceiver struct {
	t   *testing.T
	srv *httptest.Server

	mu        sync.Mutex
	verifier  *standardwebhooks.Webhook
	status    int // answered when the message's failures are spent
	failFirst int // attempts of each message answered 503 first
	attempts  map[string]int
	accepted  map[string]int
	messages  []hookMessage
	badSigs   int
	private   int // requests to /private: a redirect target that must never be reached
}

func newHookReceiver(t *testing.T) *hookReceiver {
	t.Helper()
	h := &hookReceiver{t: t, status: http.StatusOK, attempts: map[string]int{}, accepted: map[string]int{}}
	h.srv = httptest.NewServer(http.HandlerFunc(h.serve))
	t.Cleanup(h.srv.Close)
	return h
}

func (h *hookReceiver) url(path string) string { return h.srv.URL + path }

func (h *hookReceiver) setSecret(secret string) {
	h.t.Helper()
	v, err := standardwebhooks.NewWebhook(secret)
	if err != nil {
		h.t.Fatalf("secret %q: %v", secret, err)
	}
	h.mu.Lock()
	h.verifier = v
	h.mu.Unlock()
}

func (h *hookReceiver) setStatus(status int) {
	h.mu.Lock()
	h.status = status
	h.mu.Unlock()
}

func (h *hookReceiver) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	h.mu.Lock()
	defer h.mu.Unlock()
	switch r.URL.Path {
	case "/private":
		h.private++
		w.WriteHeader(http.StatusOK)
		return
	case "/moved":
		http.Redirect(w, r, h.srv.URL+"/private", http.StatusTemporaryRedirect)
		return
	case "/metadata":
		http.Redirect(w, r, "http://169.254.169.254/latest/meta-data/", http.StatusFound)
		return
	}
	if h.verifier == nil || h.verifier.Verify(body, r.Header) != nil {
		h.badSigs++
		w.WriteHeader(http.StatusUnauthorized)
		return
	}
	id := r.Header.Get("webhook-id")
	h.attempts[id]++
	if h.attempts[id] <= h.failFirst {
		w.WriteHeader(http.StatusServiceUnavailable)
		return
	}
	if h.status/100 != 2 {
		w.WriteHeader(h.status)
		return
	}
	var m hookMessage
	if err := json.Unmarshal(body, &m); err != nil || m.ID != id {
		h.badSigs++
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	m.header, m.arrived = r.Header.Clone(), time.Now()
	h.accepted[id]++
	h.messages = append(h.messages, m)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(h.status)
	_, _ = w.Write([]byte(`{"accepted":true}`)) // a 204 sends none
}

// ofType answers the accepted messages of an event type.
func (h *hookReceiver) ofType(typ string) []hookMessage {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []hookMessage
	for _, m := range h.messages {
		if m.Type == typ {
			out = append(out, m)
		}
	}
	return out
}

// waitType waits for n accepted messages of typ and answers them.
func (h *hookReceiver) waitType(typ string, n int, within time.Duration) []hookMessage {
	h.t.Helper()
	eventually(h.t, within, fmt.Sprintf("%d %s deliveries", n, typ), func() bool { return len(h.ofType(typ)) >= n })
	return h.ofType(typ)
}

// checkOnce fails unless every message was accepted exactly once and every signature held.
func (h *hookReceiver) checkOnce() {
	h.t.Helper()
	h.checkResent(0)
}

// checkResent is checkOnce for a receiver of which resent messages were sent again: those are
// accepted exactly twice, every other once.
func (h *hookReceiver) checkResent(resent int) {
	h.t.Helper()
	h.mu.Lock()
	defer h.mu.Unlock()
	twice := 0
	for id, n := range h.accepted {
		switch n {
		case 1:
		case 2:
			twice++
		default:
			h.t.Errorf("message %s accepted %d times", id, n)
		}
	}
	if twice != resent {
		h.t.Errorf("%d messages accepted twice, want the %d resent", twice, resent)
	}
	if h.badSigs > 0 {
		h.t.Errorf("%d deliveries whose signature did not verify", h.badSigs)
	}
}

// hookDelivery is a row of a webhook's delivery log.
type hookDelivery struct {
	ID           int64  `json:"id"`
	MessageID    string `json:"message_id"`
	Event        string `json:"event"`
	Attempt      int    `json:"attempt"`
	Status       string `json:"status"`
	ResponseCode *int   `json:"response_code"`
	Error        string `json:"error"`
	At           string `json:"at"`
}

type hookJSON struct {
	ID            int64    `json:"id"`
	URL           string   `json:"url"`
	Events        []string `json:"events"`
	Enabled       bool     `json:"enabled"`
	FailuresInRow int      `json:"failures_in_row"`
	Secret        string   `json:"secret"`
}

func (s *server) createHook(tn tenant, url string, events ...string) hookJSON {
	s.t.Helper()
	r := s.do("POST", fmt.Sprintf("/api/v1/workspaces/%d/webhooks", tn.WorkspaceID), tn.Token, map[string]any{"url": url, "events": events})
	return answer[hookJSON](s.t, r, http.StatusCreated, "create webhook "+url)
}

func (s *server) hookDeliveries(tn tenant, id int64) []hookDelivery {
	s.t.Helper()
	r := s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/webhooks/%d/deliveries", tn.WorkspaceID, id), tn.Token, nil)
	return answer[struct{ Deliveries []hookDelivery }](s.t, r, http.StatusOK, "deliveries").Deliveries
}

func (s *server) testHook(tn tenant, id int64) hookDelivery {
	s.t.Helper()
	r := s.do("POST", fmt.Sprintf("/api/v1/workspaces/%d/webhooks/%d/test", tn.WorkspaceID, id), tn.Token, nil)
	return answer[struct{ Delivery hookDelivery }](s.t, r, http.StatusOK, "test webhook").Delivery
}

// linkOf reads the link of a link event's data.
func linkOf(t *testing.T, m hookMessage) map[string]any {
	t.Helper()
	var d struct{ Link map[string]any }
	if err := json.Unmarshal(m.Data, &d); err != nil || d.Link == nil {
		t.Fatalf("%s data %s", m.Type, m.Data)
	}
	return d.Link
}

// TestWebhooksDeliverSignedEvents: a webhook's secret is shown once; link creates, edits,
// clicks (batched) and deletes reach the receiver signed as Standard Webhooks says; the
// delivery log shows them with their response codes; the test button delivers at once.
func TestWebhooksDeliverSignedEvents(t *testing.T) {
	dep := newDeployment(t)
	s := dep.start(t, "WEBHOOK_ALLOW_LOOPBACK", "true")
	tn := s.signupOn("hooks@example.com", "personal")
	rcv := newHookReceiver(t)
	h := s.createHook(tn, rcv.url("/in"), "link.created", "link.updated", "link.deleted", "link.clicked")
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(h.Secret, "whsec_"))
	if !strings.HasPrefix(h.Secret, "whsec_") || err != nil || len(key) != 32 || !h.Enabled {
		t.Fatalf("created %+v", h)
	}
	rcv.setSecret(h.Secret)
	ws := fmt.Sprintf("/api/v1/workspaces/%d/webhooks", tn.WorkspaceID)
	if r := s.do("GET", fmt.Sprintf("%s/%d", ws, h.ID), tn.Token, nil); r.Status != http.StatusOK || strings.Contains(string(r.Body), h.Secret) || strings.Contains(string(r.Body), "secret") {
		t.Errorf("the secret is shown again: %d %s", r.Status, r.Body)
	}
	if r := s.do("GET", ws, tn.Token, nil); r.Status != http.StatusOK || strings.Contains(string(r.Body), "whsec_") {
		t.Errorf("the list shows a secret: %d %s", r.Status, r.Body)
	}

	l := s.createLink(tn, map[string]any{"url": "https://example.com/hooked"})
	created := rcv.waitType("link.created", 1, 10*time.Second)[0]
	if got := linkOf(t, created); got["id"] != float64(l.ID) || got["url"] != "https://example.com/hooked" || got["code"] != l.Code {
		t.Errorf("link.created data %s", created.Data)
	}
	if created.header.Get("webhook-id") != created.ID || !strings.HasPrefix(created.header.Get("webhook-signature"), "v1,") {
		t.Errorf("headers %v", created.header)
	}
	r := s.do("PATCH", fmt.Sprintf("/api/v1/workspaces/%d/links/%d", tn.WorkspaceID, l.ID), tn.Key, map[string]any{"title": "renamed"})
	if r.Status != http.StatusOK {
		t.Fatalf("edit: %d %s", r.Status, r.Body)
	}
	if got := linkOf(t, rcv.waitType("link.updated", 1, 10*time.Second)[0]); got["title"] != "renamed" {
		t.Errorf("link.updated %v", got)
	}

	// Clicks: 20 visits in a burst arrive batched, each click once.
	for range 20 {
		req, _ := http.NewRequest("GET", s.base+"/"+l.Code, nil)
		req.Host = shortHost
		req.Header.Set("User-Agent", uaDesktop) // a person's browser: crawlers' visits are not clicks
		if r := s.send(req); r.Status/100 != 3 {
			t.Fatalf("visit: %d", r.Status)
		}
	}
	clicks := func() (n int, batches int) {
		for _, m := range rcv.ofType("link.clicked") {
			var d struct {
				Clicks []struct {
					LinkID int64 `json:"link_id"`
					At     string
				}
			}
			if err := json.Unmarshal(m.Data, &d); err != nil || len(d.Clicks) == 0 || len(d.Clicks) > 1000 {
				t.Fatalf("link.clicked data %s", m.Data)
			}
			for _, c := range d.Clicks {
				if c.LinkID != l.ID || c.At == "" {
					t.Errorf("click %+v", c)
				}
			}
			n += len(d.Clicks)
			batches++
		}
		return n, batches
	}
	eventually(t, 20*time.Second, "20 clicks delivered", func() bool { n, _ := clicks(); return n >= 20 })
	n, batches := clicks()
	if n != 20 || batches >= 20 {
		t.Errorf("%d clicks in %d deliveries, want 20 in batches", n, batches)
	}
	var perSecond []struct{ Sec, N int64 }
	rows, err := dep.db(t).Pool.Query(context.Background(), `SELECT click_second, count(*) FROM webhook_deliveries
		WHERE webhook_id = $1 AND event = 'link.clicked' GROUP BY 1 HAVING count(*) > 1`, h.ID)
	if err == nil {
		for rows.Next() {
			var p struct{ Sec, N int64 }
			_ = rows.Scan(&p.Sec, &p.N)
			perSecond = append(perSecond, p)
		}
		rows.Close()
	}
	if len(perSecond) > 0 {
		t.Errorf("more than one click delivery in a second: %v", perSecond)
	}

	r = s.do("DELETE", fmt.Sprintf("/api/v1/workspaces/%d/links/%d", tn.WorkspaceID, l.ID), tn.Key, nil)
	if r.Status != http.StatusNoContent {
		t.Fatalf("delete: %d %s", r.Status, r.Body)
	}
	if got := linkOf(t, rcv.waitType("link.deleted", 1, 10*time.Second)[0]); got["id"] != float64(l.ID) {
		t.Errorf("link.deleted %v", got)
	}

	// The log: every delivery delivered on its first attempt with the receiver's 200.
	var log []hookDelivery
	eventually(t, 5*time.Second, "every delivery recorded", func() bool {
		log = s.hookDeliveries(tn, h.ID)
		for _, d := range log {
			if d.Status == "pending" {
				return false
			}
		}
		return true
	})
	seen := map[string]bool{}
	for _, d := range log {
		seen[d.Event] = true
		if d.Status != "delivered" || d.Attempt != 1 || d.ResponseCode == nil || *d.ResponseCode != 200 || d.At == "" {
			t.Errorf("delivery %+v", d)
		}
	}
	for _, e := range []string{"link.created", "link.updated", "link.clicked", "link.deleted"} {
		if !seen[e] {
			t.Errorf("no %s in the log %+v", e, log)
		}
	}

	// The test button: sent now, once, and answered with how it went.
	d := s.testHook(tn, h.ID)
	if d.Event != "webhook.test" || d.Status != "delivered" || d.ResponseCode == nil || *d.ResponseCode != 200 || d.Attempt != 1 {
		t.Errorf("test %+v", d)
	}
	if len(rcv.ofType("webhook.test")) != 1 {
		t.Errorf("test deliveries received: %d", len(rcv.ofType("webhook.test")))
	}
	rcv.setStatus(http.StatusInternalServerError)
	if d := s.testHook(tn, h.ID); d.Status != "failed" || d.ResponseCode == nil || *d.ResponseCode != 500 {
		t.Errorf("failing test %+v", d)
	}
	rcv.checkOnce()

	// Editing: events and URL; deleting removes it and its log.
	r = s.do("PATCH", fmt.Sprintf("%s/%d", ws, h.ID), tn.Token, map[string]any{"events": []string{"import.finished", "link.banned"}})
	if got := answer[hookJSON](t, r, http.StatusOK, "edit webhook"); strings.Join(got.Events, ",") != "link.banned,import.finished" {
		t.Errorf("events %v", got.Events)
	}
	if r := s.do("DELETE", fmt.Sprintf("%s/%d", ws, h.ID), tn.Token, nil); r.Status != http.StatusNoContent {
		t.Errorf("delete webhook: %d %s", r.Status, r.Body)
	}
	if r := s.do("GET", fmt.Sprintf("%s/%d/deliveries", ws, h.ID), tn.Token, nil); r.Status != http.StatusNotFound {
		t.Errorf("deleted webhook's log: %d", r.Status)
	}
}

// TestWebhooksRetryUntilDelivered: a receiver failing a message's first two attempts gets
// it again, with the same id and body, after the retry delays; the log shows the third
// attempt delivered.
func TestWebhooksRetryUntilDelivered(t *testing.T) {
	s := newDeployment(t).start(t, "WEBHOOK_ALLOW_LOOPBACK", "true", "WEBHOOK_RETRY_DELAYS", "300ms,300ms,300ms")
	tn := s.signupOn("retry@example.com", "trial")
	rcv := newHookReceiver(t)
	rcv.failFirst = 2
	h := s.createHook(tn, rcv.url("/in"), "link.created")
	rcv.setSecret(h.Secret)
	l := s.createLink(tn, map[string]any{"url": "https://example.com/retried"})
	m := rcv.waitType("link.created", 1, 15*time.Second)[0]
	if linkOf(t, m)["id"] != float64(l.ID) {
		t.Errorf("data %s", m.Data)
	}
	rcv.mu.Lock()
	attempts := rcv.attempts[m.ID]
	rcv.mu.Unlock()
	if attempts != 3 {
		t.Errorf("%d attempts, want 3", attempts)
	}
	eventually(t, 5*time.Second, "the log shows the delivery", func() bool {
		log := s.hookDeliveries(tn, h.ID)
		return len(log) == 1 && log[0].Status == "delivered" && log[0].Attempt == 3 && *log[0].ResponseCode == 200
	})
	rcv.checkOnce()
}

// TestWebhooksSurviveRestartOnTwoNodes: deliveries pending when their node stops are sent
// after another starts on the same database; with two nodes sending, every message arrives
// exactly once.
func TestWebhooksSurviveRestartOnTwoNodes(t *testing.T) {
	d := newDeployment(t)
	env := []string{"WEBHOOK_ALLOW_LOOPBACK", "true", "WEBHOOK_RETRY_DELAYS", "500ms,500ms,500ms,500ms,500ms,500ms,500ms,500ms,500ms,500ms,500ms,500ms"}
	s1 := d.start(t, env...)
	tn := s1.signupOn("restart@example.com", "enterprise")
	rcv := newHookReceiver(t)
	rcv.setStatus(http.StatusServiceUnavailable) // down: every attempt fails
	h := s1.createHook(tn, rcv.url("/in"), "link.created")
	rcv.setSecret(h.Secret)
	for i := range 5 {
		s1.createLink(tn, map[string]any{"url": fmt.Sprintf("https://example.com/pending/%d", i)})
	}
	eventually(t, 10*time.Second, "every message tried and failed", func() bool {
		rcv.mu.Lock()
		defer rcv.mu.Unlock()
		return len(rcv.attempts) == 5
	})
	s1.stop()
	rcv.setStatus(http.StatusOK)

	s2, s3 := d.start(t, env...), d.start(t, env...)
	rcv.waitType("link.created", 5, 20*time.Second)
	for i := range 20 {
		s := s2
		if i%2 == 1 {
			s = s3
		}
		s.createLink(tn, map[string]any{"url": fmt.Sprintf("https://example.com/two-nodes/%d", i)})
	}
	rcv.waitType("link.created", 25, 20*time.Second)
	// A round of each node's dispatcher that began after the last arrival has finished: a
	// second sending would show by now.
	afterRounds(t, "dispatch rounds of the first node", s2.app.WebhookDispatcher().Rounds)
	afterRounds(t, "dispatch rounds of the second node", s3.app.WebhookDispatcher().Rounds)
	rcv.checkOnce()
	if got := len(rcv.ofType("link.created")); got != 25 {
		t.Errorf("%d deliveries accepted, want 25", got)
	}
	rcv.mu.Lock()
	for id, n := range rcv.attempts {
		if rcv.accepted[id] == 1 && n > 1 && !strings.HasPrefix(id, "msg_") {
			t.Errorf("message %s: %d attempts", id, n)
		}
	}
	rcv.mu.Unlock()
	for _, dl := range s2.hookDeliveries(tn, h.ID) {
		if dl.Status != "delivered" {
			t.Errorf("delivery %+v", dl)
		}
	}
}

// TestWebhooksAddressGuard: without WEBHOOK_ALLOW_LOOPBACK, URLs on private, loopback,
// link-local and metadata addresses are refused at creation, and a stored one is refused at
// send time; redirects are never followed, so a hop to such an address is never made.
func TestWebhooksAddressGuard(t *testing.T) {
	d := newDeployment(t)
	s := d.start(t)
	tn := s.signupOn("guard@example.com", "enterprise")
	rcv := newHookReceiver(t)
	ws := fmt.Sprintf("/api/v1/workspaces/%d/webhooks", tn.WorkspaceID)
	for _, u := range []string{"https://127.0.0.1/in", "https://localhost:8443/in", "https://[::1]/in", "https://10.1.2.3/",
		"https://172.16.0.1/", "https://192.168.0.10/", "https://100.64.0.1/", "https://169.254.169.254/latest/meta-data/",
		"https://[fd00:ec2::254]/", "https://[fe80::1]/", "https://0.0.0.0/", "https://[::ffff:127.0.0.1]/"} {
		r := s.do("POST", ws, tn.Token, map[string]any{"url": u, "events": []string{"link.created"}})
		reason, field := r.errorReasonField(t)
		if r.Status != http.StatusBadRequest || reason != "webhook_url_refused" || field != "url" {
			t.Errorf("%s: %d %s, want 400 webhook_url_refused", u, r.Status, r.Body)
		}
	}
	if r := s.do("POST", ws, tn.Token, map[string]any{"url": rcv.url("/in"), "events": []string{"link.created"}}); r.Status != http.StatusBadRequest {
		t.Errorf("http loopback receiver: %d %s", r.Status, r.Body)
	}
	s.stop()

	// Made where loopback is allowed (as tests do), sent where it is not: refused at send.
	s = d.start(t, "WEBHOOK_ALLOW_LOOPBACK", "true")
	h := s.createHook(tn, rcv.url("/in"), "link.created")
	rcv.setSecret(h.Secret)
	moved := s.createHook(tn, rcv.url("/moved"), "link.created")
	metadata := s.createHook(tn, rcv.url("/metadata"), "link.created")
	// Redirects: a 3xx is a failure, its target never reached.
	if dl := s.testHook(tn, moved.ID); dl.Status != "failed" || dl.ResponseCode == nil || *dl.ResponseCode != 307 || !strings.Contains(dl.Error, "redirect") {
		t.Errorf("redirect to a loopback page: %+v", dl)
	}
	if dl := s.testHook(tn, metadata.ID); dl.Status != "failed" || dl.ResponseCode == nil || *dl.ResponseCode != 302 {
		t.Errorf("redirect to the metadata address: %+v", dl)
	}
	// A private address stays refused where loopback is allowed.
	if _, err := d.db(t).Pool.Exec(context.Background(), `UPDATE webhooks SET url = 'http://10.255.255.1:9/in' WHERE id = $1`, moved.ID); err != nil {
		t.Fatal(err)
	}
	if dl := s.testHook(tn, moved.ID); dl.Status != "failed" || dl.ResponseCode != nil || !strings.Contains(dl.Error, "refused") {
		t.Errorf("private address at send: %+v", dl)
	}
	s.stop()

	s = d.start(t)
	if dl := s.testHook(tn, h.ID); dl.Status != "failed" || dl.ResponseCode != nil || !strings.Contains(dl.Error, "refused") {
		t.Errorf("loopback at send without WEBHOOK_ALLOW_LOOPBACK: %+v", dl)
	}
	s.createLink(tn, map[string]any{"url": "https://example.com/guarded"})
	// A dispatch round that began after the link.created deliveries were written has
	// finished: each was claimed and its sending refused.
	afterRounds(t, "dispatch rounds", s.app.WebhookDispatcher().Rounds)
	rcv.mu.Lock()
	defer rcv.mu.Unlock()
	if len(rcv.attempts) != 0 || rcv.private != 0 || rcv.badSigs != 0 {
		t.Errorf("the receiver was reached: %v attempts, %d private, %d other", rcv.attempts, rcv.private, rcv.badSigs)
	}
}

// TestWebhooksDisabledAfterFailures: failed deliveries in a row (WEBHOOK_DISABLE_AFTER, 50
// by default) disable the webhook and mail the workspace's owner; no more deliveries are
// written for it; enabling it again clears the count.
func TestWebhooksDisabledAfterFailures(t *testing.T) {
	s := newDeployment(t).start(t, "WEBHOOK_ALLOW_LOOPBACK", "true", "WEBHOOK_RETRY_DELAYS", "50ms", "WEBHOOK_DISABLE_AFTER", "3")
	tn := s.signupOn("disabled@example.com", "enterprise")
	rcv := newHookReceiver(t)
	rcv.setStatus(http.StatusInternalServerError)
	h := s.createHook(tn, rcv.url("/in"), "link.created")
	rcv.setSecret(h.Secret)
	one := fmt.Sprintf("/api/v1/workspaces/%d/webhooks/%d", tn.WorkspaceID, h.ID)
	for i := range 3 {
		s.createLink(tn, map[string]any{"url": fmt.Sprintf("https://example.com/failing/%d", i)})
	}
	var got hookJSON
	eventually(t, 15*time.Second, "the webhook disabled", func() bool {
		got = answer[hookJSON](t, s.do("GET", one, tn.Token, nil), http.StatusOK, "get webhook")
		return !got.Enabled
	})
	if got.FailuresInRow != 3 {
		t.Errorf("failures in a row %d", got.FailuresInRow)
	}
	mail := s.mailbox.WaitSubject(t, "disabled@example.com", "Your webhook was disabled")
	if !strings.Contains(mail.Body, rcv.url("/in")) {
		t.Errorf("mail %q", mail.Body)
	}
	for _, dl := range s.hookDeliveries(tn, h.ID) {
		if dl.Status != "failed" || dl.Attempt != 2 || dl.ResponseCode == nil || *dl.ResponseCode != 500 {
			t.Errorf("delivery %+v", dl)
		}
	}
	s.createLink(tn, map[string]any{"url": "https://example.com/after"})
	if n := len(s.hookDeliveries(tn, h.ID)); n != 3 {
		t.Errorf("%d deliveries after disabling, want 3", n)
	}
	rcv.setStatus(http.StatusOK)
	got = answer[hookJSON](t, s.do("PATCH", one, tn.Token, map[string]any{"enabled": true}), http.StatusOK, "enable")
	if !got.Enabled || got.FailuresInRow != 0 {
		t.Errorf("enabled again: %+v", got)
	}
	s.createLink(tn, map[string]any{"url": "https://example.com/again"})
	rcv.waitType("link.created", 1, 10*time.Second)
}

// TestWebhooksPlanAndWorkspaces: the webhooks feature is the trial's, personal's and
// enterprise's; API keys cannot manage webhooks; another workspace's webhooks answer 404
// and never receive this workspace's events.
func TestWebhooksPlanAndWorkspaces(t *testing.T) {
	s := newDeployment(t).start(t, "WEBHOOK_ALLOW_LOOPBACK", "true")
	free := s.signup("free-hooks@example.com")
	r := s.do("POST", fmt.Sprintf("/api/v1/workspaces/%d/webhooks", free.WorkspaceID), free.Token,
		map[string]any{"url": "https://93.184.216.34/in", "events": []string{"link.created"}})
	if r.Status != http.StatusForbidden || r.errorCode(t) != "plan_required" {
		t.Errorf("free plan: %d %s", r.Status, r.Body)
	}

	a := s.signupOn("hooks-a@example.com", "enterprise")
	b := s.signupOn("hooks-b@example.com", "enterprise")
	rcvA, rcvB := newHookReceiver(t), newHookReceiver(t)
	ha := s.createHook(a, rcvA.url("/in"), "link.created", "link.deleted")
	rcvA.setSecret(ha.Secret)
	hb := s.createHook(b, rcvB.url("/in"), "link.created")
	rcvB.setSecret(hb.Secret)

	if r := s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/webhooks", a.WorkspaceID), a.Key, nil); r.Status != http.StatusForbidden {
		t.Errorf("API key: %d %s", r.Status, r.Body)
	}
	for _, c := range []struct{ method, path string }{
		{"GET", fmt.Sprintf("/api/v1/workspaces/%d/webhooks/%d", b.WorkspaceID, ha.ID)},
		{"PATCH", fmt.Sprintf("/api/v1/workspaces/%d/webhooks/%d", b.WorkspaceID, ha.ID)},
		{"DELETE", fmt.Sprintf("/api/v1/workspaces/%d/webhooks/%d", b.WorkspaceID, ha.ID)},
		{"GET", fmt.Sprintf("/api/v1/workspaces/%d/webhooks/%d/deliveries", b.WorkspaceID, ha.ID)},
		{"POST", fmt.Sprintf("/api/v1/workspaces/%d/webhooks/%d/test", b.WorkspaceID, ha.ID)},
		{"GET", fmt.Sprintf("/api/v1/workspaces/%d/webhooks/%d", a.WorkspaceID, ha.ID)},
		{"GET", fmt.Sprintf("/api/v1/workspaces/%d/webhooks", a.WorkspaceID)},
	} {
		var body any
		if c.method == "PATCH" {
			body = map[string]any{"url": "https://93.184.216.34/stolen"}
		}
		if r := s.do(c.method, c.path, b.Token, body); r.Status != http.StatusNotFound {
			t.Errorf("b: %s %s: %d %s, want 404", c.method, c.path, r.Status, r.Body)
		}
	}
	var list struct{ Webhooks []hookJSON }
	s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/webhooks", b.WorkspaceID), b.Token, nil).json(t, &list)
	if len(list.Webhooks) != 1 || list.Webhooks[0].ID != hb.ID {
		t.Errorf("b's list %+v", list.Webhooks)
	}

	la := s.createLink(a, map[string]any{"url": "https://example.com/a"})
	lb := s.createLink(b, map[string]any{"url": "https://example.com/b"})
	ma := rcvA.waitType("link.created", 1, 10*time.Second)
	mb := rcvB.waitType("link.created", 1, 10*time.Second)
	afterRounds(t, "dispatch rounds", s.app.WebhookDispatcher().Rounds) // a stray sending would show by now
	if len(rcvA.ofType("link.created")) != 1 || linkOf(t, ma[0])["id"] != float64(la.ID) {
		t.Errorf("a received %d: %s", len(rcvA.ofType("link.created")), ma[0].Data)
	}
	if len(rcvB.ofType("link.created")) != 1 || linkOf(t, mb[0])["id"] != float64(lb.ID) {
		t.Errorf("b received %d: %s", len(rcvB.ofType("link.created")), mb[0].Data)
	}
	if got := answer[hookJSON](t, s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/webhooks/%d", a.WorkspaceID, ha.ID), a.Token, nil),
		http.StatusOK, "a's webhook"); got.URL != rcvA.url("/in") {
		t.Errorf("a's webhook changed: %+v", got)
	}
	rcvA.checkOnce()
	rcvB.checkOnce()
}

// TestWebhooksBansAndImports: a moderator's ban and a finished import reach the workspace's
// webhook (written into the outbox right after their change); links an import creates are
// reported as link.created too.
func TestWebhooksBansAndImports(t *testing.T) {
	s := newDeployment(t).start(t, "WEBHOOK_ALLOW_LOOPBACK", "true")
	tn := s.signupOn("bans-imports@example.com", "enterprise")
	rcv := newHookReceiver(t)
	h := s.createHook(tn, rcv.url("/in"), "link.banned", "import.finished", "link.created")
	rcv.setSecret(h.Secret)

	l := s.createLink(tn, map[string]any{"url": "https://example.com/to-ban"})
	r := s.do("POST", fmt.Sprintf("/api/v1/moderation/links/%d/decision", l.ID), s.operatorToken(), map[string]any{"action": "ban", "reason": "spam"})
	if r.Status != http.StatusOK {
		t.Fatalf("ban: %d %s", r.Status, r.Body)
	}
	if got := linkOf(t, rcv.waitType("link.banned", 1, 10*time.Second)[0]); got["id"] != float64(l.ID) || got["status"] != "banned" {
		t.Errorf("link.banned %v", got)
	}

	im := s.startImport(tn.Token, tn.WorkspaceID, []byte("url\nhttps://example.com/imported/1\nhttps://example.com/imported/2\nnot a url\n"))
	s.waitImport(tn.Token, tn.WorkspaceID, im.ID, 30*time.Second)
	m := rcv.waitType("import.finished", 1, 10*time.Second)[0]
	var d struct {
		Import struct {
			ID                 int64
			State              string
			Rows, Done, Failed int
		}
	}
	if err := json.Unmarshal(m.Data, &d); err != nil || d.Import.ID != im.ID || d.Import.State != "done" || d.Import.Rows != 3 || d.Import.Failed != 1 {
		t.Errorf("import.finished %s", m.Data)
	}
	rcv.waitType("link.created", 3, 10*time.Second) // the link to ban and the two imported
	rcv.checkOnce()
}
