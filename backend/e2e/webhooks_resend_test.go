package e2e

import (
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

// hookDetail is a delivery with its request and answer (GET …/deliveries/{delivery}).
type hookDetail struct {
	hookDelivery
	ResponseContentType string            `json:"response_content_type"`
	ResponseTruncated   bool              `json:"response_truncated"`
	ResentFrom          *int64            `json:"resent_from"`
	RequestHeaders      map[string]string `json:"request_headers"`
	RequestBody         string            `json:"request_body"`
	ResponseBody        string            `json:"response_body"`
}

// answeringReceiver is a webhook receiver that answers each path with a body of its own:
// /ok a short JSON, /fail a 500 with a text, /big 5,000 bytes. It verifies every request's
// signature with the Standard Webhooks library and keeps the bodies it got, by webhook-id.
type answeringReceiver struct {
	t   *testing.T
	srv *httptest.Server

	mu       sync.Mutex
	verifier *standardwebhooks.Webhook
	bodies   map[string][]string // webhook-id → the bodies received, in order
	requests int
	badSigs  int
}

const bigAnswerSize = 5000

func newAnsweringReceiver(t *testing.T) *answeringReceiver {
	t.Helper()
	a := &answeringReceiver{t: t, bodies: map[string][]string{}}
	a.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		a.mu.Lock()
		a.requests++
		if a.verifier == nil || a.verifier.Verify(body, r.Header) != nil {
			a.badSigs++
		}
		id := r.Header.Get("webhook-id")
		a.bodies[id] = append(a.bodies[id], string(body))
		a.mu.Unlock()
		switch r.URL.Path {
		case "/ok":
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"received":true}`))
		case "/fail":
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			w.WriteHeader(http.StatusInternalServerError)
			_, _ = w.Write([]byte("boom: the receiver's database is down"))
		case "/big":
			w.Header().Set("Content-Type", "text/plain")
			_, _ = w.Write([]byte(strings.Repeat("0123456789", bigAnswerSize/10)))
		}
	}))
	t.Cleanup(a.srv.Close)
	return a
}

func (a *answeringReceiver) setSecret(secret string) {
	a.t.Helper()
	v, err := standardwebhooks.NewWebhook(secret)
	if err != nil {
		a.t.Fatal(err)
	}
	a.mu.Lock()
	a.verifier = v
	a.mu.Unlock()
}

func (a *answeringReceiver) got(id string) []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]string(nil), a.bodies[id]...)
}

func (a *answeringReceiver) count() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.requests
}

// TestWebhookDeliveryRequestAndAnswer: each delivery keeps the request it sent and the
// receiver's answer (status, the first 4 KiB of the body, truncated when longer, the content
// type), for delivered, failed and pending deliveries; a delivery is sent again with the same
// event and webhook-id as a new delivery naming it in resent_from. Another workspace cannot
// read or resend it, a viewer and an API key cannot, bad ids are refused in the API's error
// shape, and a disabled webhook's deliveries are not resent.
func TestWebhookDeliveryRequestAndAnswer(t *testing.T) {
	// The first retry an hour away: a failed first attempt leaves its delivery pending.
	s := newDeployment(t).start(t, "WEBHOOK_ALLOW_LOOPBACK", "true", "WEBHOOK_RETRY_DELAYS", "1h")
	tn := s.signupOn("resend@example.com", "enterprise")
	rcv := newAnsweringReceiver(t)
	h := s.createHook(tn, rcv.srv.URL+"/ok", "link.created")
	rcv.setSecret(h.Secret)
	hooks := fmt.Sprintf("/api/v1/workspaces/%d/webhooks/%d", tn.WorkspaceID, h.ID)
	detail := func(id int64) hookDetail {
		t.Helper()
		return answer[hookDetail](t, s.do("GET", fmt.Sprintf("%s/deliveries/%d", hooks, id), tn.Token, nil), http.StatusOK, "delivery")
	}
	resend := func(cred string, id int64) response {
		return s.do("POST", fmt.Sprintf("%s/deliveries/%d/resend", hooks, id), cred, nil)
	}
	setURL := func(path string) {
		t.Helper()
		if r := s.do("PATCH", hooks, tn.Token, map[string]any{"url": rcv.srv.URL + path}); r.Status != http.StatusOK {
			t.Fatalf("set url %s: %d %s", path, r.Status, r.Body)
		}
	}

	// Delivered by the dispatcher: the request as the receiver got it, and its answer.
	link := s.createLink(tn, map[string]any{"url": "https://example.com/resent"})
	var created hookDelivery
	eventually(t, 10*time.Second, "link.created delivered", func() bool {
		for _, d := range s.hookDeliveries(tn, h.ID) {
			if d.Event == "link.created" && d.Status == "delivered" {
				created = d
				return true
			}
		}
		return false
	})
	got := detail(created.ID)
	sent := rcv.got(created.MessageID)
	if len(sent) != 1 || got.RequestBody != sent[0] {
		t.Errorf("request body %q, the receiver got %q", got.RequestBody, sent)
	}
	var body struct {
		ID   string `json:"id"`
		Type string `json:"type"`
		Data struct{ Link struct{ ID int64 } }
	}
	if err := json.Unmarshal([]byte(got.RequestBody), &body); err != nil || body.ID != created.MessageID || body.Type != "link.created" || body.Data.Link.ID != link.ID {
		t.Errorf("request body %s: %v", got.RequestBody, err)
	}
	if got.RequestHeaders["webhook-id"] != created.MessageID || got.RequestHeaders["webhook-signature"] != "v1,…" ||
		got.RequestHeaders["content-type"] != "application/json" || got.RequestHeaders["webhook-timestamp"] == "" {
		t.Errorf("request headers %v", got.RequestHeaders)
	}
	if got.ResponseCode == nil || *got.ResponseCode != 200 || got.ResponseBody != `{"received":true}` ||
		got.ResponseContentType != "application/json" || got.ResponseTruncated || got.ResentFrom != nil {
		t.Errorf("delivered %+v", got)
	}
	// Neither the secret nor the signature is in the answer.
	if r := s.do("GET", fmt.Sprintf("%s/deliveries/%d", hooks, created.ID), tn.Token, nil); strings.Contains(string(r.Body), h.Secret) ||
		strings.Contains(string(r.Body), strings.TrimPrefix(h.Secret, "whsec_")) {
		t.Errorf("the delivery shows the secret: %s", r.Body)
	}

	// A receiver answering 500 with a body: the test delivery fails and keeps the answer.
	setURL("/fail")
	failed := answer[struct{ Delivery hookDetail }](t, s.do("POST", hooks+"/test", tn.Token, nil), http.StatusOK, "test").Delivery
	if failed.Status != "failed" || failed.ResponseCode == nil || *failed.ResponseCode != 500 ||
		failed.ResponseBody != "boom: the receiver's database is down" || failed.ResponseContentType != "text/plain; charset=utf-8" || failed.ResponseTruncated {
		t.Errorf("failed test %+v", failed)
	}
	if again := detail(failed.ID); again.ResponseBody != failed.ResponseBody || again.RequestBody != rcv.got(failed.MessageID)[0] {
		t.Errorf("failed delivery as read %+v", again)
	}
	// The dispatcher's failed first attempt: pending, its answer kept, and not resent (the
	// dispatcher sends it by itself).
	s.createLink(tn, map[string]any{"url": "https://example.com/resent-pending"})
	var pending hookDelivery
	eventually(t, 10*time.Second, "a failed first attempt", func() bool {
		for _, d := range s.hookDeliveries(tn, h.ID) {
			if d.Event == "link.created" && d.Status == "pending" && d.Attempt == 1 {
				pending = d
				return true
			}
		}
		return false
	})
	if p := detail(pending.ID); p.ResponseCode == nil || *p.ResponseCode != 500 || p.ResponseBody != failed.ResponseBody {
		t.Errorf("pending after a failed attempt %+v", p)
	}
	before := rcv.count()
	wantReason(t, resend(tn.Token, pending.ID), http.StatusConflict, "webhook_delivery_pending", "resend a pending delivery")
	if rcv.count() != before {
		t.Errorf("a refused resend sent %d requests", rcv.count()-before)
	}

	// An answer longer than 4 KiB: its first 4 KiB, marked truncated, in the detail and the list.
	setURL("/big")
	big := answer[struct{ Delivery hookDetail }](t, s.do("POST", hooks+"/test", tn.Token, nil), http.StatusOK, "test").Delivery
	want := strings.Repeat("0123456789", bigAnswerSize/10)[:4096]
	if big.Status != "delivered" || !big.ResponseTruncated || big.ResponseBody != want || big.ResponseContentType != "text/plain" {
		t.Errorf("big answer: truncated %v, %d bytes", big.ResponseTruncated, len(big.ResponseBody))
	}
	listed := answer[struct{ Deliveries []hookDetail }](t, s.do("GET", hooks+"/deliveries", tn.Token, nil), http.StatusOK, "list").Deliveries
	if len(listed) == 0 || listed[0].ID != big.ID || !listed[0].ResponseTruncated || listed[0].ResponseBody != "" || listed[0].RequestBody != "" {
		t.Errorf("the list's newest row %+v: want the truncated marker and no bodies", listed[0])
	}

	// Resend: the same event, body and webhook-id, a new delivery naming the original.
	setURL("/ok")
	before = rcv.count()
	r := resend(tn.Token, created.ID)
	again := answer[struct{ Delivery hookDetail }](t, r, http.StatusOK, "resend").Delivery
	if again.ID == created.ID || again.MessageID != created.MessageID || again.Event != "link.created" || again.Status != "delivered" ||
		again.ResentFrom == nil || *again.ResentFrom != created.ID || again.ResponseBody != `{"received":true}` || again.Attempt != 1 {
		t.Errorf("resent %+v", again)
	}
	if bodies := rcv.got(created.MessageID); len(bodies) != 2 || bodies[1] != bodies[0] || again.RequestBody != bodies[0] {
		t.Errorf("the receiver got %q for the message, the resend says it sent %q", bodies, again.RequestBody)
	}
	if rcv.count() != before+1 {
		t.Errorf("one resend made %d requests", rcv.count()-before)
	}
	listed = answer[struct{ Deliveries []hookDetail }](t, s.do("GET", hooks+"/deliveries", tn.Token, nil), http.StatusOK, "list").Deliveries
	if listed[0].ID != again.ID || listed[0].ResentFrom == nil || *listed[0].ResentFrom != created.ID {
		t.Errorf("the list's newest row %+v, want the resend", listed[0])
	}
	if orig := detail(created.ID); orig.Status != "delivered" || orig.ResentFrom != nil || orig.Attempt != 1 {
		t.Errorf("the original changed: %+v", orig)
	}
	var resent *auditEventJSON
	for _, e := range s.auditAll(t, tn.Token, tn.WorkspaceID, 100) {
		if e.Action == "webhook.delivery_resent" {
			resent = &e
			break
		}
	}
	if resent == nil || resent.Target != fmt.Sprintf("webhook:%d", h.ID) || resent.Details["delivery"] != float64(again.ID) ||
		resent.Details["resent_from"] != float64(created.ID) || resent.Details["status"] != "delivered" {
		t.Errorf("audit event %+v", resent)
	}

	// Another workspace reads and resends nothing: through its own workspace (its webhook or
	// ours named) and through ours.
	other := s.signupOn("resend-other@example.com", "enterprise")
	otherHook := s.createHook(other, rcv.srv.URL+"/ok", "link.created")
	before = rcv.count()
	for _, c := range []struct{ as, cred, path string }{
		{"session", other.Token, fmt.Sprintf("/api/v1/workspaces/%d/webhooks/%d/deliveries/%d", tn.WorkspaceID, h.ID, created.ID)},
		{"api key", other.Key, fmt.Sprintf("/api/v1/workspaces/%d/webhooks/%d/deliveries/%d", tn.WorkspaceID, h.ID, created.ID)},
		{"session", other.Token, fmt.Sprintf("/api/v1/workspaces/%d/webhooks/%d/deliveries/%d", other.WorkspaceID, h.ID, created.ID)},
		{"session", other.Token, fmt.Sprintf("/api/v1/workspaces/%d/webhooks/%d/deliveries/%d", other.WorkspaceID, otherHook.ID, created.ID)},
	} {
		if r := s.do("GET", c.path, c.cred, nil); r.Status != http.StatusNotFound || r.errorDetail(t).Code != "not_found" {
			t.Errorf("another workspace (%s) GET %s: %d %s", c.as, c.path, r.Status, r.Body)
		}
		if r := s.do("POST", c.path+"/resend", c.cred, nil); r.Status != http.StatusNotFound || r.errorDetail(t).Code != "not_found" {
			t.Errorf("another workspace (%s) POST %s/resend: %d %s", c.as, c.path, r.Status, r.Body)
		}
	}
	wantReason(t, s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/webhooks/%d/deliveries/%d", other.WorkspaceID, otherHook.ID, created.ID), other.Token, nil),
		http.StatusNotFound, "webhook_delivery_not_found", "our delivery under their webhook")

	// A viewer and an API key of the workspace are refused as on every webhook route.
	viewer := s.joined(tn, "resend-viewer@example.com", "viewer")
	for _, as := range []struct{ name, cred string }{{"viewer", viewer.Token}, {"api key", tn.Key}} {
		for _, rq := range []struct{ method, path string }{
			{"GET", fmt.Sprintf("%s/deliveries/%d", hooks, created.ID)},
			{"POST", fmt.Sprintf("%s/deliveries/%d/resend", hooks, created.ID)},
		} {
			r := s.do(rq.method, rq.path, as.cred, nil)
			if r.Status != http.StatusForbidden || r.errorDetail(t).Code != "forbidden" {
				t.Errorf("%s %s %s: %d %s, want 403 forbidden", as.name, rq.method, rq.path, r.Status, r.Body)
			}
		}
	}
	if rcv.count() != before {
		t.Errorf("refused resends sent %d requests", rcv.count()-before)
	}

	// Bad ids: the API's error shape, with the reason of the thing missing.
	for _, c := range []struct{ method, path, reason string }{
		{"GET", hooks + "/deliveries/abc", "webhook_delivery_not_found"},
		{"GET", hooks + "/deliveries/0", "webhook_delivery_not_found"},
		{"GET", hooks + "/deliveries/99999999", "webhook_delivery_not_found"},
		{"GET", hooks + "/deliveries/-4", "webhook_delivery_not_found"},
		{"POST", hooks + "/deliveries/abc/resend", "webhook_delivery_not_found"},
		{"POST", hooks + "/deliveries/99999999/resend", "webhook_delivery_not_found"},
		{"POST", fmt.Sprintf("/api/v1/workspaces/%d/webhooks/xyz/deliveries/%d/resend", tn.WorkspaceID, created.ID), "webhook_not_found"},
		{"GET", fmt.Sprintf("/api/v1/workspaces/%d/webhooks/99999999/deliveries/%d", tn.WorkspaceID, created.ID), "webhook_not_found"},
	} {
		r := s.do(c.method, c.path, tn.Token, nil)
		if e := r.errorDetail(t); r.Status != http.StatusNotFound || e.Code != "not_found" || e.Reason != c.reason {
			t.Errorf("%s %s: %d %s, want 404 %s", c.method, c.path, r.Status, r.Body, c.reason)
		}
	}

	// A disabled webhook's deliveries are not resent, and nothing is sent.
	if r := s.do("PATCH", hooks, tn.Token, map[string]any{"enabled": false}); r.Status != http.StatusOK {
		t.Fatalf("disable: %d %s", r.Status, r.Body)
	}
	before = rcv.count()
	r = resend(tn.Token, created.ID)
	wantReason(t, r, http.StatusConflict, "webhook_disabled", "resend to a disabled webhook")
	if e := r.errorDetail(t); e.Code != "conflict" {
		t.Errorf("disabled: %+v", e)
	}
	if rcv.count() != before {
		t.Errorf("a refused resend sent %d requests", rcv.count()-before)
	}
	n := len(s.hookDeliveries(tn, h.ID))
	if r := s.do("PATCH", hooks, tn.Token, map[string]any{"enabled": true}); r.Status != http.StatusOK {
		t.Fatalf("enable: %d %s", r.Status, r.Body)
	}
	if got := len(s.hookDeliveries(tn, h.ID)); got != n {
		t.Errorf("refused resends wrote deliveries: %d, then %d", n, got)
	}
	rcv.mu.Lock()
	if rcv.badSigs > 0 {
		t.Errorf("%d requests whose signature did not verify", rcv.badSigs)
	}
	rcv.mu.Unlock()
}
