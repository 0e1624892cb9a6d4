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

// stripePages are Stripe's hosted pages (Checkout, the customer portal; stripe-mock's portal
// is on a stripe.me host), which the browser of the tests cannot reach: the walks answer them
// with a page of their own.
var stripePages = regexp.MustCompile(`^https://[^/]+\.stripe\.(com|me)/`)

// stripeStandIn answers every request for a Stripe page with a small page, and returns the
// addresses asked for.
func (w *walker) stripeStandIn() <-chan string {
	w.t.Helper()
	asked := make(chan string, 8)
	err := w.p.Route(stripePages, func(r playwright.Route) {
		select {
		case asked <- r.Request().URL():
		default:
		}
		_ = r.Fulfill(playwright.RouteFulfillOptions{Status: playwright.Int(http.StatusOK), ContentType: playwright.String("text/html; charset=utf-8"),
			Body: "<!doctype html><html lang=en><title>Stripe</title><main><h1>Stripe</h1></main></html>"})
	})
	if err != nil {
		w.t.Fatal(err)
	}
	return asked
}

// leftFor waits until the browser asked for a Stripe page whose address holds host, and shows it.
func (w *walker) leftFor(asked <-chan string, host string) string {
	w.t.Helper()
	select {
	case u := <-asked:
		if !strings.Contains(u, host) {
			w.t.Fatalf("[%s] the browser went to %s, want %s", w.l.name, u, host)
		}
		if err := reachURL(w.p, stripePages); err != nil {
			w.t.Fatalf("[%s] waiting for %s: %v", w.l.name, host, err)
		}
		w.see(w.heading("Stripe"))
		return u
	case <-time.After(15 * time.Second):
		w.t.Fatalf("[%s] the browser never went to %s (at %s)", w.l.name, host, w.p.URL())
	}
	return ""
}

// paymentSettles waits until the plan page back from a payment shows the plan paid for, named
// plan, and says so, with no banner left waiting for the payment.
func (w *walker) paymentSettles(plan string) {
	w.t.Helper()
	w.see(w.p.GetByTestId("payment-settled").GetByText(w.tr("Your workspace is now on "+plan+".", "您的工作区现在使用"+plan+"。")))
	if err := expectLocator(w.p.GetByTestId("payment-return")).ToHaveCount(0); err != nil {
		w.t.Fatalf("[%s] the banner waiting for the payment: %v", w.l.name, err)
	}
	if err := expectLocator(w.p.GetByTestId("current-plan")).ToHaveText(plan); err != nil {
		w.t.Fatalf("[%s] the plan shown: %v", w.l.name, err)
	}
}

// An owner on the free plan opens the plan page with billing on, picks Enterprise billed
// yearly and pays on Stripe's Checkout; Stripe reports the subscription; back on the plan
// page Enterprise is the current plan and the page says so (and, for an owner back before
// Stripe's event, once it lands). The billing page shows
// the subscription active, billed yearly, and the invoices; Manage billing opens Stripe's
// portal; after a failed renewal it shows the payment due and the grace. The audit log, locked
// before, now lists the workspace's changes (the billing changes by the system in words), a
// page at a time, and downloads as CSV. The operator sees the subscription past due in the list
// of workspaces.
func TestWebAppBilling(t *testing.T) {
	_, s := startBilling(t)
	eachLook(t, twoLooks, func(t *testing.T, l look) {
		email := fmt.Sprintf("billing-%s@example.com", l.name)
		tn := s.signup(email)
		w := walk(t, s, l)
		// The public plans say paid plans are bought after signing up.
		w.open("/pricing", "")
		w.see(w.exact("region", w.tr("Enterprise", "企业版")).GetByText(w.tr("then move to Enterprise from your workspace's Plan page",
			"在工作区的套餐页面升级到企业版")))
		w.signIn(email, "correct horse battery")
		asked := w.stripeStandIn()

		// The audit log is an enterprise feature: locked on the free plan.
		w.open("/audit", w.tr("Audit log", "审计日志"))
		w.see(w.p.GetByTestId("upgrade-hint-audit_log"))

		// The plan page offers Checkout: the interval, then Upgrade on the plan's card.
		w.open("/plan", "")
		w.see(w.exact("heading", w.tr("Plan", "套餐")))
		if err := expectLocator(w.p.GetByTestId("current-plan")).ToHaveText(w.tr("Free", "免费版")); err != nil {
			t.Fatal(err)
		}
		if n, _ := w.p.GetByText(w.tr("ask the operator of this service", "请联系本服务的运营人员")).Count(); n != 0 {
			t.Errorf("[%s] the operator is named as the way to upgrade with billing on", l.name)
		}
		w.click(w.p.GetByTestId("billing-interval").GetByText(w.tr("Yearly", "按年"), playwright.LocatorGetByTextOptions{Exact: playwright.Bool(true)}))
		w.shoot("plan-checkout")
		req, err := w.p.ExpectRequest(regexp.MustCompile(`/billing/checkout$`), func() error {
			return within(w.exact("region", w.tr("Enterprise", "企业版")), "button", w.tr("Upgrade", "升级")).Click()
		})
		if err != nil {
			t.Fatalf("[%s] upgrade: %v", l.name, err)
		}
		if body, _ := req.PostData(); !strings.Contains(body, `"plan":"enterprise"`) || !strings.Contains(body, `"interval":"year"`) {
			t.Errorf("[%s] checkout asked for %s", l.name, body)
		}
		w.leftFor(asked, "checkout.stripe.com")

		// Stripe reports the subscription, then sends the owner back.
		end := time.Now().AddDate(1, 0, 0).Truncate(time.Second)
		created := stripeEvent("evt_web_"+l.name, "customer.subscription.created", time.Now(),
			subscriptionObject(tn.WorkspaceID, "sub_web_"+l.name, "active", "price_ey", end, false))
		if r := s.webhook(created, testWebhookSecret, time.Now()); r.Status != http.StatusOK {
			t.Fatalf("webhook: %d %s", r.Status, r.Body)
		}
		// The event came first, as it usually does: the page says at once that the plan paid
		// for is here, and no banner waits for it.
		w.open(fmt.Sprintf("/plan?workspace=%d&checkout=success&plan=enterprise", tn.WorkspaceID), "")
		w.see(w.exact("heading", w.tr("Plan", "套餐")))
		w.paymentSettles(w.tr("Enterprise", "企业版"))
		// With a live subscription, plans change in the portal.
		w.see(within(w.exact("region", w.tr("Personal", "个人版")), "link", w.tr("Change in billing", "在账单中更改")))
		w.shoot("plan-paid")

		// Stripe's event may land after the owner is back: the banner waits for it, and gives
		// way by itself once the plan paid for is here.
		late := s.signup(fmt.Sprintf("billing-late-%s@example.com", l.name))
		wl := walk(t, s, l)
		wl.signIn(fmt.Sprintf("billing-late-%s@example.com", l.name), "correct horse battery")
		wl.open(fmt.Sprintf("/plan?workspace=%d&checkout=success&plan=personal", late.WorkspaceID), "")
		wl.see(wl.p.GetByTestId("payment-return").GetByText(wl.tr("Payment received: your plan updates in a moment.", "已收到付款，套餐稍后更新。")))
		if err := expectLocator(wl.p.GetByTestId("current-plan")).ToHaveText(wl.tr("Free", "免费版")); err != nil {
			t.Fatal(err)
		}
		lateSub := stripeEvent("evt_web_late_"+l.name, "customer.subscription.created", time.Now(),
			subscriptionObject(late.WorkspaceID, "sub_web_late_"+l.name, "active", "price_pm", end, false))
		if r := s.webhook(lateSub, testWebhookSecret, time.Now()); r.Status != http.StatusOK {
			t.Fatalf("webhook: %d %s", r.Status, r.Body)
		}
		wl.paymentSettles(wl.tr("Personal", "个人版"))
		wl.accessible("plan, the payment settled")

		// The billing page.
		w.open("/billing", w.tr("Billing", "账单"))
		if err := expectLocator(w.p.GetByTestId("billing-status")).ToHaveText(w.tr("Active", "生效中")); err != nil {
			t.Fatal(err)
		}
		if err := expectLocator(w.p.GetByTestId("billing-plan")).ToHaveText(w.tr("Enterprise", "企业版")); err != nil {
			t.Fatal(err)
		}
		w.see(w.text(w.tr("Yearly", "按年")))
		w.see(w.p.GetByTestId("billing-state").GetByText(w.tr("Renews on", "续费")))
		invoices := w.p.GetByTestId("invoices")
		w.see(invoices)
		if n, _ := invoices.Locator("tbody tr").Count(); n == 0 {
			t.Errorf("[%s] no invoices listed", l.name)
		}
		// stripe-mock's invoice: its number, and its amount in its currency as the reader writes money.
		w.see(invoices.GetByRole("row").Nth(1).GetByText(regexp.MustCompile(`[$¥€£]|US\$|CN¥`)))
		w.accessible("billing")
		w.shoot("billing")
		w.click(w.button(w.tr("Manage billing", "管理账单")))
		w.leftFor(asked, "customer_portal")

		// A renewal fails: the page says since when, and until when the plan stays.
		failed := stripeEvent("evt_web_failed_"+l.name, "invoice.payment_failed", time.Now(), invoiceObject(tn.WorkspaceID, "sub_web_"+l.name))
		if r := s.webhook(failed, testWebhookSecret, time.Now()); r.Status != http.StatusOK {
			t.Fatalf("webhook: %d %s", r.Status, r.Body)
		}
		w.open("/billing", w.tr("Billing", "账单"))
		if err := expectLocator(w.p.GetByTestId("billing-status")).ToHaveText(w.tr("Payment due", "待付款")); err != nil {
			t.Fatal(err)
		}
		w.see(w.p.GetByTestId("billing-state").GetByText(w.tr("A payment failed on", "扣款失败")))
		w.shoot("billing-past-due")

		// More changes, then the audit log: 50 events a page.
		for i := range 55 {
			r := s.do("PATCH", fmt.Sprintf("/api/v1/workspaces/%d", tn.WorkspaceID), tn.Token, map[string]string{"name": fmt.Sprintf("Team %s %d", l.name, i)})
			if r.Status != http.StatusOK {
				t.Fatalf("rename: %d %s", r.Status, r.Body)
			}
		}
		w.open("/audit", w.tr("Audit log", "审计日志"))
		rows := w.p.GetByTestId("audit-event")
		if err := expectLocator(rows).ToHaveCount(50); err != nil {
			t.Fatalf("[%s] the first page: %v", l.name, err)
		}
		w.see(rows.First().GetByText(w.tr("Workspace renamed", "工作区改名")))
		w.see(rows.First().GetByText(email))
		// The details in the reader's words: "名称：…", not "name: …".
		w.see(rows.First().GetByText(w.tr("Name: ", "名称：") + "Team " + l.name + " 54"))
		// The target by its name, not "Workspace 4".
		w.see(rows.First().GetByTestId("audit-target").GetByText("Team "+l.name+" 54", playwright.LocatorGetByTextOptions{Exact: playwright.Bool(true)}))
		w.accessible("audit")
		w.wholeTitles("audit")
		// A phone scrolls the log sideways rather than breaking every cell into a column of
		// letters: the action reads on one line.
		if lines, err := rows.First().Locator("td").Nth(2).Evaluate(`td => { const r = document.createRange(); r.selectNodeContents(td); return new Set([...r.getClientRects()].map((q) => Math.round(q.top))).size }`, nil); err != nil || lines != 1 {
			t.Errorf("[%s] the action on %v lines: %v", l.name, lines, err)
		}
		w.shoot("audit")
		w.click(w.button(w.tr("Load more", "加载更多")))
		if err := expectLocator(rows).ToHaveCount(58); err != nil { // 55 renames, 2 billing changes, the sign-up's API key
			t.Fatalf("[%s] after Load more: %v", l.name, err)
		}
		if err := expectLocator(w.button(w.tr("Load more", "加载更多"))).ToHaveCount(0); err != nil {
			t.Errorf("[%s] Load more on the last page: %v", l.name, err)
		}
		billed := rows.Filter(playwright.LocatorFilterOptions{HasText: w.tr("Stripe event: ", "Stripe 事件：") + "evt_web_" + l.name})
		w.see(billed.GetByText(w.tr("System", "系统"), playwright.LocatorGetByTextOptions{Exact: playwright.Bool(true)}))
		w.see(billed.GetByText(w.tr("Billing changed", "账单变更")))
		w.see(billed.GetByText(w.tr("Status: Active", "状态：生效中")))
		w.see(billed.GetByTestId("audit-target").GetByText("Team "+l.name+" 54", playwright.LocatorGetByTextOptions{Exact: playwright.Bool(true)}))

		name, body := w.download(w.button(w.tr("Export CSV", "导出 CSV")))
		lines := strings.Split(strings.TrimSpace(string(body)), "\n")
		if len(lines) != 59 || !strings.HasPrefix(lines[0], "at,actor_type,actor_id,actor_email,action,target,details") ||
			!strings.Contains(string(body), "billing.changed") {
			t.Errorf("[%s] export %s: %d lines, %.300q", l.name, name, len(lines), body)
		}
		w.see(w.text(w.tr("The audit log is downloaded.", "审计日志已下载。")))

		// The operator's list of workspaces shows the subscription.
		if l.phone() {
			return
		}
		op := walk(t, s, l)
		op.signIn("operator@sho.rt", "operator-password")
		op.open("/admin", op.tr("Operator", "运营后台"))
		op.click(op.p.GetByTestId("admin-tab").GetByText(op.tr("Workspaces", "工作区"), playwright.LocatorGetByTextOptions{Exact: playwright.Bool(true)}))
		row := op.p.GetByTestId("admin-workspaces").Locator("tr").Filter(playwright.LocatorFilterOptions{HasText: "Team " + l.name + " 54"})
		op.see(row.GetByTestId("admin-billing").GetByText(op.tr("Payment due", "待付款")))
		op.see(row.GetByTestId("admin-billing").GetByText(op.tr("Enterprise", "企业版")))
		op.see(row.GetByTestId("admin-billing").GetByText(op.tr("payment failed", "扣款失败")))
		op.see(row.GetByTestId("admin-billing").GetByText(op.tr("until", "至")))
		op.shoot("admin-billing")
	})
}

// With billing off, the navigation has no billing page; opened by its address it says billing
// is not set up (without asking for the billing, which would be refused), and the plan page
// names the operator as the way to a paid plan.
func TestWebAppBillingOff(t *testing.T) {
	s := newDeployment(t).start(t)
	eachLook(t, twoLooks, func(t *testing.T, l look) {
		email := fmt.Sprintf("billing-off-%s@example.com", l.name)
		s.signup(email)
		w := walk(t, s, l)
		w.signIn(email, "correct horse battery")
		w.open("/plan", "")
		w.see(w.exact("region", w.tr("Enterprise", "企业版")).GetByText(w.tr("ask the operator of this service", "请联系本服务的运营人员")))
		if n, _ := w.button(w.tr("Upgrade", "升级")).Count(); n != 0 {
			t.Errorf("[%s] Upgrade offered with billing off", l.name)
		}
		if n, _ := w.p.GetByRole("link", playwright.PageGetByRoleOptions{Name: w.tr("Billing", "账单"), Exact: playwright.Bool(true)}).Count(); n != 0 {
			t.Errorf("[%s] the billing page is in the navigation with billing off", l.name)
		}
		w.open("/billing", w.tr("Billing", "账单"))
		w.see(w.text(w.tr("Billing is not set up", "未开通在线账单")))
		w.accessible("billing-off")
		w.shoot("billing-off")
	})
}
