package e2e

import (
	"net/http"
	"testing"
	"time"

	"github.com/playwright-community/playwright-go"
)

// A customer adds a webhook in the web app, copies its secret (shown once), sends a test that
// the receiver verifies, reads the delivery log (stacked cards on a phone, each inside the
// window), opens the test's request and answer in a dialog that fits the screen, resends it,
// disables the webhook and deletes it.
func TestWebAppWebhooks(t *testing.T) {
	s := newDeployment(t).start(t, "WEBHOOK_ALLOW_LOOPBACK", "true")
	eachLook(t, twoLooks, func(t *testing.T, l look) {
		email := "webhooks-" + l.name + "@example.com"
		s.signupOn(email, "personal")
		rcv := newHookReceiver(t)
		w := walk(t, s, l)
		w.signIn(email, "correct horse battery")
		w.open("/webhooks", w.tr("Webhooks", "Webhook"))
		w.see(w.text(w.tr("No webhooks yet.", "还没有 Webhook。")))
		w.accessible("webhooks")

		// The app's own check first, then the server's refusal in the app's words.
		w.fill(w.p.GetByTestId("webhook-url"), "not a url")
		w.click(w.button(w.tr("Add webhook", "添加 Webhook")))
		w.see(w.text(w.tr("Enter an https address.", "请输入 https 地址。")))
		w.refused(http.StatusBadRequest)
		w.fill(w.p.GetByTestId("webhook-url"), "https://10.0.0.1/in")
		w.click(w.button(w.tr("Add webhook", "添加 Webhook")))
		w.see(w.text(w.tr("Webhooks are sent only to public addresses.", "Webhook 只发送到公网地址。")))

		w.fill(w.p.GetByTestId("webhook-url"), rcv.url("/in"))
		w.click(w.role("checkbox", "link.clicked"))
		w.click(w.button(w.tr("Add webhook", "添加 Webhook")))
		secretBox := w.p.GetByTestId("new-webhook-secret")
		w.see(secretBox)
		secret, err := secretBox.Locator("code").TextContent()
		if err != nil || len(secret) < 10 {
			t.Fatalf("secret %q: %v", secret, err)
		}
		rcv.setSecret(secret)
		w.shoot("webhooks")

		w.click(w.button(w.tr("Send a test", "发送测试")))
		w.see(w.text(w.tr("Test delivered (200)", "测试已送达（200）")))
		if got := len(rcv.ofType("webhook.test")); got != 1 {
			t.Errorf("the receiver verified %d tests", got)
		}
		// A table on a desktop, stacked cards on a phone, each delivery inside the window.
		first := w.p.GetByTestId("delivery").First()
		w.see(first.GetByText("webhook.test", playwright.LocatorGetByTextOptions{Exact: playwright.Bool(true)}))
		w.see(first.GetByText(w.tr("Delivered", "已送达"), playwright.LocatorGetByTextOptions{Exact: playwright.Bool(true)}))
		if n, err := w.p.GetByRole("table").Filter(playwright.LocatorFilterOptions{Has: first}).Count(); err != nil || (n > 0) == l.phone() {
			t.Errorf("[%s] the deliveries in a table: %d (phone %v): %v", l.name, n, l.phone(), err)
		}
		// Centred in the window, not brought just inside its edge: a line of the page above it
		// that settles a moment later keeps it inside.
		if _, err := first.Evaluate(`el => el.scrollIntoView({block: "center"})`, nil); err != nil {
			t.Fatal(err)
		}
		w.fits("a delivery", "[data-testid=delivery]:first-child")
		w.shoot("webhook-deliveries")

		// A delivery opens its request and the receiver's answer in a dialog that fits the
		// screen, and is sent again: the same message, a new row naming the one it resent.
		w.click(first.GetByRole("button", playwright.LocatorGetByRoleOptions{Name: w.tr("Show the request and answer", "显示请求与响应")}))
		dialog := w.p.GetByRole("dialog")
		w.see(dialog.GetByTestId("delivery-response-body").GetByText(`"accepted": true`))
		w.see(dialog.GetByTestId("delivery-request-body").GetByText(`"type": "webhook.test"`))
		w.see(dialog.GetByText(w.tr("Status 200", "状态码 200")))
		w.transitionsDone()
		w.fits("the exchange's title", "[role=dialog] .mantine-Modal-header")
		w.fitsAcross("the exchange", "[role=dialog]")
		w.accessible("webhook-delivery-exchange")
		w.shoot("webhook-delivery-exchange")
		w.press("Escape")
		w.gone(dialog)
		// The log's own button: the banner above has a Resend of its own (the verification mail).
		w.click(first.GetByRole("button", playwright.LocatorGetByRoleOptions{Name: w.tr("Resend", "重新发送"), Exact: playwright.Bool(true)}))
		w.see(w.text(w.tr("Resent: Delivered", "已重新发送：已送达")))
		w.see(w.text(w.tr("A resend of delivery", "重新发送自投递")))
		if tests := rcv.ofType("webhook.test"); len(tests) != 2 || tests[0].ID != tests[1].ID {
			t.Errorf("the receiver verified %d tests, want the test and its resend", len(tests))
		}

		w.click(w.role("switch", w.tr("Enabled", "启用")))
		eventually(t, 5*time.Second, "the webhook disabled", func() bool {
			checked, err := w.role("switch", w.tr("Enabled", "启用")).IsChecked()
			return err == nil && !checked
		})
		w.click(w.button(w.tr("Delete", "删除")))
		w.click(w.p.GetByRole("dialog").GetByRole("button", playwright.LocatorGetByRoleOptions{Name: w.tr("Delete", "删除"), Exact: playwright.Bool(true)}))
		w.see(w.text(w.tr("No webhooks yet.", "还没有 Webhook。")))
		rcv.checkResent(1)
	})
}
