package e2e

import (
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

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

func expectLocator(l playwright.Locator) playwright.LocatorAssertions {
	return playwright.NewPlaywrightAssertions(float64(browsertest.Timeout.Milliseconds())).Locator(l)
}

// reachURL waits until the page's URL is url: a string (with WaitForURL's globs, * within a
// path segment and ** across them) or a *regexp.Regexp. It reads the URL again and again, where
// WaitForURL reads it once and then waits for the next navigation: a navigation landing between
// the two (one the app makes itself after an API call, on a busy machine) was missed, and the
// wait ran out on the right page. A timeout given replaces browsertest.Timeout.
func reachURL(p playwright.Page, url any, timeout ...time.Duration) error {
	re, ok := url.(*regexp.Regexp)
	if !ok {
		glob := regexp.QuoteMeta(url.(string))
		glob = strings.ReplaceAll(glob, `\*\*`, `.*`)
		glob = strings.ReplaceAll(glob, `\*`, `[^/]*`)
		re = regexp.MustCompile("^" + glob + "$")
	}
	wait := browsertest.Timeout
	if len(timeout) > 0 {
		wait = timeout[0]
	}
	return playwright.NewPlaywrightAssertions(float64(wait.Milliseconds())).Page(p).ToHaveURL(re)
}

// openApp opens a browser whose short domain reaches s, with a page of the given size; o sets
// the rest (Locale, UserAgent).
func openApp(t *testing.T, s *server, size playwright.Size, o browsertest.Options) (*browsertest.Browser, playwright.Page, browserTab) {
	t.Helper()
	o.Hosts = map[string]string{shortHost: s.app.Addr()}
	b := browsertest.New(t, o)
	p := b.Page()
	if err := p.SetViewportSize(size.Width, size.Height); err != nil {
		t.Fatal(err)
	}
	return b, p, browserTab{t, p}
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

// submit fills the email and password fields of the page's form (sign-up, login) and sends it.
func (b browserTab) submit(email, password string) {
	b.t.Helper()
	b.fill(`[data-testid="email"]`, email)
	b.fill(`[data-testid="password"]`, password)
	b.click(`[data-testid="submit"]`)
}

// follow clicks the link named link and waits for the heading named heading.
func (b browserTab) follow(link, heading string) {
	b.t.Helper()
	if err := b.p.GetByRole("link", playwright.PageGetByRoleOptions{Name: link}).Click(); err != nil {
		b.t.Fatalf("click %s: %v", link, err)
	}
	if err := expectLocator(b.p.GetByRole("heading", playwright.PageGetByRoleOptions{Name: heading})).ToBeVisible(); err != nil {
		b.t.Fatalf("after %s: %v", link, err)
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
