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

// TestWebAppLinksList: a customer's links list shows each link's visits (made through real
// redirects) with its last 7 days, sorts by visits and by date, filters by status, keeps the
// selection's bulk actions, and on a phone is a list of cards whose destination and date are
// whole inside the screen.
func TestWebAppLinksList(t *testing.T) {
	s := newDeployment(t).start(t)
	eachLook(t, twoLooks, func(t *testing.T, l look) {
		email := "list-" + l.name + "@example.com"
		tn := s.signup(email)
		long := "https://example.com/a/rather/long/path/that/a/phone/used/to/cut/off/" + l.name + "?campaign=winter-sale&medium=newsletter"
		quiet := s.createLink(tn, map[string]any{"url": long})
		popular := s.createLink(tn, map[string]any{"url": "https://example.com/popular/" + l.name})
		// An amber tag: a tag may be any colour, its name still readable.
		if r := s.do("POST", fmt.Sprintf("/api/v1/workspaces/%d/tags", tn.WorkspaceID), tn.Token, map[string]any{"name": "winter", "color": "#f59e0b"}); r.Status != http.StatusCreated {
			t.Fatalf("tag: %d %s", r.Status, r.Body)
		}
		some := s.createLink(tn, map[string]any{"url": "https://example.com/some/" + l.name, "tags": []string{"winter"}})
		ws := fmt.Sprintf("/api/v1/workspaces/%d", tn.WorkspaceID)
		if r := s.do("PATCH", fmt.Sprintf("%s/links/%d", ws, quiet.ID), tn.Key, map[string]any{"status": "disabled"}); r.Status != http.StatusOK {
			t.Fatalf("disable: %d %s", r.Status, r.Body)
		}
		s.setPlan(tn, "trial") // the links export
		for i, c := range []string{popular.Code, popular.Code, popular.Code, some.Code} {
			if st, _ := s.sendHit(c, hit{fmt.Sprintf("10.5.%d.%d", len(l.name), i), uaDesktop, ""}); st != http.StatusFound {
				t.Fatalf("visit %d: %d", i, st)
			}
		}
		eventually(t, 10*time.Second, "the visits stored", func() bool {
			var page struct{ Links []struct{ Visits int64 } }
			s.do("GET", ws+"/links", tn.Key, nil).json(t, &page)
			var sum int64
			for _, x := range page.Links {
				sum += x.Visits
			}
			return sum == 4
		})

		w := walk(t, s, l)
		w.signIn(email, "correct horse battery")
		shorts := w.p.GetByTestId("link-short")
		order := func(what string, links ...linkJSON) {
			t.Helper()
			codes := make([]string, len(links))
			for i, x := range links {
				codes[i] = x.Code
			}
			if err := expectLocator(shorts).ToHaveCount(len(links)); err != nil {
				t.Fatalf("[%s] %s: %v", l.name, what, err)
			}
			if err := expectLocator(shorts).ToContainText(codes); err != nil {
				t.Fatalf("[%s] %s: %v", l.name, what, err)
			}
		}
		// Newest first, each with its visits and its last 7 days.
		order("newest first", some, popular, quiet)
		w.see(w.p.GetByTestId("link-tag").First())
		w.accessible("the links list with an amber tag")
		counts := []string{"1", "3", "0"}
		if l.phone() { // a card names the unit
			counts = []string{w.tr("1 visit", "1 次访问"), w.tr("3 visits", "3 次访问"), w.tr("0 visits", "0 次访问")}
		}
		if err := expectLocator(w.p.GetByTestId("link-visits")).ToHaveText(counts); err != nil {
			t.Fatalf("[%s] visits: %v", l.name, err)
		}
		// The popular link's three visits are today's (yesterday's, had midnight passed since).
		w.see(w.p.GetByRole("img", playwright.PageGetByRoleOptions{Name: regexp.MustCompile(w.tr("^Visits in the last 7 days: ", "^最近 7 天访问：") + `(0, )*3(, 0)?$`)}))

		// Sorted by visits, most first, then fewest first.
		if l.phone() {
			sort := w.role("combobox", w.tr("Sort", "排序"))
			for _, c := range []struct {
				option string
				links  []linkJSON
			}{
				{w.tr("Most visits", "访问最多"), []linkJSON{popular, some, quiet}},
				{w.tr("Fewest visits", "访问最少"), []linkJSON{quiet, some, popular}},
				{w.tr("Oldest first", "最早创建"), []linkJSON{quiet, popular, some}},
			} {
				if _, err := sort.SelectOption(playwright.SelectOptionValues{Labels: &[]string{c.option}}); err != nil {
					t.Fatalf("[%s] sort: %v", l.name, err)
				}
				order(c.option, c.links...)
			}
		} else {
			byVisits, byDate := w.button(w.tr("Visits", "访问")), w.button(w.tr("Created", "创建时间"))
			header := w.p.Locator("th").Filter(playwright.LocatorFilterOptions{Has: byVisits})
			w.click(byVisits)
			order("most visits", popular, some, quiet)
			if err := expectLocator(header).ToHaveAttribute("aria-sort", "descending"); err != nil {
				t.Fatalf("[%s] %v", l.name, err)
			}
			w.click(byVisits)
			order("fewest visits", quiet, some, popular)
			if err := expectLocator(header).ToHaveAttribute("aria-sort", "ascending"); err != nil {
				t.Fatalf("[%s] %v", l.name, err)
			}
			w.click(byDate)
			order("newest first again", some, popular, quiet)
			w.click(byDate)
			order("oldest first", quiet, popular, some)
		}

		// Filtered by status.
		status := w.role("combobox", w.tr("Status", "状态"))
		if _, err := status.SelectOption(playwright.SelectOptionValues{Labels: &[]string{w.tr("Disabled", "已停用")}}); err != nil {
			t.Fatalf("[%s] status filter: %v", l.name, err)
		}
		order("disabled only", quiet)
		// "Export CSV" downloads the links the list shows with its filters: the disabled one.
		name, body := w.download(w.button(w.tr("Export CSV", "导出 CSV")))
		if lines := strings.Split(strings.TrimSpace(string(body)), "\n"); len(lines) != 2 || !strings.HasPrefix(lines[1], fmt.Sprintf("%d,%s,", quiet.ID, quiet.Code)) {
			t.Errorf("[%s] the links export %s with the status filter: %q", l.name, name, body)
		}
		// The toast stands below the top bar, never over its menus.
		toast, bar := w.text(w.tr("Links exported.", "链接已导出。")), w.p.Locator("header.topbar")
		w.see(toast)
		if tb, bb := boxOf(t, toast), boxOf(t, bar); tb.Y < bb.Y+bb.Height {
			t.Errorf("[%s] the toast (top %.0f) covers the top bar (bottom %.0f)", l.name, tb.Y, bb.Y+bb.Height)
		}
		// The export's button still under the pointer: a light button's hover keeps its text readable.
		w.accessible("the links list after an export, the pointer on its button")
		if _, err := status.SelectOption(playwright.SelectOptionValues{Labels: &[]string{w.tr("Any status", "全部状态")}}); err != nil {
			t.Fatalf("[%s] status filter: %v", l.name, err)
		}
		order("every status", quiet, popular, some)
		// A short code is never cut across two lines; a tag is drawn unlike a status (an
		// outline, no fill).
		for i := range 3 {
			lines, err := shorts.Nth(i).Locator(".nowrap").Evaluate("e => e.getClientRects().length", nil)
			if err != nil || lines != 1 {
				t.Errorf("[%s] short code %d in %v lines (%v)", l.name, i, lines, err)
			}
		}
		fill := func(loc playwright.Locator) string {
			t.Helper()
			v, err := loc.Evaluate("e => getComputedStyle(e).backgroundColor", nil)
			if err != nil {
				t.Fatalf("[%s] style: %v", l.name, err)
			}
			return fmt.Sprint(v)
		}
		tag, status := w.p.GetByTestId("link-tag").First(), w.p.GetByTestId("link-status").First()
		w.see(tag)
		if tf, sf := fill(tag), fill(status); tf != "rgba(0, 0, 0, 0)" || sf == tf {
			t.Errorf("[%s] a tag's fill %s beside a status's %s", l.name, tf, sf)
		}

		// On a phone the links are cards: the destination and the date whole inside the screen.
		if l.phone() {
			w.see(w.p.GetByTestId("links-cards"))
			if err := expectLocator(w.p.GetByTestId("links-table")).ToHaveCount(0); err != nil {
				t.Fatalf("[%s] a table on a phone: %v", l.name, err)
			}
			card := w.p.GetByTestId("link-row").First()
			if err := expectLocator(card.GetByTestId("link-destination")).ToHaveText(long); err != nil {
				t.Fatalf("[%s] %v", l.name, err)
			}
			for _, id := range []string{"link-destination", "link-date", "link-visits", "link-status", "link-short"} {
				el := card.GetByTestId(id)
				w.see(el)
				box, err := el.BoundingBox()
				if err != nil || box == nil {
					t.Fatalf("[%s] %s: no box (%v)", l.name, id, err)
				}
				if box.X < 0 || box.X+box.Width > float64(l.size.Width) {
					t.Errorf("[%s] %s runs out of the screen: x %.0f, width %.0f", l.name, id, box.X, box.Width)
				}
				cut, err := el.Evaluate("e => e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1", nil)
				if err != nil || cut != false {
					t.Errorf("[%s] %s is cut off (%v)", l.name, id, err)
				}
			}
		}

		// The selection's bulk actions: disable the popular link.
		w.click(w.p.GetByRole("checkbox", playwright.PageGetByRoleOptions{Name: w.tr("Select ", "选择 ") + popular.Code}))
		w.see(w.text(w.tr("1 selected", "已选 1 个")))
		w.click(w.button(w.tr("Disable", "停用")))
		if err := expectLocator(w.p.GetByTestId("link-status").Nth(1)).ToHaveText(w.tr("Disabled", "已停用")); err != nil {
			t.Fatalf("[%s] bulk disable: %v", l.name, err)
		}
		w.shoot("links-list")
	})
}
