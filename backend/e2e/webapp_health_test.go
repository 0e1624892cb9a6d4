package e2e

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/playwright-community/playwright-go"
)

// TestWebAppLinkHealth: a broken link shows a "Broken" badge with its reason in the list and
// on its page; the health filter lists the broken links only; "Check now" on the link's page
// checks the mended destination and the badge goes.
func TestWebAppLinkHealth(t *testing.T) {
	s := newDeployment(t).start(t, "HEALTH_ALLOW_LOOPBACK", "true")
	dst := newDestination(t)
	eachLook(t, twoLooks, func(t *testing.T, l look) {
		email := "health-" + l.name + "@example.com"
		tn := s.signup(email)
		ws := fmt.Sprintf("/api/v1/workspaces/%d", tn.WorkspaceID)
		brokenPath, okPath := "/broken-"+l.name, "/fine-"+l.name
		dst.set(brokenPath, http.StatusNotFound)
		broken := s.createLink(tn, map[string]any{"url": dst.url(brokenPath)})
		fine := s.createLink(tn, map[string]any{"url": dst.url(okPath)})
		for _, id := range []int64{broken.ID, broken.ID, fine.ID} {
			if r := s.do("POST", fmt.Sprintf("%s/links/%d/check", ws, id), tn.Key, nil); r.Status != http.StatusOK {
				t.Fatalf("check: %d %s", r.Status, r.Body)
			}
		}

		w := walk(t, s, l)
		w.signIn(email, "correct horse battery")
		shorts := w.p.GetByTestId("link-short")
		if err := expectLocator(shorts).ToHaveCount(2); err != nil {
			t.Fatalf("[%s] %v", l.name, err)
		}
		badge := w.p.GetByTestId("health-badge")
		if err := expectLocator(badge).ToHaveText([]string{w.tr("Broken: HTTP 404", "已失效：HTTP 404")}); err != nil {
			t.Fatalf("[%s] badges: %v", l.name, err)
		}
		filter := w.role("combobox", w.tr("Health", "健康状况"))
		if _, err := filter.SelectOption(playwright.SelectOptionValues{Labels: &[]string{w.tr("Broken", "已失效")}}); err != nil {
			t.Fatalf("[%s] health filter: %v", l.name, err)
		}
		if err := expectLocator(shorts).ToContainText([]string{broken.Code}); err != nil {
			t.Fatalf("[%s] filtered broken: %v", l.name, err)
		}
		w.accessible("links-health")
		w.shoot("links-health")
		if _, err := filter.SelectOption(playwright.SelectOptionValues{Labels: &[]string{w.tr("Working", "正常")}}); err != nil {
			t.Fatalf("[%s] health filter: %v", l.name, err)
		}
		if err := expectLocator(shorts).ToContainText([]string{fine.Code}); err != nil {
			t.Fatalf("[%s] filtered ok: %v", l.name, err)
		}

		// The broken link's page: the badge and the panel; the destination mended, "Check now".
		w.open(fmt.Sprintf("/links/%d", broken.ID), "")
		w.see(w.p.GetByTestId("health-panel"))
		if err := expectLocator(badge).ToHaveCount(1); err != nil {
			t.Fatalf("[%s] the page's badge: %v", l.name, err)
		}
		w.accessible("link-health")
		w.shoot("link-health")
		dst.set(brokenPath, http.StatusOK)
		w.click(w.button(w.tr("Check now", "立即检查")))
		if err := expectLocator(badge).ToHaveCount(0); err != nil {
			t.Fatalf("[%s] badge after the check: %v", l.name, err)
		}
		w.see(w.p.GetByTestId("health-ok"))
		if h := s.linkHealth(tn, broken.ID); h == nil || h.State != "ok" {
			t.Fatalf("[%s] after Check now: %+v", l.name, h)
		}
	})
}
