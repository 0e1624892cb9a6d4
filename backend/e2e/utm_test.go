package e2e

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// TestUTM: a link's UTM parameters are in its answers and merged into its destination on
// redirect, keeping the URL's other parameters, their order and its fragment; edits and
// batches carry them; forward_query appends the visit's query after them.
func TestUTM(t *testing.T) {
	s := newDeployment(t).start(t)
	alice := s.signup("alice@example.com")
	ws := fmt.Sprintf("/api/v1/workspaces/%d", alice.WorkspaceID)

	for _, c := range []struct {
		name    string
		url     string
		utm     map[string]string
		forward bool
		visit   string // path after the code
		want    string
	}{
		{"plain", "https://a.example/", map[string]string{"source": "news", "medium": "email"}, false, "",
			"https://a.example/?utm_source=news&utm_medium=email"},
		{"keeps params in order", "https://a.example/p?b=2&a=1", map[string]string{"campaign": "spring sale"}, false, "",
			"https://a.example/p?b=2&a=1&utm_campaign=spring+sale"},
		{"overrides the URL's own", "https://a.example/?utm_source=old&x=1&utm_medium=cpc", map[string]string{"source": "new"}, false, "",
			"https://a.example/?utm_source=new&x=1&utm_medium=cpc"},
		{"fragment", "https://a.example/doc?q=1#part-2", map[string]string{"term": "shoes", "content": "a&b"}, false, "",
			"https://a.example/doc?q=1&utm_term=shoes&utm_content=a%26b#part-2"},
		{"forward query", "https://a.example/f#top", map[string]string{"source": "qr"}, true, "?ref=poster",
			"https://a.example/f?utm_source=qr&ref=poster#top"},
		{"none", "https://a.example/n?x=1", nil, false, "", "https://a.example/n?x=1"},
	} {
		body := map[string]any{"url": c.url, "forward_query": c.forward}
		if c.utm != nil {
			body["utm"] = c.utm
		}
		r := s.do("POST", ws+"/links", alice.Key, body)
		l := answer[struct {
			Code        string            `json:"code"`
			UTM         map[string]string `json:"utm"`
			Destination string            `json:"destination"`
		}](t, r, http.StatusCreated, c.name)
		if len(l.UTM) != len(c.utm) {
			t.Errorf("%s: answer utm %v, want %v", c.name, l.UTM, c.utm)
		}
		if c.utm != nil && !c.forward && l.Destination != c.want {
			t.Errorf("%s: destination %q, want %q", c.name, l.Destination, c.want)
		}
		if c.utm == nil && !strings.Contains(string(r.Body), `"utm":null`) {
			t.Errorf("%s: no utm in %s", c.name, r.Body)
		}
		v := s.visit("GET", "/"+l.Code+c.visit)
		if got := v.Header.Get("Location"); v.Status != http.StatusFound || got != c.want {
			t.Errorf("%s: visit %d %q, want %q", c.name, v.Status, got, c.want)
		}
	}

	// Edits: change, then clear.
	l := s.createLink(alice, map[string]any{"url": "https://b.example/?k=v", "utm": map[string]string{"source": "a"}})
	r := s.do("PATCH", fmt.Sprintf("%s/links/%d", ws, l.ID), alice.Key, map[string]any{"utm": map[string]string{"medium": "social"}})
	if r.Status != http.StatusOK || !strings.Contains(string(r.Body), `"utm":{"medium":"social"}`) {
		t.Fatalf("edit utm: %d %s", r.Status, r.Body)
	}
	eventually(t, 3e9, "the edit reaches the redirect", func() bool {
		return s.visit("GET", "/"+l.Code).Header.Get("Location") == "https://b.example/?k=v&utm_medium=social"
	})
	r = s.do("PATCH", fmt.Sprintf("%s/links/%d", ws, l.ID), alice.Key, map[string]any{"utm": nil})
	if r.Status != http.StatusOK || !strings.Contains(string(r.Body), `"utm":null`) {
		t.Fatalf("clear utm: %d %s", r.Status, r.Body)
	}
	eventually(t, 3e9, "the cleared utm reaches the redirect", func() bool {
		return s.visit("GET", "/"+l.Code).Header.Get("Location") == "https://b.example/?k=v"
	})
	// A read of the link answers what the redirect does.
	r = s.do("GET", fmt.Sprintf("%s/links/%d", ws, l.ID), alice.Key, nil)
	if r.Status != http.StatusOK || !strings.Contains(string(r.Body), `"utm":null`) {
		t.Fatalf("get: %d %s", r.Status, r.Body)
	}

	// Batches (a plan feature).
	s.setPlan(alice, "enterprise")
	r = s.do("POST", ws+"/links/batch", alice.Key, map[string]any{"links": []map[string]any{
		{"url": "https://c.example/", "utm": map[string]string{"campaign": "batch"}},
		{"url": "https://c.example/2", "utm": map[string]string{"campaign": strings.Repeat("x", 201)}},
	}})
	if r.Status != http.StatusOK && r.Status != http.StatusMultiStatus && r.Status != http.StatusCreated {
		t.Fatalf("batch: %d %s", r.Status, r.Body)
	}
	if !strings.Contains(string(r.Body), `"utm":{"campaign":"batch"}`) || !strings.Contains(string(r.Body), "utm_too_long") {
		t.Fatalf("batch answer: %s", r.Body)
	}

	// Bad values.
	for _, bad := range []any{
		map[string]string{"source": strings.Repeat("é", 201)},
		map[string]string{"medium": "a\nb"},
		map[string]any{"source": 5},
		map[string]string{"nope": "x"},
		"text",
	} {
		r := s.do("POST", ws+"/links", alice.Key, map[string]any{"url": "https://d.example/", "utm": bad})
		if r.Status != http.StatusBadRequest || r.errorCode(t) != "invalid" {
			t.Errorf("utm %v: %d %s", bad, r.Status, r.Body)
		}
	}
}

// TestUTMTemplates: create, list, delete; names unique per workspace; another workspace's
// templates are never seen nor removed.
func TestUTMTemplates(t *testing.T) {
	s := newDeployment(t).start(t)
	alice := s.signup("alice@example.com")
	bob := s.signup("bob@example.com")
	wsA := fmt.Sprintf("/api/v1/workspaces/%d", alice.WorkspaceID)
	wsB := fmt.Sprintf("/api/v1/workspaces/%d", bob.WorkspaceID)

	type tmpl struct {
		ID   int64             `json:"id"`
		Name string            `json:"name"`
		UTM  map[string]string `json:"utm"`
	}
	r := s.do("POST", wsA+"/utm-templates", alice.Key, map[string]any{"name": " Newsletter ", "utm": map[string]string{"source": "news", "medium": "email"}})
	nl := answer[tmpl](t, r, http.StatusCreated, "create template")
	if nl.Name != "Newsletter" || nl.UTM["source"] != "news" || nl.UTM["medium"] != "email" {
		t.Fatalf("created %+v", nl)
	}
	r = s.do("POST", wsA+"/utm-templates", alice.Key, map[string]any{"name": "Newsletter", "utm": map[string]string{}})
	if r.Status != http.StatusConflict || r.errorCode(t) != "conflict" {
		t.Fatalf("same name: %d %s", r.Status, r.Body)
	}
	// Bob may use the name; his list holds only his.
	r = s.do("POST", wsB+"/utm-templates", bob.Key, map[string]any{"name": "Newsletter", "utm": map[string]string{"source": "bob"}})
	bobs := answer[tmpl](t, r, http.StatusCreated, "bob's template")
	list := answer[struct{ Templates []tmpl }](t, s.do("GET", wsA+"/utm-templates", alice.Key, nil), http.StatusOK, "list")
	if len(list.Templates) != 1 || list.Templates[0].ID != nl.ID {
		t.Fatalf("alice's list: %+v", list)
	}
	// Neither through his own workspace's path nor through hers may Bob touch Alice's.
	if r := s.do("DELETE", fmt.Sprintf("%s/utm-templates/%d", wsB, nl.ID), bob.Key, nil); r.Status != http.StatusNotFound {
		t.Fatalf("bob deletes alice's template: %d %s", r.Status, r.Body)
	}
	if r := s.do("GET", wsA+"/utm-templates", bob.Key, nil); r.Status != http.StatusForbidden && r.Status != http.StatusNotFound && r.Status != http.StatusUnauthorized {
		t.Fatalf("bob lists alice's templates: %d %s", r.Status, r.Body)
	}
	if r := s.do("DELETE", fmt.Sprintf("%s/utm-templates/%d", wsA, nl.ID), alice.Key, nil); r.Status != http.StatusNoContent {
		t.Fatalf("delete: %d %s", r.Status, r.Body)
	}
	if r := s.do("DELETE", fmt.Sprintf("%s/utm-templates/%d", wsA, nl.ID), alice.Key, nil); r.Status != http.StatusNotFound {
		t.Fatalf("delete again: %d %s", r.Status, r.Body)
	}
	list = answer[struct{ Templates []tmpl }](t, s.do("GET", wsB+"/utm-templates", bob.Key, nil), http.StatusOK, "bob's list")
	if len(list.Templates) != 1 || list.Templates[0].ID != bobs.ID {
		t.Fatalf("bob's list: %+v", list)
	}
	for _, bad := range []map[string]any{
		{"name": "", "utm": map[string]string{}},
		{"name": strings.Repeat("n", 101), "utm": map[string]string{}},
		{"name": "x", "utm": map[string]string{"term": strings.Repeat("t", 201)}},
		{"name": "x", "utm": map[string]string{"term": "\x01"}},
	} {
		if r := s.do("POST", wsA+"/utm-templates", alice.Key, bad); r.Status != http.StatusBadRequest {
			t.Errorf("bad template %v: %d %s", bad, r.Status, r.Body)
		}
	}
}
