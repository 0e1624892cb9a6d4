package e2e

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/playwright-community/playwright-go"
)

// An owner on the enterprise plan sets up SAML sign-on in the web app: chooses SAML, downloads
// Shortlink's service provider metadata (registered with a real SAML provider), uploads the
// provider's metadata, proves the email domain; a person of the domain then signs in through
// that provider end to end.
func TestWebAppSAML(t *testing.T) {
	ns := startDNS(t)
	s := newDeployment(t).start(t, "DNS_RESOLVER", ns.Addr, "SSO_ALLOW_LOOPBACK", "true")
	p := startSAMLIdP(t)
	for _, l := range twoLooks {
		p.addUser(t, l.name, "walker@saml-"+l.name+".com")
	}
	eachLook(t, twoLooks, func(t *testing.T, l look) {
		owner := "saml-owner-" + l.name + "@example.com"
		domain := "saml-" + l.name + ".com"
		tn := s.signupOn(owner, "enterprise")
		w := walk(t, s, l)
		w.refused(404) // the page asks for the settings before there are any
		w.signIn(owner, "correct horse battery")
		w.open("/settings", w.tr("Workspace settings", "工作区设置"))
		w.click(w.link(w.tr("Set up", "设置")))
		w.at("/sso")
		w.see(w.heading(w.tr("Single sign-on", "单点登录")))
		w.click(w.p.GetByText("SAML 2.0", playwright.PageGetByTextOptions{Exact: playwright.Bool(true)}))

		// Shortlink's metadata, for the provider.
		name, body := w.download(w.link(w.tr("Download Shortlink's SAML metadata", "下载 Shortlink 的 SAML 元数据")))
		acs := fmt.Sprintf("http://%s/api/v1/auth/saml/%d/acs", shortHost, tn.WorkspaceID)
		if name != "shortlink-saml-metadata.xml" || !strings.Contains(string(body), acs) {
			t.Fatalf("the service provider's metadata %q: %.300s", name, body)
		}
		p.admin(t, fmt.Sprintf("/services/ws%d", tn.WorkspaceID), body)

		// The provider's metadata, uploaded.
		if err := w.p.Locator("input[type=file]").SetInputFiles(playwright.InputFile{Name: "idp.xml", MimeType: "application/xml",
			Buffer: []byte(p.metadata(t))}); err != nil {
			t.Fatal(err)
		}
		w.fill(w.textbox(w.tr("Email domain", "邮箱域名")), domain)
		w.click(w.button(w.tr("Save", "保存")))
		w.see(w.text(w.tr("Waiting for the TXT record", "等待 TXT 记录")))
		if err := expectLocator(w.p.GetByTestId("saml-acs")).ToHaveText(acs); err != nil {
			t.Fatal(err)
		}
		if err := expectLocator(w.p.GetByTestId("sso-callback")).ToHaveCount(0); err != nil {
			t.Fatal(err)
		}
		w.accessible("sso-saml")
		value, err := w.p.GetByTestId("sso-txt-value").TextContent()
		if err != nil {
			t.Fatal(err)
		}
		ns.set("_shortlink-sso."+domain, value)
		if err := expectLocator(w.text(w.tr("Single sign-on saved", "单点登录已保存"))).ToBeHidden(); err != nil {
			t.Fatal(err)
		}
		w.click(w.button(w.tr("Check the record now", "立即检查记录")))
		w.see(w.text(w.tr("Proven", "已验证")))

		// A person of the domain signs in through the provider.
		b := s.ssoBrowser()
		r := s.samlFinish(s.samlSignIn(b, "walker@"+domain, l.name), "", samlCookie(b))
		if r.Status != http.StatusFound {
			t.Fatalf("sign-in: %d %s", r.Status, r.Body)
		}
		if _, email := s.ssoMe(r); email != "walker@"+domain {
			t.Fatalf("signed in as %s", email)
		}
	})
}
