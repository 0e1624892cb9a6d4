package browsertest

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
)

func TestMain(m *testing.M) {
	code := m.Run()
	Close()
	os.Exit(code)
}

// The page of a host of Options.Hosts is reached by name, and a script its policy forbids is
// reported: the check New makes at the end of every test can fail.
func TestHostsAndPolicyViolations(t *testing.T) {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		if r.URL.Path == "/strict" {
			w.Header().Set("Content-Security-Policy", "script-src 'self'")
		}
		_, _ = fmt.Fprintf(w, `<!doctype html><title>%s</title><script>document.title += " ran"</script>`, r.Host)
	}))
	defer site.Close()

	b := open(t, Options{Hosts: map[string]string{"example.test": site.Listener.Addr().String()}})
	p := b.Page()
	if _, err := p.Goto("http://example.test/"); err != nil {
		t.Fatal(err)
	}
	if title, _ := p.Title(); title != "example.test ran" {
		t.Errorf("title %q, want the Host header kept and the script run", title)
	}
	if got := b.Problems(); len(got) != 0 {
		t.Errorf("problems on an allowed page: %q", got)
	}

	if _, err := p.Goto("http://example.test/strict"); err != nil {
		t.Fatal(err)
	}
	if title, _ := p.Title(); title != "example.test" {
		t.Errorf("title %q: the inline script ran despite the policy", title)
	}
	if got := b.Problems(); len(got) == 0 || !strings.Contains(strings.Join(got, "\n"), "script-src") {
		t.Errorf("problems %q, want the blocked inline script", got)
	}

	// Nothing outside the machine is reachable.
	if _, err := p.Goto("http://example.com/"); err == nil {
		if body, _ := p.Content(); !strings.Contains(body, "neither loopback") {
			t.Errorf("example.com was reached: %.200s", body)
		}
	}
}
