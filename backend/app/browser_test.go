package app_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/playwright-community/playwright-go"

	"github.com/shortlink/shortlink/backend/browsertest"
)

// TestMain stops the browsers the tests of this package share, and removes the server binary
// the process tests built.
func TestMain(m *testing.M) {
	code := m.Run()
	browsertest.Close()
	closeModerationRig()
	removeServerBinary()
	os.Exit(code)
}

// A person signs up on the web app in Chromium, shortens a URL through the page, and follows
// the short link to its target; no page breaks the app's Content-Security-Policy.
func TestBrowserSignupShortenAndVisit(t *testing.T) {
	s := newDeployment(t).start(t)
	landed := make(chan string, 1)
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case landed <- r.URL.RequestURI():
		default:
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, "<!doctype html><title>target</title><p id=where>%s</p>", r.URL.Path)
	}))
	defer target.Close()

	b := browsertest.New(t, browsertest.Options{Hosts: map[string]string{shortHost: s.app.Addr()}})
	p := b.Page()
	tab := browserTab{t, p}
	res, err := p.Goto("http://" + shortHost + "/")
	if err != nil {
		t.Fatal(err)
	}
	if res.Status() != http.StatusOK {
		t.Fatalf("GET /: %d", res.Status())
	}
	// The check of violations means something only if the page has a strict policy.
	csp, err := res.HeaderValue("Content-Security-Policy")
	if err != nil || !strings.Contains(csp, "'sha256-") || strings.Contains(csp, "unsafe-inline") {
		t.Fatalf("Content-Security-Policy %q (%v), want hashes of the inline code", csp, err)
	}

	const email = "browser@example.com"
	tab.fill("#email", email)
	tab.fill("#password", "correct horse battery")
	tab.click(`#auth-form button[data-mode="signup"]`)
	who := p.Locator("#who")
	if err := expectLocator(who).ToHaveText(email); err != nil {
		t.Fatalf("signed-in state: %v (sign-in error: %q)", err, tab.text("#auth-error"))
	}
	if err := expectLocator(p.Locator("#signin")).ToBeHidden(); err != nil {
		t.Errorf("the sign-in form is still shown: %v", err)
	}

	// The session is kept in cookies: a reload is still signed in.
	if _, err := p.Reload(); err != nil {
		t.Fatal(err)
	}
	if err := expectLocator(who).ToHaveText(email); err != nil {
		t.Fatalf("after a reload: %v", err)
	}

	long := target.URL + "/landing/page?from=browser"
	tab.fill("#url", long)
	tab.click("#create-form button")
	row := p.Locator("#links tr").Filter(playwright.LocatorFilterOptions{HasText: long})
	if err := expectLocator(row).ToHaveCount(1); err != nil {
		t.Fatalf("the new link is not listed: %v (create error: %q)", err, tab.text("#create-error"))
	}
	short, err := row.Locator("a").GetAttribute("href")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(short, "http://"+shortHost+"/") || len(short) <= len("http://"+shortHost+"/") {
		t.Fatalf("short URL %q is not on the short domain", short)
	}

	// Following the short link lands on the target, with its path and query.
	if err := row.Locator("a").Click(); err != nil {
		t.Fatal(err)
	}
	if err := p.WaitForURL(long); err != nil {
		t.Fatalf("after clicking %s: %v (at %s)", short, err, p.URL())
	}
	if got := <-landed; got != "/landing/page?from=browser" {
		t.Errorf("the target was asked for %q", got)
	}
	if err := expectLocator(p.Locator("#where")).ToHaveText("/landing/page"); err != nil {
		t.Error(err)
	}

	if got := b.Problems(); len(got) != 0 {
		t.Errorf("Content-Security-Policy violations or errors: %q", got)
	}
}

func expectLocator(l playwright.Locator) playwright.LocatorAssertions {
	return playwright.NewPlaywrightAssertions(float64(browsertest.Timeout.Milliseconds())).Locator(l)
}

// browserTab is a page whose actions fail the test.
type browserTab struct {
	t *testing.T
	p playwright.Page
}

func (b browserTab) fill(selector, value string) {
	b.t.Helper()
	if err := b.p.Locator(selector).Fill(value); err != nil {
		b.t.Fatalf("fill %s: %v", selector, err)
	}
}

func (b browserTab) click(selector string) {
	b.t.Helper()
	if err := b.p.Locator(selector).Click(); err != nil {
		b.t.Fatalf("click %s: %v", selector, err)
	}
}

// text is the element's text, or the error reading it, for messages.
func (b browserTab) text(selector string) string {
	s, err := b.p.Locator(selector).TextContent()
	if err != nil {
		return err.Error()
	}
	return s
}
