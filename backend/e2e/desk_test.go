package e2e

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/moderation"
)

// reviewOnDomain records a review of l as one that opened the browser does: with its
// destination's registrable domain, keeping the domain's hold by the default reputation (a
// phishing ban holds the domain).
func (rv *reviewer) reviewOnDomain(ws int64, l linkJSON, score float64, category, reason string) moderation.Outcome {
	rv.t.Helper()
	rep := moderation.DefaultReputation
	job := moderation.Job{LinkID: l.ID, WorkspaceID: ws, URL: l.URL, Reason: "created", Seq: 1}
	r := moderation.Review{Duration: time.Second, Destination: l.URL, Domain: moderation.RegistrableDomain(l.URL), Record: &rep,
		Verdict:  moderation.Verdict{Score: score, Category: category, Reason: reason, Scorer: "heuristic"},
		Captures: []moderation.Capture{{Profile: moderation.Desktop, URL: l.URL, FinalURL: l.URL, Status: 200, Title: "Sign in"}}}
	out, err := rv.store.Record(context.Background(), job, r, moderation.DefaultThresholds)
	if err != nil {
		rv.t.Fatalf("record a review of %d: %v", l.ID, err)
	}
	return out
}

type domainEntryJSON struct {
	Domain, State, Note string
	Actor               *struct{ Email string }
	Links               int64
	HeldUntil           *time.Time `json:"held_until"`
	Review              *struct {
		Score    float64
		Category string
	}
}

type domainPage struct {
	Items      []domainEntryJSON
	NextCursor string `json:"next_cursor"`
}

// TestModerationDomainList: the desk's list of the domains whose new links are stopped — the
// one a moderator banned (who, why, its links) and the one its phishing record holds (the
// review) — a page at a time; a clear moves a domain to the cleared list. Customers and keys
// get 403, bad input 400 in the error shape.
func TestModerationDomainList(t *testing.T) {
	d := newDeployment(t)
	s := d.start(t)
	owner := s.signup("owner@example.com")
	_, mod := s.moderator("mod@example.com")
	rv := newReviewer(t, d)

	// A domain held by its phishing record, a second link of it passing nothing; and a domain
	// a moderator banned, with two links reviewed on it.
	phish := s.createLink(owner, map[string]any{"url": "https://login.phish-kit.example/a"})
	rv.reviewOnDomain(owner.WorkspaceID, phish, 0.97, "phishing", "password-form 0.97: a bank's login")
	for _, p := range []string{"/x", "/y"} {
		l := s.createLink(owner, map[string]any{"url": "https://spam-shop.example" + p})
		rv.reviewOnDomain(owner.WorkspaceID, l, 0.1, "benign", "nothing found")
	}
	ban := s.do("POST", "/api/v1/moderation/domains/spam-shop.example/ban", mod, map[string]any{"note": "reported 12 times"})
	if ban.Status != http.StatusOK {
		t.Fatalf("ban the domain: %d %s", ban.Status, ban.Body)
	}

	list := answer[domainPage](t, s.do("GET", "/api/v1/moderation/domains", mod, nil), http.StatusOK, "the domains")
	if len(list.Items) != 2 || list.NextCursor != "" {
		t.Fatalf("the domains: %+v", list)
	}
	byName := map[string]domainEntryJSON{}
	for _, e := range list.Items {
		byName[e.Domain] = e
	}
	if e := byName["spam-shop.example"]; e.State != "banned" || e.Actor == nil || e.Actor.Email != "mod@example.com" ||
		e.Note != "reported 12 times" || e.Links != 2 || e.Review != nil {
		t.Errorf("the banned domain: %+v", e)
	}
	if e := byName["phish-kit.example"]; e.State != "held" || e.Actor != nil || e.Links != 1 || e.HeldUntil == nil ||
		e.Review == nil || e.Review.Category != "phishing" || e.Review.Score < 0.9 {
		t.Errorf("the held domain: %+v", e)
	}
	if list.Items[0].Domain != "spam-shop.example" {
		t.Errorf("the latest first: %+v", list.Items)
	}

	// A page at a time.
	first := answer[domainPage](t, s.do("GET", "/api/v1/moderation/domains?limit=1", mod, nil), http.StatusOK, "the first page")
	if len(first.Items) != 1 || first.NextCursor == "" {
		t.Fatalf("the first page: %+v", first)
	}
	second := answer[domainPage](t, s.do("GET", "/api/v1/moderation/domains?limit=1&cursor="+first.NextCursor, mod, nil), http.StatusOK, "the second page")
	if len(second.Items) != 1 || second.NextCursor != "" || second.Items[0].Domain == first.Items[0].Domain {
		t.Fatalf("the second page: %+v after %+v", second, first)
	}
	held := answer[domainPage](t, s.do("GET", "/api/v1/moderation/domains?state=held", mod, nil), http.StatusOK, "the held")
	if len(held.Items) != 1 || held.Items[0].Domain != "phish-kit.example" {
		t.Errorf("the held domains: %+v", held)
	}

	// Cleared from the list: the held domain leaves it and is listed as cleared.
	if r := s.do("POST", "/api/v1/moderation/domains/phish-kit.example/clear", mod, map[string]any{}); r.Status != http.StatusOK {
		t.Fatalf("clear: %d %s", r.Status, r.Body)
	}
	list = answer[domainPage](t, s.do("GET", "/api/v1/moderation/domains", mod, nil), http.StatusOK, "the domains after the clear")
	if len(list.Items) != 1 || list.Items[0].Domain != "spam-shop.example" {
		t.Errorf("the domains after the clear: %+v", list.Items)
	}
	cleared := answer[domainPage](t, s.do("GET", "/api/v1/moderation/domains?state=cleared", mod, nil), http.StatusOK, "the cleared")
	if len(cleared.Items) != 1 || cleared.Items[0].Domain != "phish-kit.example" || cleared.Items[0].State != "cleared" {
		t.Errorf("the cleared domains: %+v", cleared.Items)
	}

	// Customers, their keys and the signed-out are refused; bad input is 400 in the error shape.
	for _, tok := range []string{owner.Token, owner.Key} {
		r := s.do("GET", "/api/v1/moderation/domains", tok, nil)
		if r.Status != http.StatusForbidden || r.errorCode(t) != "forbidden" {
			t.Errorf("a customer's list: %d %s", r.Status, r.Body)
		}
	}
	if r := s.do("GET", "/api/v1/moderation/domains", "", nil); r.Status != http.StatusUnauthorized {
		t.Errorf("signed out: %d %s", r.Status, r.Body)
	}
	for _, q := range []string{"state=gone", "limit=0", "limit=101", "cursor=zz", "cursor=.example.com"} {
		r := s.do("GET", "/api/v1/moderation/domains?"+q, mod, nil)
		if r.Status != http.StatusBadRequest || r.errorCode(t) != "invalid" {
			t.Errorf("%s: %d %s", q, r.Status, r.Body)
		} else if reason, field := r.errorReasonField(t); reason != "value_invalid" || field == "" {
			t.Errorf("%s: reason %q field %q", q, reason, field)
		}
	}
}

type importFailureJSON struct {
	Row, Line int
	URL       string
	Code      string `json:"error_code"`
	Message   string `json:"error"`
	Reason    string `json:"error_reason"`
}

type importFailurePage struct {
	Items      []importFailureJSON
	NextCursor string `json:"next_cursor"`
}

// TestImportFailuresThroughAPI: an import's failed rows a page at a time, each with its row,
// line, URL and reason; readers and read keys see them, another workspace gets 404, bad input
// 400 in the error shape.
func TestImportFailuresThroughAPI(t *testing.T) {
	s := newDeployment(t).start(t)
	owner := s.signup("owner@example.com")
	s.setPlan(owner, "enterprise")
	other := s.signup("other@example.com")
	s.setPlan(other, "enterprise")
	file := "url,alias\nhttps://good.example/1,\njavascript:alert(1),\nhttps://good.example/2,taken-one\nftp://files.example/x,\nhttps://good.example/3,taken-one\n"
	im := s.startImport(owner.Key, owner.WorkspaceID, []byte(file))
	im = s.waitImport(owner.Key, owner.WorkspaceID, im.ID, 30*time.Second)
	if im.Failed != 3 || im.Created != 2 {
		t.Fatalf("the import: %+v", im)
	}
	path := fmt.Sprintf("/api/v1/workspaces/%d/imports/%d/failures", owner.WorkspaceID, im.ID)
	all := answer[importFailurePage](t, s.do("GET", path, owner.Key, nil), http.StatusOK, "the failures")
	if len(all.Items) != 3 || all.NextCursor != "" {
		t.Fatalf("the failures: %+v", all)
	}
	want := []struct {
		row, line int
		url       string
		code      string
		reason    string
	}{
		{2, 3, "javascript:alert(1)", "invalid", "url_scheme"},
		{4, 5, "ftp://files.example/x", "invalid", "url_scheme"},
		{5, 6, "https://good.example/3", "conflict", "alias_taken"},
	}
	for i, w := range want {
		got := all.Items[i]
		if got.Row != w.row || got.Line != w.line || got.URL != w.url || got.Code != w.code || got.Reason != w.reason || got.Message == "" {
			t.Errorf("failure %d: %+v, want %+v", i, got, w)
		}
	}

	// A page at a time, in row order.
	var rows []int
	cursor := ""
	for pages := 0; pages < 5; pages++ {
		page := answer[importFailurePage](t, s.do("GET", path+"?limit=2&cursor="+cursor, owner.Token, nil), http.StatusOK, "a page")
		for _, f := range page.Items {
			rows = append(rows, f.Row)
		}
		if cursor = page.NextCursor; cursor == "" {
			break
		}
	}
	if fmt.Sprint(rows) != "[2 4 5]" {
		t.Errorf("the pages' rows: %v", rows)
	}

	// A viewer reads them; another workspace, even naming its own workspace, gets 404.
	viewer := s.joined(owner, "viewer@example.com", "viewer")
	if r := s.do("GET", path, viewer.Token, nil); r.Status != http.StatusOK {
		t.Errorf("a viewer: %d %s", r.Status, r.Body)
	}
	for _, c := range []struct {
		path, cred string
	}{
		{path, other.Token}, // the owner's workspace: not theirs
		{path, other.Key},
		{fmt.Sprintf("/api/v1/workspaces/%d/imports/%d/failures", other.WorkspaceID, im.ID), other.Token}, // their own workspace, the owner's import
		{fmt.Sprintf("/api/v1/workspaces/%d/imports/%d/failures", other.WorkspaceID, im.ID), other.Key},
		{fmt.Sprintf("/api/v1/workspaces/%d/imports/999999/failures", owner.WorkspaceID), owner.Token},
	} {
		if r := s.do("GET", c.path, c.cred, nil); r.Status != http.StatusNotFound || r.errorCode(t) != "not_found" {
			t.Errorf("%s: %d %s", c.path, r.Status, r.Body)
		}
	}
	for _, q := range []string{"limit=0", "limit=101", "limit=x", "cursor=-1", "cursor=!"} {
		r := s.do("GET", path+"?"+q, owner.Token, nil)
		if r.Status != http.StatusBadRequest || r.errorCode(t) != "invalid" {
			t.Errorf("%s: %d %s", q, r.Status, r.Body)
		}
	}
	// An ID that is no number names no import, as on the import's other routes.
	if r := s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/imports/abc/failures", owner.WorkspaceID), owner.Token, nil); r.Status != http.StatusNotFound || r.errorCode(t) != "not_found" {
		t.Errorf("an import ID that is no number: %d %s", r.Status, r.Body)
	}
}

// TestModerationDomainBanCategory: a moderator's ban of a whole domain names the category its
// links are banned as (phishing when it names none), answered, listed and in the audit log;
// a category outside the standard reasons, or one given to a clear, is 400 in the error shape.
// (The worker bans the links under it with that category: worker/review's
// TestWorkerBansUnderDomainWithItsCategory and TestModerationDomainDecisions.)
func TestModerationDomainBanCategory(t *testing.T) {
	s := newDeployment(t).start(t)
	owner := s.signup("owner@example.com")
	_, mod := s.moderator("mod@example.com")
	type decision struct {
		Domain, State, Category string
	}
	ban := func(domain string, body map[string]any) response {
		t.Helper()
		return s.do("POST", "/api/v1/moderation/domains/"+domain+"/ban", mod, body)
	}
	if got := answer[decision](t, ban("spam-shop.example", map[string]any{"category": "spam", "note": "bulk mail"}), http.StatusOK,
		"a ban as spam"); got.State != "banned" || got.Category != "spam" {
		t.Errorf("a ban as spam: %+v", got)
	}
	if got := answer[decision](t, ban("kit-host.example", map[string]any{}), http.StatusOK, "a ban naming no category"); got.Category != "phishing" {
		t.Errorf("a ban naming no category: %+v", got)
	}
	// Banned again as something else: the new category stands.
	if got := answer[decision](t, ban("kit-host.example", map[string]any{"category": "malware"}), http.StatusOK, "banned again"); got.Category != "malware" {
		t.Errorf("banned again as malware: %+v", got)
	}
	for _, c := range []struct {
		name, path  string
		body        any
		reason, fld string
	}{
		{"unknown category", "spam-shop.example/ban", map[string]any{"category": "nasty"}, "category_unknown", "category"},
		{"empty category", "spam-shop.example/ban", map[string]any{"category": ""}, "category_unknown", "category"},
		{"category of another case", "spam-shop.example/ban", map[string]any{"category": "Spam"}, "category_unknown", "category"},
		{"category not text", "spam-shop.example/ban", map[string]any{"category": 3}, "json_invalid", ""},
		{"a clear with a category", "spam-shop.example/clear", map[string]any{"category": "spam"}, "value_invalid", "category"},
	} {
		r := s.do("POST", "/api/v1/moderation/domains/"+c.path, mod, c.body)
		if r.Status != http.StatusBadRequest || r.errorCode(t) != "invalid" {
			t.Errorf("%s: %d %s", c.name, r.Status, r.Body)
			continue
		}
		if reason, field := r.errorReasonField(t); c.reason != "json_invalid" && (reason != c.reason || field != c.fld) {
			t.Errorf("%s: reason %q field %q, want %q %q", c.name, reason, field, c.reason, c.fld)
		}
	}
	// The refused requests changed nothing; the list says each ban's category.
	list := answer[struct{ Items []decision }](t, s.do("GET", "/api/v1/moderation/domains?state=banned", mod, nil), http.StatusOK, "the list")
	got := map[string]string{}
	for _, e := range list.Items {
		got[e.Domain] = e.Category
	}
	if len(got) != 2 || got["spam-shop.example"] != "spam" || got["kit-host.example"] != "malware" {
		t.Errorf("the banned domains' categories: %v", got)
	}
	audit := answer[struct {
		Items []struct{ Action, Domain, Reason string }
	}](t, s.do("GET", "/api/v1/admin/audit", s.operatorToken(), nil), http.StatusOK, "the audit log")
	var entries []string
	for _, it := range audit.Items {
		if it.Domain != "" {
			entries = append(entries, it.Action+" "+it.Domain+" "+it.Reason)
		}
	}
	if fmt.Sprint(entries) != "[ban_domain kit-host.example malware ban_domain kit-host.example phishing ban_domain spam-shop.example spam]" {
		t.Errorf("the audit log's domain decisions: %v", entries)
	}
	// A customer cannot ban a domain, whatever the category.
	if r := s.do("POST", "/api/v1/moderation/domains/other.example/ban", owner.Token, map[string]any{"category": "spam"}); r.Status != http.StatusForbidden {
		t.Errorf("a customer's ban: %d %s", r.Status, r.Body)
	}
	// Cleared: no category.
	if got := answer[decision](t, s.do("POST", "/api/v1/moderation/domains/spam-shop.example/clear", mod, map[string]any{}), http.StatusOK,
		"the clear"); got.State != "cleared" || got.Category != "" {
		t.Errorf("the clear: %+v", got)
	}
}
