package e2e

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/link"
)

// TestFormAnswerLimits: one client may post a link's form only so often (like password
// guesses), and a link keeps at most link.MaxFormResponses answers; every answer acknowledged
// with the redirect is kept.
func TestFormAnswerLimits(t *testing.T) {
	d := withRules(t, limiterDeployment(t))
	s := d.start(t)
	tn := s.signupOn("form-limits@example.com", "enterprise")
	form := map[string]any{"fields": []map[string]any{{"name": "phone", "label": "Phone", "type": "phone", "required": true}}}
	answers := func(l linkJSON) int {
		t.Helper()
		var page formResponsePage
		s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/links/%d/responses?limit=100", tn.WorkspaceID, l.ID), tn.Key, nil).json(t, &page)
		return len(page.Responses)
	}

	l := s.createLink(tn, map[string]any{"url": "https://example.com/form", "form": form})
	v := s.visitor(fromCN, uaAndroid)
	page := v.get("/" + l.Code)
	acknowledged, limited := 0, 0
	for i := range 40 {
		r := v.post("/"+l.Code, page, map[string]string{"phone": fmt.Sprintf("138 0013 %04d", i)})
		switch r.Status {
		case http.StatusFound:
			acknowledged++
		case http.StatusTooManyRequests:
			limited++
			if r.Header.Get("Retry-After") == "" || !r.has(`name="phone"`) {
				t.Fatalf("post %d refused without Retry-After or the form: %v %.300s", i, r.Header, r.Body)
			}
		default:
			t.Fatalf("post %d: %d %.300s", i, r.Status, r.Body)
		}
	}
	if acknowledged != 30 || limited != 10 {
		t.Errorf("40 answer sets from one client: %d kept, %d refused; want 30 and 10", acknowledged, limited)
	}
	if got := answers(l); got != acknowledged {
		t.Errorf("%d answers stored, %d acknowledged", got, acknowledged)
	}
	other := s.visitor(fromDE, uaAndroid)
	if r := other.post("/"+l.Code, other.get("/"+l.Code), map[string]string{"phone": "+49 30 901820"}); r.Status != http.StatusFound {
		t.Errorf("another client: %d", r.Status)
	}

	// A form that has all the answers it may keep stays closed, and says so.
	full := s.createLink(tn, map[string]any{"url": "https://example.com/full", "form": form})
	ctx := context.Background()
	conn := d.conn(t)
	if _, err := conn.Exec(ctx, `INSERT INTO form_response_counts (link_id, n) VALUES ($1, $2)`, full.ID, link.MaxFormResponses-1); err != nil {
		t.Fatal(err)
	}
	w := s.visitor(fromCN, uaAndroid)
	fp := w.get("/" + full.Code)
	if r := w.post("/"+full.Code, fp, map[string]string{"phone": "138 0013 8000"}); r.Status != http.StatusFound {
		t.Fatalf("the last answer the form may keep: %d %.300s", r.Status, r.Body)
	}
	r := w.post("/"+full.Code, fp, map[string]string{"phone": "138 0013 8001"})
	if r.Status != http.StatusGone || !r.has("This form is closed") || r.Header.Get("Location") != "" {
		t.Errorf("an answer past the cap: %d %q %.300s", r.Status, r.Header.Get("Location"), r.Body)
	}
	if got := answers(full); got != 1 {
		t.Errorf("answers stored on the full form: %d, want 1", got)
	}
}

// TestFormAnswersUnderStalledPostgres: with the table of answers locked by another connection,
// a form's post answers 503 with Retry-After within WRITE_TIMEOUT and a margin, and never lets
// the visitor through unanswered; once the lock is gone the same post goes through and is kept.
func TestFormAnswersUnderStalledPostgres(t *testing.T) {
	const writeTimeout = time.Second
	d := rulesDeployment(t)
	// Set up under the default deadline: a busy machine may check a password slower than 1 s.
	setup := d.start(t)
	tn := setup.signupOn("form-stalled@example.com", "enterprise")
	form := map[string]any{"fields": []map[string]any{{"name": "phone", "label": "Phone", "type": "phone", "required": true}}}
	l := setup.createLink(tn, map[string]any{"url": "https://example.com/form-stalled", "form": form})
	s := d.start(t, "WRITE_TIMEOUT", writeTimeout.String())
	v := s.visitor(fromCN, uaAndroid)
	page := v.get("/" + l.Code)

	ctx := context.Background()
	conn := d.conn(t)
	tx, err := conn.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, "LOCK TABLE form_responses IN ACCESS EXCLUSIVE MODE"); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	r := v.post("/"+l.Code, page, map[string]string{"phone": "138 0013 8000"})
	if took := time.Since(start); took > writeTimeout+3*time.Second {
		t.Errorf("the post answered after %v; WRITE_TIMEOUT is %v", took, writeTimeout)
	}
	if r.Status != http.StatusServiceUnavailable || r.Header.Get("Retry-After") == "" || r.Header.Get("Location") != "" {
		t.Errorf("a post with the answers' table locked: %d Retry-After %q Location %q", r.Status, r.Header.Get("Retry-After"), r.Header.Get("Location"))
	}
	if err := tx.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	if r := v.post("/"+l.Code, page, map[string]string{"phone": "138 0013 8001"}); r.Status != http.StatusFound {
		t.Fatalf("the post once the lock is gone: %d %.300s", r.Status, r.Body)
	}
	var page2 formResponsePage
	s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/links/%d/responses?limit=100", tn.WorkspaceID, l.ID), tn.Key, nil).json(t, &page2)
	if len(page2.Responses) < 1 {
		t.Errorf("the acknowledged answer is not kept: %d answers", len(page2.Responses))
	}
}
