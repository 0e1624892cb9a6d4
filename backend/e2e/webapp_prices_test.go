package e2e

import (
	"fmt"
	"testing"
)

// With billing on, the plan page shows each plan's price as Stripe's Price objects give it
// (stripe-mock's 20.00 USD), the trial's button says it is paid and what it costs, and Personal
// and Enterprise each offer Upgrade beside their price, none beside "Price on request".
func TestWebAppPlanPrices(t *testing.T) {
	_, s := startBilling(t)
	eachLook(t, twoLooks, func(t *testing.T, l look) {
		email := fmt.Sprintf("prices-%s@example.com", l.name)
		s.signup(email)
		w := walk(t, s, l)
		w.signIn(email, "correct horse battery")
		w.open("/plan", "")
		w.see(w.p.GetByTestId("current-plan"))
		for _, name := range []string{w.tr("Personal", "个人版"), w.tr("Enterprise", "企业版")} {
			card := w.exact("region", name)
			w.see(card.GetByText("US$20").Or(card.GetByText("$20")).First())
			if err := expectLocator(card.GetByText(w.tr("Price on request", "价格请咨询"))).ToHaveCount(0); err != nil {
				t.Errorf("[%s] %s on request: %v", l.name, name, err)
			}
			w.see(within(card, "button", w.tr("Upgrade", "升级")))
		}
		trial := w.exact("region", w.tr("Trial", "试用版"))
		start := within(trial, "button", w.tr("Start the 7-day trial (paid: $20)", "开始 7 天试用（付费：US$20）"))
		w.see(start)
		// Its words wrap in the narrow card rather than being cut.
		if whole, err := start.Evaluate(`b => [...b.querySelectorAll("*")].every(e => e.scrollWidth <= e.clientWidth + 1)`, nil); err != nil || whole != true {
			t.Errorf("[%s] the trial's button is cut: %v %v", l.name, whole, err)
		}
		w.accessible("the plan page with prices")
		w.shoot("plan-prices")
	})
}
