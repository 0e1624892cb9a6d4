package e2e

import (
	"fmt"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/playwright-community/playwright-go"
)

// TestWebAppTags: the links list shows each link's tags and filters by one; the link form puts
// tags on a new link, the workspace's tags suggested.
func TestWebAppTags(t *testing.T) {
	s := newDeployment(t).start(t)
	eachLook(t, twoLooks, func(t *testing.T, l look) {
		email := "tags-" + l.name + "@example.com"
		tn := s.signup(email)
		ws := fmt.Sprintf("/api/v1/workspaces/%d", tn.WorkspaceID)
		plain := s.createLink(tn, map[string]any{"url": "https://example.com/plain/" + l.name})
		tagged := answer[taggedJSON](t, s.do("POST", ws+"/links", tn.Key, map[string]any{"url": "https://example.com/tagged/" + l.name, "tags": []string{"Spring"}}),
			http.StatusCreated, "tagged link")

		w := walk(t, s, l)
		w.signIn(email, "correct horse battery")
		shorts := w.p.GetByTestId("link-short")
		if err := expectLocator(shorts).ToHaveCount(2); err != nil {
			t.Fatalf("[%s] %v", l.name, err)
		}
		if err := expectLocator(w.p.GetByTestId("link-tag")).ToHaveText([]string{"Spring"}); err != nil {
			t.Fatalf("[%s] tag chips: %v", l.name, err)
		}
		filter := w.role("combobox", w.tr("Tag", "标签"))
		if _, err := filter.SelectOption(playwright.SelectOptionValues{Labels: &[]string{"Spring"}}); err != nil {
			t.Fatalf("[%s] tag filter: %v", l.name, err)
		}
		if err := expectLocator(shorts).ToContainText([]string{tagged.Code}); err != nil {
			t.Fatalf("[%s] filtered by Spring: %v", l.name, err)
		}
		if _, err := filter.SelectOption(playwright.SelectOptionValues{Labels: &[]string{w.tr("Any tag", "任意标签")}}); err != nil {
			t.Fatalf("[%s] tag filter: %v", l.name, err)
		}
		if err := expectLocator(shorts).ToContainText([]string{tagged.Code, plain.Code}); err != nil {
			t.Fatalf("[%s] every tag: %v", l.name, err)
		}
		w.shoot("links-tags")

		// A new link with a new tag and the existing one, typed.
		w.click(w.link(l.tr("New link", "新建链接")))
		w.fill(w.textbox(l.tr("Destination URL", "目标网址")), "https://example.com/new/"+l.name)
		tags := w.p.GetByTestId("link-tags")
		w.fill(tags, "Launch")
		if err := tags.Press("Enter"); err != nil {
			t.Fatal(err)
		}
		w.fill(tags, "spring")
		if err := tags.Press("Enter"); err != nil {
			t.Fatal(err)
		}
		w.click(w.button(l.tr("Create link", "创建链接")))
		var page struct{ Links []taggedJSON }
		eventually(t, 10*time.Second, "the new link with its tags", func() bool {
			s.do("GET", ws+"/links?tag=launch", tn.Key, nil).json(t, &page)
			return len(page.Links) == 1
		})
		if !slices.Equal(page.Links[0].Tags, []string{"Launch", "Spring"}) {
			t.Fatalf("[%s] the new link: %+v", l.name, page.Links)
		}
	})
}
