package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"
)

// errorDetail is an error answer's body, with the finer reason and the field.
type errorDetail struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Reason  string `json:"reason"`
	Field   string `json:"field"`
}

// errorDetail returns the error of an error answer, failing unless it has a code, a message
// and a reason.
func (r response) errorDetail(t *testing.T) errorDetail {
	t.Helper()
	var e struct {
		Error errorDetail `json:"error"`
	}
	if err := json.Unmarshal(r.Body, &e); err != nil || e.Error.Code == "" || e.Error.Message == "" || e.Error.Reason == "" {
		t.Fatalf("status %d body %q is not {\"error\":{\"code\",\"message\",\"reason\"}}", r.Status, r.Body)
	}
	return e.Error
}

// TestErrorReasons: errors name a stable reason and the input they are about, through every
// layer (domain checks, the store's conflicts, the router, batches and imports).
func TestErrorReasons(t *testing.T) {
	ns := startDNS(t)
	s := newDeployment(t).start(t, "DNS_RESOLVER", ns.Addr)
	tn := s.signup("reasons@example.com")
	ws := fmt.Sprintf("/api/v1/workspaces/%d", tn.WorkspaceID)
	s.createLink(tn, map[string]any{"url": "https://example.com/a", "alias": "taken"})

	for _, c := range []struct {
		name, method, path, token string
		body                      any
		status                    int
		code, reason, field       string
	}{
		{"alias taken", "POST", ws + "/links", tn.Key, map[string]any{"url": "https://example.com/b", "alias": "taken"},
			http.StatusConflict, "conflict", "alias_taken", "alias"},
		{"alias reserved", "POST", ws + "/links", tn.Key, map[string]any{"url": "https://example.com/b", "alias": "api"},
			http.StatusBadRequest, "invalid", "alias_reserved", "alias"},
		{"alias shape", "POST", ws + "/links", tn.Key, map[string]any{"url": "https://example.com/b", "alias": "a b"},
			http.StatusBadRequest, "invalid", "alias_invalid", "alias"},
		{"url scheme", "POST", ws + "/links", tn.Key, map[string]any{"url": "javascript:alert(1)"},
			http.StatusBadRequest, "invalid", "url_scheme", "url"},
		{"url missing", "POST", ws + "/links", tn.Key, map[string]any{"url": " "},
			http.StatusBadRequest, "invalid", "url_required", "url"},
		{"url without host", "POST", ws + "/links", tn.Key, map[string]any{"url": "https://"},
			http.StatusBadRequest, "invalid", "url_invalid", "url"},
		{"domain of no one", "POST", ws + "/links", tn.Key, map[string]any{"url": "https://example.com/b", "domain": "go.example.org"},
			http.StatusBadRequest, "invalid", "domain_not_verified", "domain"},
		{"not JSON", "POST", ws + "/links", tn.Key, "{",
			http.StatusBadRequest, "invalid", "json_invalid", ""},
		{"limit", "GET", ws + "/links?limit=0", tn.Key, nil,
			http.StatusBadRequest, "invalid", "value_invalid", "limit"},
		{"no such link", "GET", ws + "/links/999999", tn.Key, nil,
			http.StatusNotFound, "not_found", "link_not_found", ""},
		{"no such endpoint", "GET", "/api/v1/nothing-here", tn.Key, nil,
			http.StatusNotFound, "not_found", "endpoint_not_found", ""},
		{"no credentials", "GET", ws + "/links", "", nil,
			http.StatusUnauthorized, "unauthorized", "auth_required", ""},
		{"email taken", "POST", "/api/v1/auth/signup", "", map[string]any{"email": "Reasons@example.com", "password": "correct horse battery"},
			http.StatusConflict, "conflict", "email_taken", "email"},
		{"short password", "POST", "/api/v1/auth/signup", "", map[string]any{"email": "new@example.com", "password": "short"},
			http.StatusBadRequest, "invalid", "password_length", "password"},
		{"bad email", "POST", "/api/v1/auth/signup", "", map[string]any{"email": "not an address", "password": "correct horse battery"},
			http.StatusBadRequest, "invalid", "email_invalid", "email"},
		{"wrong password", "POST", "/api/v1/auth/login", "", map[string]any{"email": "reasons@example.com", "password": "wrong horse battery"},
			http.StatusUnauthorized, "unauthorized", "login_failed", ""},
		{"no password", "POST", "/api/v1/auth/login", "", map[string]any{"email": "reasons@example.com", "password": ""},
			http.StatusBadRequest, "invalid", "password_required", "password"},
		{"key name", "POST", ws + "/api-keys", tn.Token, map[string]any{"name": " ", "scopes": []string{"links:read"}},
			http.StatusBadRequest, "invalid", "name_invalid", "name"},
		{"key scopes", "POST", ws + "/api-keys", tn.Token, map[string]any{"name": "ci", "scopes": []string{"everything"}},
			http.StatusBadRequest, "invalid", "scope_unknown", "scopes"},
		{"domains on the free plan", "POST", ws + "/domains", tn.Token, map[string]any{"hostname": "go.example.com"},
			http.StatusForbidden, "plan_required", "plan_required", ""},
	} {
		r := s.do(c.method, c.path, c.token, c.body)
		e := r.errorDetail(t)
		if r.Status != c.status || e.Code != c.code || e.Reason != c.reason || e.Field != c.field {
			t.Errorf("%s: %d %+v, want %d %s/%s field %q", c.name, r.Status, e, c.status, c.code, c.reason, c.field)
		}
	}

	// Domain errors on a plan that has custom domains.
	s.setPlan(tn, "enterprise")
	d := s.addDomain(tn, "go.example.com")
	// A check that finds no record names its problem too.
	r := s.do("POST", fmt.Sprintf("%s/domains/%d/verify", ws, d.ID), tn.Token, nil)
	checked := answer[struct {
		Verification struct {
			Problem       string `json:"problem"`
			ProblemReason string `json:"problem_reason"`
		} `json:"verification"`
	}](t, r, http.StatusOK, "verify")
	if checked.Verification.Problem == "" || checked.Verification.ProblemReason != "txt_record_missing" {
		t.Errorf("a check without the record: %s", r.Body)
	}
	for _, c := range []struct {
		hostname      string
		status        int
		reason, field string
	}{
		{"https://go.example.net/", http.StatusBadRequest, "hostname_not_bare", "hostname"},
		{"10.0.0.1", http.StatusBadRequest, "hostname_ip", "hostname"},
		{"intranet.local", http.StatusBadRequest, "hostname_not_public", "hostname"},
		{"co.uk", http.StatusBadRequest, "hostname_public_suffix", "hostname"},
		{"", http.StatusBadRequest, "hostname_required", "hostname"},
		{"go.example.com", http.StatusConflict, "domain_taken", "hostname"},
	} {
		r := s.do("POST", ws+"/domains", tn.Token, map[string]any{"hostname": c.hostname})
		if e := r.errorDetail(t); r.Status != c.status || e.Reason != c.reason || e.Field != c.field {
			t.Errorf("domain %q: %d %+v, want %s field %q", c.hostname, r.Status, e, c.reason, c.field)
		}
	}
	// A link on an unverified domain of this workspace; a rule's URL gives the URL's reason
	// with the rule's field.
	r = s.do("POST", ws+"/links", tn.Key, map[string]any{"url": "https://example.com/b", "domain": "go.example.com"})
	if e := r.errorDetail(t); r.Status != http.StatusBadRequest || e.Reason != "domain_not_verified" || e.Field != "domain" {
		t.Errorf("unverified domain: %d %+v", r.Status, e)
	}
	r = s.do("POST", ws+"/links", tn.Key, map[string]any{"url": "https://example.com/b",
		"variants": []map[string]any{{"url": "ftp://example.com/", "weight": 1}, {"url": "https://example.com/c", "weight": 1}}})
	if e := r.errorDetail(t); r.Status != http.StatusBadRequest || e.Reason != "url_scheme" || e.Field != "variants.url" {
		t.Errorf("a variant's URL: %d %+v", r.Status, e)
	}

	// Batch rows carry their reason and field.
	r = s.do("POST", ws+"/links/batch", tn.Key, map[string]any{"links": []map[string]any{
		{"url": "https://example.com/ok"}, {"url": "https://example.com/c", "alias": "taken"}, {"url": "mailto:x@example.com"},
	}})
	batch := answer[struct {
		Results []struct {
			Error *errorDetail `json:"error"`
		} `json:"results"`
	}](t, r, http.StatusOK, "batch")
	if len(batch.Results) != 3 || batch.Results[0].Error != nil ||
		batch.Results[1].Error == nil || batch.Results[1].Error.Reason != "alias_taken" || batch.Results[1].Error.Field != "alias" ||
		batch.Results[2].Error == nil || batch.Results[2].Error.Reason != "url_scheme" || batch.Results[2].Error.Field != "url" {
		t.Errorf("batch: %s", r.Body)
	}

	// Import results name each failed row's reason.
	im := s.startImport(tn.Key, tn.WorkspaceID, []byte("url,alias\nhttps://example.com/d,\njavascript:x,\nhttps://example.com/e,taken\n"))
	s.waitImport(tn.Key, tn.WorkspaceID, im.ID, 30*time.Second)
	rows := s.importRows(tn.Key, tn.WorkspaceID, im.ID, 3)
	if rows[0][6] != "" || rows[1][4] != "invalid" || rows[1][6] != "url_scheme" || rows[2][4] != "conflict" || rows[2][6] != "alias_taken" {
		t.Errorf("import results: %q", rows)
	}
}
