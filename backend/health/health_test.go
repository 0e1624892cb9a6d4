package health_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/health"
	"github.com/shortlink/shortlink/backend/locale"
)

func TestFailing(t *testing.T) {
	for status, want := range map[int]bool{200: false, 204: false, 301: false, 401: false, 403: false, 405: false,
		429: false, 404: true, 410: true, 500: true, 502: true, 503: true, 599: true} {
		if got := health.Failing(status); got != want {
			t.Errorf("Failing(%d) = %v, want %v", status, got, want)
		}
	}
}

func TestApply(t *testing.T) {
	now := time.Date(2026, 11, 27, 1, 0, 0, 0, time.UTC)
	ok := health.Result{Status: 200}
	notFound := health.StatusResult(404)
	dns := health.Result{Error: health.ErrDNS}

	r := health.Apply(health.Record{}, ok, now)
	if r.State != health.OK || r.Failures != 0 || r.BrokenAt != nil || !r.CheckedAt.Equal(now) {
		t.Fatalf("first success: %+v", r)
	}
	r = health.Apply(r, notFound, now.Add(time.Hour))
	if r.State != health.OK || r.Failures != 1 || r.Status != 404 || r.Error != health.ErrStatus {
		t.Fatalf("one failure keeps ok: %+v", r)
	}
	r = health.Apply(r, dns, now.Add(2*time.Hour))
	if r.State != health.Broken || r.Failures != 2 || r.BrokenAt == nil || !r.BrokenAt.Equal(now.Add(2*time.Hour)) {
		t.Fatalf("two failures in a row break: %+v", r)
	}
	r2 := health.Apply(r, notFound, now.Add(3*time.Hour))
	if r2.State != health.Broken || r2.Failures != 3 || !r2.BrokenAt.Equal(*r.BrokenAt) {
		t.Fatalf("still broken keeps when it broke: %+v", r2)
	}
	r = health.Apply(r2, ok, now.Add(4*time.Hour))
	if r.State != health.OK || r.Failures != 0 || r.BrokenAt != nil || r.Error != "" {
		t.Fatalf("one success mends: %+v", r)
	}
	// A new link that fails once is not shown; twice, broken.
	r = health.Apply(health.Record{}, dns, now)
	if r.State != health.Unknown || r.Shown() {
		t.Fatalf("one failure of a new link: %+v", r)
	}
	// A failure, a success, a failure: never two in a row.
	r = health.Apply(health.Apply(health.Apply(health.Record{}, dns, now), ok, now), dns, now)
	if r.State != health.OK || r.Failures != 1 {
		t.Fatalf("failures not in a row: %+v", r)
	}
}

func TestNext(t *testing.T) {
	now := time.Date(2026, 11, 27, 1, 0, 0, 0, time.UTC)
	s := health.Schedule{Every: 24 * time.Hour, Retry: time.Hour}
	for id := int64(1); id < 50; id++ {
		n := health.Next(health.Record{State: health.OK}, id, now, s)
		if d := n.Sub(now); d > 24*time.Hour || d <= 21*time.Hour {
			t.Fatalf("ok link %d due in %s, want within the last tenth of a day", id, d)
		}
	}
	if d := health.Next(health.Record{State: health.OK, Failures: 1}, 7, now, s).Sub(now); d != time.Hour {
		t.Errorf("after a first failure: due in %s, want 1h", d)
	}
	if d := health.Next(health.Record{State: health.Broken, Failures: 2}, 7, now, s).Sub(now); d < 21*time.Hour {
		t.Errorf("broken: due in %s, want about a day", d)
	}
	// Links made together spread over the tenth.
	seen := map[time.Time]bool{}
	for id := int64(1); id <= 20; id++ {
		seen[health.Next(health.Record{State: health.OK}, id, now, s)] = true
	}
	if len(seen) < 15 {
		t.Errorf("20 links fall on %d times only", len(seen))
	}
}

func TestHostOf(t *testing.T) {
	for raw, want := range map[string]string{
		"https://Example.COM/a?b": "example.com", "http://user:pw@h.example:8080/": "h.example",
		"http://[2001:db8::1]:80/": "[2001:db8::1]", "not a url\x7f": "",
	} {
		if got := health.HostOf(raw); got != want {
			t.Errorf("HostOf(%q) = %q, want %q", raw, got, want)
		}
	}
}

func TestCheck(t *testing.T) {
	var headStatus, getStatus int
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.UserAgent() != health.UserAgent {
			t.Errorf("user agent %q", r.UserAgent())
		}
		switch r.URL.Path {
		case "/loop":
			http.Redirect(w, r, "/loop", http.StatusFound)
		case "/hop":
			http.Redirect(w, r, "/", http.StatusMovedPermanently)
		case "/slow":
			<-r.Context().Done() // never answers: the check gives up
		case "/private":
			http.Redirect(w, r, "http://10.0.0.1/", http.StatusFound)
		default:
			if r.Method == http.MethodHead {
				w.WriteHeader(headStatus)
			} else {
				w.WriteHeader(getStatus)
			}
		}
	}))
	defer srv.Close()
	ctx := context.Background()
	// A checker with time to spare on a loaded machine; the timeout's case has one of its own
	// that gives up soon on a server that never answers.
	c, fast := health.NewChecker(10*time.Second, true), health.NewChecker(200*time.Millisecond, true)
	for _, tc := range []struct {
		name       string
		head, get  int
		path       string
		wantStatus int
		wantErr    string
	}{
		{"ok", 200, 200, "/", 200, ""},
		{"head refused, get ok", 405, 200, "/", 200, ""},
		{"head not implemented, get ok", 501, 200, "/", 200, ""},
		{"head 404, get ok", 404, 200, "/", 200, ""},
		{"not found", 404, 404, "/", 404, health.ErrStatus},
		{"gone", 410, 410, "/", 410, health.ErrStatus},
		{"server error", 503, 503, "/", 503, health.ErrStatus},
		{"forbidden is there", 403, 403, "/", 403, ""},
		{"redirect followed", 200, 200, "/hop", 200, ""},
		{"redirect loop", 200, 200, "/loop", 0, health.ErrRedirects},
		{"timeout", 200, 200, "/slow", 0, health.ErrTimeout},
		{"redirect to a private address", 200, 200, "/private", 0, health.ErrRefused},
	} {
		headStatus, getStatus = tc.head, tc.get
		checker := c
		if tc.wantErr == health.ErrTimeout {
			checker = fast
		}
		r := checker.Check(ctx, srv.URL+tc.path)
		if r.Error != tc.wantErr || (tc.wantStatus != 0 && r.Status != tc.wantStatus) {
			t.Errorf("%s: %+v, want status %d error %q", tc.name, r, tc.wantStatus, tc.wantErr)
		}
	}
	// Without the loopback allowance the guard refuses the test server itself.
	if r := health.NewChecker(time.Second, false).Check(ctx, srv.URL); r.Error != health.ErrRefused {
		t.Errorf("loopback refused: %+v", r)
	}
	// A certificate no one vouches for fails the TLS handshake.
	tlsSrv := httptest.NewTLSServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	defer tlsSrv.Close()
	if r := c.Check(ctx, tlsSrv.URL); r.Error != health.ErrTLS {
		t.Errorf("self-signed: %+v, want tls", r)
	}
	// A port nothing listens on refuses the connection.
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	if r := c.Check(ctx, closed.URL); r.Error != health.ErrConnect {
		t.Errorf("closed port: %+v, want connect", r)
	}
	if r := c.Check(ctx, "http://no-such-host.invalid/"); r.Error != health.ErrDNS {
		t.Errorf(".invalid: %+v, want dns", r)
	}
}

func TestDigestMail(t *testing.T) {
	links := []health.BrokenLink{{Key: "abc", URL: "https://gone.example/", Record: health.Record{State: health.Broken, Error: health.ErrStatus, Status: 404}}}
	short := func(_ int64, key string) string { return "https://sho.rt/" + key }
	for _, c := range []struct {
		lang    locale.Tag
		subject string
		body    []string
	}{
		{locale.English, "3 links are broken", []string{"https://sho.rt/abc → https://gone.example/", "answers 404", "and 2 more", "https://app.example/app"}},
		{locale.Chinese, "3 个链接失效", []string{"https://sho.rt/abc → https://gone.example/", "返回 404", "还有 2 个", "https://app.example/app"}},
	} {
		subject, body := health.DigestMail(c.lang, links, 3, short, "https://app.example/")
		if subject != c.subject {
			t.Errorf("%s: subject %q", c.lang, subject)
		}
		for _, want := range c.body {
			if !strings.Contains(body, want) {
				t.Errorf("%s: body lacks %q:\n%s", c.lang, want, body)
			}
		}
	}
}
