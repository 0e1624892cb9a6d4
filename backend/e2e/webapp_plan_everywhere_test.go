package e2e

import (
	"fmt"
	"net/http"
	"testing"
	"time"
)

// A workspace on Personal bought through Stripe says Personal in the workspace switcher as on the
// plan page; after a failed renewal, every page (not only Billing) says the payment is due and
// leads to Billing. A workspace an operator moved to Enterprise is told on Billing that nothing is
// billed for it.
func TestWebAppPlanEverywhere(t *testing.T) {
	_, s := startBilling(t)
	eachLook(t, twoLooks, func(t *testing.T, l look) {
		email := fmt.Sprintf("everywhere-%s@example.com", l.name)
		tn := s.signup(email)
		sub := "sub_everywhere_" + l.name
		created := stripeEvent("evt_everywhere_"+l.name, "customer.subscription.created", time.Now(),
			subscriptionObject(tn.WorkspaceID, sub, "active", "price_pm", time.Now().AddDate(0, 1, 0), false))
		failed := stripeEvent("evt_everywhere_failed_"+l.name, "invoice.payment_failed", time.Now(), invoiceObject(tn.WorkspaceID, sub))
		for _, e := range [][]byte{created, failed} {
			if r := s.webhook(e, testWebhookSecret, time.Now()); r.Status != http.StatusOK {
				t.Fatalf("webhook: %d %s", r.Status, r.Body)
			}
		}
		w := walk(t, s, l)
		w.signIn(email, "correct horse battery")
		for _, page := range []string{"/links", "/plan", "/settings"} {
			w.open(page, "")
			banner := w.p.GetByTestId("payment-due")
			w.see(banner)
			if err := expectLocator(banner).ToContainText(w.tr("A payment failed on", "扣款失败")); err != nil {
				t.Errorf("[%s] %s: the payment due: %v", l.name, page, err)
			}
		}
		w.see(w.p.GetByTestId("payment-due").GetByRole("link"))
		w.open("/plan", "")
		if err := expectLocator(w.p.GetByTestId("current-plan")).ToHaveText(w.tr("Personal", "个人版")); err != nil {
			t.Errorf("[%s] the plan page: %v", l.name, err)
		}
		if !l.phone() {
			if err := expectLocator(w.p.GetByTestId("workspace-switcher")).ToContainText(w.tr("Personal", "个人版")); err != nil {
				t.Errorf("[%s] the switcher: %v", l.name, err)
			}
		}
		w.shoot("payment-due-everywhere")

		// A workspace an operator moved to Enterprise: Billing says nothing is billed for it,
		// not "no subscription, choose a plan".
		given := fmt.Sprintf("given-%s@example.com", l.name)
		s.setPlan(s.signup(given), "enterprise")
		g := walk(t, s, l)
		g.signIn(given, "correct horse battery")
		g.open("/billing", g.tr("Billing", "账单"))
		if err := expectLocator(g.p.GetByTestId("billing-state")).ToHaveText(g.tr(
			"This workspace is on Enterprise without a subscription: nothing is billed for it.", "此工作区使用企业版，但没有订阅：不会为它收费。")); err != nil {
			t.Errorf("[%s] billing of a plan given by the operator: %v", l.name, err)
		}
		if n, _ := g.link(g.tr("Choose a plan", "选择套餐")).Count(); n != 0 {
			t.Errorf("[%s] a workspace on Enterprise is asked to choose a plan", l.name)
		}
	})
}
