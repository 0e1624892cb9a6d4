package e2e

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// TestAppLinks: a verified domain's app-link files are served as JSON on that host only; a
// pending domain refuses them; another workspace never sees nor changes them.
func TestAppLinks(t *testing.T) {
	ns := startDNS(t)
	s := newDeployment(t).start(t, "DNS_RESOLVER", ns.Addr)
	alice := s.signupOn("alice@example.com", "enterprise")
	bob := s.signupOn("bob@example.com", "enterprise")
	wsA := fmt.Sprintf("/api/v1/workspaces/%d", alice.WorkspaceID)
	wsB := fmt.Sprintf("/api/v1/workspaces/%d", bob.WorkspaceID)

	d := s.addDomain(alice, "app.example.com")
	path := fmt.Sprintf("%s/domains/%d/app-links", wsA, d.ID)
	aasa := map[string]any{"applinks": map[string]any{"apps": []string{}, "details": []any{
		map[string]any{"appID": "TEAM.com.example.app", "paths": []string{"/app/*"}}}}}
	assetlinks := []any{map[string]any{"relation": []string{"delegate_permission/common.handle_all_urls"},
		"target": map[string]any{"namespace": "android_app", "package_name": "com.example.app",
			"sha256_cert_fingerprints": []string{"14:6D:E9"}}}}
	body := map[string]any{"apple_app_site_association": aasa, "assetlinks": assetlinks}

	// Pending: refused.
	if r := s.do("PUT", path, alice.Token, body); r.Status != http.StatusConflict || r.errorCode(t) != "conflict" {
		t.Fatalf("pending domain: %d %s", r.Status, r.Body)
	}
	ns.set(d.Verification.Name, d.Verification.Value)
	if got := s.verifyDomain(alice, d.ID); !got.Verified {
		t.Fatalf("not verified: %+v", got)
	}
	// Before any: 404 on the host, nulls in the API.
	if r := s.visitHost("app.example.com", "GET", "/.well-known/assetlinks.json"); r.Status != http.StatusNotFound {
		t.Fatalf("unset file: %d", r.Status)
	}
	r := s.do("GET", path, alice.Key, nil)
	if r.Status != http.StatusOK || !strings.Contains(string(r.Body), `"assetlinks":null`) {
		t.Fatalf("get unset: %d %s", r.Status, r.Body)
	}
	if r := s.do("PUT", path, alice.Token, body); r.Status != http.StatusOK {
		t.Fatalf("put: %d %s", r.Status, r.Body)
	}
	for _, c := range []struct{ path, want string }{
		{"/.well-known/apple-app-site-association", "TEAM.com.example.app"},
		{"/.well-known/assetlinks.json", "com.example.app"},
	} {
		r := s.visitHost("app.example.com", "GET", c.path)
		if r.Status != http.StatusOK || r.Header.Get("Content-Type") != "application/json" ||
			r.Header.Get("X-Content-Type-Options") != "nosniff" ||
			!strings.Contains(string(r.Body), c.want) || r.Header.Get("Location") != "" ||
			!strings.Contains(r.Header.Get("Cache-Control"), "max-age") {
			t.Errorf("%s: %d %v %s", c.path, r.Status, r.Header, r.Body)
		}
		// Not on the service's own host.
		if r := s.visit("GET", c.path); r.Status != http.StatusNotFound {
			t.Errorf("%s on the short host: %d", c.path, r.Status)
		}
	}
	if r := s.visitHost("app.example.com", "GET", "/.well-known/security.txt"); r.Status != http.StatusNotFound {
		t.Errorf("other well-known path: %d", r.Status)
	}
	// Bob's verified domain serves nothing of Alice's; Bob can neither read nor change hers.
	db := s.addDomain(bob, "bob.example.com")
	ns.set(db.Verification.Name, db.Verification.Value)
	s.verifyDomain(bob, db.ID)
	if r := s.visitHost("bob.example.com", "GET", "/.well-known/assetlinks.json"); r.Status != http.StatusNotFound {
		t.Errorf("bob's host serves: %d %s", r.Status, r.Body)
	}
	for _, p := range []string{fmt.Sprintf("%s/domains/%d/app-links", wsB, d.ID), path} {
		if r := s.do("GET", p, bob.Token, nil); r.Status != http.StatusNotFound && r.Status != http.StatusForbidden {
			t.Errorf("bob reads %s: %d %s", p, r.Status, r.Body)
		}
		if r := s.do("PUT", p, bob.Token, map[string]any{"assetlinks": nil}); r.Status != http.StatusNotFound && r.Status != http.StatusForbidden {
			t.Errorf("bob changes %s: %d %s", p, r.Status, r.Body)
		}
		if r := s.do("DELETE", p, bob.Token, nil); r.Status != http.StatusNotFound && r.Status != http.StatusForbidden {
			t.Errorf("bob clears %s: %d %s", p, r.Status, r.Body)
		}
	}
	if r := s.visitHost("app.example.com", "GET", "/.well-known/assetlinks.json"); r.Status != http.StatusOK {
		t.Errorf("alice's file after bob's tries: %d", r.Status)
	}
	// API keys never manage domains.
	if r := s.do("PUT", path, alice.Key, body); r.Status != http.StatusForbidden {
		t.Errorf("api key puts: %d %s", r.Status, r.Body)
	}
	// Bad shapes and sizes.
	for name, bad := range map[string]map[string]any{
		"aasa array":            {"apple_app_site_association": []any{}},
		"aasa no known key":     {"apple_app_site_association": map[string]any{"x": 1}},
		"aasa applinks string":  {"apple_app_site_association": map[string]any{"applinks": "x"}},
		"aasa details object":   {"apple_app_site_association": map[string]any{"applinks": map[string]any{"details": map[string]any{}}}},
		"assetlinks object":     {"assetlinks": map[string]any{}},
		"assetlinks no target":  {"assetlinks": []any{map[string]any{"relation": []string{"x"}}}},
		"assetlinks no ns":      {"assetlinks": []any{map[string]any{"relation": []string{"x"}, "target": map[string]any{}}}},
		"assetlinks relation 1": {"assetlinks": []any{map[string]any{"relation": "x", "target": map[string]any{"namespace": "web"}}}},
		"aasa too large":        {"apple_app_site_association": map[string]any{"applinks": map[string]any{"pad": strings.Repeat("x", 70<<10)}}},
	} {
		r := s.do("PUT", path, alice.Token, bad)
		if r.Status != http.StatusBadRequest && r.Status != http.StatusRequestEntityTooLarge {
			t.Errorf("%s: %d %s", name, r.Status, r.Body)
		}
	}
	// Clearing: 404 again on the host.
	if r := s.do("DELETE", path, alice.Token, nil); r.Status != http.StatusNoContent {
		t.Fatalf("clear: %d %s", r.Status, r.Body)
	}
	eventually(t, 3e9, "cleared files stop being served", func() bool {
		return s.visitHost("app.example.com", "GET", "/.well-known/apple-app-site-association").Status == http.StatusNotFound
	})
}
