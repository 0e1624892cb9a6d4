package e2e

import (
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/moderation"
	"github.com/shortlink/shortlink/worker/review"
)

// resetConnection ends the request's connection with a TCP reset, before any answer.
func resetConnection(w http.ResponseWriter) {
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		panic(err)
	}
	if tc, ok := conn.(*net.TCPConn); ok {
		_ = tc.SetLinger(0)
	}
	_ = conn.Close()
}

// TestModerationBlindReviewsRetry: a review whose browser could not see the page is no evidence
// of safety. A site that resets the reviewer's first visits is tried again and passes on what
// the next try saw; a site that resets every visit, one that answers WeChat alone and one whose
// page is nearly empty are flagged for a moderator after their tries, with the reason, and never
// passed. Only the last try is recorded as a review; the links keep working meanwhile.
func TestModerationBlindReviewsRetry(t *testing.T) {
	sites, browser := moderationRig(t)
	var flakyFailures atomic.Int32
	sites.handle(t, "flaky-shop.test", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/" && flakyFailures.Add(1) <= 3 {
			resetConnection(w)
			return
		}
		writeHTML(w, shopPage)
	})
	sites.handle(t, "always-reset.test", func(w http.ResponseWriter, _ *http.Request) { resetConnection(w) })
	sites.handle(t, "members-club.test", func(w http.ResponseWriter, r *http.Request) {
		if !strings.Contains(r.UserAgent(), "MicroMessenger") {
			resetConnection(w)
			return
		}
		writeHTML(w, shopPage)
	})
	sites.html(t, "blank-page.test", `<!doctype html><html><head></head><body><div id="app"></div></body></html>`)

	d := newDeployment(t)
	a := d.start(t)
	owner := a.signup("owner@example.com")
	_, mod := a.moderator("mod@example.com")
	ms := moderationStores(t, d)
	ms.runWorker(t, review.Options{Browser: browser, Scorer: heuristicScorer(t), BlindRetries: 1,
		BlindBackoff: 2 * time.Second}) // the default's 30 s would only be waited out

	flaky := a.createLink(owner, map[string]any{"url": "http://flaky-shop.test/"})
	reset := a.createLink(owner, map[string]any{"url": "http://always-reset.test/"})
	wechat := a.createLink(owner, map[string]any{"url": "http://members-club.test/"})
	blank := a.createLink(owner, map[string]any{"url": "http://blank-page.test/"})

	if got := a.waitReviewed(owner, flaky.ID, 120*time.Second); got.Moderation.State != "passed" {
		t.Errorf("the site that failed the first try: %+v", got.Moderation)
	}
	if n := flakyFailures.Load(); n <= 3 {
		t.Errorf("the flaky site was asked %d times, want a second try", n)
	}
	if f := a.modFile(mod, flaky.ID); len(f.Reviews) != 1 {
		t.Errorf("the flaky site: %d reviews recorded, want the last try's alone", len(f.Reviews))
	} else {
		for _, c := range f.Reviews[0].Captures {
			if c.Error != "" || c.Status != http.StatusOK {
				t.Errorf("the flaky site's recorded try, %s: %+v", c.Profile, c)
			}
		}
	}

	for _, c := range []struct {
		l    linkJSON
		want []string // in the reason
	}{
		{reset, []string{"desktop: navigation: ", "mobile: navigation: ", "wechat: navigation: ", "reset"}},
		{wechat, []string{"desktop: navigation: ", "mobile: navigation: ", "reset"}},
		{blank, []string{"nearly empty page"}},
	} {
		got := a.waitReviewed(owner, c.l.ID, 120*time.Second)
		if got.Moderation.State != "flagged" || got.Moderation.Category != moderation.CategoryIncomplete || got.Status != "active" {
			t.Errorf("%s: %+v", c.l.URL, got)
		}
		f := a.modFile(mod, c.l.ID)
		if len(f.Reviews) != 1 {
			t.Errorf("%s: %d reviews recorded, want the last try's alone", c.l.URL, len(f.Reviews))
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(f.Reviews[0].Reason, w) {
				t.Errorf("%s: the reason %q does not say %q", c.l.URL, f.Reviews[0].Reason, w)
			}
		}
		if r := a.visit("HEAD", "/"+c.l.Code); r.Status != http.StatusFound {
			t.Errorf("%s: the flagged link answers %d", c.l.URL, r.Status)
		}
	}
	if got := a.getLink(owner, wechat.ID); got.Moderation.State == "passed" {
		t.Errorf("a site that answered WeChat alone passed: %+v", got.Moderation)
	}
	for _, l := range []linkJSON{flaky, reset, wechat, blank} {
		ms.expectSettled(t, l.ID, l.URL)
	}
}
