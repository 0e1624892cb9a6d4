package e2e

import (
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/playwright-community/playwright-go"
)

// TestWebAppLinkTools: from a row's menu a link is duplicated and archived (the archived filter
// shows it again), "/" focuses the search, "c" opens a new link's form, Ctrl+K's palette opens
// a page, a share made in the link page's dialog opens signed out, in a browser of its own, and
// the link deleted from its page is gone.
func TestWebAppLinkTools(t *testing.T) {
	s := newDeployment(t).start(t)
	eachLook(t, []look{enDesktop}, func(t *testing.T, l look) {
		email := "tools-" + l.name + "@example.com"
		tn := s.signupOn(email, "enterprise")
		src := s.createLink(tn, map[string]any{"url": "https://tools.example/landing", "title": "Launch"})
		if st, _ := s.sendHit(src.Code, hit{"10.9.0.1", uaDesktop, "https://news.example/post"}); st != http.StatusFound {
			t.Fatalf("visit: %d", st)
		}

		w := walk(t, s, l)
		w.signIn(email, "correct horse battery")
		rows := w.p.GetByTestId("link-row")
		row := func(code string) playwright.Locator {
			return rows.Filter(playwright.LocatorFilterOptions{HasText: code})
		}
		count := func(what string, n int) {
			t.Helper()
			if err := expectLocator(rows).ToHaveCount(n); err != nil {
				t.Fatalf("[%s] %s: %v", l.name, what, err)
			}
		}
		count("the link", 1)

		// Duplicate from the row's menu: a second row with a new code.
		w.click(row(src.Code).GetByTestId("link-actions"))
		w.click(w.p.GetByTestId("action-duplicate"))
		count("the duplicate", 2)

		// Archive the source: it leaves the list, and the archived filter shows it.
		w.click(row(src.Code).GetByTestId("link-actions"))
		w.click(w.p.GetByTestId("action-archive"))
		count("the source archived", 1)
		archived := w.role("combobox", w.tr("Archived", "归档"))
		if _, err := archived.SelectOption(playwright.SelectOptionValues{Labels: &[]string{w.tr("Archived only", "仅已归档")}}); err != nil {
			t.Fatalf("[%s] archived filter: %v", l.name, err)
		}
		count("archived only", 1)
		w.see(row(src.Code).GetByTestId("archived-badge"))
		if _, err := archived.SelectOption(playwright.SelectOptionValues{Labels: &[]string{w.tr("Not archived", "未归档")}}); err != nil {
			t.Fatalf("[%s] archived filter: %v", l.name, err)
		}
		count("not archived", 1)
		// Still redirecting.
		if st, loc := s.sendHit(src.Code, hit{"10.9.0.2", uaDesktop, ""}); st != http.StatusFound || loc != "https://tools.example/landing" {
			t.Fatalf("archived link: %d %s", st, loc)
		}

		// Keyboard: "/" focuses the search; typed into, "c" is text, not the shortcut.
		w.click(w.heading(w.tr("Links", "链接")))
		if err := w.p.Keyboard().Press("/"); err != nil {
			t.Fatal(err)
		}
		search := w.p.GetByTestId("links-search")
		if err := expectLocator(search).ToBeFocused(); err != nil {
			t.Fatalf("[%s] / did not focus the search: %v", l.name, err)
		}
		if err := w.p.Keyboard().Type("c"); err != nil {
			t.Fatal(err)
		}
		if err := expectLocator(search).ToHaveValue("c"); err != nil {
			t.Fatalf("[%s] typing c: %v", l.name, err)
		}
		w.at("/links")
		w.fill(search, "")
		w.click(w.heading(w.tr("Links", "链接")))
		if err := w.p.Keyboard().Press("c"); err != nil {
			t.Fatal(err)
		}
		w.at("/links/new")
		w.open("/links", w.tr("Links", "链接"))
		count("the list again", 1)
		// The shortcuts load after the page: they say when they listen.
		w.see(w.p.Locator("html[data-shortcuts=on] body"))
		if err := w.p.Keyboard().Press("Control+k"); err != nil {
			t.Fatal(err)
		}
		input := w.p.GetByTestId("palette-input")
		w.see(input)
		w.accessible("the command palette")
		w.fill(input, w.tr("tags", "标签"))
		if err := input.Press("Enter"); err != nil {
			t.Fatal(err)
		}
		w.at("/tags")

		// Share from the link page; the address opens signed out.
		w.open(fmt.Sprintf("/links/%d", src.ID), "")
		w.see(w.p.GetByTestId("detail-short-url"))
		// The page settles (its statistics drawn) before its menu is used.
		w.see(w.p.GetByTestId("breakdowns"))
		w.quiet()
		w.click(w.p.GetByTestId("link-actions"))
		w.click(w.p.GetByTestId("action-share"))
		w.see(w.p.GetByText(w.tr("No shares yet.", "暂无分享。")))
		w.accessible("the share dialog")
		w.click(w.p.GetByTestId("share-create"))
		shareURL := w.p.GetByTestId("share-url")
		if err := expectLocator(shareURL).ToHaveValue(regexp.MustCompile(`/share/[A-Za-z0-9_-]{22}$`)); err != nil {
			t.Fatalf("[%s] share: %v (answered %q)", l.name, err, w.lastAnswered())
		}
		address, err := shareURL.InputValue()
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(address, "http://"+shortHost+"/share/") {
			t.Fatalf("share address %q", address)
		}

		eventually(t, 30*time.Second, "both visits counted", func() bool {
			var st struct{ Visits int64 }
			s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/links/%d/stats", tn.WorkspaceID, src.ID), tn.Key, nil).json(t, &st)
			return st.Visits == 2
		})
		out := walk(t, s, l)
		if _, err := out.p.Goto(address); err != nil {
			t.Fatalf("open the share: %v", err)
		}
		out.see(out.p.GetByTestId("share-short-url"))
		if err := expectLocator(out.p.GetByTestId("share-destination")).ToContainText("tools.example"); err != nil {
			t.Fatalf("[%s] shared destination: %v", l.name, err)
		}
		if err := expectLocator(out.p.GetByTestId("share-visits")).ToContainText("2"); err != nil {
			t.Fatalf("[%s] shared visits: %v", l.name, err)
		}
		if err := expectLocator(out.p.GetByText("Launch")).ToHaveCount(0); err != nil {
			t.Fatalf("[%s] the shared page shows the title: %v", l.name, err)
		}

		// Delete from the link page, confirmed: the list without it, its short link gone.
		w.open(fmt.Sprintf("/links/%d", src.ID), "")
		w.see(w.p.GetByTestId("breakdowns"))
		w.quiet()
		w.click(w.p.GetByTestId("link-actions"))
		w.click(w.p.GetByTestId("action-delete"))
		w.see(w.p.GetByTestId("confirm-delete"))
		w.accessible("the delete dialog")
		w.click(w.p.GetByTestId("confirm-delete"))
		w.at("/links")
		if r := s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/links/%d", tn.WorkspaceID, src.ID), tn.Key, nil); r.Status != http.StatusNotFound {
			t.Errorf("[%s] the deleted link answers %d", l.name, r.Status)
		}
		if st, _ := s.sendHit(src.Code, hit{"10.9.0.3", uaDesktop, ""}); st != http.StatusNotFound {
			t.Errorf("[%s] the deleted link redirects: %d", l.name, st)
		}
	})
}
