package e2e

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/playwright-community/playwright-go"

	"github.com/shortlink/shortlink/backend/browsertest"
	"github.com/shortlink/shortlink/backend/testenv"
	"github.com/shortlink/shortlink/worker/review"
)

// The web app's end-to-end tests: the app as built by `make test` (frontend/dist, embedded),
// the real server, PostgreSQL and Redis, headless Chromium. Asked to, they save screenshots of
// the pages they pass through, at desktop and phone sizes, into screenshotDir.

// Sizes of the screenshots.
var (
	desktop = playwright.Size{Width: 1280, Height: 800}
	phone   = playwright.Size{Width: 390, Height: 844}
)

// screenshotDir is where the tests save their screenshots: SCREENSHOTS_DIR, or "" for none
// (docs/web-app.md says how to refresh the copies it shows). Full-page screenshots are a good
// part of the browser's work, which the tests share two cores with.
func screenshotDir() string { return os.Getenv("SCREENSHOTS_DIR") }

// shoot waits for the page's network to settle, and saves a screenshot of it as name.png
// when the tests are asked to (screenshotDir).
func shoot(t *testing.T, p playwright.Page, name string) {
	t.Helper()
	_ = p.WaitForLoadState(playwright.PageWaitForLoadStateOptions{State: playwright.LoadStateNetworkidle})
	dir := screenshotDir()
	if dir == "" {
		return
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Screenshot(playwright.PageScreenshotOptions{Path: playwright.String(filepath.Join(dir, name+".png")), FullPage: playwright.Bool(true)}); err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
}

// consoleErrors are the console's error messages of a browser context so far.
func consoleErrors(b *browsertest.Browser) []string {
	var out []string
	for _, line := range b.Console() {
		if strings.HasPrefix(line, "error: ") {
			out = append(out, line)
		}
	}
	return out
}

// failedRequests records the requests of a browser context answered with an error status,
// to explain console errors.
func failedRequests(b *browsertest.Browser) func() []string {
	var mu sync.Mutex
	var out []string
	b.OnResponse(func(r playwright.Response) {
		if r.Status() >= 400 {
			mu.Lock()
			out = append(out, fmt.Sprintf("%d %s %s", r.Status(), r.Request().Method(), r.URL()))
			mu.Unlock()
		}
	})
	return func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), out...)
	}
}

// landingServer is a destination that reports the paths it was asked for.
func landingServer(t *testing.T) (*httptest.Server, chan string) {
	landed := make(chan string, 8)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case landed <- r.URL.Path:
		default:
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = fmt.Fprintf(w, "<!doctype html><title>landing</title><p id=where>%s</p>", r.URL.Path)
	}))
	t.Cleanup(srv.Close)
	return srv, landed
}

// A new user signs up in the web app, meets the upgrade hint on the password option, starts
// the trial from it, and creates a link with a password and two variants. A visitor in
// another browser opens the short link, passes the password page and lands on a variant; the
// visit shows on the link's page without a reload. No page breaks the Content-Security-Policy
// or logs an error.
func TestWebAppLinkWithPasswordAndVariants(t *testing.T) {
	s := newDeployment(t).start(t)
	target, landed := landingServer(t)
	hosts := map[string]string{shortHost: s.app.Addr()}
	b, p, tab := openApp(t, s, desktop, browsertest.Options{})
	app := "http://" + shortHost + "/app"
	failed := failedRequests(b)

	res, err := p.Goto(app + "/signup")
	if err != nil {
		t.Fatal(err)
	}
	if res.Status() != http.StatusOK {
		t.Fatalf("GET /app/signup: %d", res.Status())
	}
	// The check of violations means something only if the page has a strict policy.
	csp, err := res.HeaderValue("Content-Security-Policy")
	if err != nil || !strings.Contains(csp, "'sha256-") || strings.Contains(csp, "unsafe-inline") {
		t.Fatalf("Content-Security-Policy %q (%v), want hashes of the inline code", csp, err)
	}
	shoot(t, p, "signup")

	// The form checks as the server does before sending.
	tab.submit("new-user@example.com", "short")
	if err := expectLocator(p.GetByText("The password must be 8 to 256 characters.")).ToBeVisible(); err != nil {
		t.Fatalf("no message for a short password: %v", err)
	}
	tab.fill(`[data-testid="password"]`, "correct horse battery")
	tab.click(`[data-testid="submit"]`)
	if err := reachURL(p, app+"/links"); err != nil {
		t.Fatalf("after sign-up: %v (at %s; error %q)", err, p.URL(), tab.text(`[data-testid="form-error"]`))
	}
	if err := expectLocator(p.GetByTestId("empty-state")).ToBeVisible(); err != nil {
		t.Fatalf("empty links list: %v", err)
	}
	shoot(t, p, "links-empty")

	// A free workspace: the password is gated, with the trial offered in its place (in the
	// form's folded Password section).
	tab.click(`[data-testid="new-link"]`)
	tab.click(`[data-testid="section-password"] .mantine-Accordion-control`)
	hint := p.GetByTestId("upgrade-hint-password")
	if err := expectLocator(hint).ToBeVisible(); err != nil {
		t.Fatalf("no upgrade hint on the password: %v", err)
	}
	if n, _ := p.GetByTestId("link-password").Count(); n != 0 {
		t.Fatal("the password input is shown on the free plan")
	}
	shoot(t, p, "link-form-free")
	if err := hint.GetByTestId("start-trial").Click(); err != nil {
		t.Fatal(err)
	}
	if err := expectLocator(p.GetByTestId("link-password")).ToBeVisible(); err != nil {
		t.Fatalf("the password option after the trial started: %v", err)
	}

	tab.fill(`[data-testid="link-url"]`, target.URL+"/default")
	tab.fill(`[data-testid="link-password"]`, "open sesame")
	tab.click(`[data-testid="section-ab"] .mantine-Accordion-control`)
	tab.click(`[data-testid="add-variant"]`)
	tab.click(`[data-testid="add-variant"]`)
	if err := p.GetByLabel("Variant 1 URL").Fill(target.URL + "/a"); err != nil {
		t.Fatal(err)
	}
	if err := p.GetByLabel("Variant 2 URL").Fill(target.URL + "/b"); err != nil {
		t.Fatal(err)
	}
	shoot(t, p, "link-form")
	tab.click(`[data-testid="save-link"]`)
	if err := reachURL(p, regexp.MustCompile(`/app/links/[0-9]+$`)); err != nil {
		t.Fatalf("after saving: %v (at %s; error %q)", err, p.URL(), tab.text(`[data-testid="form-error"]`))
	}
	detail := strings.TrimPrefix(p.URL(), "http://"+shortHost)
	short := strings.TrimSpace(tab.text(`[data-testid="detail-short-url"]`))
	if !strings.HasPrefix(short, shortHost+"/") {
		t.Fatalf("short URL %q", short)
	}
	if err := expectLocator(p.GetByTestId("visits-total")).ToHaveText("0"); err != nil {
		t.Fatal(err)
	}

	// A visitor, in a browser of their own (a person's, not a headless robot's).
	visitor := browsertest.New(t, browsertest.Options{Hosts: hosts, UserAgent: browsertest.PersonUserAgent}).Page()
	if _, err := visitor.Goto("http://" + short); err != nil {
		t.Fatal(err)
	}
	pw := visitor.Locator(`input[name="password"]`)
	if err := expectLocator(pw).ToBeVisible(); err != nil {
		t.Fatalf("no password page: %v", err)
	}
	if err := pw.Fill("open sesame"); err != nil {
		t.Fatal(err)
	}
	if err := pw.Press("Enter"); err != nil {
		t.Fatal(err)
	}
	if err := reachURL(visitor, regexp.MustCompile(`/(a|b)$`)); err != nil {
		t.Fatalf("after the password: %v (at %s)", err, visitor.URL())
	}
	arrived := time.Now()
	if got := <-landed; got != "/a" && got != "/b" {
		t.Errorf("the visitor landed on %q, want a variant", got)
	}

	// The link's page follows its visits, without a reload (how soon is the visits benchmark's
	// to measure: docs/benchmarks.md).
	if err := expectLocator(p.GetByTestId("visits-total")).ToHaveText("1"); err != nil {
		t.Fatalf("the visit is not on the link's page: %v", err)
	}
	t.Logf("the visit showed %v after landing", time.Since(arrived).Round(100*time.Millisecond))
	if err := expectLocator(p.GetByTestId("visits-chart").Locator(".recharts-bar-rectangle path").First()).ToBeAttached(); err != nil {
		t.Errorf("no bar on the hourly chart: %v", err)
	}
	shoot(t, p, "link-detail")

	// The trial brings the dashboard and bulk creation: a row per input, the server's error
	// for a bad one.
	if _, err := p.Goto(app + "/dashboard"); err != nil {
		t.Fatal(err)
	}
	if err := expectLocator(p.GetByTestId("visits-today")).ToHaveText("1"); err != nil {
		t.Fatalf("the dashboard: %v", err)
	}
	shoot(t, p, "dashboard")
	if _, err := p.Goto(app + "/bulk"); err != nil {
		t.Fatal(err)
	}
	tab.fill(`[data-testid="bulk-text"]`, target.URL+"/one, spring-sale, Spring sale\n"+target.URL+"/two, admin")
	tab.click(`[data-testid="bulk-create"]`)
	rows := p.GetByTestId("bulk-row")
	if err := expectLocator(rows).ToHaveCount(2); err != nil {
		t.Fatalf("bulk results: %v (error %q)", err, tab.text(`[data-testid="form-error"]`))
	}
	if err := expectLocator(rows.Nth(0)).ToContainText(shortHost + "/spring-sale"); err != nil {
		t.Error(err)
	}
	if err := expectLocator(rows.Nth(1)).ToContainText("reserved"); err != nil {
		t.Error(err)
	}
	shoot(t, p, "bulk")
	if _, err := p.Goto(app + "/members"); err != nil {
		t.Fatal(err)
	}
	tab.fill(`[data-testid="invite-email"]`, "colleague@example.com")
	tab.click(`[data-testid="invite"]`)
	if err := expectLocator(p.GetByTestId("invitation")).ToContainText("colleague@example.com"); err != nil {
		t.Errorf("the invitation: %v (error %q)", err, tab.text(`[data-testid="form-error"]`))
	}
	shoot(t, p, "members")

	// The plan page shows the trial; the other pages, for the record.
	if _, err := p.Goto(app + "/plan"); err != nil {
		t.Fatal(err)
	}
	if err := expectLocator(p.GetByTestId("current-plan")).ToHaveText("Trial"); err != nil {
		t.Fatal(err)
	}
	shoot(t, p, "plan")
	if _, err := p.Goto(app + "/links"); err != nil {
		t.Fatal(err)
	}
	if err := expectLocator(p.GetByTestId("link-row")).ToHaveCount(2); err != nil {
		t.Fatal(err)
	}
	shoot(t, p, "links")
	if _, err := p.Goto(app + "/keys"); err != nil {
		t.Fatal(err)
	}
	if err := expectLocator(p.GetByTestId("empty-state")).ToBeVisible(); err != nil {
		t.Fatal(err)
	}
	shoot(t, p, "api-keys")

	// The same pages at phone size.
	m := b.Page()
	if err := m.SetViewportSize(phone.Width, phone.Height); err != nil {
		t.Fatal(err)
	}
	for _, pg := range []struct{ path, name, ready string }{
		{"/app/links", "links-phone", `[data-testid="link-row"] >> nth=0`},
		{"/app/links/new", "link-form-phone", `[data-testid="link-url"]`},
		{"/app/plan", "plan-phone", `[data-testid="current-plan"]`},
		{detail, "link-detail-phone", `[data-testid="visits-chart"]`},
	} {
		if _, err := m.Goto("http://" + shortHost + pg.path); err != nil {
			t.Fatal(err)
		}
		if err := expectLocator(m.Locator(pg.ready)).ToBeVisible(); err != nil {
			t.Fatalf("%s at phone size: %v", pg.path, err)
		}
		shoot(t, m, pg.name)
	}
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}

	// Log out: the app is back at the login page, and the session is over.
	tab.click(`[data-testid="account-menu"]`)
	tab.click(`[data-testid="logout"]`)
	if err := reachURL(p, app+"/login"); err != nil {
		t.Fatalf("after logging out: %v", err)
	}
	shoot(t, p, "login")

	if got := consoleErrors(b); len(got) != 0 {
		t.Errorf("console errors: %q (failed requests: %q)", got, failed())
	}
}

// A browser whose language is Chinese gets the app in Simplified Chinese: sign-up, its
// checks, and the pages after it.
func TestWebAppSignupInChinese(t *testing.T) {
	s := newDeployment(t).start(t)
	b, p, tab := openApp(t, s, phone, browsertest.Options{Locale: "zh-CN"})
	app := "http://" + shortHost + "/app"

	// The site's root opens the app, which sends a newcomer to the login page.
	if _, err := p.Goto("http://" + shortHost + "/"); err != nil {
		t.Fatal(err)
	}
	if err := reachURL(p, app+"/login"); err != nil {
		t.Fatalf("the root: %v (at %s)", err, p.URL())
	}
	if err := expectLocator(p.GetByRole("heading", playwright.PageGetByRoleOptions{Name: "登录"})).ToBeVisible(); err != nil {
		t.Fatalf("login page in Chinese: %v", err)
	}
	if lang, _ := p.Locator("html").GetAttribute("lang"); lang != "zh-CN" {
		t.Errorf("html lang %q", lang)
	}
	tab.follow("注册", "创建账户")
	tab.submit("not-an-address", "短")
	for _, msg := range []string{"请输入有效的邮箱地址。", "密码需要 8 到 256 个字符。"} {
		if err := expectLocator(p.GetByText(msg)).ToBeVisible(); err != nil {
			t.Errorf("message %q: %v", msg, err)
		}
	}
	shoot(t, p, "signup-zh-phone")
	tab.submit("zhang@example.com", "正确的马电池订书钉")
	if err := reachURL(p, app+"/links"); err != nil {
		t.Fatalf("after sign-up: %v (error %q)", err, tab.text(`[data-testid="form-error"]`))
	}
	if err := expectLocator(p.GetByText("还没有链接。")).ToBeVisible(); err != nil {
		t.Fatalf("links page in Chinese: %v", err)
	}
	shoot(t, p, "links-zh-phone")

	// A second sign-up with the same address: the app's words for it, next to the address.
	other := browsertest.New(t, browsertest.Options{Hosts: map[string]string{shortHost: s.app.Addr()}, Locale: "zh-CN"}).Page()
	if _, err := other.Goto(app + "/signup"); err != nil {
		t.Fatal(err)
	}
	o := browserTab{t, other}
	o.fill(`[data-testid="email"]`, "zhang@example.com")
	o.fill(`[data-testid="password"]`, "another long password")
	o.click(`[data-testid="submit"]`)
	if err := expectLocator(other.GetByText("该邮箱已注册，请直接登录。")).ToBeVisible(); err != nil {
		t.Fatalf("no error for a taken address: %v", err)
	}

	// The plan page, in Chinese, at desktop size too.
	if err := p.SetViewportSize(desktop.Width, desktop.Height); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Goto(app + "/plan"); err != nil {
		t.Fatal(err)
	}
	if err := expectLocator(p.GetByTestId("current-plan")).ToHaveText("免费版"); err != nil {
		t.Fatal(err)
	}
	shoot(t, p, "plan-zh")
	if got := consoleErrors(b); len(got) != 0 {
		t.Errorf("console errors: %q", got)
	}
}

// signIn logs email in through the app's login page.
func signIn(t *testing.T, p playwright.Page, email, password string) {
	t.Helper()
	tab := browserTab{t, p}
	if _, err := p.Goto("http://" + shortHost + "/app/login"); err != nil {
		t.Fatal(err)
	}
	tab.submit(email, password)
	if err := reachURL(p, "http://"+shortHost+"/app/links"); err != nil {
		t.Fatalf("log in %s: %v (error %q)", email, err, tab.text(`[data-testid="form-error"]`))
	}
}

// membersOnlyPage is a sign-in that names no brand, shown to WeChat's visitor alone.
const membersOnlyPage = `<!doctype html><html><head><title>Garden club – members</title></head>
<body><h1>Members only</h1><p>Sign in with your club account to read this week's planting notes.</p>
<form action="/in" method="post"><input name="member" placeholder="Member name">
<input name="password" type="password" placeholder="Password"><button>Sign in</button></form></body></html>`

// The moderation worker flags a link (real Chromium as three visitors, a fake model). A
// moderator finds it in the app's queue with the three screenshots side by side and bans it
// with a note; the short link then shows the warning page, and the owner sees the ban and its
// reason on the link's page and appeals.
func TestWebAppModeratorBansFromQueue(t *testing.T) {
	sites, browser := moderationRig(t)
	// WeChat's visitor alone is asked to sign in, on a page naming no brand: the rules flag
	// the cloaking, and a moderator decides (a copy of a brand's page would be banned at once).
	sites.handle(t, "queue-news.test", func(w http.ResponseWriter, r *http.Request) {
		if strings.Contains(r.UserAgent(), "MicroMessenger") {
			writeHTML(w, membersOnlyPage)
			return
		}
		writeHTML(w, newsPage)
	})
	model := testenv.NewChatModel(t, judgeByText)
	d := newDeployment(t)
	s := d.start(t)
	owner := s.signup("owner@example.com")
	s.moderator("mod@example.com")
	ms := moderationStores(t, d)
	ms.runWorker(t, review.Options{Browser: browser, Scorer: modelScorer(t, model, 20*time.Second)})
	l := s.createLink(owner, map[string]any{"url": "http://queue-news.test/"})
	if got := s.waitReviewed(owner, l.ID, 60*time.Second); got.Moderation.State != "flagged" {
		t.Fatalf("the cloaked page's link: %+v", got.Moderation)
	}

	hosts := map[string]string{shortHost: s.app.Addr()}
	b, p, tab := openApp(t, s, desktop, browsertest.Options{})
	signIn(t, p, "mod@example.com", "correct horse battery")
	tab.click(`a[href="/app/moderation"]`)
	item := p.GetByTestId("queue-item").Filter(playwright.LocatorFilterOptions{HasText: l.Code})
	if err := expectLocator(item).ToHaveCount(1); err != nil {
		t.Fatalf("the flagged link in the queue: %v", err)
	}
	if err := item.Click(); err != nil {
		t.Fatal(err)
	}
	shots := p.GetByTestId("screenshot")
	if err := expectLocator(shots).ToHaveCount(3); err != nil {
		t.Fatalf("three screenshots: %v", err)
	}
	for i := range 3 {
		eventually(t, 10*time.Second, "screenshot loaded", func() bool {
			w, err := shots.Nth(i).Evaluate("img => img.complete ? img.naturalWidth : 0", nil)
			n, _ := w.(int)
			return err == nil && n > 0
		})
	}
	if err := expectLocator(p.GetByTestId("review-summary")).ToContainText("Shows visitors different pages"); err != nil {
		t.Error(err)
	}
	shoot(t, p, "moderation")
	if _, err := p.GetByTestId("decision-reason").SelectOption(playwright.SelectOptionValues{Values: &[]string{"cloaking"}}); err != nil {
		t.Fatal(err)
	}
	tab.fill(`[data-testid="decision-note"]`, "shows a payment login to WeChat visitors only")
	tab.click(`[data-testid="ban"]`)
	if err := p.GetByRole("dialog").GetByRole("button", playwright.LocatorGetByRoleOptions{Name: "Ban", Exact: playwright.Bool(true)}).Click(); err != nil {
		t.Fatalf("confirm the ban: %v", err)
	}
	if err := expectLocator(p.GetByTestId("unban")).ToBeVisible(); err != nil {
		t.Fatalf("after the ban: %v (error %q)", err, tab.text(`[data-testid="form-error"]`))
	}

	// The short link now shows the warning page.
	visitor := browsertest.New(t, browsertest.Options{Hosts: hosts, UserAgent: browsertest.PersonUserAgent}).Page()
	res, err := visitor.Goto("http://" + shortHost + "/" + l.Code)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status() != http.StatusForbidden {
		t.Errorf("the banned short link: %d", res.Status())
	}
	if err := expectLocator(visitor.Locator("body")).ToContainText("blocked"); err != nil {
		t.Errorf("the warning page: %v", err)
	}
	shoot(t, visitor, "warning-page")

	// The owner sees the ban and appeals.
	o := browsertest.New(t, browsertest.Options{Hosts: hosts}).Page()
	signIn(t, o, "owner@example.com", "correct horse battery")
	if _, err := o.Goto(fmt.Sprintf("http://%s/app/links/%d", shortHost, l.ID)); err != nil {
		t.Fatal(err)
	}
	alert := o.GetByTestId("moderation-alert")
	if err := expectLocator(alert).ToContainText("Reason: Shows visitors different pages"); err != nil {
		t.Errorf("the ban's reason on the owner's page: %v", err)
	}
	if err := expectLocator(alert).Not().ToContainText("WeChat visitors only"); err != nil {
		t.Errorf("the private note on the owner's page: %v", err)
	}
	ob := browserTab{t, o}
	ob.click(`[data-testid="appeal"]`)
	if err := o.GetByLabel("Why should the link be allowed?").Fill("It is a gardening site."); err != nil {
		t.Fatal(err)
	}
	if err := o.GetByRole("button", playwright.PageGetByRoleOptions{Name: "Send the appeal"}).Click(); err != nil {
		t.Fatal(err)
	}
	if err := expectLocator(o.GetByText("Your appeal was sent.")).ToBeVisible(); err != nil {
		t.Fatalf("the appeal: %v", err)
	}
	shoot(t, o, "link-banned")

	// The operator sees the system's figures and the ban in the audit log.
	op := browsertest.New(t, browsertest.Options{Hosts: hosts}).Page()
	if err := op.SetViewportSize(desktop.Width, desktop.Height); err != nil {
		t.Fatal(err)
	}
	signIn(t, op, "operator@sho.rt", "operator-password")
	if _, err := op.Goto("http://" + shortHost + "/app/admin"); err != nil {
		t.Fatal(err)
	}
	if err := expectLocator(op.GetByTestId("admin-users")).ToHaveText("3"); err != nil {
		t.Errorf("users on the operator's page: %v", err)
	}
	shoot(t, op, "admin")
	if err := op.GetByTestId("admin-tab").GetByText("Audit log").Click(); err != nil {
		t.Fatal(err)
	}
	if err := expectLocator(op.GetByTestId("audit")).ToContainText("shows a payment login to WeChat visitors only"); err != nil {
		t.Errorf("the audit log: %v", err)
	}
	shoot(t, op, "admin-audit")

	// At phone size, the desk shows the appeal.
	m := b.Page()
	if err := m.SetViewportSize(phone.Width, phone.Height); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Goto("http://" + shortHost + "/app/moderation"); err != nil {
		t.Fatal(err)
	}
	if err := m.GetByRole("tab", playwright.PageGetByRoleOptions{Name: "Banned"}).Click(); err != nil {
		t.Fatal(err)
	}
	if err := m.GetByTestId("queue-item").First().Click(); err != nil {
		t.Fatal(err)
	}
	if err := expectLocator(m.GetByTestId("appeal")).ToContainText("gardening"); err != nil {
		t.Errorf("the appeal on the desk: %v", err)
	}
	shoot(t, m, "moderation-phone")
}
