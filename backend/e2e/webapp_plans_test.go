package e2e

import (
	"fmt"
	"testing"

	"github.com/playwright-community/playwright-go"
)

// exact is the page's control of role whose accessible name is name, exactly.
func (w *walker) exact(role playwright.AriaRole, name string) playwright.Locator {
	return w.p.GetByRole(role, playwright.PageGetByRoleOptions{Name: name, Exact: playwright.Bool(true)})
}

// within is the control of role named name (exactly) inside l.
func within(l playwright.Locator, role playwright.AriaRole, name string) playwright.Locator {
	return l.GetByRole(role, playwright.LocatorGetByRoleOptions{Name: name, Exact: playwright.Bool(true)})
}

// A visitor reads the plans and their prices on the public page; a customer on the free plan
// opens the plan page, sees every plan side by side with its price, the comparison of features
// and limits, the current plan marked and the usage bars, reads how to move to a paid plan
// today, and starts the 7-day trial: a toast, and the trial is then the marked plan.
func TestWebAppPlans(t *testing.T) {
	// the plans' limits and the default rate limits, which the tests' defaults lift: the page shows them.
	s := newDeployment(t).start(t, "PLAN_LIMITS", "free.members=1,free.requests_per_minute=120,trial.requests_per_minute=600,"+
		"personal.requests_per_minute=600,enterprise.requests_per_minute=6000")
	eachLook(t, twoLooks, func(t *testing.T, l look) {
		email := fmt.Sprintf("plans-%s@example.com", l.name)
		tn := s.signup(email)
		for i := range 3 {
			s.createLink(tn, map[string]any{"url": fmt.Sprintf("https://example.com/%s/%d", l.name, i)})
		}
		w := walk(t, s, l)

		// The public listing, before signing in.
		w.open("/pricing", "")
		w.see(w.exact("heading", l.tr("Plans", "套餐")))
		trialCard := w.exact("region", l.tr("Trial", "试用版"))
		w.see(within(trialCard, "heading", l.tr("Trial", "试用版")))
		w.see(trialCard.GetByText(l.tr("CN¥1 for 7 days", "¥1 / 7 天")))
		w.see(w.exact("region", l.tr("Personal", "个人版")).GetByText(l.tr("Price on request", "价格请咨询")))
		w.see(w.link(l.tr("Sign up free", "免费注册")).First())
		w.shoot("pricing")

		w.signIn(email, "correct horse battery")
		w.open("/plan", "")
		w.see(w.exact("heading", l.tr("Plan", "套餐")))
		if err := expectLocator(w.p.GetByTestId("current-plan")).ToHaveText(l.tr("Free", "免费版")); err != nil {
			t.Fatal(err)
		}
		// The four plans side by side, the free one marked as the current plan.
		for _, name := range []string{l.tr("Free", "免费版"), l.tr("Trial", "试用版"), l.tr("Personal", "个人版"), l.tr("Enterprise", "企业版")} {
			w.see(within(w.exact("region", name), "heading", name))
		}
		free := w.exact("region", l.tr("Free", "免费版"))
		w.see(free.GetByText(l.tr("Current plan", "当前套餐")))
		if err := expectLocator(w.exact("region", l.tr("Personal", "个人版")).GetByText(l.tr("Current plan", "当前套餐"))).ToHaveCount(0); err != nil {
			t.Fatal(err)
		}
		w.see(w.exact("region", l.tr("Trial", "试用版")).GetByText(l.tr("CN¥1 for 7 days", "¥1 / 7 天")))
		// Paid plans say how to get them today.
		w.see(w.exact("region", l.tr("Enterprise", "企业版")).GetByText(l.tr("ask the operator of this service", "请联系本服务的运营人员")))
		// The comparison: features and limits, plan by plan.
		table := w.p.GetByRole("table")
		w.see(w.heading(l.tr("Compare the plans", "套餐对比")))
		// On a phone, where it scrolls sideways, it says so.
		if hint := w.p.GetByTestId("plan-scroll-hint"); l.phone() {
			w.see(hint)
		} else if err := expectLocator(hint).ToBeHidden(); err != nil {
			t.Errorf("[%s] the scroll hint on a wide screen: %v", l.name, err)
		}
		w.see(within(table, "row", l.tr("New links a month 100 1,000 10,000 Unlimited", "每月新建链接 100 1,000 10,000 不限")))
		w.see(within(table, "row", l.tr("Batch creation Not included Included Not included Included", "批量创建 不包含 包含 不包含 包含")))
		w.see(within(table, "row", l.tr("WeChat access 10 days after creation Included Included Included", "微信访问 创建后 10 天内 包含 包含 包含")))
		w.see(within(table, "row", l.tr("API requests a minute 120 600 600 6,000", "每分钟 API 请求 120 600 600 6,000")))
		// Usage, as named bars.
		bar := w.exact("progressbar", l.tr("New links: 3 of 100", "新建链接: 3 / 100"))
		if err := expectLocator(bar).ToHaveAttribute("aria-valuenow", "3"); err != nil {
			t.Fatalf("usage bar: %v", err)
		}
		// The owner alone fills the free plan's one place: full, in words and amber, not an error.
		seats := w.exact("progressbar", l.tr("Members: 1 of 1: full", "成员: 1 / 1（已满）"))
		if err := expectLocator(w.p.Locator("[data-level=full]").Filter(playwright.LocatorFilterOptions{Has: seats})).ToHaveCount(1); err != nil {
			t.Fatalf("members bar at the limit: %v", err)
		}
		w.shoot("plan-free")

		// The trial, from its card.
		w.click(within(w.exact("region", l.tr("Trial", "试用版")), "button", l.tr("Start the free 7-day trial", "免费试用 7 天")))
		w.see(w.text(l.tr("Your 7-day trial has started", "7 天试用已开始")))
		if err := expectLocator(w.p.GetByTestId("current-plan")).ToHaveText(l.tr("Trial", "试用版")); err != nil {
			t.Fatal(err)
		}
		w.see(w.exact("region", l.tr("Trial", "试用版")).GetByText(l.tr("Current plan", "当前套餐")))
		if err := expectLocator(free.GetByText(l.tr("Current plan", "当前套餐"))).ToHaveCount(0); err != nil {
			t.Fatal(err)
		}
		if err := expectLocator(w.exact("progressbar", l.tr("New links: 3 of 1,000", "新建链接: 3 / 1,000"))).ToHaveCount(1); err != nil {
			t.Fatalf("usage after the trial: %v", err)
		}
		if got := s.plan(tn, tn.Token); got.Plan != "trial" {
			t.Fatalf("plan after the trial started: %+v", got)
		}
		w.shoot("plan-trial")
	})
}
