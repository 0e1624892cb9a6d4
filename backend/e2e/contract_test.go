package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"unicode/utf8"
)

// errorAnswer is the API's error shape with its message.
type errorAnswer struct {
	Error struct {
		Code    string `json:"code"`
		Message string `json:"message"`
		Reason  string `json:"reason"`
		Field   string `json:"field"`
	} `json:"error"`
}

func errorOf(t *testing.T, r response) errorAnswer {
	t.Helper()
	var e errorAnswer
	if err := json.Unmarshal(r.Body, &e); err != nil || e.Error.Code == "" {
		t.Fatalf("%d %.300q is not the API's error shape", r.Status, r.Body)
	}
	return e
}

// TestRequestsTheDocumentForbidsAreRefused: what openapi.json forbids is 400 with its reason
// and field on every route that takes the field, where the server once took it (201).
func TestRequestsTheDocumentForbidsAreRefused(t *testing.T) {
	s := newDeployment(t).start(t)
	tn := s.signupOn("contract@example.com", "enterprise")
	ws := fmt.Sprintf("/api/v1/workspaces/%d", tn.WorkspaceID)
	l := s.createLink(tn, map[string]any{"url": "https://example.com/kept"})
	one := fmt.Sprintf("%s/links/%d", ws, l.ID)
	tags := make([]string, 21)
	for i := range tags {
		tags[i] = fmt.Sprintf("t%d", i)
	}
	link := func(extra map[string]any) map[string]any {
		b := map[string]any{"url": "https://example.com/x"}
		for k, v := range extra {
			b[k] = v
		}
		return b
	}
	for _, tc := range []struct {
		name, method, path string
		body               any
		reason, field      string
	}{
		{"empty alias", "POST", ws + "/links", link(map[string]any{"alias": ""}), "alias_invalid", "alias"},
		{"port over 65535", "POST", ws + "/links", link(map[string]any{"url": "https://example.com:70000/x"}), "url_port_invalid", "url"},
		{"21 tags", "POST", ws + "/links", link(map[string]any{"tags": tags}), "tags_too_many", "tags"},
		{"redirect_status 300", "POST", ws + "/links", link(map[string]any{"redirect_status": 300}), "value_invalid", "redirect_status"},
		{"null title", "POST", ws + "/links", link(map[string]any{"title": nil}), "null_not_allowed", "title"},
		{"null url", "POST", ws + "/links", map[string]any{"url": nil}, "null_not_allowed", "url"},
		{"null expires_at", "POST", ws + "/links", link(map[string]any{"expires_at": nil}), "null_not_allowed", "expires_at"},
		{"invalid UTF-8", "POST", ws + "/links", []byte("{\"url\":\"https://example.com/x\",\"title\":\"caf\xe9\"}"), "body_not_utf8", ""},

		{"patch port", "PATCH", one, map[string]any{"url": "http://example.com:99999/"}, "url_port_invalid", "url"},
		{"patch 21 tags", "PATCH", one, map[string]any{"tags": tags}, "tags_too_many", "tags"},
		{"patch redirect_status", "PATCH", one, map[string]any{"redirect_status": 303}, "value_invalid", "redirect_status"},
		{"patch null url", "PATCH", one, map[string]any{"url": nil}, "null_not_allowed", "url"},
		{"patch null forward_query", "PATCH", one, map[string]any{"forward_query": nil}, "null_not_allowed", "forward_query"},
		{"patch invalid UTF-8", "PATCH", one, []byte("{\"title\":\"\xff\"}"), "body_not_utf8", ""},

		{"batch empty alias", "POST", ws + "/links/batch", map[string]any{"links": []any{link(nil), link(map[string]any{"alias": ""})}}, "alias_invalid", "links.alias"},
		{"batch 21 tags", "POST", ws + "/links/batch", map[string]any{"links": []any{link(map[string]any{"tags": tags})}}, "tags_too_many", "links.tags"},
		{"batch redirect_status", "POST", ws + "/links/batch", map[string]any{"links": []any{link(map[string]any{"redirect_status": 308})}}, "value_invalid", "links.redirect_status"},
		{"batch null", "POST", ws + "/links/batch", map[string]any{"links": []any{link(map[string]any{"title": nil})}}, "null_not_allowed", "links.title"},

		{"bulk 21 tags", "PATCH", ws + "/links", map[string]any{"ids": []int64{l.ID}, "set": map[string]any{"tags_add": tags}}, "tags_too_many", "set.tags_add"},
		{"bulk status", "PATCH", ws + "/links", map[string]any{"ids": []int64{l.ID}, "set": map[string]any{"status": "banned"}}, "value_invalid", "set.status"},
		{"bulk null ids", "PATCH", ws + "/links", map[string]any{"ids": nil, "set": map[string]any{"status": "disabled"}}, "null_not_allowed", "ids"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := s.do(tc.method, tc.path, tn.Key, tc.body)
			if r.Status != http.StatusBadRequest {
				t.Fatalf("%d %.300s, want 400 %s", r.Status, r.Body, tc.reason)
			}
			e := errorOf(t, r)
			if e.Error.Code != "invalid" || e.Error.Reason != tc.reason || e.Error.Field != tc.field {
				t.Fatalf("%+v, want invalid %s field %q", e.Error, tc.reason, tc.field)
			}
		})
	}
	// The refusals changed nothing: the link is as made, and no other link was made.
	got := answer[linkJSON](t, s.do("GET", one, tn.Key, nil), http.StatusOK, "the link")
	if got.URL != "https://example.com/kept" || got.RedirectStatus != 302 {
		t.Fatalf("the link changed: %+v", got)
	}
	var page struct{ Links []linkJSON }
	s.do("GET", ws+"/links", tn.Key, nil).json(t, &page)
	if len(page.Links) != 1 {
		t.Fatalf("%d links, want the one made before", len(page.Links))
	}

	// What the document allows still goes through: nulls of nullable fields, a port in range.
	ok := s.do("POST", ws+"/links", tn.Key, link(map[string]any{"url": "https://example.com:65535/x", "password": nil, "geo": nil, "max_visits": nil}))
	if ok.Status != http.StatusCreated {
		t.Fatalf("nullable nulls and port 65535: %d %s", ok.Status, ok.Body)
	}
	if r := s.do("PATCH", one, tn.Key, map[string]any{"expires_at": nil, "tags": nil, "utm": nil, "og": nil}); r.Status != http.StatusOK {
		t.Fatalf("nullable nulls on an edit: %d %s", r.Status, r.Body)
	}
}

// TestErrorMessagesQuoteAtMost100Characters: an error message quotes at most 100 characters
// of what was sent, however much was sent.
func TestErrorMessagesQuoteAtMost100Characters(t *testing.T) {
	s := newDeployment(t).start(t)
	tn := s.signupOn("quote@example.com", "enterprise")
	ws := fmt.Sprintf("/api/v1/workspaces/%d", tn.WorkspaceID)
	huge := strings.Repeat("9", 1<<20)
	for _, tc := range []struct {
		name, method, path string
		body               any
		sent               string // what the message may quote part of
	}{
		{"expires_at of 1 MB", "POST", ws + "/links", map[string]any{"url": "https://example.com/", "expires_at": huge}, huge},
		{"unknown field", "POST", ws + "/links", `{"url":"https://example.com/","` + strings.Repeat("f", 5000) + `":1}`, strings.Repeat("f", 5000)},
		{"unknown event", "POST", ws + "/webhooks", map[string]any{"url": "https://example.com/hook", "events": []string{strings.Repeat("e", 5000)}}, strings.Repeat("e", 5000)},
		{"reserved-looking hostname", "POST", ws + "/domains", map[string]any{"hostname": strings.Repeat("h", 5000)}, strings.Repeat("h", 5000)},
		{"time zone", "GET", ws + "/stats?tz=" + strings.Repeat("z", 5000), nil, strings.Repeat("z", 5000)},
		{"cursor", "GET", ws + "/links?cursor=" + strings.Repeat("c", 5000), nil, strings.Repeat("c", 5000)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := s.do(tc.method, tc.path, tn.Token, tc.body)
			if r.Status != http.StatusBadRequest {
				t.Fatalf("%d %.300s, want 400", r.Status, r.Body)
			}
			msg := errorOf(t, r).Error.Message
			if n := utf8.RuneCountInString(msg); n > 250 {
				t.Fatalf("a message of %d characters: %.300q", n, msg)
			}
			if strings.Contains(msg, tc.sent[:101]) {
				t.Fatalf("the message quotes more than 100 characters of the input: %.300q", msg)
			}
		})
	}
}

// TestRedirectHostAnswersJSONErrors: the short domain answers its refusals in the API's error
// shape when the Accept header prefers JSON, and with its pages for a browser.
func TestRedirectHostAnswersJSONErrors(t *testing.T) {
	d := rulesDeployment(t)
	s := d.start(t)
	tn := s.signupOn("redirect-json@example.com", "enterprise")
	mk := func(body map[string]any) linkJSON {
		t.Helper()
		body["url"] = "https://example.com/target"
		return s.createLink(tn, body)
	}
	disabled := mk(map[string]any{})
	if r := s.do("PATCH", fmt.Sprintf("/api/v1/workspaces/%d/links/%d", tn.WorkspaceID, disabled.ID), tn.Key, map[string]any{"status": "disabled"}); r.Status != http.StatusOK {
		t.Fatalf("disable: %d %s", r.Status, r.Body)
	}
	banned, expired := mk(map[string]any{}), mk(map[string]any{})
	conn := d.conn(t)
	if _, err := conn.Exec(context.Background(), `UPDATE links SET status = 'banned' WHERE id = $1`, banned.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(context.Background(), `UPDATE links SET expires_at = now() - interval '1 hour' WHERE id = $1`, expired.ID); err != nil {
		t.Fatal(err)
	}
	capped := mk(map[string]any{"max_visits": 1})
	geo := mk(map[string]any{"geo": map[string]any{"deny": []string{"RU"}}})
	guarded := mk(map[string]any{"password": "open sesame"})
	// A server started after the database changes reads them, once Redis's copies of the links
	// are gone.
	rdb := d.redis(t)
	keys, err := rdb.Keys(context.Background(), "*link:*")
	if err != nil {
		t.Fatal(err)
	}
	if len(keys) > 0 {
		if _, err := rdb.Del(context.Background(), keys...); err != nil {
			t.Fatal(err)
		}
	}
	fresh := d.start(t)
	if r := fresh.visitor(fromDE, uaDesktop).get("/" + capped.Code); r.Status != http.StatusFound {
		t.Fatalf("the capped link's one visit: %d", r.Status)
	}

	const jsonAccept = "application/json"
	const browserAccept = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8"
	for _, tc := range []struct {
		name, method, path, from string
		form                     string // a posted body, for POST
		status                   int
		code, reason             string
	}{
		{"unknown code", "GET", "/nosuchcode", fromDE, "", 404, "not_found", "link_not_found"},
		{"disabled", "GET", "/" + disabled.Code, fromDE, "", 403, "forbidden", "link_disabled"},
		{"banned", "GET", "/" + banned.Code, fromDE, "", 403, "forbidden", "link_banned"},
		{"country", "GET", "/" + geo.Code, fromRU, "", 403, "forbidden", "country_blocked"},
		{"expired", "GET", "/" + expired.Code, fromDE, "", 410, "gone", "link_expired"},
		{"visit cap", "GET", "/" + capped.Code, fromDE, "", 410, "gone", "visit_cap_reached"},
		{"unreadable post", "POST", "/" + guarded.Code, fromDE, "%zz", 400, "invalid", "form_unreadable"},
		{"method", "PUT", "/" + capped.Code, fromDE, "", 405, "method_not_allowed", "method_not_allowed"},
		{"post to a plain link", "POST", "/" + disabled.Code, fromDE, "a=b", 405, "method_not_allowed", "method_not_allowed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, accept := range []string{jsonAccept, "text/html;q=0.5, application/json", browserAccept, ""} {
				// Sent as written: url.Values would encode a malformed form.
				req, err := http.NewRequest(tc.method, fresh.base+tc.path, strings.NewReader(tc.form))
				if err != nil {
					t.Fatal(err)
				}
				req.Host = shortHost
				if tc.form != "" {
					req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
				}
				req.Header.Set("X-Forwarded-For", tc.from)
				req.Header.Set("User-Agent", uaDesktop)
				if accept != "" {
					req.Header.Set("Accept", accept)
				}
				r := fresh.send(req)
				if r.Status != tc.status {
					t.Fatalf("Accept %q: %d %.300s, want %d", accept, r.Status, r.Body, tc.status)
				}
				ct := r.Header.Get("Content-Type")
				if strings.Contains(accept, "application/json") {
					if !strings.HasPrefix(ct, "application/json") {
						t.Fatalf("Accept %q: Content-Type %q, want JSON: %.300s", accept, ct, r.Body)
					}
					e := errorOf(t, r)
					if e.Error.Code != tc.code || e.Error.Reason != tc.reason || e.Error.Message == "" {
						t.Fatalf("Accept %q: %+v, want %s %s", accept, e.Error, tc.code, tc.reason)
					}
					continue
				}
				if strings.HasPrefix(ct, "application/json") {
					t.Fatalf("Accept %q: a browser got JSON: %.300s", accept, r.Body)
				}
				if tc.status != http.StatusMethodNotAllowed && !strings.HasPrefix(ct, "text/html") {
					t.Fatalf("Accept %q: Content-Type %q, want a page", accept, ct)
				}
			}
		})
	}

	// A working link still redirects whatever the Accept header says.
	v := fresh.visitor(fromDE, uaDesktop)
	v.accept = jsonAccept
	if r := v.get("/" + geo.Code); r.Status != http.StatusFound || r.Header.Get("Location") != "https://example.com/target" {
		t.Fatalf("a redirect asked with Accept: application/json: %d %q", r.Status, r.Header.Get("Location"))
	}
}
