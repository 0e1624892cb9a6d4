package e2e

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/moderation"
	"github.com/shortlink/shortlink/backend/postgres"
	"github.com/shortlink/shortlink/backend/testenv"
)

// moderatedLink is a link answer with its moderation and appeal.
type moderatedLink struct {
	linkJSON
	WorkspaceID int64 `json:"workspace_id"`
	Moderation  struct {
		State      string     `json:"state"`
		Score      *float64   `json:"score"`
		Category   string     `json:"category"`
		Reason     string     `json:"reason"`
		ReviewedAt *time.Time `json:"reviewed_at"`
	} `json:"moderation"`
	Appeal *appealJSON `json:"appeal"`
}

type appealJSON struct {
	LinkID     int64      `json:"link_id"`
	Message    string     `json:"message"`
	ResolvedAt *time.Time `json:"resolved_at"`
	Resolution string     `json:"resolution"`
}

type decisionJSON struct {
	ID     int64  `json:"id"`
	LinkID int64  `json:"link_id"`
	Action string `json:"action"`
	State  string `json:"state"`
	Note   string `json:"note"`
	Actor  *struct {
		ID    int64  `json:"id"`
		Email string `json:"email"`
	} `json:"actor"`
	ReviewID *int64 `json:"review_id"`
}

type queueJSON struct {
	Items []struct {
		Link   moderatedLink `json:"link"`
		Review *struct {
			ID     int64   `json:"id"`
			Score  float64 `json:"score"`
			Reason string  `json:"reason"`
			Scorer string  `json:"scorer"`
			Model  string  `json:"model"`
		} `json:"review"`
	} `json:"items"`
	NextCursor string `json:"next_cursor"`
}

// login signs a user in again and returns the access token.
func (s *server) login(email string) string {
	s.t.Helper()
	r := s.do("POST", "/api/v1/auth/login", "", map[string]string{"email": email, "password": "correct horse battery"})
	return answer[struct {
		AccessToken string `json:"access_token"`
	}](s.t, r, http.StatusOK, "login "+email).AccessToken
}

// moderator signs up a person, verifies their address, has the operator make them a
// moderator, and returns the token of their next sign-in.
func (s *server) moderator(email string) (tenant, string) {
	s.t.Helper()
	tn := s.signup(email)
	s.verify(email)
	r := s.do("PATCH", fmt.Sprintf("/api/v1/admin/users/%d", tn.UserID), s.operatorToken(), map[string]any{"system_role": "moderator"})
	if r.Status != http.StatusOK || !strings.Contains(string(r.Body), `"system_role":"moderator"`) {
		s.t.Fatalf("make %s a moderator: %d %s", email, r.Status, r.Body)
	}
	time.Sleep(2 * time.Millisecond) // a token of the role change's millisecond carries no role
	return tn, s.login(email)
}

// reviewer records reviews the way the worker does, through the moderation store.
type reviewer struct {
	t     *testing.T
	store *postgres.Moderation
	shot  []byte
}

func newReviewer(t *testing.T, d *deployment) *reviewer {
	t.Helper()
	db := d.db(t)
	return &reviewer{t: t, store: postgres.NewModeration(db), shot: testenv.PNG(t, 200)}
}

// review records a review of l scoring score: a desktop capture with a screenshot and a login
// form, a mobile one without a screenshot.
func (rv *reviewer) review(ws int64, l linkJSON, score float64, reason string) moderation.Outcome {
	rv.t.Helper()
	job := moderation.Job{LinkID: l.ID, WorkspaceID: ws, URL: l.URL, Reason: "created", Seq: 1}
	r := moderation.Review{Duration: 1500 * time.Millisecond, Verdict: moderation.Verdict{
		Score: score, Category: "phishing", Reason: reason, Scorer: "model", Model: "test-model"}}
	r.Captures = []moderation.Capture{
		{Profile: moderation.Desktop, URL: l.URL, FinalURL: l.URL + "/login", Redirects: []string{l.URL, l.URL + "/login"},
			Status: 200, Title: "Sign in", Description: "Your bank", Screenshot: rv.shot, Duration: time.Second,
			Forms: []moderation.Form{{Action: l.URL + "/post", Password: true, Fields: []string{"user", "pass"}}}},
		{Profile: moderation.Mobile, URL: l.URL, FinalURL: l.URL, Redirects: []string{l.URL}, Error: "timeout"},
	}
	out, err := rv.store.Record(context.Background(), job, r, moderation.DefaultThresholds)
	if err != nil {
		rv.t.Fatalf("record a review of %d: %v", l.ID, err)
	}
	return out
}

func (s *server) getLink(tn tenant, id int64) moderatedLink {
	s.t.Helper()
	r := s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/links/%d", tn.WorkspaceID, id), tn.Token, nil)
	return answer[moderatedLink](s.t, r, http.StatusOK, fmt.Sprintf("get link %d", id))
}

// TestModerationThroughAPI: owners see the moderation's verdicts on their links and appeal
// them; moderators page through the queue, read a link's reviews and screenshots, and decide,
// and every node follows a ban and its lifting within a second or two; operators read the
// audit log. Nobody else reaches the moderators' routes.
func TestModerationThroughAPI(t *testing.T) {
	d := newDeployment(t)
	a, b := d.start(t), d.start(t)
	owner := a.signup("owner@example.com")
	modUser, mod := a.moderator("mod@example.com")
	op := a.operatorToken()
	rv := newReviewer(t, d)
	ws := fmt.Sprintf("/api/v1/workspaces/%d", owner.WorkspaceID)

	// A new link is pending, in the create answer, the list and the link answer alike.
	r := a.do("POST", ws+"/links", owner.Key, map[string]any{"url": "https://fresh.example/"})
	var fresh moderatedLink
	r.json(t, &fresh)
	if r.Status != http.StatusCreated || fresh.Moderation.State != "pending" || fresh.Moderation.Score != nil ||
		fresh.Moderation.ReviewedAt != nil || fresh.Moderation.Reason != "" {
		t.Fatalf("a new link's moderation: %d %s", r.Status, r.Body)
	}
	if got := a.getLink(owner, fresh.ID); got.Moderation.State != "pending" || got.Appeal != nil {
		t.Errorf("a new link read back: %+v", got)
	}

	flagged := make([]linkJSON, 3)
	for i := range flagged {
		flagged[i] = a.createLink(owner, map[string]any{"url": fmt.Sprintf("https://flagged%d.example/", i)})
		if out := rv.review(owner.WorkspaceID, flagged[i], 0.6, "looks like a bank login"); out.State != moderation.Flagged {
			t.Fatalf("review of %d: %+v", flagged[i].ID, out)
		}
	}
	banned := a.createLink(owner, map[string]any{"url": "https://banned.example/"})
	ban := rv.review(owner.WorkspaceID, banned, 0.95, "a copy of a bank's login page")
	passed := a.createLink(owner, map[string]any{"url": "https://passed.example/"})
	rv.review(owner.WorkspaceID, passed, 0.1, "a shop")

	// The owner sees the verdicts, the ban's reason and the banned status.
	got := a.getLink(owner, banned.ID)
	if got.Status != "banned" || got.Moderation.State != "banned" || got.Moderation.Score == nil || *got.Moderation.Score != 0.95 ||
		got.Moderation.Reason != "" || got.Moderation.Category != "phishing" || got.Moderation.ReviewedAt == nil {
		t.Errorf("the banned link as its owner sees it: %+v", got)
	}
	if got := a.getLink(owner, flagged[0].ID); got.Status != "active" || got.Moderation.State != "flagged" || *got.Moderation.Score != 0.6 {
		t.Errorf("a flagged link as its owner sees it: %+v", got)
	}
	var list struct {
		Links []moderatedLink `json:"links"`
	}
	a.do("GET", ws+"/links", owner.Key, nil).json(t, &list)
	states := map[int64]string{}
	for _, l := range list.Links {
		states[l.ID] = l.Moderation.State
	}
	if states[banned.ID] != "banned" || states[passed.ID] != "passed" || states[flagged[2].ID] != "flagged" || states[fresh.ID] != "pending" {
		t.Errorf("states in the list: %v", states)
	}
	var patched moderatedLink
	a.do("PATCH", fmt.Sprintf("%s/links/%d", ws, passed.ID), owner.Key, map[string]any{"title": "shop"}).json(t, &patched)
	if patched.Moderation.State != "passed" || patched.Title != "shop" {
		t.Errorf("the PATCH answer: %+v", patched)
	}
	eventually(t, 3*time.Second, "the banned link's warning page on the other node", func() bool {
		return b.visit("GET", "/"+banned.Code).Status == http.StatusForbidden
	})

	// Nobody but moderators and operators reaches the moderators' routes: not the owner, not
	// her API key, not an anonymous caller. Operators' routes refuse moderators.
	modRoutes := []struct{ method, path string }{
		{"GET", "/api/v1/moderation/queue"},
		{"GET", "/api/v1/moderation/counts"},
		{"GET", fmt.Sprintf("/api/v1/moderation/links/%d", banned.ID)},
		{"POST", fmt.Sprintf("/api/v1/moderation/links/%d/decision", banned.ID)},
		{"POST", fmt.Sprintf("/api/v1/moderation/links/%d/review", banned.ID)},
		{"GET", fmt.Sprintf("/api/v1/moderation/reviews/%d/screenshots/desktop", ban.ReviewID)},
	}
	for _, rt := range modRoutes {
		body := any(nil)
		if rt.method == "POST" {
			body = map[string]any{"action": "unban"}
		}
		for _, as := range []struct{ name, cred string }{{"owner", owner.Token}, {"owner's key", owner.Key}} {
			if r := a.do(rt.method, rt.path, as.cred, body); r.Status != http.StatusForbidden || r.errorCode(t) != "forbidden" {
				t.Errorf("%s %s %s: %d %s, want 403", as.name, rt.method, rt.path, r.Status, r.Body)
			}
		}
		if r := a.do(rt.method, rt.path, "", body); r.Status != http.StatusUnauthorized {
			t.Errorf("anonymous %s %s: %d %s, want 401", rt.method, rt.path, r.Status, r.Body)
		}
	}
	if r := a.do("GET", "/api/v1/admin/audit", mod, nil); r.Status != http.StatusForbidden {
		t.Errorf("a moderator reads the audit log: %d %s", r.Status, r.Body)
	}
	if got := a.getLink(owner, banned.ID); got.Status != "banned" {
		t.Fatalf("a refused decision changed the link: %+v", got)
	}

	// The queue of flagged links, newest decision first, a page at a time.
	var seen []int64
	cursor := ""
	for page := 0; ; page++ {
		var q queueJSON
		r := a.do("GET", "/api/v1/moderation/queue?limit=2&cursor="+cursor, mod, nil)
		if r.Status != http.StatusOK {
			t.Fatalf("queue: %d %s", r.Status, r.Body)
		}
		r.json(t, &q)
		for _, it := range q.Items {
			if it.Link.Moderation.State != "flagged" || it.Link.WorkspaceID != owner.WorkspaceID || it.Review == nil ||
				it.Review.Score != 0.6 || it.Review.Scorer != "model" || it.Review.Model != "test-model" || it.Link.ShortURL == "" {
				t.Errorf("queue item: %+v", it)
			}
			seen = append(seen, it.Link.ID)
		}
		if q.NextCursor == "" {
			break
		}
		if page > 3 {
			t.Fatal("the queue does not end")
		}
		cursor = q.NextCursor
	}
	if want := []int64{flagged[2].ID, flagged[1].ID, flagged[0].ID}; fmt.Sprint(seen) != fmt.Sprint(want) {
		t.Errorf("flagged queue: %v, want %v (newest first, each once)", seen, want)
	}
	for state, want := range map[string]int64{"banned": banned.ID, "passed": passed.ID} {
		var q queueJSON
		a.do("GET", "/api/v1/moderation/queue?state="+state, mod, nil).json(t, &q)
		if len(q.Items) != 1 || q.Items[0].Link.ID != want || q.NextCursor != "" {
			t.Errorf("%s queue: %+v", state, q)
		}
	}

	// A link's file: its reviews with what each visitor saw, and the screenshot behind the URL.
	var file struct {
		Link    moderatedLink `json:"link"`
		Reviews []struct {
			ID       int64   `json:"id"`
			Score    float64 `json:"score"`
			Reason   string  `json:"reason"`
			Scorer   string  `json:"scorer"`
			Model    string  `json:"model"`
			Duration int64   `json:"duration_ms"`
			Captures []struct {
				Profile       string   `json:"profile"`
				Title         string   `json:"title"`
				FinalURL      string   `json:"final_url"`
				Redirects     []string `json:"redirects"`
				Error         string   `json:"error"`
				Forms         []struct{ Password bool }
				ScreenshotURL *string `json:"screenshot_url"`
			} `json:"captures"`
		} `json:"reviews"`
		Decisions []decisionJSON `json:"decisions"`
		Appeal    *appealJSON    `json:"appeal"`
	}
	r = a.do("GET", fmt.Sprintf("/api/v1/moderation/links/%d", banned.ID), mod, nil)
	if r.Status != http.StatusOK {
		t.Fatalf("a link's file: %d %s", r.Status, r.Body)
	}
	r.json(t, &file)
	if file.Link.ID != banned.ID || file.Link.Status != "banned" || len(file.Reviews) != 1 || file.Reviews[0].ID != ban.ReviewID ||
		file.Reviews[0].Score != 0.95 || file.Reviews[0].Duration != 1500 || len(file.Reviews[0].Captures) != 2 ||
		len(file.Decisions) != 1 || file.Decisions[0].Action != "ban" || file.Decisions[0].Actor != nil || file.Appeal != nil {
		t.Fatalf("the banned link's file: %s", r.Body)
	}
	desktop, mobile := file.Reviews[0].Captures[0], file.Reviews[0].Captures[1]
	if desktop.Profile != "desktop" || desktop.Title != "Sign in" || len(desktop.Redirects) != 2 || len(desktop.Forms) != 1 ||
		!desktop.Forms[0].Password || desktop.ScreenshotURL == nil || mobile.Profile != "mobile" || mobile.Error != "timeout" ||
		mobile.ScreenshotURL != nil {
		t.Errorf("captures: %+v", file.Reviews[0].Captures)
	}
	shot := a.do("GET", *desktop.ScreenshotURL, mod, nil)
	if shot.Status != http.StatusOK || shot.Header.Get("Content-Type") != "image/png" || !bytes.Equal(shot.Body, rv.shot) ||
		!strings.HasPrefix(shot.Header.Get("Cache-Control"), "private") {
		t.Errorf("screenshot: %d %q %q, %d bytes", shot.Status, shot.Header.Get("Content-Type"), shot.Header.Get("Cache-Control"), len(shot.Body))
	}
	if r := a.do("GET", fmt.Sprintf("/api/v1/moderation/reviews/%d/screenshots/mobile", ban.ReviewID), mod, nil); r.Status != http.StatusNotFound {
		t.Errorf("a capture without a screenshot: %d", r.Status)
	}
	if r := a.do("GET", "/api/v1/moderation/links/999999999", mod, nil); r.Status != http.StatusNotFound || r.errorCode(t) != "not_found" {
		t.Errorf("an unknown link's file: %d %s", r.Status, r.Body)
	}

	// The owner appeals the ban, once; a link that passed cannot be appealed.
	if r := a.do("POST", fmt.Sprintf("%s/links/%d/appeal", ws, passed.ID), owner.Token, map[string]any{"message": "fine"}); r.Status != http.StatusConflict || r.errorCode(t) != "conflict" {
		t.Errorf("appeal of a link that passed: %d %s", r.Status, r.Body)
	}
	r = a.do("POST", fmt.Sprintf("%s/links/%d/appeal", ws, banned.ID), owner.Token, map[string]any{"message": "This is our own bank's page."})
	var appeal appealJSON
	r.json(t, &appeal)
	if r.Status != http.StatusCreated || appeal.LinkID != banned.ID || appeal.ResolvedAt != nil {
		t.Fatalf("appeal: %d %s", r.Status, r.Body)
	}
	if r := a.do("POST", fmt.Sprintf("%s/links/%d/appeal", ws, banned.ID), owner.Token, map[string]any{"message": "again"}); r.Status != http.StatusConflict || r.errorCode(t) != "conflict" {
		t.Errorf("a second appeal: %d %s", r.Status, r.Body)
	}
	if got := a.getLink(owner, banned.ID); got.Appeal == nil || got.Appeal.Message != "This is our own bank's page." || got.Appeal.ResolvedAt != nil {
		t.Errorf("the appealed link: %+v", got)
	}
	a.do("GET", fmt.Sprintf("/api/v1/moderation/links/%d", banned.ID), mod, nil).json(t, &file)
	if file.Appeal == nil || file.Appeal.Message != "This is our own bank's page." {
		t.Errorf("the moderator does not see the appeal: %+v", file.Appeal)
	}

	// Bad decisions change nothing.
	decide := func(id int64) string { return fmt.Sprintf("/api/v1/moderation/links/%d/decision", id) }
	for _, body := range []any{`{"action":`, map[string]any{"action": "delete"}, map[string]any{"action": "ban", "extra": 1}, map[string]any{}} {
		if r := a.do("POST", decide(banned.ID), mod, body); r.Status != http.StatusBadRequest || r.errorCode(t) != "invalid" {
			t.Errorf("decision %v: %d %s", body, r.Status, r.Body)
		}
	}
	if r := a.do("POST", decide(999999999), mod, map[string]any{"action": "ban", "reason": "spam"}); r.Status != http.StatusNotFound {
		t.Errorf("decision on an unknown link: %d %s", r.Status, r.Body)
	}

	// Unban: the link works again on every node, and the appeal is resolved.
	var decided struct {
		Link     moderatedLink `json:"link"`
		Decision decisionJSON  `json:"decision"`
	}
	r = a.do("POST", decide(banned.ID), mod, map[string]any{"action": "unban", "note": "called their security desk",
		"reason_text": "the bank confirmed it is theirs"})
	r.json(t, &decided)
	if r.Status != http.StatusOK || decided.Link.Status != "active" || decided.Link.Moderation.State != "passed" ||
		decided.Link.Moderation.Reason != "the bank confirmed it is theirs" || decided.Decision.Action != "unban" ||
		decided.Decision.Note != "called their security desk" ||
		decided.Decision.Actor == nil || decided.Decision.Actor.Email != "mod@example.com" || decided.Decision.ReviewID == nil ||
		*decided.Decision.ReviewID != ban.ReviewID {
		t.Fatalf("unban: %d %s", r.Status, r.Body)
	}
	eventually(t, 2*time.Second, "the unbanned link redirecting on the other node", func() bool {
		v := b.visit("GET", "/"+banned.Code)
		return v.Status == http.StatusFound && v.Header.Get("Location") == "https://banned.example/"
	})
	if got := a.getLink(owner, banned.ID); got.Status != "active" || got.Moderation.State != "passed" || got.Appeal == nil ||
		got.Appeal.ResolvedAt == nil || got.Appeal.Resolution != "unban: the bank confirmed it is theirs" {
		t.Errorf("the owner's view after the unban: %+v %+v", got, got.Appeal)
	}

	// Ban a flagged link: every node shows the warning page within a second or two.
	if v := b.visit("GET", "/"+flagged[0].Code); v.Status != http.StatusFound {
		t.Fatalf("a flagged link keeps working: %d", v.Status)
	}
	r = a.do("POST", decide(flagged[0].ID), mod, map[string]any{"action": "ban", "reason": "phishing", "note": "phishing, confirmed"})
	r.json(t, &decided)
	if r.Status != http.StatusOK || decided.Link.Status != "banned" || decided.Link.Moderation.State != "banned" {
		t.Fatalf("ban: %d %s", r.Status, r.Body)
	}
	eventually(t, 2*time.Second, "the ban on the other node", func() bool {
		return b.visit("GET", "/"+flagged[0].Code).Status == http.StatusForbidden
	})
	// The owner is told the standard reason; the ban gave no words, so the scorer's are gone,
	// and the private note is never shown.
	if got := a.getLink(owner, flagged[0].ID); got.Moderation.Category != "phishing" || got.Moderation.Reason != "" || got.Status != "banned" {
		t.Errorf("the owner's view of the ban: %+v", got)
	}
	// The owner cannot lift it herself.
	r = a.do("PATCH", fmt.Sprintf("%s/links/%d", ws, flagged[0].ID), owner.Key, map[string]any{"status": "active"})
	if got := a.getLink(owner, flagged[0].ID); got.Status != "banned" {
		t.Errorf("the owner lifted a ban: %d %s", r.Status, r.Body)
	}

	// Approve a flagged link: it passes and keeps working.
	r = a.do("POST", decide(flagged[1].ID), mod, map[string]any{"action": "approve"})
	r.json(t, &decided)
	if r.Status != http.StatusOK || decided.Link.Status != "active" || decided.Link.Moderation.State != "passed" ||
		decided.Link.Moderation.Reason != "looks like a bank login" {
		t.Errorf("approve: %d %s", r.Status, r.Body)
	}
	var q queueJSON
	a.do("GET", "/api/v1/moderation/queue?state=flagged", mod, nil).json(t, &q)
	if len(q.Items) != 1 || q.Items[0].Link.ID != flagged[2].ID {
		t.Errorf("flagged after the decisions: %+v", q)
	}
	a.do("GET", "/api/v1/moderation/queue?state=banned", mod, nil).json(t, &q)
	if len(q.Items) != 1 || q.Items[0].Link.ID != flagged[0].ID {
		t.Errorf("banned after the decisions: %+v", q)
	}

	// A requested review is due in PostgreSQL and queued in Redis; the link is pending until it.
	r = a.do("POST", fmt.Sprintf("/api/v1/moderation/links/%d/review", fresh.ID), mod, nil)
	if r.Status != http.StatusAccepted {
		t.Fatalf("request a review: %d %s", r.Status, r.Body)
	}
	rdb := d.redis(t)
	if _, found, err := rdb.ZScore(context.Background(), moderation.DueKey(d.env["REDIS_PREFIX"]), strconv.FormatInt(fresh.ID, 10)); err != nil || !found {
		t.Errorf("the requested review is not in the redis queue: %v", err)
	}
	if jobs, err := rv.store.Jobs(context.Background(), []int64{fresh.ID}); err != nil || len(jobs) != 1 || jobs[0].Reason != "requested" {
		t.Errorf("the requested review in postgres: %+v %v", jobs, err)
	}
	a.do("GET", "/api/v1/moderation/queue?state=pending", mod, nil).json(t, &q)
	if len(q.Items) != 1 || q.Items[0].Link.ID != fresh.ID || q.Items[0].Review != nil || q.Items[0].Link.Moderation.State != "pending" {
		t.Errorf("pending queue: %+v", q)
	}
	if r := a.do("POST", "/api/v1/moderation/links/999999999/review", mod, nil); r.Status != http.StatusNotFound {
		t.Errorf("review of an unknown link: %d %s", r.Status, r.Body)
	}

	// The operators' audit log: every decision, newest first, with its moderator.
	var audit []decisionJSON
	cursor = ""
	for {
		var pg struct {
			Items      []decisionJSON `json:"items"`
			NextCursor string         `json:"next_cursor"`
		}
		r := a.do("GET", "/api/v1/admin/audit?limit=3&cursor="+cursor, op, nil)
		if r.Status != http.StatusOK {
			t.Fatalf("audit: %d %s", r.Status, r.Body)
		}
		r.json(t, &pg)
		audit = append(audit, pg.Items...)
		if cursor = pg.NextCursor; cursor == "" {
			break
		}
	}
	var actions []string
	for i, e := range audit {
		who := "worker"
		if e.Actor != nil {
			who = e.Actor.Email
		}
		actions = append(actions, fmt.Sprintf("%d:%s:%s", e.LinkID, e.Action, who))
		if i > 0 && e.ID >= audit[i-1].ID {
			t.Errorf("audit log out of order: %+v", audit)
		}
	}
	m := "mod@example.com"
	want := []string{
		fmt.Sprintf("%d:approve:%s", flagged[1].ID, m), fmt.Sprintf("%d:ban:%s", flagged[0].ID, m), fmt.Sprintf("%d:unban:%s", banned.ID, m),
		fmt.Sprintf("%d:pass:worker", passed.ID), fmt.Sprintf("%d:ban:worker", banned.ID),
		fmt.Sprintf("%d:flag:worker", flagged[2].ID), fmt.Sprintf("%d:flag:worker", flagged[1].ID), fmt.Sprintf("%d:flag:worker", flagged[0].ID),
	}
	if strings.Join(actions, " ") != strings.Join(want, " ") {
		t.Errorf("audit log:\n got %v\nwant %v", actions, want)
	}

	// Operators can take the role away again: the moderator is refused at once (the change
	// signed out their sessions, so their token is refused as a whole).
	r = a.do("PATCH", fmt.Sprintf("/api/v1/admin/users/%d", modUser.UserID), op, map[string]any{"system_role": "user"})
	if r.Status != http.StatusOK || !strings.Contains(string(r.Body), `"system_role":"user"`) {
		t.Fatalf("back to user: %d %s", r.Status, r.Body)
	}
	if r := a.do("GET", "/api/v1/moderation/queue", mod, nil); r.Status != http.StatusUnauthorized {
		t.Errorf("a former moderator's queue: %d %s", r.Status, r.Body)
	}
	if r := a.do("GET", "/api/v1/moderation/queue", a.login("mod@example.com"), nil); r.Status != http.StatusForbidden {
		t.Errorf("a former moderator's queue after signing in again: %d %s", r.Status, r.Body)
	}
	// Operators moderate too.
	if r := a.do("GET", "/api/v1/moderation/queue", op, nil); r.Status != http.StatusOK {
		t.Errorf("the operator's queue: %d %s", r.Status, r.Body)
	}
}
