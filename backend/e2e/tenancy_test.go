package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"
)

// documentedRoutes lists every method and path of the API document (which another test keeps
// equal to the router's routes).
func documentedRoutes(t *testing.T) [][2]string {
	t.Helper()
	raw, err := os.ReadFile("../httpapi/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	var out [][2]string
	for path, ops := range doc.Paths {
		for method := range ops {
			out = append(out, [2]string{strings.ToUpper(method), path})
		}
	}
	return out
}

// TestNoCrossWorkspaceAccess walks every workspace route of the API as a member of another
// workspace, with her session and with her API key, naming workspace B's real rows. Every
// answer must be the same 404 a missing workspace gives, and B must be untouched afterwards.
func TestNoCrossWorkspaceAccess(t *testing.T) {
	dep := newDeployment(t)
	s := dep.start(t)
	alice := s.signup("alice@example.com")
	bob := s.signup("bob@example.com")
	s.signup("carol@example.com")

	bLink := s.createLink(bob, map[string]any{"url": "https://bob.example/private", "title": "B's"})
	wsB := fmt.Sprintf("/api/v1/workspaces/%d", bob.WorkspaceID)
	var key struct{ ID int64 }
	s.do("GET", wsB+"/api-keys", bob.Token, nil)
	r := s.do("POST", wsB+"/api-keys", bob.Token, map[string]any{"name": "second", "scopes": []string{"links:read"}})
	r.json(t, &key)
	var inv struct{ ID int64 }
	r = s.do("POST", wsB+"/invitations", bob.Token, map[string]any{"email": "carol@example.com", "role": "member"})
	if r.Status != http.StatusCreated {
		t.Fatalf("invite: %d %s", r.Status, r.Body)
	}
	r.json(t, &inv)

	// B imports a file (imports need the batch feature), and holds a custom domain (pending:
	// no DNS is needed to hold one).
	s.setPlan(bob, "enterprise")
	bImport := s.startImport(bob.Key, bob.WorkspaceID, []byte("url\nhttps://bob.example/imported\n"))
	bImport = s.waitImport(bob.Key, bob.WorkspaceID, bImport.ID, 30*time.Second)
	var dom struct{ ID int64 }
	r = s.do("POST", wsB+"/domains", bob.Token, map[string]any{"hostname": "go.bob-example.com"})
	if r.Status != http.StatusCreated {
		t.Fatalf("add domain: %d %s", r.Status, r.Body)
	}
	r.json(t, &dom)
	// B's webhook (an address literal: no DNS; it hears only of verified domains).
	var hook struct{ ID int64 }
	r = s.do("POST", wsB+"/webhooks", bob.Token, map[string]any{"url": "https://93.184.216.34/hook", "events": []string{"domain.verified"}})
	if r.Status != http.StatusCreated {
		t.Fatalf("add webhook: %d %s", r.Status, r.Body)
	}
	r.json(t, &hook)
	// A delivery of B's webhook, written as the log keeps a failed one: nothing is sent out.
	var bDelivery int64
	if err := dep.db(t).Pool.QueryRow(context.Background(), `INSERT INTO webhook_deliveries
			(webhook_id, workspace_id, event, data, status, attempt, response_code, response_body)
		VALUES ($1, $2, 'domain.verified', '{}', 'failed', 1, 500, 'B''s answer') RETURNING id`, hook.ID, bob.WorkspaceID).Scan(&bDelivery); err != nil {
		t.Fatal(err)
	}

	var bTag struct{ ID int64 }
	r = s.do("POST", wsB+"/tags", bob.Token, map[string]any{"name": "B's tag"})
	if r.Status != http.StatusCreated {
		t.Fatalf("create tag: %d %s", r.Status, r.Body)
	}
	r.json(t, &bTag)
	var bTemplate struct{ ID int64 }
	r = s.do("POST", wsB+"/utm-templates", bob.Token, map[string]any{"name": "B's campaign", "utm": map[string]string{"source": "bob"}})
	if r.Status != http.StatusCreated {
		t.Fatalf("create UTM template: %d %s", r.Status, r.Body)
	}
	r.json(t, &bTemplate)

	var scimToken struct{ ID int64 }
	r = s.do("POST", wsB+"/scim-tokens", bob.Token, map[string]string{"name": "B's provider"})
	if r.Status != http.StatusCreated {
		t.Fatalf("create SCIM token: %d %s", r.Status, r.Body)
	}
	r.json(t, &scimToken)

	// B's own session, the one B's owner-side routes name.
	bSession := answer[struct {
		Sessions []struct{ ID string } `json:"sessions"`
	}](t, s.do("GET", "/api/v1/me/sessions", bob.Token, nil), http.StatusOK, "B's sessions").Sessions[0].ID
	bShare := answer[struct{ ID string }](t, s.do("POST", fmt.Sprintf("%s/links/%d/share", wsB, bLink.ID), bob.Token, nil), http.StatusCreated, "share")

	// The rows of B each path parameter names.
	bJob := s.submitBulkJob(bob, map[string]any{"filter": map[string]any{"q": "no link holds this"}, "set": map[string]any{"status": "disabled"}})
	ids := map[string]string{
		"bulk-jobs/{id}":     fmt.Sprint(bJob.ID),
		"sessions/{id}":      bSession,
		"tags/{id}":          fmt.Sprint(bTag.ID),
		"imports/{id}":       fmt.Sprint(bImport.ID),
		"domains/{id}":       fmt.Sprint(dom.ID),
		"links/{id}":         fmt.Sprint(bLink.ID),
		"api-keys/{id}":      fmt.Sprint(key.ID),
		"invitations/{id}":   fmt.Sprint(inv.ID),
		"members/{user}":     fmt.Sprint(bob.UserID),
		"webhooks/{id}":      fmt.Sprint(hook.ID),
		"utm-templates/{id}": fmt.Sprint(bTemplate.ID),
		"scim-tokens/{id}":   fmt.Sprint(scimToken.ID),
		"share/{share_id}":   bShare.ID,
	}
	ids["deliveries/{delivery}"] = fmt.Sprint(bDelivery)
	// Parameters in the middle of a path (links/{id}/qr) are filled too.
	param := regexp.MustCompile(`[a-z-]+/\{[a-z_]+\}`)
	fill := func(path string, ws int64) string {
		path = param.ReplaceAllStringFunc(path, func(m string) string {
			if id, ok := ids[m]; ok {
				return strings.Split(m, "/")[0] + "/" + id
			}
			if !strings.HasSuffix(m, "{workspace}") {
				t.Fatalf("no row of B for %s: add one to this test", m)
			}
			return m
		})
		return strings.ReplaceAll(path, "{workspace}", fmt.Sprint(ws))
	}
	// A body that is valid for every write, so that only the workspace check can refuse it.
	body := map[string]any{"url": "https://alice.example/", "name": "x", "role": "member", "title": "x"}
	missing := s.do("GET", "/api/v1/workspaces/999999999", alice.Token, nil)
	if missing.Status != http.StatusNotFound {
		t.Fatalf("missing workspace: %d", missing.Status)
	}

	routes := 0
	for _, rt := range documentedRoutes(t) {
		method, path := rt[0], rt[1]
		if !strings.HasPrefix(path, "/api/v1/workspaces/{workspace}") {
			continue
		}
		routes++
		target := fill(path, bob.WorkspaceID)
		if strings.HasSuffix(path, "/lookup") {
			target += "?code=" + bLink.Code
		}
		for _, as := range []struct{ name, cred string }{{"session", alice.Token}, {"api key", alice.Key}} {
			var b any
			if method == "POST" || method == "PATCH" {
				b = body
			}
			got := s.do(method, target, as.cred, b)
			if got.Status != http.StatusNotFound || string(got.Body) != string(missing.Body) {
				t.Errorf("alice (%s) %s %s: %d %s, want the 404 of a missing workspace", as.name, method, target, got.Status, got.Body)
			}
		}
		// B's rows named through Alice's own workspace are not found either.
		if strings.Contains(path, "}/") && strings.Count(path, "{") > 1 {
			own := fill(path, alice.WorkspaceID)
			var b any
			if method == "PATCH" && strings.Contains(path, "/links/") {
				b = map[string]any{"title": "x"}
			} else if method == "PATCH" && strings.Contains(path, "/domains/") {
				b = map[string]any{"root_url": "https://alice.example/"}
			} else if method == "PATCH" && strings.Contains(path, "/tags/") {
				b = map[string]any{"name": "taken over"}
			} else if method == "PATCH" {
				b = map[string]any{"role": "admin"}
			} else if method == "PUT" && strings.HasSuffix(path, "/app-links") {
				b = map[string]any{"apple_app_site_association": map[string]any{"applinks": map[string]any{"details": []any{}}}}
			}
			if got := s.do(method, own, alice.Token, b); got.Status != http.StatusNotFound {
				t.Errorf("alice %s %s (B's row in her workspace): %d %s, want 404", method, own, got.Status, got.Body)
			}
		}
	}
	if routes < 15 {
		t.Fatalf("only %d workspace routes found in the document", routes)
	}

	// The routes across workspaces (moderators' and operators') refuse a plain member, with her
	// session and with her key, whatever workspace's rows they name.
	across := 0
	for _, rt := range documentedRoutes(t) {
		method, path := rt[0], rt[1]
		if !strings.HasPrefix(path, "/api/v1/moderation/") && !strings.HasPrefix(path, "/api/v1/admin/") {
			continue
		}
		across++
		target := strings.NewReplacer("{id}", fmt.Sprint(bLink.ID), "{profile}", "desktop",
			"{workspace}", fmt.Sprint(bob.WorkspaceID), "{user}", fmt.Sprint(bob.UserID), "{domain}", "bob.example").Replace(path)
		var b any
		if method == "POST" || method == "PATCH" {
			b = map[string]any{"action": "ban", "plan": "enterprise", "system_role": "operator"}
		}
		for _, as := range []struct{ name, cred string }{{"session", alice.Token}, {"api key", alice.Key}} {
			if got := s.do(method, target, as.cred, b); got.Status != http.StatusForbidden || got.errorCode(t) != "forbidden" {
				t.Errorf("alice (%s) %s %s: %d %s, want 403", as.name, method, target, got.Status, got.Body)
			}
		}
	}
	if across < 10 {
		t.Fatalf("only %d moderation and admin routes found in the document", across)
	}

	// B's invitation to Carol cannot be seen, taken or turned down by Alice, and Alice's
	// invitations of the same address do not touch it.
	var hers struct {
		Invitations []struct{ ID int64 } `json:"invitations"`
	}
	s.do("GET", "/api/v1/me/invitations", alice.Token, nil).json(t, &hers)
	if len(hers.Invitations) != 0 {
		t.Errorf("alice sees invitations: %+v", hers)
	}
	for _, m := range []string{"POST", "DELETE"} {
		path := fmt.Sprintf("/api/v1/me/invitations/%d", inv.ID)
		if m == "POST" {
			path += "/accept"
		}
		if got := s.do(m, path, alice.Token, nil); got.Status != http.StatusNotFound {
			t.Errorf("alice %s %s: %d %s", m, path, got.Status, got.Body)
		}
	}
	if got := s.do("POST", fmt.Sprintf("/api/v1/workspaces/%d/invitations", alice.WorkspaceID), alice.Token,
		map[string]any{"email": "carol@example.com"}); got.Status != http.StatusCreated {
		t.Errorf("alice invites carol too: %d %s", got.Status, got.Body)
	}

	// Lookups and lists in Alice's workspace do not reach B's links.
	wsA := fmt.Sprintf("/api/v1/workspaces/%d", alice.WorkspaceID)
	for _, q := range []string{"?code=" + bLink.Code, "?short_url=http://" + shortHost + "/" + bLink.Code} {
		if got := s.do("GET", wsA+"/links/lookup"+q, alice.Key, nil); got.Status != http.StatusNotFound {
			t.Errorf("alice lookup %s: %d %s", q, got.Status, got.Body)
		}
	}
	if got := s.do("GET", wsA+"/links?q=bob.example", alice.Key, nil); !strings.Contains(string(got.Body), `"links":[]`) {
		t.Errorf("alice's search shows B's links: %s", got.Body)
	}
	// Alice's dedupe never hands her B's link.
	mine := s.do("POST", wsA+"/links", alice.Key, map[string]any{"url": "https://bob.example/private", "dedupe": true})
	var l linkJSON
	mine.json(t, &l)
	if mine.Status != http.StatusCreated || l.ID == bLink.ID {
		t.Errorf("alice's dedupe: %d %s", mine.Status, mine.Body)
	}

	// B is untouched: its link, key, invitation and workspace are as they were.
	var got linkJSON
	s.do("GET", fmt.Sprintf("%s/links/%d", wsB, bLink.ID), bob.Key, nil).json(t, &got)
	if got.URL != "https://bob.example/private" || got.Title != "B's" || got.Status != "active" {
		t.Errorf("B's link changed: %+v", got)
	}
	if v := s.visit("GET", "/"+bLink.Code); v.Status != http.StatusFound || v.Header.Get("Location") != "https://bob.example/private" {
		t.Errorf("B's link no longer redirects: %d %s", v.Status, v.Header.Get("Location"))
	}
	for _, list := range []string{"/api-keys", "/invitations", "/members"} {
		if r := s.do("GET", wsB+list, bob.Token, nil); r.Status != http.StatusOK || !strings.Contains(string(r.Body), `"created_at"`) {
			t.Errorf("B's %s: %d %s", list, r.Status, r.Body)
		}
	}
	if r := s.do("GET", fmt.Sprintf("%s/domains/%d", wsB, dom.ID), bob.Token, nil); r.Status != http.StatusOK ||
		!strings.Contains(string(r.Body), `"root_url":null`) || !strings.Contains(string(r.Body), `"hostname":"go.bob-example.com"`) {
		t.Errorf("B's domain: %d %s", r.Status, r.Body)
	}
	// Alice can neither take B's host name for links nor see it.
	if r := s.do("POST", wsA+"/links", alice.Key, map[string]any{"url": "https://alice.example/", "domain": "go.bob-example.com"}); r.Status != http.StatusBadRequest {
		t.Errorf("alice's link on B's domain: %d %s", r.Status, r.Body)
	}
	if r := s.do("GET", wsA+"/domains", alice.Key, nil); !strings.Contains(string(r.Body), `"domains":[]`) {
		t.Errorf("alice's domains show B's: %s", r.Body)
	}
	if r := s.do("GET", wsB+"/invitations", bob.Token, nil); strings.Count(string(r.Body), `"email"`) != 1 {
		t.Errorf("B's invitations: %s", r.Body)
	}
	if r := s.do("GET", wsB, bob.Token, nil); r.Status != http.StatusOK || strings.Contains(string(r.Body), `"name":"x"`) {
		t.Errorf("B's workspace: %d %s", r.Status, r.Body)
	}
	if got := s.getImport(bob.Key, bob.WorkspaceID, bImport.ID); got.State != "done" || got.Rows != 1 || got.Created != 1 {
		t.Errorf("B's import: %+v", got)
	}
	var bImports struct{ Imports []importJSON }
	s.do("GET", wsB+"/imports", bob.Key, nil).json(t, &bImports)
	if len(bImports.Imports) != 1 {
		t.Errorf("B's imports: %+v", bImports)
	}
	// B's webhook has its one delivery, not resent.
	if ds := s.hookDeliveries(bob, hook.ID); len(ds) != 1 || ds[0].ID != bDelivery {
		t.Errorf("B's deliveries: %+v", ds)
	}
}
