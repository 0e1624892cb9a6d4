package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/playwright-community/playwright-go"
)

// appPage is a page of the app as the sweep opens it.
type appPage struct {
	name string // in screenshot names
	path string
	as   string // "" signed out, "customer" or "operator"
}

// Every page of the app, a share's public page included, in every look (two languages, two
// sizes): axe-core finds no serious or critical WCAG 2 A/AA violation; asked to
// (screenshotDir), a full-page screenshot of each is saved as page-<name>-<look>.png
// (docs/screenshots/pages/ keeps a copy of the latest set).
func TestWebAppEveryPage(t *testing.T) {
	s := rulesDeployment(t).start(t)
	customer := s.signupOn("pages@example.com", "personal")
	s.verify("pages@example.com")
	first := s.createLink(customer, map[string]any{"url": "https://example.com/spring-sale", "title": "Spring sale", "alias": "spring"})
	s.createLink(customer, map[string]any{"url": "https://example.com/docs/getting-started", "title": "Getting started"})
	s.createLink(customer, map[string]any{"url": "https://example.com/blog/launch", "password": "open sesame"})
	// People's visits, so that the statistics have something to show.
	hits := []hit{
		{fromDE, uaDesktop, "https://news.example.org/spring"}, {"10.1.0.8", uaDesktop, ""},
		{fromCN, uaIPhone, "https://weibo.com/x"}, {"10.2.0.9", uaAndroid, "https://weibo.com/y"},
		{fromCN, uaWeChat, ""}, {fromXX, uaDesktop, ""},
	}
	for i, h := range hits {
		path := "spring"
		if i%2 == 0 {
			path += "?utm_source=newsletter&utm_medium=email&utm_campaign=spring"
		}
		if st, _ := s.sendHit(path, h); st != http.StatusFound {
			t.Fatalf("visit: %d", st)
		}
	}
	eventually(t, 30*time.Second, "the visits counted", func() bool {
		r := s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/links/%d/stats", customer.WorkspaceID, first.ID), customer.Key, nil)
		var st struct{ Visits int64 }
		return r.Status == http.StatusOK && json.Unmarshal(r.Body, &st) == nil && st.Visits == int64(len(hits))
	})
	// A public share of the first link's statistics, opened by its address as anyone would.
	var share struct{ URL string }
	s.do("POST", fmt.Sprintf("/api/v1/workspaces/%d/links/%d/share", customer.WorkspaceID, first.ID), customer.Token, nil).json(t, &share)
	if share.URL == "" {
		t.Fatal("no share made")
	}
	pages := []appPage{
		{"login", "/login", ""},
		{"signup", "/signup", ""},
		{"reset-password", "/reset-password", ""},
		{"forgot-password", "/forgot-password", ""},
		{"verify", "/verify", ""},
		{"pricing", "/pricing", ""},
		{"links", "/links", "customer"},
		{"link-new", "/links/new", "customer"},
		{"link", fmt.Sprintf("/links/%d", first.ID), "customer"},
		{"link-edit", fmt.Sprintf("/links/%d/edit", first.ID), "customer"},
		{"dashboard", "/dashboard", "customer"},
		{"bulk", "/bulk", "customer"},
		{"imports", "/imports", "customer"},
		{"members", "/members", "customer"},
		{"member-sessions", fmt.Sprintf("/members/%d/sessions", customer.UserID), "customer"},
		{"domains", "/domains", "customer"},
		{"tags", "/tags", "customer"},
		{"keys", "/keys", "customer"},
		{"webhooks", "/webhooks", "customer"},
		{"plan", "/plan", "customer"},
		{"invitations", "/invitations", "customer"},
		{"settings", "/settings", "customer"},
		{"sso", "/sso", "customer"},
		{"scim", "/scim", "customer"},
		{"account", "/account", "customer"},
		{"billing", "/billing", "customer"},
		{"audit", "/audit", "customer"},
		{"not-found", "/no-such-page", "customer"},
		{"moderation", "/moderation", "operator"},
		{"moderation-link", fmt.Sprintf("/moderation/links/%d", first.ID), "operator"},
		{"admin", "/admin", "operator"},
	}
	eachLook(t, allLooks, func(t *testing.T, l look) {
		w := walk(t, s, l)
		signedIn := ""
		for _, pg := range pages {
			if pg.as != signedIn {
				switch pg.as {
				case "customer":
					w.signIn("pages@example.com", "correct horse battery")
				case "operator":
					w.signOut()
					w.signIn("operator@sho.rt", "operator-password")
				}
				signedIn = pg.as
			}
			w.open(pg.path, "")
			w.see(w.p.Locator("h1, h2").First())
			w.accessible(pg.name)
			w.shoot("page-" + pg.name)
		}
		if _, err := w.p.Goto(share.URL); err != nil {
			t.Fatalf("open the share: %v", err)
		}
		w.see(w.p.GetByTestId("share-short-url"))
		w.accessible("share")
		w.shoot("page-share")
	})
}

// signOut ends the page's session through the account menu.
func (w *walker) signOut() {
	w.t.Helper()
	w.open("/links", "")
	w.click(w.p.GetByTestId("account-menu"))
	w.click(w.p.GetByTestId("logout"))
	w.at("/login")
}

// The app by keyboard alone: log in, skip the navigation, reach "New link" and create a link
// without touching the mouse, then cancel a confirmation dialog with Escape.
func TestWebAppKeyboardOnly(t *testing.T) {
	s := newDeployment(t).start(t)
	s.signup("keys@example.com")
	eachLook(t, []look{enDesktop, zhDesktop}, func(t *testing.T, l look) {
		w := walk(t, s, l)
		w.open("/login", l.tr("Log in", "登录"))
		w.tabTo(w.textbox(l.tr("Email", "邮箱")))
		w.typeKeys("keys@example.com")
		w.tabTo(w.p.GetByLabel(l.tr("Password", "密码")).First())
		w.typeKeys("correct horse battery")
		w.press("Enter")
		w.at("/links")

		// On a page opened afresh, the first Tab stop skips to the content.
		w.open("/links", l.tr("Links", "短链接"))
		w.press("Tab")
		w.see(w.link(l.tr("Skip to content", "跳到正文")))
		if focused := w.focusedText(); focused != l.tr("Skip to content", "跳到正文") {
			t.Fatalf("first Tab stop %q", focused)
		}
		w.press("Enter")
		w.tabTo(w.link(l.tr("New link", "新建链接")))
		w.press("Enter")
		w.at("/links/new")
		w.tabTo(w.textbox(l.tr("Destination URL", "目标网址")))
		w.typeKeys("https://example.com/by-keyboard")
		w.press("Enter")
		w.at("/links/*")
		w.see(w.text("https://example.com/by-keyboard"))
	})
}

// press presses a key (a Playwright key name such as "Tab" or "Enter") in the page.
func (w *walker) press(key string) {
	w.t.Helper()
	if err := w.p.Keyboard().Press(key); err != nil {
		w.t.Fatalf("[%s] press %s: %v", w.l.name, key, err)
	}
}

// typeKeys types text into the focused element, key by key.
func (w *walker) typeKeys(text string) {
	w.t.Helper()
	if err := w.p.Keyboard().Type(text); err != nil {
		w.t.Fatalf("[%s] type: %v", w.l.name, err)
	}
}

// focusedText is the focused element's visible text.
func (w *walker) focusedText() string {
	v, err := w.p.Evaluate(`() => (document.activeElement && document.activeElement.textContent || "").trim()`)
	if err != nil {
		w.t.Fatalf("[%s] focused element: %v", w.l.name, err)
	}
	s, _ := v.(string)
	return s
}

// tabTo presses Tab until target has the focus, at most 40 times, and fails otherwise.
func (w *walker) tabTo(target playwright.Locator) {
	w.t.Helper()
	w.see(target)
	for i := 0; i < 40; i++ {
		focused, err := target.Evaluate(`(el) => el === document.activeElement || el.contains(document.activeElement)`, nil)
		if err != nil {
			w.t.Fatalf("[%s] focus check: %v", w.l.name, err)
		}
		if focused == true {
			return
		}
		w.press("Tab")
	}
	w.t.Fatalf("[%s] at %s: 40 presses of Tab never reached the control (last focused: %q)", w.l.name, w.p.URL(), w.focusedText())
}
