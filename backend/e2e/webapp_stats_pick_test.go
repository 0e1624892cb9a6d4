package e2e

import (
	"fmt"
	"strings"

	"github.com/playwright-community/playwright-go"
)

// filterByMapAndInApp walks a link's page (at the custom range from first, two visits: one in
// WeChat from nowhere known, one from Germany) through the map and the in-app browsers'
// figure: Germany on the map, reached by the keyboard (a focusable control with a name) and
// pressed with Enter, filters the page by it; WeChat's share in the figure clicked filters it
// by the in-app browser, and "Export CSV" then downloads that visit alone.
func (w *walker) filterByMapAndInApp(linkID int64, first string) {
	w.t.Helper()
	germany := w.p.GetByTestId("map-pick-DE")
	if err := expectLocator(germany).ToHaveAttribute("aria-label", w.tr("Germany: 1 visit. Show only its visits", "德国：1 次访问。只看它的访问")); err != nil {
		w.t.Errorf("[%s] Germany on the map: %v", w.l.name, err)
	}
	if err := germany.Focus(); err != nil {
		w.t.Fatal(err)
	}
	if focused, err := germany.Evaluate(`(el) => el === document.activeElement`, nil); err != nil || focused != true {
		w.t.Errorf("[%s] Germany on the map takes no focus: %v", w.l.name, err)
	}
	w.press("Enter")
	w.at(fmt.Sprintf("/links/%d?range=custom&from=%s&to=*&country=DE", linkID, first))
	if err := expectLocator(w.p.GetByTestId("filter-chip-country")).ToContainText(w.tr("Germany", "德国")); err != nil {
		w.t.Errorf("[%s] the map's chip: %v", w.l.name, err)
	}
	if err := expectLocator(w.p.GetByTestId("visits-total")).ToHaveText("1"); err != nil {
		w.t.Errorf("[%s] the visits from Germany: %v", w.l.name, err)
	}
	// Filtered by a country, the map offers no other.
	if err := expectLocator(w.p.Locator(`.country-map path[role="button"]`)).ToHaveCount(0); err != nil {
		w.t.Errorf("[%s] the map filtered: %v", w.l.name, err)
	}
	w.click(w.button(w.tr("Remove the filter Country: Germany", "移除筛选 国家/地区：德国")))

	// The in-app browsers' figure: WeChat's half of the visits, a button.
	figure := w.p.GetByTestId("in-app-figure")
	if err := expectLocator(figure.GetByTestId("in-app-total")).ToHaveText("50%"); err != nil {
		w.t.Errorf("[%s] the in-app share: %v", w.l.name, err)
	}
	wechat := figure.GetByRole("button", playwright.LocatorGetByRoleOptions{Name: w.tr("WeChat 50%", "微信 50%")})
	w.click(wechat)
	w.at(fmt.Sprintf("/links/%d?range=custom&from=%s&to=*&in_app=wechat", linkID, first))
	if err := expectLocator(w.p.GetByTestId("filter-chip-in_app")).ToContainText(w.tr("In-app browser: WeChat", "应用内浏览器: 微信")); err != nil {
		w.t.Errorf("[%s] the in-app chip: %v", w.l.name, err)
	}
	if err := expectLocator(w.p.GetByTestId("visits-total")).ToHaveText("1"); err != nil {
		w.t.Errorf("[%s] the visits in WeChat: %v", w.l.name, err)
	}
	w.shoot("link-stats-filtered")
	// The export sends the chips: the WeChat visit alone.
	name, body := w.download(w.button(w.tr("Export CSV", "导出 CSV")))
	lines := strings.Split(strings.TrimSpace(string(body)), "\n")
	if len(lines) != 2 || !strings.Contains(lines[1], ",wechat,") {
		w.t.Errorf("[%s] the filtered export %s: %q", w.l.name, name, body)
	}
	w.click(w.button(w.tr("Remove the filter In-app browser: WeChat", "移除筛选 应用内浏览器：微信")))
	if err := expectLocator(w.p.GetByTestId("visits-total")).ToHaveText("2"); err != nil {
		w.t.Errorf("[%s] the visits once the filter is removed: %v", w.l.name, err)
	}
}
