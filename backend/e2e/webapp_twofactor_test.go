package e2e

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/playwright-community/playwright-go"
)

// TestWebAppTwoFactor plays a customer who turns on two-factor sign-in on the account page
// (the key shown under the QR code typed into an authenticator, here computed by the test),
// keeps the recovery codes, and then logs in with password and code, with a wrong code first,
// and with a recovery code.
func TestWebAppTwoFactor(t *testing.T) {
	s := newDeployment(t).start(t)
	eachLook(t, twoLooks, func(t *testing.T, l look) {
		email := "walker-" + l.name + "@example.com"
		password := "correct horse battery"
		tn := s.signup(email)
		s.joined(tn, "plain-"+l.name+"@example.com", "member") // a member who keeps 2FA off
		w := walk(t, s, l)
		w.signIn(email, password)

		// Turning it on: a QR code, the key as text, a code of the app to confirm.
		w.open("/account", "")
		w.see(w.exactHeading(w.tr("Account", "账户")))
		sec := w.role("region", w.tr("Two-factor sign-in", "两步验证"))
		w.see(sec.GetByTestId("two-factor-state").GetByText(w.tr("Off", "未开启")))
		w.click(sec.GetByRole("button", playwright.LocatorGetByRoleOptions{Name: w.tr("Turn on two-factor sign-in", "开启两步验证")}))
		w.see(sec.GetByRole("img", playwright.LocatorGetByRoleOptions{Name: w.tr("QR code to add your account to an authenticator app", "将账户添加到身份验证器应用的二维码")}))
		w.see(sec.GetByText(w.tr("Can't scan it?", "无法扫描？")))
		secret, err := sec.GetByTestId("totp-secret").TextContent()
		if err != nil || len(strings.TrimSpace(secret)) < 16 {
			t.Fatalf("[%s] the key shown: %q %v", l.name, secret, err)
		}
		secret = strings.TrimSpace(secret)
		w.accessible("account, two-factor enrolment")
		w.shoot("twofactor-enrol")
		w.fill(sec.GetByLabel(w.tr("Code from the app", "应用中的验证码")), totpCode(t, secret, 0))
		w.click(sec.GetByRole("button", playwright.LocatorGetByRoleOptions{Name: w.tr("Confirm and turn on", "确认并开启")}))

		// The ten recovery codes, shown once, with copy and download.
		codes := sec.GetByTestId("recovery-codes")
		w.see(codes)
		items := codes.GetByRole("listitem")
		if err := expectLocator(items).ToHaveCount(10); err != nil {
			t.Fatalf("[%s] recovery codes: %v", l.name, err)
		}
		recovery, err := items.First().TextContent()
		if err != nil || !strings.Contains(recovery, "-") {
			t.Fatalf("[%s] first recovery code %q %v", l.name, recovery, err)
		}
		w.see(codes.GetByRole("button", playwright.LocatorGetByRoleOptions{Name: w.tr("Copy codes", "复制恢复码")}))
		if name, body := w.download(codes.GetByRole("button", playwright.LocatorGetByRoleOptions{Name: w.tr("Download", "下载")})); name != "shortlink-recovery-codes.txt" || !strings.Contains(string(body), recovery) {
			t.Fatalf("[%s] downloaded %q: %q", l.name, name, body)
		}
		w.shoot("twofactor-codes")
		w.click(codes.GetByRole("button", playwright.LocatorGetByRoleOptions{Name: w.tr("I have saved them", "我已保存")}))
		w.see(sec.GetByTestId("two-factor-state").GetByText(w.tr("On", "已开启")))

		// Logging in: the password, then a code; a wrong code says so in the look's language.
		w.logOut()
		w.passwordStep(email, password)
		w.see(w.heading(w.tr("Two-factor sign-in", "两步验证")))
		code := w.textbox(w.tr("Authentication code", "验证码"))
		if ac, _ := code.GetAttribute("autocomplete"); ac != "one-time-code" {
			t.Errorf("[%s] the code's autocomplete %q", l.name, ac)
		}
		if im, _ := code.GetAttribute("inputmode"); im != "numeric" {
			t.Errorf("[%s] the code's inputmode %q", l.name, im)
		}
		w.refused(http.StatusUnauthorized)
		w.fill(code, wrongCode(totpCode(t, secret, 0), totpCode(t, secret, 30*time.Second)))
		w.click(w.exactButton(w.tr("Verify", "验证")))
		w.see(w.text(w.tr("That code is not right.", "验证码不正确")))
		w.accessible("login, second step")
		w.shoot("twofactor-login")
		// The confirmation spent this step's code: the app's next one is taken.
		w.fill(code, totpCode(t, secret, 30*time.Second))
		w.click(w.exactButton(w.tr("Verify", "验证")))
		w.at("/links")

		// A recovery code instead of the app.
		w.logOut()
		w.passwordStep(email, password)
		w.click(w.button(w.tr("Use a recovery code instead", "改用恢复码")))
		w.fill(w.textbox(w.tr("Recovery code", "恢复码")), strings.TrimSpace(recovery))
		w.click(w.exactButton(w.tr("Verify", "验证")))
		w.at("/links")

		// The workspace's settings: requiring 2FA of members is an enterprise feature (a lock
		// hint on free); on enterprise its owner, who has 2FA, switches it on.
		w.open("/settings", w.tr("Workspace settings", "工作区设置"))
		req := w.role("region", w.tr("Require two-factor sign-in", "要求两步验证"))
		// The hint names what is locked, not the feature that carries it (single sign-on).
		w.see(req.GetByTestId("upgrade-hint-sso").GetByText(w.tr("Require two-factor sign-in: available on Enterprise.", "要求两步验证：企业版可用。")))
		policy := w.p.GetByTestId("session-policy")
		w.see(policy.GetByTestId("upgrade-hint-sso").GetByText(w.tr("Session policy: available on Enterprise.", "会话策略：企业版可用。")))
		// So do single sign-on and SCIM, in place, with no button to pages that would only say so.
		sso := w.p.GetByTestId("sso-card")
		w.see(sso.GetByTestId("upgrade-hint-sso").GetByText(w.tr("Single sign-on: available on Enterprise.", "单点登录：企业版可用。")))
		if err := expectLocator(sso.GetByTestId("open-sso")).ToHaveCount(0); err != nil {
			t.Errorf("[%s] single sign-on's button on a plan without it: %v", l.name, err)
		}
		s.setPlan(tn, "enterprise")
		// The member without 2FA: the Members page says who has it, and switching the demand
		// on asks first, saying how many it locks out.
		w.open("/members", w.tr("Members", "成员"))
		twoFA := w.p.GetByTestId("member-2fa")
		if err := expectLocator(twoFA).ToHaveText([]string{w.tr("On", "已开启"), w.tr("Off", "未开启")}); err != nil {
			t.Errorf("[%s] the members' 2FA: %v", l.name, err)
		}
		w.accessible("members with their 2FA")
		w.open("/settings", w.tr("Workspace settings", "工作区设置"))
		w.see(w.p.GetByTestId("open-sso"))
		sw := req.GetByRole("switch", playwright.LocatorGetByRoleOptions{Name: w.tr("Require two-factor sign-in of every member", "要求所有成员开启两步验证")})
		w.accessible("settings, require 2FA")
		w.click(sw)
		ask := w.role("dialog", w.tr("Require two-factor sign-in?", "要求两步验证？"))
		w.see(ask)
		if err := expectLocator(ask.GetByTestId("require-2fa-lockout")).ToHaveText(w.tr(
			"1 member has no two-factor sign-in: they will be locked out of this workspace's pages until they turn it on.",
			"1 位成员尚未开启两步验证：开启之前，他们将无法打开本工作区的页面。")); err != nil {
			t.Errorf("[%s] the lockout's count: %v", l.name, err)
		}
		w.settled(".mantine-Modal-content", ".mantine-Modal-overlay")
		w.accessible("settings, require 2FA asked")
		w.click(ask.GetByRole("button", playwright.LocatorGetByRoleOptions{Name: w.tr("Cancel", "取消")}))
		if err := expectLocator(sw).Not().ToBeChecked(); err != nil {
			t.Errorf("[%s] the switch after Cancel: %v", l.name, err)
		}
		w.click(sw)
		w.click(w.role("dialog", w.tr("Require two-factor sign-in?", "要求两步验证？")).GetByTestId("require-2fa-confirm"))
		w.see(w.text(w.tr("Members now need two-factor sign-in", "成员现在需要开启两步验证")))
		if err := expectLocator(sw).ToBeChecked(); err != nil {
			t.Errorf("[%s] the switch after turning it on: %v", l.name, err)
		}
		w.shoot("twofactor-settings")
	})
}

// TestWebAppTwoFactorRequired plays a member of a workspace that requires two-factor sign-in
// who has not turned it on: the workspace's pages say why, and lead to the account's settings.
func TestWebAppTwoFactorRequired(t *testing.T) {
	s := newDeployment(t).start(t)
	owner := s.signupOn("owner@example.com", "enterprise")
	s.enrol2FA(owner)
	answer[workspaceJSON](t, s.do("PATCH", fmt.Sprintf("/api/v1/workspaces/%d", owner.WorkspaceID), owner.Token, map[string]any{"require_2fa": true}), http.StatusOK, "require 2FA")
	eachLook(t, twoLooks, func(t *testing.T, l look) {
		email := "member-" + l.name + "@example.com"
		s.joined(owner, email, "member")
		w := walk(t, s, l)
		w.signIn(email, "correct horse battery")
		// The workspace's answer, 2fa_required, which the page explains: once when the sign-in
		// lands in the demanding workspace (the first listed), once more when it is opened below.
		w.refused(http.StatusForbidden)
		w.refused(http.StatusForbidden)
		// The workspace last used is the one the app opens: make it the demanding one.
		if _, err := w.p.Evaluate(fmt.Sprintf(`() => localStorage.setItem("sl.workspace", "%d")`, owner.WorkspaceID)); err != nil {
			t.Fatal(err)
		}
		w.open("/links", w.tr("This workspace requires two-factor sign-in", "此工作区要求两步验证"))
		w.accessible("workspace requiring two-factor sign-in")
		w.shoot("twofactor-required")
		w.click(w.link(w.tr("Set up two-factor sign-in", "设置两步验证")))
		w.at("/account*")
		w.see(w.role("region", w.tr("Two-factor sign-in", "两步验证")))
	})
}

// wrongCode is a six-digit code that is neither of the codes the app could show now.
func wrongCode(now, next string) string {
	for _, c := range []string{"000000", "111111", "222222"} {
		if c != now && c != next {
			return c
		}
	}
	return "333333"
}

// logOut signs out from the account menu as soon as the page shows it, its calls perhaps still
// under way (the app cancels them: none may come back 401), and waits for the login page.
func (w *walker) logOut() {
	w.t.Helper()
	w.click(w.p.GetByTestId("account-menu"))
	w.click(w.p.GetByTestId("logout"))
	w.at("/login")
}

// exactButton is the button named exactly name.
func (w *walker) exactButton(name string) playwright.Locator {
	return w.p.GetByRole("button", playwright.PageGetByRoleOptions{Name: name, Exact: playwright.Bool(true)})
}

// passwordStep fills the login page's first step.
func (w *walker) passwordStep(email, password string) {
	w.t.Helper()
	w.fill(w.p.GetByTestId("email"), email)
	w.fill(w.p.GetByTestId("password"), password)
	w.click(w.p.GetByTestId("submit"))
}
