package e2e

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/shortlink/shortlink/backend/visitor/geoip/geoiptest"
)

// TestPlanGates: every gated feature on every plan, through the API: 403 plan_required where
// the plan lacks it, allowed where it has it (docs/rules-and-plans.md#plans).
func TestPlanGates(t *testing.T) {
	d := newDeployment(t)
	d.env["GEOIP_DB"] = geoiptest.GeoIP2(t, map[string]string{"10.1.0.0/16": "DE"})
	s := d.start(t)
	form := map[string]any{"fields": []map[string]any{{"name": "n", "label": "Name", "type": "text"}}}
	fields := []struct {
		feature string
		body    map[string]any
	}{
		{"password", map[string]any{"password": "secret"}},
		{"ab_test", map[string]any{"variants": []map[string]any{{"url": "https://a.example/", "weight": 1}, {"url": "https://b.example/", "weight": 1}}}},
		{"ab_test", map[string]any{"device_targets": map[string]any{"ios": "https://i.example/"}}},
		{"geo", map[string]any{"geo": map[string]any{"deny": []string{"RU"}}}},
		{"geo", map[string]any{"country_targets": map[string]any{"DE": "https://de.example/"}}},
		{"browser_guide", map[string]any{"wechat_guide": true}},
		{"form", map[string]any{"form": form}},
		{"", map[string]any{"max_visits": 5}},
		{"", map[string]any{"expires_at": "2099-01-01T00:00:00Z"}},
		{"", map[string]any{"og": map[string]any{"title": "t"}}},
	}
	has := map[string]map[string]bool{
		"free":       {},
		"trial":      {"password": true, "ab_test": true, "geo": true, "browser_guide": true, "batch": true, "realtime_edit": true, "export": true, "dashboard": true},
		"personal":   {"password": true, "browser_guide": true, "realtime_edit": true, "export": true, "dashboard": true},
		"enterprise": {"password": true, "ab_test": true, "geo": true, "browser_guide": true, "form": true, "batch": true, "realtime_edit": true, "export": true, "dashboard": true},
	}
	for _, plan := range []string{"free", "trial", "personal", "enterprise"} {
		tn := s.signup(plan + "-gates@example.com")
		s.setPlan(tn, plan)
		links := fmt.Sprintf("/api/v1/workspaces/%d/links", tn.WorkspaceID)
		want := func(feature, what string, r response, okStatus int) {
			t.Helper()
			allowed := feature == "" || has[plan][feature]
			switch {
			case allowed && r.Status != okStatus:
				t.Errorf("%s, %s: %d %s, want %d", plan, what, r.Status, r.Body, okStatus)
			case !allowed && (r.Status != http.StatusForbidden || r.errorCode(t) != "plan_required"):
				t.Errorf("%s, %s: %d %s, want 403 plan_required", plan, what, r.Status, r.Body)
			}
		}
		base := s.createLink(tn, map[string]any{"url": "https://example.com/base"})
		for _, f := range fields {
			body := map[string]any{"url": "https://example.com/gated"}
			for k, v := range f.body {
				body[k] = v
			}
			want(f.feature, fmt.Sprintf("create with %v", f.body), s.do("POST", links, tn.Key, body), http.StatusCreated)
			want(f.feature, fmt.Sprintf("edit with %v", f.body), s.do("PATCH", fmt.Sprintf("%s/%d", links, base.ID), tn.Key, f.body), http.StatusOK)
		}
		want("realtime_edit", "edit of the url", s.do("PATCH", fmt.Sprintf("%s/%d", links, base.ID), tn.Key, map[string]any{"url": "https://example.com/new"}), http.StatusOK)
		want("batch", "batch", s.do("POST", links+"/batch", tn.Key, map[string]any{"links": []any{map[string]any{"url": "https://example.com/b"}}}), http.StatusOK)
		want("export", "responses.csv", s.do("GET", fmt.Sprintf("%s/%d/responses.csv", links, base.ID), tn.Key, nil), http.StatusOK)
		want("export", "links export", s.do("GET", links+"/export.csv", tn.Key, nil), http.StatusOK)
		want("export", "visits export", s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/visits/export.csv", tn.WorkspaceID), tn.Key, nil), http.StatusOK)
		want("dashboard", "dashboard", s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/stats", tn.WorkspaceID), tn.Key, nil), http.StatusOK)
		// Visit statistics are on every plan.
		want("", "link statistics", s.do("GET", fmt.Sprintf("%s/%d/stats", links, base.ID), tn.Key, nil), http.StatusOK)
		// Removing a rule needs no plan.
		if r := s.do("PATCH", fmt.Sprintf("%s/%d", links, base.ID), tn.Key, map[string]any{"password": nil, "geo": nil}); r.Status != http.StatusOK {
			t.Errorf("%s: removing rules: %d %s", plan, r.Status, r.Body)
		}
	}
}

// TestQuotas: the month's new links stop at the plan's limit, a single create and each row of a
// batch alike; and a workspace takes no member past its plan's.
func TestQuotas(t *testing.T) {
	d := newDeployment(t)
	s := d.start(t, "PLAN_LIMITS", "free.links_per_month=3,trial.links_per_month=5,free.members=1")
	free := s.signup("quota-free@example.com")
	links := fmt.Sprintf("/api/v1/workspaces/%d/links", free.WorkspaceID)
	for i := range 3 {
		s.createLink(free, map[string]any{"url": fmt.Sprintf("https://example.com/%d", i)})
	}
	if r := s.do("POST", links, free.Key, map[string]any{"url": "https://example.com/4"}); r.Status != http.StatusForbidden || r.errorCode(t) != "quota_exceeded" {
		t.Errorf("one past the free quota: %d %s", r.Status, r.Body)
	}
	// A dedupe answer is no new link.
	if r := s.do("POST", links, free.Key, map[string]any{"url": "https://example.com/0", "dedupe": true}); r.Status != http.StatusOK {
		t.Errorf("dedupe at the quota: %d %s", r.Status, r.Body)
	}

	trial := s.signup("quota-trial@example.com")
	if r := s.do("POST", fmt.Sprintf("/api/v1/workspaces/%d/trial", trial.WorkspaceID), trial.Token, nil); r.Status != http.StatusOK {
		t.Fatalf("trial: %d %s", r.Status, r.Body)
	}
	tlinks := fmt.Sprintf("/api/v1/workspaces/%d/links", trial.WorkspaceID)
	s.createLink(trial, map[string]any{"url": "https://example.com/t0"})
	s.createLink(trial, map[string]any{"url": "https://example.com/t1"})
	var out struct {
		Results []struct {
			Link  *struct{ ID int64 } `json:"link"`
			Error *struct{ Code string }
		} `json:"results"`
	}
	rows := []any{}
	for i := range 5 {
		rows = append(rows, map[string]any{"url": fmt.Sprintf("https://example.com/tb%d", i)})
	}
	s.do("POST", tlinks+"/batch", trial.Key, map[string]any{"links": rows}).json(t, &out)
	for i, r := range out.Results {
		if i < 3 && r.Link == nil {
			t.Errorf("batch row %d within the quota: %+v", i, r.Error)
		}
		if i >= 3 && (r.Error == nil || r.Error.Code != "quota_exceeded") {
			t.Errorf("batch row %d past the quota: %+v", i, r)
		}
	}

	// Members: free holds one, the owner.
	r := s.do("POST", fmt.Sprintf("/api/v1/workspaces/%d/invitations", free.WorkspaceID), free.Token, map[string]any{"email": "second@example.com", "role": "member"})
	if r.Status != http.StatusForbidden || r.errorCode(t) != "quota_exceeded" {
		t.Errorf("inviting past the free plan's members: %d %s", r.Status, r.Body)
	}
	if r := s.do("POST", fmt.Sprintf("/api/v1/workspaces/%d/invitations", trial.WorkspaceID), trial.Token, map[string]any{"email": "second@example.com", "role": "member"}); r.Status != http.StatusCreated {
		t.Errorf("inviting on trial (3 members): %d %s", r.Status, r.Body)
	}
}

// TestLinkPasswordGuesses: one client's wrong passwords on a link stop at ten in 15 minutes,
// with 429 and Retry-After, on every node; another client is not held back.
func TestLinkPasswordGuesses(t *testing.T) {
	d := withRules(t, limiterDeployment(t))
	a, b := d.start(t), d.start(t)
	tn := a.signupOn("guesses@example.com", "enterprise")
	l := a.createLink(tn, map[string]any{"url": "https://example.com/locked", "password": "right one"})
	guesser := a.visitor(fromDE, uaDesktop)
	page := guesser.get("/" + l.Code)
	for i := range 10 {
		s := []*server{a, b}[i%2]
		guesser.s = s
		if r := guesser.post("/"+l.Code, page, map[string]string{"password": fmt.Sprintf("guess %d", i)}); r.Status != http.StatusUnauthorized {
			t.Fatalf("guess %d: %d", i, r.Status)
		}
	}
	r := guesser.post("/"+l.Code, page, map[string]string{"password": "right one"})
	if r.Status != http.StatusTooManyRequests || r.Header.Get("Retry-After") == "" {
		t.Errorf("the eleventh try, right or not: %d, Retry-After %q", r.Status, r.Header.Get("Retry-After"))
	}
	other := b.visitor(fromCN, uaDesktop)
	if r := other.post("/"+l.Code, other.get("/"+l.Code), map[string]string{"password": "right one"}); r.Status != http.StatusFound {
		t.Errorf("another client: %d", r.Status)
	}
}
