package e2e

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/testenv"
	"github.com/shortlink/shortlink/worker/review"
)

// heldLinkJSON is a link answer with its moderation's hold.
type heldLinkJSON struct {
	linkJSON
	Moderation struct {
		State      string `json:"state"`
		Held       bool   `json:"held"`
		HeldReason string `json:"held_reason"`
	} `json:"moderation"`
}

// TestModerationHeldLinks: once a domain's page is banned for phishing, a new link to that
// domain is held from its creation: its answer says pending and held, and both nodes answer it
// with the warning page at once, also when it was made with Redis down, and never redirect
// before its own review. That review, served before new links, opens the browser: a benign page
// releases the link (it redirects on both nodes), a phishing page bans it.
func TestModerationHeldLinks(t *testing.T) {
	sites, browser := moderationRig(t)
	sites.handle(t, "kit-host.test", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/about" {
			writeHTML(w, shopPage)
			return
		}
		writeHTML(w, scaleBankPage) // /login, /verify, …: a bank's login copied
	})
	model := testenv.NewChatModel(t, judgeByPassword)

	d := newDeployment(t)
	rs := testenv.NewRedisServer(t)
	d.env["REDIS_URL"] = rs.URL()
	a, b := d.start(t), d.start(t)
	owner := a.signup("owner@example.com")
	other := a.signup("other@example.com")
	ms := moderationStores(t, d)
	worker := review.Options{Browser: browser, Scorer: modelScorer(t, model, 20*time.Second), VerdictTTL: time.Hour}

	// The domain's first page is banned in the browser: the domain is held.
	stop := ms.runWorker(t, worker)
	first := a.createLink(owner, map[string]any{"url": "http://kit-host.test/login"})
	if l := a.waitReviewed(owner, first.ID, 3*time.Minute); l.Moderation.State != "banned" {
		t.Fatalf("the domain's first phishing page: %+v", l.Moderation)
	}
	stop()
	var until time.Time
	if err := ms.db.Pool.QueryRow(t.Context(), `SELECT until FROM moderation_holds WHERE domain = 'kit-host.test'`).Scan(&until); err != nil ||
		time.Until(until) < 50*time.Minute {
		t.Fatalf("the domain's hold: until %v (%v)", until, err)
	}

	create := func(s *server, tn tenant, url string) heldLinkJSON {
		t.Helper()
		r := s.do("POST", fmt.Sprintf("/api/v1/workspaces/%d/links", tn.WorkspaceID), tn.Key, map[string]any{"url": url})
		l := answer[heldLinkJSON](t, r, http.StatusCreated, "a link to the held domain")
		if l.Status != "held" || l.Moderation.State != "pending" || !l.Moderation.Held || l.Moderation.HeldReason != "domain_banned" {
			t.Errorf("the new link to %s as created: status %q, moderation %+v", url, l.Status, l.Moderation)
		}
		return l
	}
	warned := func(what, code string) {
		t.Helper()
		for _, s := range []*server{a, b} {
			if r := s.visit("GET", "/"+code); r.Status != http.StatusForbidden || !strings.Contains(string(r.Body), "held for a safety check") {
				t.Errorf("%s on %s: %d %q %.200s", what, s.base, r.Status, r.Header.Get("Location"), r.Body)
			}
		}
	}

	// Held at once, in another workspace too, on both nodes; the owner cannot enable it.
	benign := create(a, other, "http://www.kit-host.test/about")
	warned("the held benign page, just made", benign.Code)
	r := a.do("PATCH", fmt.Sprintf("/api/v1/workspaces/%d/links/%d", other.WorkspaceID, benign.ID), other.Key, map[string]any{"status": "active"})
	if got := answer[heldLinkJSON](t, r, http.StatusOK, "an owner's enable of a held link"); got.Status != "held" {
		t.Errorf("an owner's enable of a held link: status %q", got.Status)
	}
	r = a.do("PATCH", fmt.Sprintf("/api/v1/workspaces/%d/links", other.WorkspaceID), other.Key,
		map[string]any{"ids": []int64{benign.ID}, "set": map[string]any{"status": "active"}})
	if r.Status != http.StatusOK || !strings.Contains(string(r.Body), "link_held") {
		t.Errorf("a bulk enable of a held link: %d %s", r.Status, r.Body)
	}

	// Made with Redis down: held all the same, on both nodes.
	_ = rs.Do("SHUTDOWN", "NOSAVE")
	eventually(t, 5*time.Second, "Redis is down", func() bool { return rs.Do("PING") != nil })
	phish := create(b, owner, "http://kit-host.test/verify?case=7")
	warned("the held phishing page, made with Redis down", phish.Code)
	warned("the held benign page, with Redis down", benign.Code)
	rs.Start()
	eventually(t, 10*time.Second, "Redis is back", func() bool { return rs.Do("PING") == nil })
	warned("the held benign page, Redis back", benign.Code)
	for _, id := range []int64{benign.ID, phish.ID} {
		if ok, reason, _ := ms.dueRow(t, id); ok && reason != "held" {
			t.Errorf("link %d is due for %q, want held", id, reason)
		}
	}

	// Their own reviews decide: the benign page released, the phishing page banned.
	ms.runWorker(t, worker)
	reviewed := map[int64]string{}
	eventually(t, 3*time.Minute, "both held links reviewed", func() bool {
		for _, l := range []heldLinkJSON{benign, phish} {
			if _, ok := reviewed[l.ID]; ok {
				continue
			}
			var state string
			if err := ms.db.Pool.QueryRow(context.Background(), `SELECT state FROM link_moderation WHERE link_id = $1`, l.ID).Scan(&state); err == nil {
				reviewed[l.ID] = state
				continue
			}
			// Never a redirect before the review.
			for _, s := range []*server{a, b} {
				if r := s.visit("HEAD", "/"+l.Code); r.Status != http.StatusForbidden {
					if err := ms.db.Pool.QueryRow(context.Background(), `SELECT state FROM link_moderation WHERE link_id = $1`, l.ID).Scan(&state); err != nil {
						t.Errorf("%s answered %d on %s before its review", l.URL, r.Status, s.base)
					}
				}
			}
		}
		return len(reviewed) == 2
	})
	if reviewed[benign.ID] != "passed" || reviewed[phish.ID] != "banned" {
		t.Errorf("the held links' reviews: benign %q, phishing %q", reviewed[benign.ID], reviewed[phish.ID])
	}
	for _, l := range []heldLinkJSON{benign, phish} {
		var trigger, how string
		if err := ms.db.Pool.QueryRow(t.Context(), `SELECT trigger, shared_how FROM link_reviews WHERE link_id = $1 ORDER BY id DESC LIMIT 1`,
			l.ID).Scan(&trigger, &how); err != nil || trigger != "held" || how != "" {
			t.Errorf("the review of %s: trigger %q, shared %q (%v); want its own, in the browser", l.URL, trigger, how, err)
		}
	}
	for _, s := range []*server{a, b} {
		eventually(t, 5*time.Second, "the released link redirecting on "+s.base, func() bool {
			r := s.visit("HEAD", "/"+benign.Code)
			return r.Status == http.StatusFound && r.Header.Get("Location") == "http://www.kit-host.test/about"
		})
		eventually(t, 5*time.Second, "the banned link's warning page on "+s.base, func() bool {
			r := s.visit("GET", "/"+phish.Code)
			return r.Status == http.StatusForbidden && strings.Contains(string(r.Body), "blocked")
		})
	}
	got := answer[heldLinkJSON](t, a.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/links/%d", other.WorkspaceID, benign.ID), other.Key, nil),
		http.StatusOK, "the released link")
	if got.Status != "active" || got.Moderation.State != "passed" || got.Moderation.Held {
		t.Errorf("the released link: status %q, moderation %+v", got.Status, got.Moderation)
	}
	// The pass ended the domain's hold (a domain that also passes pages has its links reviewed
	// one by one): its next link is made active.
	var held int
	_ = ms.db.Pool.QueryRow(t.Context(), `SELECT count(*) FROM moderation_holds WHERE domain = 'kit-host.test'`).Scan(&held)
	if next := a.createLink(owner, map[string]any{"url": "http://kit-host.test/about?x=1"}); held != 0 || next.Status != "active" {
		t.Errorf("after a pass: %d holds, and the domain's next link is %q", held, next.Status)
	}
}
