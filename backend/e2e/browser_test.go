package e2e

import (
	"os"
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
