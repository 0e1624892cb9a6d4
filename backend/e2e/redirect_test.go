package e2e

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/code"
	"github.com/shortlink/shortlink/backend/config"
)

func TestLinkCreatedOnOneNodeRedirectsOnAnother(t *testing.T) {
	d := newDeployment(t)
	a, b := d.start(t), d.start(t)
	tn := a.signupOn("alice@example.com", "enterprise") // edits of the target

	// b looks the alias up before it exists: the miss is cached, and must not outlive the create.
	if r := b.visit("GET", "/spring-sale"); r.Status != http.StatusNotFound {
		t.Fatalf("unknown alias: %d", r.Status)
	}
	l := a.createLink(tn, map[string]any{"url": "https://example.com/spring", "alias": "spring-sale"})
	r := b.visit("GET", "/spring-sale")
	if r.Status != http.StatusFound || r.Header.Get("Location") != "https://example.com/spring" {
		t.Fatalf("alias on the other node: %d %q", r.Status, r.Header.Get("Location"))
	}

	g := a.createLink(tn, map[string]any{"url": "https://example.com/generated"})
	if len(g.Code) != 6 || g.ShortURL != "http://sho.rt/"+g.Code {
		t.Fatalf("generated link: %+v", g)
	}
	r = b.visit("GET", "/"+g.Code)
	if r.Status != http.StatusFound || r.Header.Get("Location") != "https://example.com/generated" {
		t.Fatalf("generated code on the other node: %d %q", r.Status, r.Header.Get("Location"))
	}
	if cc := r.Header.Get("Cache-Control"); cc != "private, max-age=0" {
		t.Fatalf("Cache-Control = %q", cc)
	}
	if r := b.visit("HEAD", "/"+g.Code); r.Status != http.StatusFound || r.Header.Get("Location") == "" || len(r.Body) != 0 {
		t.Fatalf("HEAD: %d %q %q", r.Status, r.Header.Get("Location"), r.Body)
	}

	// An edit on a reaches b's in-process cache within a second.
	patch := fmt.Sprintf("/api/v1/workspaces/%d/links/%d", tn.WorkspaceID, l.ID)
	if r := a.do("PATCH", patch, tn.Key, map[string]any{"url": "https://example.org/summer"}); r.Status != http.StatusOK {
		t.Fatalf("patch: %d %s", r.Status, r.Body)
	}
	eventually(t, time.Second, "edit seen by the other node", func() bool {
		return b.visit("GET", "/spring-sale").Header.Get("Location") == "https://example.org/summer"
	})

	if r := a.do("PATCH", patch, tn.Key, map[string]any{"status": "disabled"}); r.Status != http.StatusOK {
		t.Fatalf("disable: %d %s", r.Status, r.Body)
	}
	eventually(t, time.Second, "disabled link blocked on the other node", func() bool {
		return b.visit("GET", "/spring-sale").Status == http.StatusForbidden
	})

	if r := a.do("DELETE", patch, tn.Key, nil); r.Status != http.StatusNoContent {
		t.Fatalf("delete: %d %s", r.Status, r.Body)
	}
	eventually(t, time.Second, "deleted link gone on the other node", func() bool {
		return b.visit("GET", "/spring-sale").Status == http.StatusNotFound
	})
}

func TestRedirectOptions(t *testing.T) {
	d := newDeployment(t)
	clock := &movingClock{}
	d.now = clock.Now
	s := d.start(t)
	tn := s.signup("opts@example.com")
	for _, status := range []int{301, 302, 307} {
		l := s.createLink(tn, map[string]any{"url": "https://example.com/s", "redirect_status": status})
		if r := s.visit("GET", "/"+l.Code); r.Status != status {
			t.Fatalf("redirect_status %d: got %d", status, r.Status)
		}
	}
	fwd := s.createLink(tn, map[string]any{"url": "https://example.com/p?a=1#top", "forward_query": true})
	if got := s.visit("GET", "/"+fwd.Code+"?utm_source=mail").Header.Get("Location"); got != "https://example.com/p?a=1&utm_source=mail#top" {
		t.Fatalf("forwarded query: %q", got)
	}
	plain := s.createLink(tn, map[string]any{"url": "https://example.com/q"})
	if got := s.visit("GET", "/"+plain.Code+"?x=1").Header.Get("Location"); got != "https://example.com/q" {
		t.Fatalf("query forwarded without being asked: %q", got)
	}

	r := s.visit("GET", "/"+plain.Code+"+")
	if r.Status != http.StatusOK || !strings.Contains(string(r.Body), "https://example.com/q") || r.Header.Get("Location") != "" {
		t.Fatalf("preview: %d %q", r.Status, r.Body)
	}

	exp := s.createLink(tn, map[string]any{"url": "https://example.com/e", "expires_at": time.Now().Add(time.Hour).Format(time.RFC3339Nano)})
	if r := s.visit("GET", "/"+exp.Code); r.Status != http.StatusFound {
		t.Fatalf("before expiry: %d", r.Status)
	}
	clock.Add(time.Hour + time.Second)
	if r := s.visit("GET", "/"+exp.Code); r.Status != http.StatusGone || !strings.Contains(string(r.Body), "expired") {
		t.Fatalf("after expiry: %d %q", r.Status, r.Body)
	}

	for _, path := range []string{"/nope-nothing-here", "/wp-login.php", "/a/b", "/%00"} {
		r := s.visit("GET", path)
		if r.Status != http.StatusNotFound || !strings.Contains(r.Header.Get("Content-Type"), "text/html") {
			t.Fatalf("GET %s: %d %s", path, r.Status, r.Header.Get("Content-Type"))
		}
	}
	// A host that is not a short domain of this service serves no links.
	req, _ := http.NewRequest("GET", s.base+"/"+plain.Code, nil)
	req.Host = "evil.example"
	if r := s.send(req); r.Status != http.StatusNotFound {
		t.Fatalf("unknown host: %d", r.Status)
	}
	if r := s.visit("POST", "/"+plain.Code); r.Status != http.StatusMethodNotAllowed {
		t.Fatalf("POST to a short link: %d", r.Status)
	}
}

// TestFastReject checks that a code that decodes to an ID never issued is refused without a
// lookup (no negative-cache entry appears in Redis), while an unknown alias is looked up and
// remembered as missing.
func TestFastReject(t *testing.T) {
	d := newDeployment(t)
	s := d.start(t)
	tn := s.signup("fast@example.com")
	s.createLink(tn, map[string]any{"url": "https://example.com/"})

	cfg, err := config.FromMap(d.env)
	if err != nil {
		t.Fatal(err)
	}
	codec, err := code.New(cfg.CodeKeyBytes, cfg.CodeTweakBytes, cfg.CodeLength)
	if err != nil {
		t.Fatal(err)
	}
	far, _ := codec.Encode(codec.Max() - 12345)
	near, _ := codec.Encode(1000) // not issued yet, but within the announced range's margin

	rdb := d.redis(t)
	ctx := context.Background()
	keyOf := func(k string) string { return d.env["REDIS_PREFIX"] + "link:0:" + k }

	for _, k := range []string{far, near, "no-such-alias"} {
		if r := s.visit("GET", "/"+k); r.Status != http.StatusNotFound {
			t.Fatalf("GET /%s: %d", k, r.Status)
		}
	}
	if found, _ := rdb.Exists(ctx, keyOf(far)); found {
		t.Fatalf("a never-issued code was looked up (negative entry %s exists)", keyOf(far))
	}
	for _, k := range []string{near, "no-such-alias"} {
		if v, _, _ := rdb.Get(ctx, keyOf(k)); v != "-" {
			t.Fatalf("miss of %q not negatively cached (got %q)", k, v)
		}
	}
}

// TestDeletedWorkspaceLinksStop: deleting a workspace takes its links off every node within a
// second, though both nodes had them cached, and leaves other workspaces' links alone.
func TestDeletedWorkspaceLinksStop(t *testing.T) {
	d := newDeployment(t)
	a, b := d.start(t), d.start(t)
	gone := a.signup("leaving@example.com")
	stays := a.signup("staying@example.com")
	var codes []string
	for i := range 3 {
		codes = append(codes, a.createLink(gone, map[string]any{"url": fmt.Sprintf("https://example.com/%d", i)}).Code)
	}
	codes = append(codes, a.createLink(gone, map[string]any{"url": "https://example.com/alias", "alias": "leaving"}).Code)
	kept := a.createLink(stays, map[string]any{"url": "https://example.com/kept"})
	for _, c := range append(codes, kept.Code) {
		for _, s := range []*server{a, b} {
			if r := s.visit("GET", "/"+c); r.Status != http.StatusFound {
				t.Fatalf("%s before the deletion: %d", c, r.Status)
			}
		}
	}
	if r := a.do("DELETE", fmt.Sprintf("/api/v1/workspaces/%d", gone.WorkspaceID), gone.Token, nil); r.Status != http.StatusNoContent {
		t.Fatalf("delete workspace: %d %s", r.Status, r.Body)
	}
	for _, c := range codes {
		if r := a.visit("GET", "/"+c); r.Status != http.StatusNotFound {
			t.Errorf("%s on the deleting node: %d", c, r.Status)
		}
		eventually(t, time.Second, c+" gone on the other node", func() bool {
			return b.visit("GET", "/"+c).Status == http.StatusNotFound
		})
	}
	if r := b.visit("GET", "/"+kept.Code); r.Status != http.StatusFound {
		t.Errorf("another workspace's link: %d", r.Status)
	}
	// The workspace's API key stopped with it.
	if r := a.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/links", gone.WorkspaceID), gone.Key, nil); r.Status != http.StatusUnauthorized && r.Status != http.StatusNotFound {
		t.Errorf("the deleted workspace's key: %d %s", r.Status, r.Body)
	}
}

// TestRevokedKeyStopsEverywhere: a key revoked on one node stops working on another within a
// second, though that node had it cached.
func TestRevokedKeyStopsEverywhere(t *testing.T) {
	d := newDeployment(t)
	a, b := d.start(t), d.start(t)
	tn := a.signup("revoke@example.com")
	links := fmt.Sprintf("/api/v1/workspaces/%d/links", tn.WorkspaceID)
	if r := b.do("GET", links, tn.Key, nil); r.Status != http.StatusOK {
		t.Fatalf("key on b: %d %s", r.Status, r.Body)
	}
	var keys struct {
		APIKeys []struct{ ID int64 } `json:"api_keys"`
	}
	a.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/api-keys", tn.WorkspaceID), tn.Token, nil).json(t, &keys)
	if len(keys.APIKeys) != 1 {
		t.Fatalf("keys: %+v", keys)
	}
	if r := a.do("DELETE", fmt.Sprintf("/api/v1/workspaces/%d/api-keys/%d", tn.WorkspaceID, keys.APIKeys[0].ID), tn.Token, nil); r.Status != http.StatusNoContent {
		t.Fatalf("revoke: %d %s", r.Status, r.Body)
	}
	if r := a.do("GET", links, tn.Key, nil); r.Status != http.StatusUnauthorized {
		t.Errorf("revoked key on the revoking node: %d", r.Status)
	}
	eventually(t, time.Second, "revoked key refused on the other node", func() bool {
		return b.do("GET", links, tn.Key, nil).Status == http.StatusUnauthorized
	})
}
