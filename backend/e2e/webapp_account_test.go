package e2e

import (
	"net/url"
	"strings"
	"testing"

	"github.com/playwright-community/playwright-go"

	"github.com/shortlink/shortlink/backend/browsertest"
)

// TestWebAppAccountRecovery plays a customer who signs up, meets the banner asking to verify
// the address and has the link sent again, then forgets the password: from the login page,
// through the mail, to signing in with a new one.
func TestWebAppAccountRecovery(t *testing.T) {
	s := newDeployment(t).start(t)
	eachLook(t, twoLooks, func(t *testing.T, l look) {
		w := walk(t, s, l)
		email := "walker-" + l.name + "@example.com"

		// Sign-up: the banner asks to verify the address until it is; Resend mails a new link.
		w.open("/signup", "")
		w.fill(w.p.GetByTestId("email"), email)
		w.fill(w.p.GetByTestId("password"), "correct horse battery")
		w.click(w.p.GetByTestId("submit"))
		w.at("/links")
		w.see(w.text(w.tr("Verify your email address", "请验证你的邮箱地址")))
		w.click(w.button(w.tr("Resend", "重新发送")))
		w.see(w.text(w.tr("A new verification link is on its way.", "新的验证链接已在发送途中。")))
		// The mails are in the look's language, the one the app signed up in.
		confirm := w.tr("Confirm your email address", "请确认您在 Shortlink 的邮箱地址")
		s.mailbox.WaitSubject(t, email, confirm)
		s.mailbox.WaitSubject(t, email, confirm)
		w.shoot("account-banner")

		// Forgot password: from the login page, through the mail, to signing in again.
		w.click(w.p.GetByTestId("account-menu"))
		w.click(w.p.GetByTestId("logout"))
		w.at("/login")
		w.click(w.link(w.tr("Forgot password?", "忘记密码？")))
		w.at("/forgot-password")
		// The address field once the page is shown: the login page, kept on screen while the
		// new page's code loads, has an Email field too.
		w.see(w.exactHeading(w.tr("Reset your password", "重置密码")))
		w.fill(w.textbox(w.tr("Email", "邮箱")), email)
		w.click(w.button(w.tr("Send the link", "发送链接")))
		w.see(w.p.GetByTestId("reset-sent"))
		w.shoot("account-forgot")
		w.openMailLink(s.mailbox.WaitSubject(t, email, w.tr("Reset your Shortlink password", "重置您的 Shortlink 密码")).Link(t))
		w.fill(w.p.GetByLabel(w.tr("New password", "新密码")), "a brand new password")
		w.click(w.button(w.tr("Set the new password", "设置新密码")))
		w.see(w.text(w.tr("Password changed: log in with it.", "密码已修改")))
		w.signIn(email, "a brand new password")
		// The reset link proved the address: no banner any more.
		if err := expectLocator(w.text(w.tr("Verify your email address", "请验证你的邮箱地址"))).ToBeHidden(); err != nil {
			t.Errorf("[%s] the banner once the reset proved the address: %v", l.name, err)
		}
	})
}

// TestWebAppAccount plays a customer through the account page: a new password, two sessions
// and signing the other out, a new email address confirmed from the mail, and deleting the
// account.
func TestWebAppAccount(t *testing.T) {
	s := newDeployment(t).start(t)
	eachLook(t, twoLooks, func(t *testing.T, l look) {
		email := "walker-" + l.name + "@example.com"
		password := "correct horse battery"
		s.signup(email)
		w := walk(t, s, l)
		w.signIn(email, password)

		// The account page, from the account menu.
		w.click(w.p.GetByTestId("account-menu"))
		w.click(w.role("menuitem", w.tr("Account settings", "账户设置")))
		w.at("/account")
		w.see(w.exactHeading(w.tr("Account", "账户")))

		// A new password; this session stays signed in.
		pw := w.role("region", w.tr("Password", "密码"))
		w.fill(pw.GetByLabel(w.tr("Current password", "当前密码")), password)
		password = "a brand new password"
		w.fill(pw.GetByLabel(w.tr("New password", "新密码")), password)
		w.click(pw.GetByRole("button", playwright.LocatorGetByRoleOptions{Name: w.tr("Change password", "更改密码")}))
		w.see(w.text(w.tr("Password changed.", "密码已更改")))

		// A second browser signs in: two sessions; signing it out sends it to the login page.
		_, other, _ := openApp(t, s, l.size, browsertest.Options{Locale: l.locale, UserAgent: browsertest.PersonUserAgent})
		second := &walker{t: t, l: l, p: other, base: w.base}
		second.signIn(email, password)
		if _, err := w.p.Reload(); err != nil {
			t.Fatal(err)
		}
		sessions := w.role("region", w.tr("Sessions", "会话"))
		rows := sessions.GetByRole("listitem")
		if err := expectLocator(rows).ToHaveCount(2); err != nil {
			t.Fatalf("[%s] sessions: %v", l.name, err)
		}
		w.see(sessions.GetByText(w.tr("This device", "本设备")))
		w.shoot("account-sessions")
		otherRow := rows.Filter(playwright.LocatorFilterOptions{HasNotText: w.tr("This device", "本设备")})
		w.click(otherRow.GetByRole("button"))
		w.see(w.text(w.tr("The session was signed out.", "该会话已退出。")))
		if err := expectLocator(rows).ToHaveCount(1); err != nil {
			t.Fatalf("[%s] sessions after signing one out: %v", l.name, err)
		}
		if _, err := other.Goto(w.base + "/links"); err != nil {
			t.Fatal(err)
		}
		second.at("/login")

		// A new address: pending until the link mailed to it is opened.
		newEmail := "moved-" + l.name + "@example.com"
		em := w.role("region", w.tr("Email address", "邮箱地址"))
		w.fill(em.GetByLabel(w.tr("New email address", "新邮箱地址")), newEmail)
		w.fill(em.GetByLabel(w.tr("Current password", "当前密码")), password)
		w.click(em.GetByRole("button", playwright.LocatorGetByRoleOptions{Name: w.tr("Change email", "更改邮箱")}))
		w.see(em.GetByText(newEmail))
		w.openMailLink(s.mailbox.WaitSubject(t, newEmail, "Confirm your new email address").Link(t))
		w.see(w.text(w.tr("Your email address is verified.", "你的邮箱地址已验证。")))
		w.open("/account", "")
		w.see(w.exactHeading(w.tr("Account", "账户")))
		w.see(w.p.GetByTestId("current-email").GetByText(newEmail))
		s.mailbox.WaitSubject(t, email, "Your Shortlink email address was changed")

		// Deleting the account asks for the password and a confirmation.
		del := w.role("region", w.tr("Delete account", "删除账户"))
		w.fill(del.GetByLabel(w.tr("Current password", "当前密码")), password)
		w.click(del.GetByRole("button", playwright.LocatorGetByRoleOptions{Name: w.tr("Delete account", "删除账户")}))
		dialog := w.role("dialog", w.tr("Delete your account for good?", "永久删除你的账户？"))
		w.click(dialog.GetByRole("button", playwright.LocatorGetByRoleOptions{Name: w.tr("Delete account", "删除账户")}))
		w.at("/login")
		w.see(w.text(w.tr("Your account was deleted.", "你的账户已删除。")))
		if r := s.do("POST", "/api/v1/auth/login", "", map[string]string{"email": newEmail, "password": password}); r.Status != 401 {
			t.Errorf("[%s] login after deletion: %d %s", l.name, r.Status, r.Body)
		}
	})
}

// openMailLink opens a link from a mail (http://sho.rt/app/…) in the walker's page.
func (w *walker) openMailLink(link string) {
	w.t.Helper()
	u, err := url.Parse(link)
	if err != nil || !strings.HasPrefix(u.Path, "/app/") {
		w.t.Fatalf("[%s] mail link %q", w.l.name, link)
	}
	if _, err := w.p.Goto(link); err != nil {
		w.t.Fatalf("[%s] open %s: %v", w.l.name, link, err)
	}
}

// exactHeading is the heading named exactly name.
func (w *walker) exactHeading(name string) playwright.Locator {
	return w.p.GetByRole("heading", playwright.PageGetByRoleOptions{Name: name, Exact: playwright.Bool(true)})
}
