package e2e

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/playwright-community/playwright-go"
)

// A customer on the free plan makes a link from the link form: the form is short (the main
// fields, then folded sections), its Create button is in reach without scrolling even on a
// phone, a locked option says once which plan has it, a destination typed without a scheme
// gets https://, the server's refusal of a taken alias shows next to the alias, the link made
// from the bottom of the form opens at the top of its page, and the edit page shows the link's
// alias (which cannot change).
func TestWebAppLinkForm(t *testing.T) {
	s := newDeployment(t).start(t)
	eachLook(t, twoLooks, func(t *testing.T, l look) {
		email := "form-" + l.name + "@example.com"
		tn := s.signup(email)
		// Aliases are per domain, across workspaces: each look takes its own.
		taken, mine := "taken-"+l.name, "mine-"+l.name
		s.createLink(tn, map[string]any{"url": "https://example.com/first", "alias": taken})
		w := walk(t, s, l)
		w.signIn(email, "correct horse battery")
		w.click(w.link(l.tr("New link", "新建链接")))
		w.see(w.heading(l.tr("New link", "新建链接")))

		// Short: the whole page (the app's frame included) well below the old 1,900 px
		// (2,400 px on a phone), and the primary action on screen without scrolling.
		create := w.button(l.tr("Create link", "创建链接"))
		w.see(create)
		height, err := w.p.Evaluate("() => document.body.scrollHeight")
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("[%s] the new-link form on the free plan: %v px high", l.name, height)
		if h, ok := height.(int); !ok || h > 1300 {
			t.Errorf("[%s] the form is %v px high, want at most 1300", l.name, height)
		}
		if err := expectLocator(create).ToBeInViewport(); err != nil {
			t.Fatalf("[%s] the Create button is not on screen: %v", l.name, err)
		}
		w.shoot("linkform-free")

		// A section opens to a one-line note of the locked option, the plans that have it and
		// the trial; no inputs of it.
		w.click(w.button(l.tr("Password", "访问密码")))
		w.see(w.text(l.tr("Access password: available on Trial / Personal / Enterprise.", "访问密码：试用版 / 个人版 / 企业版可用。")))
		w.see(w.button(l.tr("Start the free 7-day trial", "免费试用 7 天")))
		if n, _ := w.p.GetByLabel(l.tr("Password", "密码"), playwright.PageGetByLabelOptions{Exact: playwright.Bool(true)}).Count(); n != 0 {
			t.Errorf("[%s] the password input is shown on the free plan", l.name)
		}
		w.shoot("linkform-locked")

		// No scheme typed: https:// is added. The alias is taken: the server's refusal, in the
		// look's language, is next to the alias.
		url := w.textbox(l.tr("Destination URL", "目标网址"))
		alias := w.textbox(l.tr("Custom alias", "自定义短码"))
		w.fill(url, "example.com/page")
		w.fill(alias, taken)
		w.refused(409)
		w.click(create)
		if err := expectLocator(alias).ToHaveAccessibleDescription(regexp.MustCompile(regexp.QuoteMeta(
			l.tr("This alias is already in use. Choose another.", "此短码已被使用，请换一个。")))); err != nil {
			t.Fatalf("[%s] the taken alias: %v", l.name, err)
		}
		if err := expectLocator(url).ToHaveValue("https://example.com/page"); err != nil {
			t.Errorf("[%s] the destination as sent: %v", l.name, err)
		}
		if n, _ := w.p.GetByTestId("form-error").Count(); n != 0 {
			t.Errorf("[%s] the alias's error is also at the bottom of the form", l.name)
		}
		w.shoot("linkform-taken")

		w.fill(alias, mine)
		// The live preview shows the short link the form will make and, with no social title
		// typed, the destination's host as the card's title.
		w.click(w.p.GetByTestId("preview-toggle"))
		if err := expectLocator(w.p.GetByTestId("preview-short-url")).ToHaveText(regexp.MustCompile(`/` + regexp.QuoteMeta(mine) + `$`)); err != nil {
			t.Errorf("[%s] the preview's short link: %v", l.name, err)
		}
		if err := expectLocator(w.p.GetByTestId("preview-title")).ToHaveText("example.com"); err != nil {
			t.Errorf("[%s] the preview's card title: %v", l.name, err)
		}
		w.accessible("the link form with its preview open")
		// Made from the bottom of the form, the link's page opens at its top, its short URL
		// on screen, as a new document would.
		if _, err := w.p.Evaluate("() => window.scrollTo(0, document.body.scrollHeight)"); err != nil {
			t.Fatal(err)
		}
		w.click(create)
		if err := reachURL(w.p, regexp.MustCompile(`/app/links/[0-9]+$`)); err != nil {
			t.Fatalf("[%s] after creating: %v (at %s)", l.name, err, w.p.URL())
		}
		w.see(w.text("https://example.com/page"))
		if y, err := w.p.Evaluate("() => window.scrollY"); err != nil || y != 0 {
			t.Errorf("[%s] the new link's page opened scrolled %v px down (%v)", l.name, y, err)
		}
		if err := expectLocator(w.p.GetByTestId("detail-short-url")).ToBeInViewport(); err != nil {
			t.Errorf("[%s] the new link's short URL is off screen: %v", l.name, err)
		}
		r := s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/links?q=%s", tn.WorkspaceID, mine), tn.Key, nil)
		got := answer[struct{ Links []linkJSON }](t, r, 200, "list links")
		if len(got.Links) != 1 || got.Links[0].URL != "https://example.com/page" {
			t.Fatalf("[%s] links with %s: %+v", l.name, mine, got.Links)
		}

		// The edit page shows the alias, read-only, and says why.
		w.click(w.link(l.tr("Edit", "编辑")))
		w.see(w.heading(l.tr("Edit link", "编辑链接")))
		edit := w.textbox(l.tr("Custom alias", "自定义短码"))
		if err := expectLocator(edit).ToHaveValue(mine); err != nil {
			t.Fatalf("[%s] the alias on the edit page: %v", l.name, err)
		}
		if err := expectLocator(edit).Not().ToBeEditable(); err != nil {
			t.Errorf("[%s] the alias is editable: %v", l.name, err)
		}
		w.see(w.text(l.tr("A link keeps its short code", "链接的短码不能更改")))
		w.see(w.button(l.tr("Save", "保存")))
		w.shoot("linkform-edit")
	})
}
