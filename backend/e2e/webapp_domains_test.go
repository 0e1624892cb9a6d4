package e2e

import (
	"fmt"
	"net/http"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/playwright-community/playwright-go"

	"github.com/shortlink/shortlink/backend/browsertest"
)

// A user on a plan with custom domains adds one in the web app and sees the TXT record to set,
// the record that points the domain at the service, and the pending state; Verify looks the record up in a real DNS server, first without it,
// then with it; the root URL is set and cleared. A link is then made on the domain from the
// link form, and the links list filters by domain.
func TestWebAppCustomDomain(t *testing.T) {
	ns := startDNS(t)
	s := newDeployment(t).start(t, "DNS_RESOLVER", ns.Addr)
	tn := s.signupOn("domains@example.com", "enterprise")
	for i := range 30 {
		s.createLink(tn, map[string]any{"url": fmt.Sprintf("https://example.com/page/%d", i)})
	}
	b, p, tab := openApp(t, s, desktop, browsertest.Options{})
	app := "http://" + shortHost + "/app"
	failed := failedRequests(b)
	signIn(t, p, "domains@example.com", "correct horse battery")

	// The Domains page from the navigation; no domain yet.
	tab.click(`nav.nav >> text=Domains`)
	if err := reachURL(p, app+"/domains"); err != nil {
		t.Fatal(err)
	}
	if err := expectLocator(p.GetByTestId("empty-state")).ToBeVisible(); err != nil {
		t.Fatalf("no domains yet: %v", err)
	}
	// The app's check first, then the server's.
	tab.fill(`[data-testid="domain-hostname"]`, "https://go.example.com/x")
	tab.click(`[data-testid="domain-add"]`)
	if err := expectLocator(p.GetByText("Enter a host name such as go.example.com")).ToBeVisible(); err != nil {
		t.Fatalf("no message for a URL: %v", err)
	}
	tab.fill(`[data-testid="domain-hostname"]`, shortHost)
	tab.click(`[data-testid="domain-add"]`)
	if err := expectLocator(p.GetByText("Use a domain under a public top-level domain, such as .com.")).ToBeVisible(); err != nil {
		t.Fatalf("the server's refusal in the app's words: %v", err)
	}
	tab.fill(`[data-testid="domain-hostname"]`, "Go.Example.com")
	tab.click(`[data-testid="domain-add"]`)
	card := p.Locator(`[data-testid="domain"][data-hostname="go.example.com"]`)
	if err := expectLocator(card.GetByTestId("domain-state")).ToHaveText("Not checked yet"); err != nil {
		t.Fatalf("added domain: %v (error %q)", err, tab.text(`[data-testid="form-error"]`))
	}
	if err := expectLocator(card.GetByTestId("txt-name")).ToHaveText("_shortlink-verify.go.example.com"); err != nil {
		t.Fatal(err)
	}
	value, err := card.GetByTestId("txt-value").TextContent()
	if err != nil || !strings.HasPrefix(value, "sl-verify-") {
		t.Fatalf("TXT value %q: %v", value, err)
	}
	// Where to point the domain: a CNAME to the service's own host (DOMAIN_TARGET unset).
	routing := card.GetByTestId("domain-routing")
	if err := expectLocator(routing).ToContainText("Point the domain at the service with this record:"); err != nil {
		t.Errorf("the record pointing the domain: %v", err)
	}
	if err := expectLocator(routing).ToContainText("CNAME"); err != nil {
		t.Errorf("the record pointing the domain, its type: %v", err)
	}
	if err := expectLocator(routing.GetByTestId("routing-CNAME-name")).ToHaveText("go.example.com"); err != nil {
		t.Errorf("the record pointing the domain, its name: %v", err)
	}
	// Each line's label stays within its column: a longer one ran over the value beside it.
	labels, err := card.Locator(".record-label").EvaluateAll(`els => els.filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent)`)
	if err != nil || len(labels.([]any)) != 0 {
		t.Errorf("record labels wider than their column: %v (%v)", labels, err)
	}
	if err := expectLocator(routing.GetByTestId("routing-CNAME")).ToHaveText(shortHost); err != nil {
		t.Errorf("the record pointing the domain, its target: %v", err)
	}
	// Verify without the record: still pending, and why.
	if err := card.GetByTestId("domain-verify").Click(); err != nil {
		t.Fatal(err)
	}
	if err := expectLocator(card.GetByTestId("domain-state")).ToHaveText("Pending"); err != nil {
		t.Fatal(err)
	}
	if err := expectLocator(card.GetByTestId("domain-problem")).ToBeVisible(); err != nil {
		t.Fatalf("no problem shown: %v", err)
	}
	shoot(t, p, "domains")
	if err := p.SetViewportSize(phone.Width, phone.Height); err != nil {
		t.Fatal(err)
	}
	shoot(t, p, "domains-phone")
	if err := p.SetViewportSize(desktop.Width, desktop.Height); err != nil {
		t.Fatal(err)
	}

	// The record set: Verify verifies.
	ns.set("_shortlink-verify.go.example.com", value)
	if err := card.GetByTestId("domain-verify").Click(); err != nil {
		t.Fatal(err)
	}
	if err := expectLocator(card.GetByTestId("domain-state")).ToHaveText("Verified"); err != nil {
		t.Fatal(err)
	}
	// The root URL, set then cleared.
	tab.fill(`[data-testid="domain-root"]`, "https://example.com/home")
	tab.click(`[data-testid="domain-root-save"]`)
	if err := expectLocator(card.GetByTestId("domain-root-clear")).ToBeVisible(); err != nil {
		t.Fatalf("root URL not saved: %v", err)
	}
	eventually(t, 5*time.Second, "the root redirects", func() bool {
		r := s.visitHost("go.example.com", "GET", "/")
		return r.Status == http.StatusFound && r.Header.Get("Location") == "https://example.com/home"
	})
	tab.click(`[data-testid="domain-root-clear"]`)
	if err := expectLocator(card.GetByTestId("domain-root")).ToHaveValue(""); err != nil {
		t.Fatal(err)
	}
	shoot(t, p, "domains-verified")

	// A link on the domain from the form.
	if _, err := p.Goto(app + "/links/new"); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Locator(`[data-testid="link-domain"]`).SelectOption(playwright.SelectOptionValues{Values: &[]string{"go.example.com"}}); err != nil {
		t.Fatal(err)
	}
	tab.fill(`[data-testid="link-url"]`, "https://example.com/on-my-domain")
	tab.fill(`[data-testid="link-alias"]`, "mine")
	tab.click(`[data-testid="save-link"]`)
	if err := reachURL(p, regexp.MustCompile(`/app/links/\d+$`)); err != nil {
		t.Fatalf("after create: %v (error %q)", err, tab.text(`[data-testid="form-error"]`))
	}
	if err := expectLocator(p.GetByTestId("detail-short-url")).ToHaveText("go.example.com/mine"); err != nil {
		t.Fatal(err)
	}
	if r := s.visitHost("go.example.com", "GET", "/mine"); r.Status != http.StatusFound || r.Header.Get("Location") != "https://example.com/on-my-domain" {
		t.Fatalf("the link on its domain: %d %q", r.Status, r.Header.Get("Location"))
	}

	// The list filtered by the domain. The filter offers the service's own domain once the list
	// has shown a link on it: choosing another domain first would leave it out.
	if _, err := p.Goto(app + "/links"); err != nil {
		t.Fatal(err)
	}
	if err := expectLocator(p.Locator(`[data-testid="links-domain"] option[value="` + shortHost + `"]`)).ToHaveCount(1); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Locator(`[data-testid="links-domain"]`).SelectOption(playwright.SelectOptionValues{Values: &[]string{"go.example.com"}}); err != nil {
		t.Fatal(err)
	}
	if err := expectLocator(p.GetByTestId("link-row")).ToHaveCount(1); err != nil {
		t.Fatal(err)
	}
	if err := expectLocator(p.GetByTestId("link-short")).ToHaveText("go.example.com/mine"); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Locator(`[data-testid="links-domain"]`).SelectOption(playwright.SelectOptionValues{Values: &[]string{shortHost}}); err != nil {
		t.Fatal(err)
	}
	if err := expectLocator(p.GetByTestId("link-row")).ToHaveCount(25); err != nil {
		t.Fatal(err)
	}

	// Removing the domain (confirmed): its link stays, marked.
	if _, err := p.Goto(app + "/domains"); err != nil {
		t.Fatal(err)
	}
	if err := card.GetByTestId("domain-remove").Click(); err != nil {
		t.Fatal(err)
	}
	if err := p.GetByRole("dialog").GetByRole("button", playwright.LocatorGetByRoleOptions{Name: "Remove"}).Click(); err != nil {
		t.Fatalf("confirm the removal: %v", err)
	}
	if err := expectLocator(p.GetByTestId("empty-state")).ToBeVisible(); err != nil {
		t.Fatalf("domain not removed: %v", err)
	}
	if _, err := p.Goto(app + "/links"); err != nil {
		t.Fatal(err)
	}
	if err := expectLocator(p.GetByTestId("domain-removed-badge")).ToHaveCount(1); err != nil {
		t.Fatal(err)
	}

	// The one refusal asked for (the service's own host) logs its 400; nothing else may fail.
	refused := fmt.Sprintf("400 POST http://%s/api/v1/workspaces/%d/domains", shortHost, tn.WorkspaceID)
	if got, f := consoleErrors(b), failed(); len(f) != 1 || f[0] != refused || len(got) != 1 || !strings.Contains(got[0], "status of 400") {
		t.Errorf("console errors: %q (failed requests: %q)", got, f)
	}
}

// tableWatch notes in window.__linksTable when the links table enters the page, in
// milliseconds since the navigation started (performance.now()), so the figure is the page's
// own, not delayed by how often the test polls.
const tableWatch = `new MutationObserver((_, o) => {
  if (document.querySelector('[data-testid="links-table"]')) { window.__linksTable = performance.now(); o.disconnect(); }
}).observe(document, { childList: true, subtree: true });`

// timeline says where a links page's time went, in milliseconds since its navigation started.
const timeline = `() => {
  const at = (re) => performance.getEntriesByType("resource").find((e) => re.test(new URL(e.name).pathname));
  const span = (e) => (e ? Math.round(e.startTime) + "–" + Math.round(e.responseEnd) : "?");
  return "entry script " + span(at(/\/assets\/index-/)) + ", /me " + span(at(/\/api\/v1\/me$/)) +
    ", page chunk " + span(at(/\/assets\/LinksPage-/)) + ", links API " + span(at(/\/links$/)) +
    ", table " + Math.round(window.__linksTable);
}`

// TestWebAppLinksPageLoad logs the time to an interactive links page of 30 links, with a cold
// and a warm cache. It is a measurement, not a check (it asserts nothing a page does): it runs
// on request, with MEASURE_PAGE_LOAD=1 (docs/benchmarks.md), never under make test, where it
// held the parallel tests back while it ran.
func TestWebAppLinksPageLoad(t *testing.T) {
	if os.Getenv("MEASURE_PAGE_LOAD") == "" {
		t.Skip("a measurement: MEASURE_PAGE_LOAD=1 runs it (docs/benchmarks.md)")
	}
	// Not parallel: what it logs is how long the page takes on a machine doing nothing else.
	s := newSerialDeployment(t).start(t)
	tn := s.signup("page-load@example.com")
	for i := range 30 {
		s.createLink(tn, map[string]any{"url": fmt.Sprintf("https://example.com/page/%d", i)})
	}
	b, p, _ := openApp(t, s, desktop, browsertest.Options{})
	signIn(t, p, "page-load@example.com", "correct horse battery")
	measureLinksPage(t, b, p, map[string]string{shortHost: s.app.Addr()})
}

// measureLinksPage logs the time from navigating to /app/links, signed in, until the links
// table is in the page (as the page's clock says): in fresh browser contexts (nothing cached)
// and in a warm tab, with where each sample's time went.
func measureLinksPage(t *testing.T, b *browsertest.Browser, p playwright.Page, hosts map[string]string) {
	t.Helper()
	app := "http://" + shortHost + "/app/links"
	cookies, err := b.Cookies()
	if err != nil {
		t.Fatal(err)
	}
	load := func(p playwright.Page) time.Duration {
		start := time.Now()
		if _, err := p.Goto(app, playwright.PageGotoOptions{WaitUntil: playwright.WaitUntilStateCommit}); err != nil {
			t.Fatal(err)
		}
		if err := p.GetByTestId("links-table").WaitFor(); err != nil {
			t.Fatal(err)
		}
		took := time.Since(start)
		v, err := p.Evaluate(timeline)
		if err != nil {
			t.Fatal(err)
		}
		ms, err := p.Evaluate("() => window.__linksTable")
		if err != nil {
			t.Fatal(err)
		}
		f, ok := ms.(float64)
		if !ok {
			if i, isInt := ms.(int); isInt {
				f, ok = float64(i), true
			}
		}
		if !ok {
			t.Fatalf("table time %v (%T)", ms, ms)
		}
		t.Logf("  %v: %v", took.Round(time.Millisecond), v)
		return time.Duration(f * float64(time.Millisecond))
	}
	summary := func(d []time.Duration) string {
		s := append([]time.Duration(nil), d...)
		sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
		var out []string
		for _, x := range d {
			out = append(out, x.Round(time.Millisecond).String())
		}
		return fmt.Sprintf("median %v, min %v, max %v (%s)", s[len(s)/2].Round(time.Millisecond), s[0].Round(time.Millisecond), s[len(s)-1].Round(time.Millisecond), strings.Join(out, " "))
	}
	if err := b.AddInitScript(playwright.Script{Content: playwright.String(tableWatch)}); err != nil {
		t.Fatal(err)
	}
	var cold, warm []time.Duration
	for range 5 {
		c := browsertest.New(t, browsertest.Options{Hosts: hosts})
		var add []playwright.OptionalCookie
		for _, k := range cookies {
			add = append(add, playwright.OptionalCookie{
				Name: k.Name, Value: k.Value, Domain: playwright.String(k.Domain), Path: playwright.String(k.Path),
				HttpOnly: playwright.Bool(k.HttpOnly), Secure: playwright.Bool(k.Secure), SameSite: k.SameSite,
			})
		}
		if err := c.AddCookies(add); err != nil {
			t.Fatal(err)
		}
		if err := c.AddInitScript(playwright.Script{Content: playwright.String(tableWatch)}); err != nil {
			t.Fatal(err)
		}
		cp := c.Page()
		if err := cp.SetViewportSize(desktop.Width, desktop.Height); err != nil {
			t.Fatal(err)
		}
		cold = append(cold, load(cp))
		_ = c.Close()
	}
	if _, err := p.Goto("about:blank"); err != nil {
		t.Fatal(err)
	}
	load(p) // fills the cache
	for range 5 {
		if _, err := p.Goto("about:blank"); err != nil {
			t.Fatal(err)
		}
		warm = append(warm, load(p))
	}
	t.Logf("links page interactive, cold cache: %s", summary(cold))
	t.Logf("links page interactive, warm cache: %s", summary(warm))
}

// An invited person opens the invitations page of the app before having an account: the app
// sends them through sign-up and back; once their address is verified they see until when the
// invitation is valid, in their language's way of writing a date, accept it, and land in the
// workspace that invited them, which the workspace switcher shows.
func TestWebAppAcceptInvitation(t *testing.T) {
	s := newDeployment(t).start(t)
	owner := s.signup("inviter@example.com")
	eachLook(t, twoLooks, func(t *testing.T, l look) {
		invitee := "invitee-" + l.name + "@example.com"
		if r := s.do("POST", fmt.Sprintf("/api/v1/workspaces/%d/invitations", owner.WorkspaceID), owner.Token,
			map[string]any{"email": strings.ToUpper(invitee[:1]) + invitee[1:], "role": "member"}); r.Status != http.StatusCreated {
			t.Fatalf("invite: %d %s", r.Status, r.Body)
		}
		w := walk(t, s, l)
		w.open("/invitations", "")
		w.at("/login")
		w.click(w.link(w.tr("Sign up", "注册")))
		w.see(w.heading(w.tr("Create your account", "创建账户")))
		w.fill(w.p.GetByTestId("email"), invitee)
		w.fill(w.p.GetByTestId("password"), "correct horse battery")
		w.click(w.p.GetByTestId("submit"))
		// A sign-up hashes a password: a busy machine may take longer than a click's wait.
		if err := reachURL(w.p, w.base+"/invitations", time.Minute); err != nil {
			t.Fatalf("[%s] after sign-up: %v (at %s, error %q)", l.name, err, w.p.URL(), w.formError())
		}
		w.see(w.p.GetByTestId("invitations-unverified"))
		// The address verified through the mail's link, in the reader's language too.
		w.openMailLink(s.mailbox.WaitSubject(t, invitee, w.tr("Confirm your email address", "请确认您在 Shortlink 的邮箱地址")).Link(t))
		w.see(w.text(w.tr("Your email address is verified.", "你的邮箱地址已验证。")))
		w.open("/invitations", "")
		if err := expectLocator(w.p.GetByTestId("my-invitation")).ToHaveCount(1); err != nil {
			t.Fatal(err)
		}
		w.see(w.heading(w.tr("Invitations", "邀请")))
		// The day it is valid until, a week on, as the reader writes a date.
		until := time.Now().Add(7 * 24 * time.Hour).UTC()
		if err := expectLocator(w.p.GetByTestId("invitation-expires")).ToContainText(w.tr("Valid until "+until.Format("Jan"),
			fmt.Sprintf("有效期至 %d年%d月", until.Year(), until.Month()))); err != nil {
			t.Errorf("[%s] %v", l.name, err)
		}
		w.see(w.p.GetByTestId("my-invitation").GetByText(w.tr("as Member", "角色：成员")))
		w.accessible("invitations")
		w.shoot("invitations")
		w.click(w.p.GetByTestId("accept-invitation"))
		w.at("/links")
		// The account menu, open, as axe-core reads it.
		w.click(w.p.GetByTestId("account-menu"))
		w.see(w.p.GetByRole("menu"))
		w.accessible("the account menu")
		w.press("Escape")
		w.gone(w.p.GetByRole("menu"))
		// The workspace joined is the one shown (the switcher is in the menu at phone size),
		// with its plan in the reader's words.
		switcher := w.p.GetByTestId("workspace-switcher")
		if l.phone() {
			w.click(w.p.Locator(".burger"))
			switcher = w.p.Locator(`.mantine-Drawer-body [data-testid="workspace-switcher"]`)
		}
		if err := expectLocator(switcher).ToHaveAttribute("data-workspace", fmt.Sprint(owner.WorkspaceID)); err != nil {
			t.Fatal(err)
		}
		if err := expectLocator(switcher).ToContainText(w.tr("Free", "免费版")); err != nil {
			t.Errorf("[%s] the switcher: %v", l.name, err)
		}
		w.click(switcher)
		w.see(w.p.GetByTestId("workspace-option").GetByText("inviter's workspace · " + w.tr("Free", "免费版")))
		w.see(w.p.GetByTestId("workspace-new").GetByText(w.tr("New workspace", "新建工作区")))
		w.accessible("the workspace switcher")
		w.shoot("workspace-switcher")
	})
}
