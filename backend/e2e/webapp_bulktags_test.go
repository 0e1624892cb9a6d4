package e2e

import (
	"fmt"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/playwright-community/playwright-go"
)

// TestWebAppBulkTags: in the links list's bulk bar, selected links get a tag in one call and
// lose it again; a link that cannot take one more tag is listed with its reason while the
// others change; every link a search matches is disabled by a bulk job, its progress shown.
func TestWebAppBulkTags(t *testing.T) {
	s := newDeployment(t).start(t)
	eachLook(t, twoLooks, func(t *testing.T, l look) {
		email := "bulktags-" + l.name + "@example.com"
		tn := s.signup(email)
		ws := fmt.Sprintf("/api/v1/workspaces/%d", tn.WorkspaceID)
		a := s.createLink(tn, map[string]any{"url": "https://example.com/a/" + l.name})
		b := s.createLink(tn, map[string]any{"url": "https://example.com/b/" + l.name})
		twenty := make([]string, 20)
		for i := range twenty {
			twenty[i] = fmt.Sprintf("t%02d", i+1)
		}
		full := answer[taggedJSON](t, s.do("POST", ws+"/links", tn.Key, map[string]any{"url": "https://example.com/full/" + l.name, "tags": twenty}),
			http.StatusCreated, "a link with 20 tags")

		w := walk(t, s, l)
		w.signIn(email, "correct horse battery")
		if err := expectLocator(w.p.GetByTestId("link-short")).ToHaveCount(3); err != nil {
			t.Fatalf("[%s] %v", l.name, err)
		}
		selectLinks := func(codes ...string) {
			for _, c := range codes {
				if err := w.role("checkbox", w.tr("Select ", "选择 ")+c).Check(); err != nil {
					t.Fatalf("[%s] select %s: %v", l.name, c, err)
				}
			}
			w.see(w.p.GetByTestId("bulk-bar"))
		}
		launch := w.p.GetByTestId("link-tag").Filter(playwright.LocatorFilterOptions{HasText: "Launch"})
		dialog := w.p.GetByRole("dialog")
		// A tag is typed and entered, and the dialog's button is clicked with the workspace's
		// other tags still suggested: the suggestions leave the button uncovered.
		typeTag := func(input, apply playwright.Locator) {
			if err := input.Press("Enter"); err != nil {
				t.Fatal(err)
			}
			suggestions := w.p.GetByRole("listbox").Filter(playwright.LocatorFilterOptions{HasText: "t01"})
			w.see(suggestions)
			if err := apply.Click(playwright.LocatorClickOptions{Trial: playwright.Bool(true)}); err != nil {
				t.Fatalf("[%s] the dialog's button with the suggestions open: %v", l.name, err)
			}
			hit, err := apply.Evaluate(`b => {
				const r = b.getBoundingClientRect();
				return b.contains(document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2));
			}`, nil)
			if err != nil || hit != true {
				t.Fatalf("[%s] the dialog's button is not what its centre shows with the suggestions open (%v)", l.name, err)
			}
			w.see(suggestions)
			w.accessible("the bulk tags dialog with its suggestions open")
			w.click(apply)
		}

		// Add: two links take the tag, the full one is refused with its reason.
		selectLinks(a.Code, b.Code, full.Code)
		w.click(w.button(w.tr("Add tags", "添加标签")))
		input := dialog.GetByTestId("bulk-tags-input")
		w.fill(input, "Launch")
		typeTag(input, dialog.GetByRole("button", playwright.LocatorGetByRoleOptions{Name: w.tr("Add tags", "添加标签")}))
		if err := expectLocator(launch).ToHaveCount(2); err != nil {
			t.Fatalf("[%s] chips after adding: %v", l.name, err)
		}
		refused := w.p.GetByTestId("bulk-refused-row")
		if err := expectLocator(refused).ToHaveCount(1); err != nil {
			t.Fatalf("[%s] refused rows: %v", l.name, err)
		}
		if err := expectLocator(refused).ToContainText(full.Code); err != nil {
			t.Fatalf("[%s] refused row: %v", l.name, err)
		}
		if err := expectLocator(refused).ToContainText(w.tr("20", "20")); err != nil {
			t.Fatalf("[%s] refused reason: %v", l.name, err)
		}
		w.shoot("links-bulk-tags")
		for _, id := range []int64{a.ID, b.ID} {
			if got := s.linkTags(tn.Key, tn.WorkspaceID, id).Tags; !slices.Equal(got, []string{"Launch"}) {
				t.Fatalf("[%s] link %d after adding: %v", l.name, id, got)
			}
		}
		if got := s.linkTags(tn.Key, tn.WorkspaceID, full.ID).Tags; len(got) != 20 {
			t.Fatalf("[%s] the full link changed: %v", l.name, got)
		}

		// Remove: the tag comes off both; the tag itself stays in the workspace.
		selectLinks(a.Code, b.Code)
		w.click(w.button(w.tr("Remove tags", "移除标签")))
		w.fill(input, "Launch")
		typeTag(input, dialog.GetByRole("button", playwright.LocatorGetByRoleOptions{Name: w.tr("Remove tags", "移除标签")}))
		if err := expectLocator(launch).ToHaveCount(0); err != nil {
			t.Fatalf("[%s] chips after removing: %v", l.name, err)
		}
		if err := expectLocator(refused).ToHaveCount(0); err != nil {
			t.Fatalf("[%s] refused rows after removing: %v", l.name, err)
		}
		eventually(t, 5*time.Second, "the tag off both links", func() bool {
			return len(s.linkTags(tn.Key, tn.WorkspaceID, a.ID).Tags) == 0 && len(s.linkTags(tn.Key, tn.WorkspaceID, b.ID).Tags) == 0
		})

		// Every link a filter matches: the page's links selected, then all those matching, and
		// the bar's action runs as a bulk job whose progress the page follows to its end.
		w.fill(w.p.GetByTestId("links-search"), "/a/"+l.name)
		if err := expectLocator(w.p.GetByTestId("link-short")).ToHaveCount(1); err != nil {
			t.Fatalf("[%s] the search: %v", l.name, err)
		}
		if err := w.role("checkbox", w.tr("Select all on this page", "选择本页全部")).First().Check(); err != nil {
			t.Fatalf("[%s] select the page: %v", l.name, err)
		}
		w.click(w.p.GetByTestId("select-all-matching"))
		w.click(w.p.GetByTestId("bulk-bar").GetByRole("button", playwright.LocatorGetByRoleOptions{Name: w.tr("Disable", "停用")}))
		if err := expectLocator(w.p.GetByTestId("bulk-job-state")).ToContainText(w.tr("Finished", "已完成")); err != nil {
			t.Fatalf("[%s] the job's progress: %v", l.name, err)
		}
		w.shoot("links-bulk-job")
		if got := s.linkTags(tn.Key, tn.WorkspaceID, a.ID).Status; got != "disabled" {
			t.Fatalf("[%s] the matching link: %s", l.name, got)
		}
		if got := s.linkTags(tn.Key, tn.WorkspaceID, b.ID).Status; got != "active" {
			t.Fatalf("[%s] a link the filter does not match: %s", l.name, got)
		}
	})
}
