package e2e

import (
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"testing"
	"time"
)

// passwordHashes reads how many argon2id hashes (not checks) the server has run.
func (s *server) passwordHashes() int {
	s.t.Helper()
	m := regexp.MustCompile(`(?m)^shortlink_password_hashes_total\{op="hash"\} (\d+)$`).FindSubmatch(s.metrics().Body)
	if m == nil {
		return 0
	}
	n, _ := strconv.Atoi(string(m[1]))
	return n
}

// TestQuotaBeforePasswordHash: rows the month's quota refuses cost no password hash — in a
// batch, a single create and an import; the rows it grants are hashed and work.
func TestQuotaBeforePasswordHash(t *testing.T) {
	// Not parallel: the password-hash counter is the process's, and other tests sign people up.
	d := withRules(t, newSerialDeployment(t))
	s := d.start(t, "METRICS_ADDR", "127.0.0.1:0", "PLAN_LIMITS", "enterprise.links_per_month=2")
	tn := s.signupOn("quota-hash@example.com", "enterprise")
	ws := fmt.Sprintf("/api/v1/workspaces/%d", tn.WorkspaceID)
	before := s.passwordHashes()

	rows := func(n int) []map[string]any {
		out := make([]map[string]any, n)
		for i := range out {
			out[i] = map[string]any{"url": fmt.Sprintf("https://quota-hash.example/%d", i), "password": "open sesame"}
		}
		return out
	}
	var out struct {
		Results []struct {
			Link  *linkJSON
			Error *struct{ Code string }
		}
	}
	s.do("POST", ws+"/links/batch", tn.Key, map[string]any{"links": rows(5)}).json(t, &out)
	if len(out.Results) != 5 {
		t.Fatalf("batch of 5: %+v", out)
	}
	for i, r := range out.Results {
		if want := i >= 2; (r.Error != nil && r.Error.Code == "quota_exceeded") != want || (r.Link != nil) == want {
			t.Errorf("row %d: %+v", i, r)
		}
	}
	if got := s.passwordHashes() - before; got != 2 {
		t.Errorf("a batch of 5 rows with passwords, 2 granted: %d hashes, want 2", got)
	}
	v := s.visitor(fromDE, uaDesktop)
	page := v.get("/" + out.Results[0].Link.Code)
	if r := v.post("/"+out.Results[0].Link.Code, page, map[string]string{"password": "open sesame"}); r.Status != http.StatusFound {
		t.Errorf("the password of a granted row: %d", r.Status)
	}

	s.do("POST", ws+"/links/batch", tn.Key, map[string]any{"links": rows(60)}).json(t, &out)
	for i, r := range out.Results {
		if r.Error == nil || r.Error.Code != "quota_exceeded" {
			t.Fatalf("row %d past the quota: %+v", i, r)
		}
	}
	r := s.do("POST", ws+"/links", tn.Key, rows(1)[0])
	if r.Status != http.StatusForbidden || r.errorCode(t) != "quota_exceeded" {
		t.Errorf("a create past the quota: %d %s", r.Status, r.Body)
	}
	file := []byte("url,password\n")
	for i := range 30 {
		file = fmt.Appendf(file, "https://quota-hash.example/import/%d,open sesame\n", i)
	}
	im := s.startImport(tn.Key, tn.WorkspaceID, file)
	if im = s.waitImport(tn.Key, tn.WorkspaceID, im.ID, 30*time.Second); im.State != "done" || im.Failed != 30 {
		t.Fatalf("an import past the quota: %+v", im)
	}
	if got := s.passwordHashes() - before; got != 2 {
		t.Errorf("after 91 rows with passwords past the quota: %d hashes, want 2", got)
	}
}
