package e2e

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/playwright-community/playwright-go"

	"github.com/shortlink/shortlink/backend/browsertest"
)

// TestWebAppErrors: the server's refusals read in the customer's language, next to the field
// they are about (a taken address at sign-up, a host name no certificate could cover); a
// server that cannot be reached says so in the app's words; dates follow the language.
func TestWebAppErrors(t *testing.T) {
	ns := startDNS(t)
	s := newDeployment(t).start(t, "DNS_RESOLVER", ns.Addr)
	eachLook(t, twoLooks, func(t *testing.T, l look) {
		email := "errors-" + l.name + "@example.com"
		tn := s.signupOn(email, "enterprise")
		s.verify(email) // inviting needs a proven address
		// A domain checked once (no record yet), so the page shows when.
		s.verifyDomain(tn, s.addDomain(tn, "go-"+l.name+".example.com").ID)
		w := errorWalk(t, s, l)

		// Signing up with an address that has an account: the app's words, under the address.
		w.open("/signup", w.tr("Create your account", "创建账户"))
		w.fill(w.p.GetByLabel(w.tr("Email", "邮箱")).First(), email)
		w.fill(w.p.GetByLabel(w.tr("Password", "密码")).First(), "another long password")
		w.click(w.button(w.tr("Sign up", "注册")))
		w.fieldSays(w.p.GetByLabel(w.tr("Email", "邮箱")).First(),
			w.tr("An account with this email address already exists. Log in instead.", "该邮箱已注册，请直接登录。"))
		w.shoot("error-signup")

		// A host name under no public top-level domain: the app's check lets it through, the
		// server refuses it, and the refusal shows under the host name.
		w.signIn(email, "correct horse battery")
		w.open("/domains", w.tr("Domains", "自定义域名"))
		hostname := w.textbox(w.tr("Host name", "主机名"))
		w.fill(hostname, "intranet.local")
		w.click(w.button(w.tr("Add domain", "添加域名")))
		w.fieldSays(hostname, w.tr("Use a domain under a public top-level domain, such as .com.", "请使用公共顶级域名（如 .com）下的域名。"))
		w.shoot("error-hostname")

		// The domain's last check, in the look's words, and written the way the language
		// writes dates.
		record := "_shortlink-verify.go-" + l.name + ".example.com"
		w.see(w.p.GetByTestId("domain-problem").GetByText(w.tr("No TXT record "+record+" holds the value yet.", "尚未找到值正确的 TXT 记录 "+record+"。")))
		checked := w.text(w.tr("Last checked", "上次检查"))
		w.see(checked)
		when := regexp.MustCompile(w.tr(`Last checked [A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}\s?[AP]M\.`, `上次检查：\d{4}年\d{1,2}月\d{1,2}日 \d{2}:\d{2}。`))
		if text, err := checked.TextContent(); err != nil || !when.MatchString(text) {
			t.Errorf("[%s] the last check reads %q (%v), want %s", l.name, text, err, when)
		}

		// The server stops answering: the app says it cannot reach it, in the look's language.
		abort := func(r playwright.Route) { _ = r.Abort() }
		if err := w.p.Route("**/api/v1/**", abort); err != nil {
			t.Fatal(err)
		}
		w.fill(hostname, "go2.example.com")
		w.click(w.button(w.tr("Add domain", "添加域名")))
		w.see(w.p.GetByTestId("form-error").GetByText(w.tr("The service cannot be reached. Check your connection and try again.", "无法连接服务，请检查网络后重试。")))
		w.shoot("error-network")
		if err := w.p.Unroute("**/api/v1/**"); err != nil {
			t.Fatal(err)
		}

		// Inviting someone who is a member already: the app's words, under the address.
		w.open("/members", w.tr("Members", "成员"))
		invitee := w.textbox(w.tr("Email", "邮箱"))
		w.fill(invitee, email)
		w.click(w.button(w.tr("Invite", "邀请")))
		w.fieldSays(invitee, w.tr("This person is already a member.", "此用户已是成员。"))

		// An API key needs a scope: said under the scopes; with one, the key is made.
		w.open("/keys", w.tr("API keys", "API 密钥"))
		w.fill(w.textbox(w.tr("Name", "名称")), "ci")
		for _, scope := range []string{"links:read", "links:write", "stats:read"} {
			if err := w.role("checkbox", scope).Uncheck(); err != nil {
				t.Fatal(err)
			}
		}
		w.click(w.button(w.tr("Create key", "创建密钥")))
		w.see(w.text(w.tr("Choose at least one scope.", "至少选择一个权限。")))
		if err := w.role("checkbox", "links:read").Check(); err != nil {
			t.Fatal(err)
		}
		w.click(w.button(w.tr("Create key", "创建密钥")))
		w.see(w.p.GetByTestId("new-key"))
	})
}

// errorWalk is walk for a customer who meets refusals: the browser's own console lines for
// failed requests are expected; any other console error fails the test.
func errorWalk(t *testing.T, s *server, l look) *walker {
	t.Helper()
	b, p, _ := openApp(t, s, l.size, browsertest.Options{Locale: l.locale, UserAgent: browsertest.PersonUserAgent})
	w := &walker{t: t, l: l, b: b, p: p, base: "http://" + shortHost + "/app"}
	t.Cleanup(func() {
		for _, line := range consoleErrors(b) {
			if !strings.Contains(line, "Failed to load resource") {
				t.Errorf("[%s] console error: %q", l.name, line)
			}
		}
	})
	return w
}

// fieldSays waits until input shows text as its own error: marked invalid and described by
// the message, which the form does not repeat below.
func (w *walker) fieldSays(input playwright.Locator, text string) {
	w.t.Helper()
	if err := expectLocator(input).ToHaveAttribute("aria-invalid", "true"); err != nil {
		w.t.Fatalf("[%s] the field is not marked invalid at %s: %v (below the form: %q)", w.l.name, w.p.URL(), err, w.formError())
	}
	got, err := input.Evaluate(`(el) => (el.getAttribute("aria-describedby") || "").split(/\s+/)
		.map((id) => (id && document.getElementById(id)?.textContent) || "").join(" | ")`, nil)
	if err != nil {
		w.t.Fatal(err)
	}
	if desc := fmt.Sprint(got); !strings.Contains(desc, text) {
		w.t.Fatalf("[%s] the field says %q, want %q", w.l.name, desc, text)
	}
	if msg := w.formError(); msg != "" {
		w.t.Errorf("[%s] the form repeats the error below: %q", w.l.name, msg)
	}
}

// formError is the text of the form's error below it, "" when there is none.
func (w *walker) formError() string {
	all := w.p.GetByTestId("form-error")
	if n, err := all.Count(); err != nil || n == 0 {
		return ""
	}
	text, _ := all.First().TextContent()
	return text
}
