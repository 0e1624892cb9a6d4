package e2e

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/playwright-community/playwright-go"
)

// TestWebAppStats walks a customer through a link's statistics: a badge per rule (a geo rule
// and a device target), the visit without referrer or country shown as Direct and Unknown, the
// chart's axis in whole visits, the range picker (kept in the URL), the world map, the UTM
// breakdown of a visit made with ?utm_source=x, a country clicked to filter the page and its
// chip removed, the CSV export on a plan that has it (a locked
// hint on one that has not), and the dashboard over a range. (The browser runs in the machine's time zone, as time.Now does.)
func TestWebAppStats(t *testing.T) {
	d := rulesDeployment(t)
	s := d.start(t)
	// Per look, a workspace on a plan with export and a link with a geo rule and a device target,
	// visited once from nowhere known in WeChat without a referrer and once from Germany with a
	// campaign.
	links := map[string]linkJSON{}
	for _, l := range twoLooks {
		tn := s.signupOn("stats-"+l.name+"@example.com", "enterprise")
		lk := s.createLink(tn, map[string]any{"url": "https://example.com/stats-" + l.name,
			"geo": map[string]any{"deny": []string{"RU"}}, "device_targets": map[string]any{"ios": "https://apps.example.com/ios"}})
		if st, _ := s.sendHit(lk.Code, hit{fromXX, uaWeChat, ""}); st != http.StatusFound {
			t.Fatalf("visit: %d", st)
		}
		if st, _ := s.sendHit(lk.Code+"?utm_source=x", hit{fromDE, uaDesktop, "https://news.example.org/a"}); st != http.StatusFound {
			t.Fatalf("visit with utm_source: %d", st)
		}
		eventually(t, 10*time.Second, "the visits stored", func() bool {
			r := s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/links/%d/stats", tn.WorkspaceID, lk.ID), tn.Key, nil)
			return answer[linkStatsJSON](t, r, http.StatusOK, "stats").Visits == 2
		})
		links[l.name] = lk
		// And a workspace on the free plan, which has no export.
		free := s.signup("stats-free-" + l.name + "@example.com")
		links["free-"+l.name] = s.createLink(free, map[string]any{"url": "https://example.com/free-" + l.name})
	}
	eachLook(t, twoLooks, func(t *testing.T, l look) {
		email := "stats-" + l.name + "@example.com"
		lk := links[l.name]
		w := walk(t, s, l)
		w.signIn(email, "correct horse battery")
		w.open(fmt.Sprintf("/links/%d", lk.ID), "")

		// A badge per rule.
		badges := w.p.GetByRole("list", playwright.PageGetByRoleOptions{Name: w.tr("Rules", "规则")})
		w.see(badges.GetByText(w.tr("Not from RU", "不含 RU")))
		w.see(badges.GetByText(w.tr("Device targets: iOS", "设备定向：iOS")))

		// The visit without country or referrer has rows of its own.
		table := func(en, zh string) playwright.Locator {
			return w.p.GetByRole("table", playwright.PageGetByRoleOptions{Name: w.tr(en, zh)})
		}
		exact := playwright.LocatorGetByTextOptions{Exact: playwright.Bool(true)}
		w.see(table("Countries", "国家/地区").GetByText(w.tr("Unknown", "未知"), exact))
		w.see(table("Countries", "国家/地区").GetByText(w.tr("Germany", "德国"), exact))
		w.see(table("Referrers", "来源").GetByText(w.tr("Direct", "直接访问"), exact))
		w.see(table("Referrers", "来源").GetByText("news.example.org", exact))
		// The campaign's source, and the visit that named none.
		utm := table("Campaign sources (utm_source)", "推广来源（utm_source）")
		w.see(utm.GetByText("x", exact))
		w.see(utm.GetByText(w.tr("None", "无"), exact))

		// The chart's axis counts whole visits.
		ticks := w.p.Locator(`[data-testid="visits-chart"] .recharts-yAxis-tick-labels .recharts-cartesian-axis-tick-value`)
		w.see(ticks.First())
		labels, err := ticks.AllTextContents()
		if err != nil || len(labels) < 2 {
			t.Fatalf("axis ticks: %q %v", labels, err)
		}
		for _, v := range labels {
			if _, err := strconv.Atoi(strings.TrimSpace(v)); err != nil {
				t.Errorf("[%s] axis tick %q is not a whole number (ticks %q)", l.name, v, labels)
			}
		}

		// The map, by its name, with Germany shaded.
		w.see(w.role("group", w.tr("World map of visits by country", "按国家/地区的访问世界地图")))
		if err := expectLocator(w.p.Locator(".country-map path.map-q5")).ToHaveCount(1); err != nil {
			t.Errorf("[%s] the countries shaded most: %v", l.name, err)
		}
		w.shoot("link-stats")

		// The range: 7 days, then today, each in the address; the visits of today stay.
		picker := w.p.GetByTestId("range-picker")
		shown := w.p.GetByTestId("range-shown")
		w.click(picker.GetByText(w.tr("7 days", "7 天"), exact))
		w.at(fmt.Sprintf("/links/%d?range=7d", lk.ID))
		week, _ := shown.TextContent()
		w.click(picker.GetByText(w.tr("Today", "今天"), exact))
		w.at(fmt.Sprintf("/links/%d?range=today", lk.ID))
		if err := expectLocator(shown).Not().ToHaveText(week); err != nil {
			t.Errorf("[%s] the shown range stays %q after choosing today: %v", l.name, week, err)
		}
		if err := expectLocator(w.p.GetByTestId("visits-total")).ToHaveText("2"); err != nil {
			t.Errorf("[%s] today's visits: %v", l.name, err)
		}
		// Two dates of one's own, kept in the address too.
		w.click(picker.GetByText(w.tr("Custom", "自定义"), exact))
		// The choice of "Custom" lands in the address (today to today) before a date is typed:
		// typed sooner, the date could be overwritten by it.
		w.at(fmt.Sprintf("/links/%d?range=custom&from=*&to=*", lk.ID))
		first := time.Now().AddDate(0, 0, -3).Format(time.DateOnly)
		w.fill(picker.GetByLabel(w.tr("From", "开始")), first)
		w.at(fmt.Sprintf("/links/%d?range=custom&from=%s&to=*", lk.ID, first))
		if err := expectLocator(w.p.GetByTestId("visits-total")).ToHaveText("2"); err != nil {
			t.Errorf("[%s] the visits of the last four days: %v", l.name, err)
		}
		// A country clicked filters the whole page by it, a chip in the address; the chip removed,
		// every visit counts again (one look).
		if l.name == twoLooks[0].name {
			germany := table("Countries", "国家/地区").GetByRole("button", playwright.LocatorGetByRoleOptions{Name: w.tr("Germany", "德国"), Exact: playwright.Bool(true)})
			w.click(germany)
			w.at(fmt.Sprintf("/links/%d?range=custom&from=%s&to=*&country=DE", lk.ID, first))
			chip := w.p.GetByTestId("filter-chip-country")
			if err := expectLocator(chip).ToContainText(w.tr("Germany", "德国")); err != nil {
				t.Errorf("[%s] the country's chip: %v", l.name, err)
			}
			if err := expectLocator(w.p.GetByTestId("visits-total")).ToHaveText("1"); err != nil {
				t.Errorf("[%s] the visits from Germany: %v", l.name, err)
			}
			// The other breakdowns are the German visit's: no direct visit.
			if err := expectLocator(table("Referrers", "来源").GetByText(w.tr("Direct", "直接访问"), exact)).ToHaveCount(0); err != nil {
				t.Errorf("[%s] the referrers of the visits from Germany: %v", l.name, err)
			}
			w.click(w.button(w.tr("Remove the filter Country: Germany", "移除筛选 国家/地区：德国")))
			if err := expectLocator(chip).ToHaveCount(0); err != nil {
				t.Errorf("[%s] the chip removed: %v", l.name, err)
			}
			if err := expectLocator(w.p.GetByTestId("visits-total")).ToHaveText("2"); err != nil {
				t.Errorf("[%s] the visits once the filter is removed: %v", l.name, err)
			}
			if strings.Contains(w.p.URL(), "country=") {
				t.Errorf("[%s] the address keeps the filter removed: %s", l.name, w.p.URL())
			}
		} else {
			w.filterByMapAndInApp(lk.ID, first)
		}

		// The export downloads the link's visits of the range as CSV.
		name, body := w.download(w.button(w.tr("Export CSV", "导出 CSV")))
		if lines := strings.Split(strings.TrimSpace(string(body)), "\n"); len(lines) != 3 || !strings.HasPrefix(lines[0], "at,link_id,code") {
			t.Errorf("[%s] export %s: %q", l.name, name, body)
		}
		w.see(w.text(w.tr("Visits exported.", "访问已导出。")))

		// The dashboard shows the range it is asked for.
		w.open("/dashboard?range=7d", w.tr("Dashboard", "数据看板"))
		w.see(w.p.GetByTestId("days-chart"))
		if err := expectLocator(w.p.GetByTestId("visits-range")).ToHaveText("2"); err != nil {
			t.Errorf("[%s] the dashboard's visits: %v", l.name, err)
		}
		w.see(w.button(w.tr("Export CSV", "导出 CSV")))
		w.shoot("dashboard-range")

		// Without the export feature, the export is locked: the same words, with a lock, leading
		// to the plans.
		w = walk(t, s, l)
		w.signIn("stats-free-"+l.name+"@example.com", "correct horse battery")
		w.open(fmt.Sprintf("/links/%d", links["free-"+l.name].ID), "")
		w.see(w.p.GetByTestId("range-picker"))
		if err := expectLocator(w.button(w.tr("Export CSV", "导出 CSV"))).ToHaveCount(0); err != nil {
			t.Errorf("[%s] the free plan's export: %v", l.name, err)
		}
		if err := expectLocator(w.p.GetByTestId("export-locked")).ToHaveText(w.tr("Export CSV", "导出 CSV")); err != nil {
			t.Errorf("[%s] the locked export's label, the unlocked one's: %v", l.name, err)
		}
		w.click(w.exact("link", w.tr("Export CSV", "导出 CSV")))
		w.at("/plan")
	})
}
