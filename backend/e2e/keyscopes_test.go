package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// keyRoute is an operation of the API document and the API-key scope it declares.
type keyRoute struct {
	method, path string
	scope        string // x-api-key-scope: "" when no key may call it
	public       bool   // no credentials needed (security: [])
}

func keyRoutes(t *testing.T) []keyRoute {
	t.Helper()
	raw, err := os.ReadFile("../httpapi/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Paths map[string]map[string]struct {
			Scope    string            `json:"x-api-key-scope"`
			Security []json.RawMessage `json:"security"`
		} `json:"paths"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	var out []keyRoute
	for path, ops := range doc.Paths {
		for method, op := range ops {
			out = append(out, keyRoute{strings.ToUpper(method), path, op.Scope, op.Security != nil && len(op.Security) == 0})
		}
	}
	return out
}

// TestKeyScopes calls every operation of the API document with an API key of each scope, in
// the key's own workspace. A key reaches exactly the operations whose declared scope it holds
// (links:write also reaches links:read); everything else, such as the workspace, its members,
// invitations and keys, answers 403.
func TestKeyScopes(t *testing.T) {
	s := newDeployment(t).start(t)
	tn := s.signupOn("scopes@example.com", "enterprise") // every route answers, batch included
	s.signup("invitee@example.com")
	ws := fmt.Sprintf("/api/v1/workspaces/%d", tn.WorkspaceID)
	keys := map[string]string{}
	for _, sc := range []string{"links:read", "links:write", "stats:read"} {
		r := s.do("POST", ws+"/api-keys", tn.Token, map[string]any{"name": sc, "scopes": []string{sc}})
		if r.Status != http.StatusCreated {
			t.Fatalf("create %s key: %d %s", sc, r.Status, r.Body)
		}
		var k struct{ Key string }
		r.json(t, &k)
		keys[sc] = k.Key
	}
	var inv, key struct{ ID int64 }
	s.do("POST", ws+"/invitations", tn.Token, map[string]any{"email": "invitee@example.com"}).json(t, &inv)
	s.do("POST", ws+"/api-keys", tn.Token, map[string]any{"name": "other", "scopes": []string{"links:read"}}).json(t, &key)
	l := s.createLink(tn, map[string]any{"url": "https://scopes.example/"})
	im := s.startImport(tn.Token, tn.WorkspaceID, []byte("url\nhttps://scopes.example/imported\n"))
	s.waitImport(tn.Token, tn.WorkspaceID, im.ID, 30*time.Second)
	var dom struct{ ID int64 }
	s.do("POST", ws+"/domains", tn.Token, map[string]any{"hostname": "go.scopes-example.com"}).json(t, &dom)
	var tg struct{ ID int64 }
	s.do("POST", ws+"/tags", tn.Token, map[string]any{"name": "scopes"}).json(t, &tg)
	session := answer[struct {
		Sessions []struct{ ID string } `json:"sessions"`
	}](t, s.do("GET", "/api/v1/me/sessions", tn.Token, nil), http.StatusOK, "sessions").Sessions[0].ID
	sh := answer[struct{ ID string }](t, s.do("POST", fmt.Sprintf("%s/links/%d/share", ws, l.ID), tn.Token, nil), http.StatusCreated, "share")
	job := s.submitBulkJob(tn, map[string]any{"filter": map[string]any{"q": "no link holds this"}, "set": map[string]any{"status": "disabled"}})
	ids := map[string]string{
		"bulk-jobs":     fmt.Sprint(job.ID),
		"share":         sh.ID,
		"tags":          fmt.Sprint(tg.ID),
		"imports":       fmt.Sprint(im.ID),
		"domains":       fmt.Sprint(dom.ID),
		"links":         fmt.Sprint(l.ID),
		"invitations":   fmt.Sprint(inv.ID),
		"api-keys":      fmt.Sprint(key.ID),
		"members":       fmt.Sprint(tn.UserID),
		"users":         fmt.Sprint(tn.UserID),
		"workspaces":    fmt.Sprint(tn.WorkspaceID),
		"reviews":       "1",
		"screenshots":   "desktop",
		"sessions":      session,
		"webhooks":      "1",
		"deliveries":    "1",
		"utm-templates": "1",
		"scim-tokens":   "1",
	}
	param := regexp.MustCompile(`([a-z-]+)/\{[a-z_]+\}`)
	fill := func(path string) string {
		return param.ReplaceAllStringFunc(path, func(m string) string {
			name := m[:strings.IndexByte(m, '/')]
			id, ok := ids[name]
			if !ok {
				t.Fatalf("no row for %s in %s: add one to this test", m, path)
			}
			return name + "/" + id
		})
	}
	bodies := map[string]any{
		"POST " + ws + "/links":       map[string]any{"url": "https://scopes.example/new"},
		"POST " + ws + "/links/batch": map[string]any{"links": []any{map[string]any{"url": "https://scopes.example/b"}}},
	}

	checked := 0
	for _, rt := range keyRoutes(t) {
		if rt.public {
			continue
		}
		switch {
		case rt.scope == "":
		case rt.method == "GET" && (rt.scope == "links:read" || rt.scope == "stats:read"):
		case rt.method != "GET" && rt.scope == "links:write":
		default:
			t.Errorf("%s %s declares x-api-key-scope %q: reads take a read scope, changes links:write", rt.method, rt.path, rt.scope)
		}
		target := fill(rt.path)
		if strings.HasSuffix(rt.path, "/lookup") {
			target += "?code=" + l.Code
		}
		var body any
		if rt.method == "POST" || rt.method == "PATCH" {
			body = map[string]any{"title": "x"}
			if b, ok := bodies[rt.method+" "+target]; ok {
				body = b
			}
		}
		for sc, key := range keys {
			allowed := rt.scope != "" && (rt.scope == sc || (rt.scope == "links:read" && sc == "links:write"))
			got := s.do(rt.method, target, key, body)
			switch {
			case allowed && (got.Status == http.StatusForbidden || got.Status == http.StatusUnauthorized):
				t.Errorf("%s key %s %s: %d %s, want it let through", sc, rt.method, target, got.Status, got.Body)
			case !allowed && got.Status != http.StatusForbidden:
				t.Errorf("%s key %s %s: %d %s, want 403", sc, rt.method, target, got.Status, got.Body)
			case !allowed && got.errorCode(t) != "forbidden":
				t.Errorf("%s key %s %s: %s, want code forbidden", sc, rt.method, target, got.Body)
			}
			checked++
		}
	}
	if checked < 3*25 {
		t.Fatalf("only %d calls checked", checked)
	}
	// Nothing a key was refused happened: the invitation, the other key, the members and the
	// owner's session stand.
	for _, list := range []string{"/invitations", "/api-keys", "/members", "/domains", fmt.Sprintf("/members/%d/sessions", tn.UserID)} {
		r := s.do("GET", ws+list, tn.Token, nil)
		if r.Status != http.StatusOK || strings.Count(string(r.Body), `"created_at"`) < 1 {
			t.Errorf("%s after the keys: %d %s", list, r.Status, r.Body)
		}
	}
	var kl struct {
		APIKeys []struct{ ID int64 } `json:"api_keys"`
	}
	s.do("GET", ws+"/api-keys", tn.Token, nil).json(t, &kl)
	if !slices.ContainsFunc(kl.APIKeys, func(k struct{ ID int64 }) bool { return k.ID == key.ID }) {
		t.Errorf("a key revoked another key: %+v", kl)
	}
}
