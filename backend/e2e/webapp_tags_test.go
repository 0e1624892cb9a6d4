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
// tags on a new link, the workspace's tags suggested; the tags page counts each tag's links.
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
		// The link's page shows its tags too.
		w.open(fmt.Sprintf("/links/%d", tagged.ID), "")
		if err := expectLocator(w.p.GetByTestId("detail-tags").GetByRole("listitem")).ToHaveText([]string{"Spring"}); err != nil {
			t.Errorf("[%s] the link page's tags: %v", l.name, err)
		}
		w.open("/links", "")
		w.see(shorts.First())

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

		// The tags page: add one with its colour picked for it, rename another (its links follow),
		// delete one (its links stay).
		w.open("/tags", w.tr("Tags", "标签"))
		if err := expectLocator(w.p.GetByTestId("tag-row")).ToHaveCount(2); err != nil {
			t.Fatalf("[%s] tags: %v", l.name, err)
		}
		// Each tag says how many links carry it.
		linkCount := func(tag, en, zh string) {
			t.Helper()
			row := w.p.GetByTestId("tag-row").Filter(playwright.LocatorFilterOptions{Has: w.textbox(w.tr("Name of "+tag, tag+" 的名称"))})
			if err := expectLocator(row.GetByTestId("tag-link-count")).ToHaveText(w.tr(en, zh)); err != nil {
				t.Errorf("[%s] the links of %s: %v", l.name, tag, err)
			}
		}
		linkCount("Spring", "2 links", "2 个链接")
		linkCount("Launch", "1 link", "1 个链接")
		w.accessible("tags")
		w.shoot("tags")
		w.fill(w.p.GetByTestId("tag-name"), "Summer")
		w.click(w.p.GetByTestId("tag-add"))
		if err := expectLocator(w.p.GetByTestId("tag-row")).ToHaveCount(3); err != nil {
			t.Fatalf("[%s] tags after adding: %v", l.name, err)
		}
		linkCount("Summer", "0 links", "0 个链接")
		w.fill(w.textbox(w.tr("Name of Spring", "Spring 的名称")), "Spring 2027")
		w.click(w.p.GetByTestId("tag-row").Filter(playwright.LocatorFilterOptions{Has: w.textbox(w.tr("Name of Spring", "Spring 的名称"))}).GetByRole("button", playwright.LocatorGetByRoleOptions{Name: w.tr("Save", "保存")}))
		eventually(t, 10*time.Second, "the rename on the link", func() bool {
			return slices.Equal(s.linkTags(tn.Key, tn.WorkspaceID, tagged.ID).Tags, []string{"Spring 2027"})
		})
		launch := w.p.GetByTestId("tag-row").Filter(playwright.LocatorFilterOptions{Has: w.textbox(w.tr("Name of Launch", "Launch 的名称"))})
		w.click(launch.GetByRole("button", playwright.LocatorGetByRoleOptions{Name: w.tr("Remove", "删除")}))
		w.click(w.p.GetByRole("dialog").GetByRole("button", playwright.LocatorGetByRoleOptions{Name: w.tr("Remove", "删除")}))
		eventually(t, 10*time.Second, "the tag deleted", func() bool {
			return len(s.tagsOf(tn.Key, tn.WorkspaceID)) == 2
		})
		if got := s.linkTags(tn.Key, tn.WorkspaceID, page.Links[0].ID); !slices.Equal(got.Tags, []string{"Spring 2027"}) {
			t.Fatalf("[%s] the new link after the delete: %v", l.name, got.Tags)
		}
	})
}
