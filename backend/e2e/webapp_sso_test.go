package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/playwright-community/playwright-go"
)

// An owner on the enterprise plan sets up single sign-on in the web app: the provider, the
// secret, the email domain, the TXT record to set (checked against a real DNS server), then
// enforce. A person of that domain then signs in with "Sign in with SSO" through the real
// provider's login page and lands in the web app, signed in, a member of the workspace.
func TestWebAppSSO(t *testing.T) {
	ns := startDNS(t)
	s := newDeployment(t).start(t, "DNS_RESOLVER", ns.Addr, "SSO_ALLOW_LOOPBACK", "true")
	users := idpUsers{}
	for _, l := range twoLooks {
		users[l.name] = idpUser(l.name, "walker@sso-"+l.name+".com", true)
	}
	p := startIdP(t, newIdPStorage(users))
	eachLook(t, twoLooks, func(t *testing.T, l look) {
		owner := "owner-" + l.name + "@example.com"
		domain := "sso-" + l.name + ".com"
		tn := s.signupOn(owner, "enterprise")
		w := walk(t, s, l)
		w.refused(404) // the page asks for the settings before there are any
		w.signIn(owner, "correct horse battery")

		// From the settings to the page of single sign-on.
		w.open("/settings", w.tr("Workspace settings", "工作区设置"))
		w.click(w.link(w.tr("Set up", "设置")))
		w.at("/sso")
		w.see(w.heading(w.tr("Single sign-on", "单点登录")))
		w.fill(w.textbox(w.tr("Issuer URL", "颁发者（Issuer）URL")), p.URL)
		w.fill(w.textbox(w.tr("Client ID", "客户端 ID")), "shortlink")
		w.fill(w.p.GetByLabel(w.tr("Client secret", "客户端密钥")), idpClientSecret)
		w.fill(w.textbox(w.tr("Email domain", "邮箱域名")), strings.ToUpper(domain))
		w.click(w.button(w.tr("Save", "保存")))
		w.see(w.text(w.tr("Waiting for the TXT record", "等待 TXT 记录")))
		if err := expectLocator(w.p.GetByTestId("sso-txt-name")).ToHaveText("_shortlink-sso." + domain); err != nil {
			t.Fatal(err)
		}
		value, err := w.p.GetByTestId("sso-txt-value").TextContent()
		if err != nil || !strings.HasPrefix(value, "sl-sso-") {
			t.Fatalf("TXT value %q: %v", value, err)
		}
		if err := expectLocator(w.p.GetByTestId("sso-callback")).ToHaveText(ssoCallback); err != nil {
			t.Fatal(err)
		}
		// Not proven yet: enforce waits for the record, and checking without it says so.
		if err := expectLocator(w.p.GetByRole("switch", playwright.PageGetByRoleOptions{Name: w.tr("Enforce single sign-on", "强制使用单点登录")})).ToBeDisabled(); err != nil {
			t.Fatalf("enforce before the proof: %v", err)
		}
		// The toast of the save gone (its close button has no name), then the check.
		if err := expectLocator(w.text(w.tr("Single sign-on saved", "单点登录已保存"))).ToBeHidden(); err != nil {
			t.Fatal(err)
		}
		w.click(w.button(w.tr("Check the record now", "立即检查记录")))
		w.see(w.p.GetByTestId("sso-problem"))
		w.accessible("sso")
		w.shoot("sso")
		ns.set("_shortlink-sso."+domain, value)
		w.click(w.button(w.tr("Check the record now", "立即检查记录")))
		w.see(w.text(w.tr("Proven", "已验证")))
		w.click(w.p.GetByRole("switch", playwright.PageGetByRoleOptions{Name: w.tr("Enforce single sign-on", "强制使用单点登录")}))
		w.click(w.button(w.tr("Save", "保存")))
		w.see(w.text(w.tr("Enforced", "已强制")))
		// The secret is never shown again.
		if html, _ := w.p.Content(); strings.Contains(html, idpClientSecret) {
			t.Fatal("the page shows the client secret")
		}

		// A person of the domain signs in through the provider.
		v := walk(t, s, l)
		v.refused(404) // the provider's page has no favicon
		v.open("/login", "")
		v.fill(v.p.GetByTestId("email"), "walker@"+domain)
		v.click(v.button(v.tr("Sign in with SSO", "使用 SSO 登录")))
		if err := reachURL(v.p, p.URL+"/login/username**"); err != nil {
			t.Fatalf("not at the provider's login page: %v (at %s)", err, v.p.URL())
		}
		v.fill(v.p.GetByLabel("Username:"), l.name)
		v.fill(v.p.GetByLabel("Password:"), "pw-"+l.name)
		v.click(v.button("Login"))
		v.at("/links")
		members := answer[struct {
			Members []struct{ Email, Role string }
		}](t, s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/members", tn.WorkspaceID), tn.Token, nil), 200, "members")
		found := false
		for _, m := range members.Members {
			found = found || (m.Email == "walker@"+domain && m.Role == "member")
		}
		if !found {
			t.Fatalf("the person did not join: %+v", members)
		}
		// Their password sign-in is refused, in the app's words.
		v2 := walk(t, s, l)
		v2.refused(403)
		v2.open("/login", "")
		v2.fill(v2.p.GetByTestId("email"), "walker@"+domain)
		v2.fill(v2.p.GetByTestId("password"), "whatever password")
		v2.click(v2.p.GetByTestId("submit"))
		v2.see(v2.text(v2.tr("Your organisation signs in with single sign-on", "您的组织使用单点登录")))
	})
}

// A person with two-factor sign-in on signs in with SSO: after the provider, the app asks for
// the authenticator's code, then opens signed in.
func TestWebAppSSOTwoFactor(t *testing.T) {
	s, _, _, secret := startSSOWithTwoFactor(t, "sso-walk-mfa.com")
	eachLook(t, []look{zhDesktop}, func(t *testing.T, l look) {
		v := walk(t, s, l)
		v.refused(404) // the provider's page has no favicon
		v.open("/login", "")
		v.fill(v.p.GetByTestId("email"), "zoe@sso-walk-mfa.com")
		v.click(v.button(v.tr("Sign in with SSO", "使用 SSO 登录")))
		v.fill(v.p.GetByLabel("Username:"), "zoe")
		v.fill(v.p.GetByLabel("Password:"), "pw-zoe")
		v.click(v.button("Login"))
		v.see(v.heading(v.tr("One more step", "还差一步")))
		v.accessible("sso-second-step")
		v.fill(v.textbox(v.tr("Code", "验证码")), totpCode(t, secret, 30*time.Second))
		v.click(v.exactButton(v.tr("Sign in", "登录")))
		v.at("/links")
	})
}
