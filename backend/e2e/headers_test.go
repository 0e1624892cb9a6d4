package e2e

import (
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"
)

// inlineHashes are the CSP hashes of the inline elements named tag in an HTML page, found
// the simple way (the pages under test hold plain <script> and <style> elements).
func inlineHashes(body []byte, tag string) []string {
	var out []string
	for _, m := range regexp.MustCompile(`(?s)<`+tag+`>(.*?)</`+tag+`>`).FindAllSubmatch(body, -1) {
		sum := sha256.Sum256(m[1])
		out = append(out, "'sha256-"+base64.StdEncoding.EncodeToString(sum[:])+"'")
	}
	return out
}

// directives splits a Content-Security-Policy into its directives.
func directives(csp string) map[string]string {
	out := map[string]string{}
	for _, d := range strings.Split(csp, ";") {
		name, value, _ := strings.Cut(strings.TrimSpace(d), " ")
		if name != "" {
			out[name] = value
		}
	}
	return out
}

// TestSecurityHeaders: the web app, the visitor pages and API answers carry a
// Content-Security-Policy and the framing, referrer and sniffing headers; HSTS goes with them
// on https deployments. A plain redirect carries none of it: it has no body to protect.
func TestSecurityHeaders(t *testing.T) {
	t.Parallel()
	for _, scheme := range []string{"http", "https"} {
		t.Run(scheme, func(t *testing.T) {
			d := newDeployment(t)
			clock := &movingClock{}
			d.now = clock.Now
			s := d.start(t, "PUBLIC_URL", scheme+"://"+shortHost)
			tn := s.signup("headers-" + scheme + "@example.com")
			l := s.createLink(tn, map[string]any{"url": "https://example.com/headers"})
			off := s.createLink(tn, map[string]any{"url": "https://example.com/off"})
			if r := s.do("PATCH", fmt.Sprintf("/api/v1/workspaces/%d/links/%d", tn.WorkspaceID, off.ID), tn.Key, map[string]any{"status": "disabled"}); r.Status != http.StatusOK {
				t.Fatalf("disable: %d %s", r.Status, r.Body)
			}
			exp := s.createLink(tn, map[string]any{"url": "https://example.com/e", "expires_at": time.Now().Add(time.Hour).Format(time.RFC3339Nano)})
			clock.Add(time.Hour + time.Second) // the link has expired for the server

			check := func(what string, r response, referrer string) map[string]string {
				t.Helper()
				csp := directives(r.Header.Get("Content-Security-Policy"))
				if csp["frame-ancestors"] != "'none'" || r.Header.Get("X-Frame-Options") != "DENY" ||
					r.Header.Get("X-Content-Type-Options") != "nosniff" || r.Header.Get("Referrer-Policy") != referrer {
					t.Errorf("%s: CSP %q, X-Frame-Options %q, X-Content-Type-Options %q, Referrer-Policy %q (want %s)", what,
						r.Header.Get("Content-Security-Policy"), r.Header.Get("X-Frame-Options"),
						r.Header.Get("X-Content-Type-Options"), r.Header.Get("Referrer-Policy"), referrer)
				}
				if strings.Contains(r.Header.Get("Content-Security-Policy"), "unsafe-") {
					t.Errorf("%s: CSP allows unsafe sources: %s", what, r.Header.Get("Content-Security-Policy"))
				}
				if hsts := r.Header.Get("Strict-Transport-Security"); (hsts != "") != (scheme == "https") {
					t.Errorf("%s: Strict-Transport-Security %q on an %s deployment", what, hsts, scheme)
				}
				return csp
			}

			// The web app: its own origin, and its inline script and style by their hashes.
			for _, path := range []string{"/", "/app/links"} {
				r := s.do("GET", path, "", nil)
				if r.Status != http.StatusOK {
					t.Fatalf("GET %s: %d", path, r.Status)
				}
				csp := check("web app "+path, r, "strict-origin-when-cross-origin")
				if csp["default-src"] != "'self'" {
					t.Errorf("web app: default-src %q", csp["default-src"])
				}
				for tag, directive := range map[string]string{"script": "script-src", "style": "style-src"} {
					hashes := inlineHashes(r.Body, tag)
					if len(hashes) == 0 {
						t.Fatalf("web app: no inline %s to check", tag)
					}
					for _, h := range hashes {
						if !strings.Contains(csp[directive], h) {
							t.Errorf("web app: %s %q does not allow the page's inline %s %s", directive, csp[directive], tag, h)
						}
					}
				}
			}

			// Visitor pages: nothing runs or loads but their own style.
			pages := map[string]response{
				"preview":  s.visit("GET", "/"+l.Code+"+"),
				"404":      s.visit("GET", "/no-such-link"),
				"403":      s.visit("GET", "/"+off.Code),
				"410":      s.visit("GET", "/"+exp.Code),
				"HEAD 404": s.visit("HEAD", "/no-such-link"),
			}
			for name, r := range pages {
				csp := check("visitor page "+name, r, "no-referrer")
				if csp["default-src"] != "'none'" || csp["script-src"] != "" {
					t.Errorf("visitor page %s: CSP %q", name, r.Header.Get("Content-Security-Policy"))
				}
				if r.Status == http.StatusFound {
					t.Errorf("visitor page %s: redirected", name)
				}
				if len(r.Body) > 0 {
					for _, h := range inlineHashes(r.Body, "style") {
						if csp["style-src"] != h {
							t.Errorf("visitor page %s: style-src %q, want exactly the page's style %s", name, csp["style-src"], h)
						}
					}
				}
			}

			// API answers, successes and errors alike.
			for _, c := range []struct{ path, token string }{{"/api/v1/openapi.json", ""}, {"/api/v1/me", tn.Token}, {"/api/v1/me", ""}, {"/api/v1/nothing", ""}} {
				r := s.do("GET", c.path, c.token, nil)
				csp := check(fmt.Sprintf("API %s (%d)", c.path, r.Status), r, "no-referrer")
				if csp["default-src"] != "'none'" {
					t.Errorf("API %s: CSP %q", c.path, r.Header.Get("Content-Security-Policy"))
				}
			}

			// The hot path stays bare.
			r := s.visit("GET", "/"+l.Code)
			if r.Status != http.StatusFound {
				t.Fatalf("redirect: %d", r.Status)
			}
			for _, h := range []string{"Content-Security-Policy", "X-Frame-Options", "Referrer-Policy", "Strict-Transport-Security"} {
				if r.Header.Get(h) != "" {
					t.Errorf("a 302 redirect carries %s", h)
				}
			}
		})
	}
}
