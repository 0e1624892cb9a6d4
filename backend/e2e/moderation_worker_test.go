package e2e

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/moderation"
	"github.com/shortlink/shortlink/backend/testenv"
	"github.com/shortlink/shortlink/worker/browse"
	"github.com/shortlink/shortlink/worker/review"
)

// judgeByText is the fake model of the end-to-end test: it judges from the text parts it is
// sent, one per visitor. A password form on the look-alike host is phishing; a password form
// shown to some visitors and not others is cloaking; anything else is benign.
func judgeByText(c testenv.ChatCall) (int, string) {
	withPassword, without, lookAlike := 0, 0, false
	for _, tx := range c.Texts {
		if !strings.HasPrefix(tx, "Visitor: ") {
			continue
		}
		if strings.Contains(tx, "asks for a password") {
			withPassword++
		} else {
			without++
		}
		lookAlike = lookAlike || strings.Contains(tx, "paypa1-secure.test")
	}
	switch {
	case withPassword > 0 && without == 0 && lookAlike:
		return http.StatusOK, verdictJSON(0.95, "phishing", "a copy of PayPal's login page on the look-alike host paypa1-secure.test")
	case withPassword > 0 && without > 0:
		return http.StatusOK, verdictJSON(0.6, "cloaking", "only some visitors are asked for a password")
	}
	return http.StatusOK, verdictJSON(0.05, "benign", "an ordinary page")
}

// TestModerationWorkerEndToEnd: links made through the API of two server processes are found
// by the worker, opened in real Chromium as the three visitors, scored by an OpenAI-compatible
// model (a local fake that judges from what it is sent) and decided. The fake bank login on a
// look-alike host is banned, and both servers answer its short link with the warning page
// within seconds; the shop passes and keeps redirecting; the page that shows a WeChat Pay copy
// to WeChat alone is banned by the rules, whatever the model says. A moderator reads each review with the three visitors' captures and their
// screenshots.
func TestModerationWorkerEndToEnd(t *testing.T) {
	sites, browser := moderationRig(t)
	sites.html(t, "shop.test", shopPage)
	sites.html(t, "paypa1-secure.test", bankLoginPage)
	sites.handle(t, "garden-news.test", cloakedSite)
	model := testenv.NewChatModel(t, judgeByText)

	d := newDeployment(t)
	a, b := d.start(t), d.start(t)
	owner := a.signup("owner@example.com")
	_, mod := a.moderator("mod@example.com")
	ms := moderationStores(t, d)
	ms.runWorker(t, review.Options{Browser: browser, Scorer: modelScorer(t, model, 20*time.Second)})

	created := time.Now()
	phish := a.createLink(owner, map[string]any{"url": "http://paypa1-secure.test/"})
	shop := b.createLink(owner, map[string]any{"url": "http://shop.test/"})
	cloaked := a.createLink(owner, map[string]any{"url": "http://garden-news.test/"})

	// The ban reaches both servers. HEAD asks without making a visit (a visit would queue
	// another review at its milestone).
	var onA, onB time.Duration
	for deadline := created.Add(60 * time.Second); onA == 0 || onB == 0; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the phishing link is not banned on both servers within 60 s (a: %v, b: %v; state %q)",
				onA, onB, a.getLink(owner, phish.ID).Moderation.State)
		}
		if onA == 0 && a.visit("HEAD", "/"+phish.Code).Status == http.StatusForbidden {
			onA = time.Since(created)
		}
		if onB == 0 && b.visit("HEAD", "/"+phish.Code).Status == http.StatusForbidden {
			onB = time.Since(created)
		}
	}
	t.Logf("from the link's creation to its ban: %v on the server that made it, %v on the other",
		onA.Round(time.Millisecond), onB.Round(time.Millisecond))
	for _, s := range []*server{a, b} {
		if r := s.visit("GET", "/"+phish.Code); r.Status != http.StatusForbidden || !strings.Contains(string(r.Body), "blocked") {
			t.Errorf("the banned link on %s: %d %.200s", s.base, r.Status, r.Body)
		}
	}
	got := a.getLink(owner, phish.ID)
	if got.Status != "banned" || got.Moderation.State != "banned" || got.Moderation.Score == nil ||
		*got.Moderation.Score < 0.9 || got.Moderation.Category != "phishing" || got.Moderation.ReviewedAt == nil {
		t.Errorf("the phishing link as its owner sees it: %+v", got)
	}

	if got := a.waitReviewed(owner, shop.ID, 90*time.Second); got.Moderation.State != "passed" || got.Status != "active" ||
		got.Moderation.Category != "benign" {
		t.Errorf("the shop's link: %+v", got)
	}
	for _, s := range []*server{a, b} {
		if r := s.visit("HEAD", "/"+shop.Code); r.Status != http.StatusFound || r.Header.Get("Location") != "http://shop.test/" {
			t.Errorf("the shop's link on %s: %d %q", s.base, r.Status, r.Header.Get("Location"))
		}
	}
	if got := b.waitReviewed(owner, cloaked.ID, 90*time.Second); got.Moderation.State != "flagged" && got.Moderation.State != "banned" {
		t.Errorf("the cloaked link: %+v", got.Moderation)
	} else if got.Moderation.State == "flagged" && got.Status != "active" {
		t.Errorf("a flagged link stopped working: %+v", got)
	}

	// What the model was sent: per visitor, the page's facts as text and its screenshot.
	for _, host := range []string{"paypa1-secure.test", "shop.test", "garden-news.test"} {
		calls := callsAbout(model, host)
		if len(calls) != 1 {
			t.Errorf("%s: %d calls to the model, want 1", host, len(calls))
			continue
		}
		c := calls[0]
		// The rules' signals first, then one part per visitor.
		parts := c.Texts
		if len(parts) > 0 && strings.HasPrefix(parts[0], "Signals found by rules") {
			parts = parts[1:]
		} else {
			t.Errorf("%s: the request does not start with the rules' signals: %.200q", host, parts)
		}
		if c.Model != "fake-vision" || c.System == "" || len(parts) != 3 || c.PNGs != 3 || c.BadImages != 0 {
			t.Errorf("%s: model %q, %d visitor parts, %d screenshots decoding as PNG, %d other images",
				host, c.Model, len(parts), c.PNGs, c.BadImages)
		}
		for i, p := range moderation.Profiles {
			if i < len(parts) && (!strings.HasPrefix(parts[i], "Visitor: "+string(p)+"\n") ||
				!strings.Contains(parts[i], "Final URL: http://"+host+"/") || !strings.Contains(parts[i], "Visible text (")) {
				t.Errorf("%s: the %s part: %.300q", host, p, parts[i])
			}
		}
	}
	if c := callsAbout(model, "paypa1-secure.test"); len(c) == 1 && (len(c[0].Texts) != 4 || !strings.Contains(c[0].Texts[1], "Title: PayPal: Log in to your account")) {
		t.Errorf("the phishing page's facts: %q", c[0].Texts)
	}
	if c := callsAbout(model, "garden-news.test"); len(c) == 1 && len(c[0].Texts) == 4 &&
		(strings.Contains(c[0].Texts[1], "asks for a password") || !strings.Contains(c[0].Texts[3], "asks for a password")) {
		t.Errorf("the cloaked page, desktop and wechat:\n%s\n%s", c[0].Texts[1], c[0].Texts[3])
	}

	// A moderator reads each review: three visitors, each with its screenshot.
	for _, l := range []linkJSON{phish, shop, cloaked} {
		f := b.modFile(mod, l.ID)
		if len(f.Reviews) != 1 {
			t.Errorf("%s: %d reviews, want 1", l.URL, len(f.Reviews))
			continue
		}
		rv := f.Reviews[0]
		if l.ID == cloaked.ID {
			// WeChat's visitor is shown a WeChat Pay copy asking for a payment PIN: the rules ban
			// it, and the model's "cloaking, 0.6" cannot clear that; its answer is in the notes.
			if rv.Scorer != "heuristic" || rv.Score < 0.8 || len(rv.Notes) != 1 ||
				!strings.Contains(rv.Notes[0], "the model (fake-vision) scored 0.60 (cloaking") || !strings.Contains(rv.Notes[0], "the ban stands") {
				t.Errorf("%s: review %+v, want the heuristics' ban over the model's flag", l.URL, rv)
			}
		} else if rv.Scorer != "model" || rv.Model != "fake-vision" {
			t.Errorf("%s: review %+v", l.URL, rv)
		}
		if rv.Trigger != "created" || rv.URL != l.URL || rv.DurationMS <= 0 {
			t.Errorf("%s: review %+v", l.URL, rv)
		}
		if len(rv.Captures) != 3 {
			t.Errorf("%s: %d captures", l.URL, len(rv.Captures))
			continue
		}
		for i, c := range rv.Captures {
			if c.Profile != string(moderation.Profiles[i]) || c.Error != "" || c.Status != 200 || c.FinalURL != l.URL ||
				c.Title == "" || !slices.Equal(c.Redirects, []string{l.URL}) || c.ScreenshotURL == nil {
				t.Errorf("%s: capture %d: %+v", l.URL, i, c)
				continue
			}
			shot := b.do("GET", *c.ScreenshotURL, mod, nil)
			if shot.Status != http.StatusOK || shot.Header.Get("Content-Type") != "image/png" {
				t.Errorf("%s: %s screenshot: %d %q", l.URL, c.Profile, shot.Status, shot.Header.Get("Content-Type"))
			} else if _, err := png.Decode(bytes.NewReader(shot.Body)); err != nil {
				t.Errorf("%s: %s screenshot is not a PNG: %v", l.URL, c.Profile, err)
			}
		}
		switch l.ID {
		case phish.ID:
			for _, c := range rv.Captures {
				if !c.password() || c.Title != "PayPal: Log in to your account" {
					t.Errorf("the phishing page as %s: %+v", c.Profile, c)
				}
			}
		case cloaked.ID:
			desktop, mobile, wechat := rv.Captures[0], rv.Captures[1], rv.Captures[2]
			if desktop.password() || mobile.password() || !wechat.password() || !strings.Contains(wechat.Title, "微信支付") {
				t.Errorf("the cloaked page: desktop %+v, mobile %+v, wechat %+v", desktop, mobile, wechat)
			}
		}
	}
	if t.Failed() {
		return
	}
	for _, l := range []linkJSON{phish, shop, cloaked} {
		ms.expectSettled(t, l.ID, l.URL)
	}
	t.Logf("review times: %s", reviewTimes(t, ms, phish.ID, shop.ID, cloaked.ID))
}

// reviewTimes lists the stored duration of the links' latest reviews.
func reviewTimes(t *testing.T, ms *modStores, ids ...int64) string {
	t.Helper()
	var out []string
	for _, id := range ids {
		var ms64 int64
		if err := ms.db.Pool.QueryRow(t.Context(), `SELECT duration_ms FROM link_reviews WHERE link_id = $1 ORDER BY id DESC LIMIT 1`, id).Scan(&ms64); err == nil {
			out = append(out, fmt.Sprintf("link %d %v", id, time.Duration(ms64)*time.Millisecond))
		}
	}
	return strings.Join(out, ", ")
}

// TestModerationWorkerStoppedMidReview runs the real bin/shortlink-worker on a page that takes
// its time. Stopped with SIGTERM, the worker gives the link back at once and counts no failure;
// killed with SIGKILL in the middle of the next review, it leaves the link claimed, and the link
// comes back only when the visibility timeout runs out: another worker then reviews it, once.
// The killed worker's Playwright driver and Chromium go with it.
func TestModerationWorkerStoppedMidReview(t *testing.T) {
	sites, browser := moderationRig(t)
	bin := workerBinary(t)
	reached := make(chan struct{}, 64)
	answer := make(chan struct{})
	sites.handle(t, "slow.test", func(w http.ResponseWriter, r *http.Request) {
		select {
		case reached <- struct{}{}:
		default:
		}
		select {
		case <-answer:
			writeHTML(w, shopPage)
		case <-r.Context().Done():
		}
	})
	d := newDeployment(t)
	a := d.start(t)
	owner := a.signup("owner@example.com")
	ms := moderationStores(t, d)
	l := a.createLink(owner, map[string]any{"url": "http://slow.test/"})
	env := []string{"BROWSER_HOST_RULES=" + sites.hostRules(), "MODERATION_ALLOW_LOOPBACK=true",
		"MODERATION_PAGE_TIMEOUT=8s", "MODERATION_MODEL_TIMEOUT=1s", "MODERATION_CONCURRENCY=1"}
	// The worker's visibility timeout, as main.go derives it from these settings.
	const visibility = 3*8*time.Second + 3*time.Second
	// underReview waits until a worker has claimed the link, then up to a second for its browser
	// to reach the page: a review lasts at least the navigation's share of the page timeout
	// (6 s) after its claim, so it is still under way when this returns, even when a busy
	// machine lets the test see the claim seconds late (with 3 s, the review had timed out and
	// given the link back before the kill).
	underReview := func() time.Time {
		t.Helper()
		for len(reached) > 0 {
			<-reached
		}
		var until time.Time
		// Patience for a worker process's start, 18 s on a loaded machine (Chromium's launch).
		eventually(t, 2*time.Minute, "the link claimed by the worker", func() bool {
			var ok bool
			until, ok = ms.queued(t, l.ID)
			return ok && time.Until(until) > visibility/2
		})
		if time.Until(until) > visibility {
			t.Fatalf("the link is claimed for %v, want %v", time.Until(until), visibility)
		}
		select {
		case <-reached:
			t.Log("the worker's browser is on the page")
		case <-time.After(time.Second):
			t.Log("the worker's browser has not reached the page a second after the claim")
		}
		return until
	}

	// SIGTERM: the review is cancelled and the link is due again at once.
	p := startWorkerProcess(t, d, bin, env...)
	underReview()
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	termAt := time.Now()
	if err := p.wait(t, 20*time.Second); err != nil {
		t.Errorf("the worker's exit after SIGTERM: %v", err)
	}
	t.Logf("the worker exited %v after SIGTERM", time.Since(termAt).Round(time.Millisecond))
	if at, ok := ms.queued(t, l.ID); !ok || at.After(time.Now()) {
		t.Errorf("after SIGTERM the link is queued %v at %v, want due now", ok, at)
	}
	var attempts int
	if err := ms.db.Pool.QueryRow(t.Context(), `SELECT attempts FROM moderation_due WHERE link_id = $1`, l.ID).Scan(&attempts); err != nil || attempts != 0 {
		t.Errorf("after SIGTERM: attempts %d (%v), want the link due with no failure counted", attempts, err)
	}

	// SIGKILL in the middle of the next review: the link stays claimed.
	p = startWorkerProcess(t, d, bin, env...)
	until := underReview()
	family := testenv.Descendants(p.cmd.Process.Pid)
	if err := p.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = p.wait(t, 10*time.Second)
	killedAt := time.Now()
	eventually(t, 10*time.Second, "the killed worker's driver and Chromium exiting", func() bool {
		for _, pid := range family {
			if testenv.Alive(pid) {
				return false
			}
		}
		return true
	})
	if len(family) < 2 {
		t.Errorf("the worker ran %d processes, want its driver and Chromium", len(family))
	}
	if at, ok := ms.queued(t, l.ID); !ok || !at.Equal(until) {
		t.Errorf("after SIGKILL the link is queued %v at %v, want still claimed until %v", ok, at, until)
	}
	if n := ms.reviewCount(t, l.ID); n != 0 {
		t.Fatalf("%d reviews recorded by stopped workers", n)
	}

	// Another worker takes the link when the claim runs out, and reviews it once.
	close(answer)
	ms.runWorker(t, review.Options{Browser: browser, Scorer: heuristicScorer(t)})
	eventually(t, time.Until(until)+30*time.Second, "the review by another worker", func() bool { return ms.reviewCount(t, l.ID) > 0 })
	var started time.Time
	if err := ms.db.Pool.QueryRow(t.Context(), `SELECT created_at - duration_ms * interval '1 millisecond' FROM link_reviews
		WHERE link_id = $1`, l.ID).Scan(&started); err != nil {
		t.Fatal(err)
	}
	t.Logf("the link came back %v after the kill (claimed until %v after it); the review started %v after the claim ran out",
		started.Sub(killedAt).Round(time.Millisecond), until.Sub(killedAt).Round(time.Millisecond), started.Sub(until).Round(time.Millisecond))
	if started.Before(until.Add(-100 * time.Millisecond)) {
		t.Errorf("the review started at %v, before the claim ran out at %v", started, until)
	}
	ms.afterWorkerRounds(t) // a second review would show by now
	if n := ms.reviewCount(t, l.ID); n != 1 {
		t.Errorf("%d reviews, want 1", n)
	}
	if got := a.getLink(owner, l.ID); got.Moderation.State != "passed" {
		t.Errorf("the link after its review: %+v", got.Moderation)
	}
	ms.expectSettled(t, l.ID, "the link")
}

// TestModerationModelFailures: a model that answers 500, answers something that is not the
// verdict, or does not answer at all is asked again once, then the heuristics decide, and the
// review says so: scorer "heuristic", and a note with the model's failure.
func TestModerationModelFailures(t *testing.T) {
	sites, browser := moderationRig(t)
	want := map[string]string{
		"paypa1-500.test":     "model: 500 Internal Server Error: the model is overloaded (2 attempts)",
		"paypa1-garbage.test": "model: malformed answer twice: ",
		"paypa1-silent.test":  "model: timeout after 5s (2 attempts)",
	}
	for host := range want {
		sites.html(t, host, bankLoginPage)
	}
	model := testenv.NewChatModel(t, func(c testenv.ChatCall) (int, string) {
		switch {
		case about(c, "paypa1-500.test"):
			return http.StatusInternalServerError, "the model is overloaded"
		case about(c, "paypa1-garbage.test"):
			return http.StatusOK, "Sure! This looks like a PayPal login page. I would rate it high."
		case about(c, "paypa1-silent.test"):
			return testenv.HangAnswer, ""
		}
		return http.StatusOK, verdictJSON(0.05, "benign", "an ordinary page")
	})
	d := newDeployment(t)
	a := d.start(t)
	owner := a.signup("owner@example.com")
	_, mod := a.moderator("mod@example.com")
	ms := moderationStores(t, d)
	// A model's time limit long enough for the answers that do come on a machine busy with
	// other tests: the silent model costs two of them.
	ms.runWorker(t, review.Options{Browser: browser, Scorer: modelScorer(t, model, 5*time.Second), Concurrency: 3})
	links := map[string]linkJSON{}
	for host := range want {
		links[host] = a.createLink(owner, map[string]any{"url": "http://" + host + "/"})
	}
	for host, note := range want {
		l := links[host]
		got := a.waitReviewed(owner, l.ID, 90*time.Second)
		f := a.modFile(mod, l.ID)
		if len(f.Reviews) != 1 {
			t.Errorf("%s: %d reviews", host, len(f.Reviews))
			continue
		}
		rv := f.Reviews[0]
		if rv.Scorer != "heuristic" || rv.Model != "" || len(rv.Notes) != 1 || !strings.HasPrefix(rv.Notes[0], note) {
			t.Errorf("%s: scorer %q model %q notes %q, want the heuristics with the note %q", host, rv.Scorer, rv.Model, rv.Notes, note)
		}
		// The heuristics see a password form on a PayPal look-alike.
		if got.Moderation.State != "banned" || rv.Category != "phishing" || !strings.Contains(rv.Reason, "paypa1") {
			t.Errorf("%s: state %s, verdict %.2f %s %q", host, got.Moderation.State, rv.Score, rv.Category, rv.Reason)
		}
		if n := len(callsAbout(model, host)); n != 2 {
			t.Errorf("%s: the model was called %d times, want 2 (one retry)", host, n)
		}
		t.Logf("%s: %s in %v", host, rv.Notes, time.Duration(rv.DurationMS)*time.Millisecond)
	}
}

// captureRow is a stored capture as the tests read it from PostgreSQL.
type captureRow struct {
	Profile, URL, FinalURL, Error string
	Redirects                     []string
	Duration                      time.Duration
	Screenshot                    bool
}

// latestCaptures are the captures of the link's latest review, with its scorer.
func (ms *modStores) latestCaptures(t *testing.T, linkID int64) (scorer string, captures []captureRow) {
	t.Helper()
	var reviewID int64
	if err := ms.db.Pool.QueryRow(t.Context(), `SELECT id, scorer FROM link_reviews WHERE link_id = $1 ORDER BY id DESC LIMIT 1`,
		linkID).Scan(&reviewID, &scorer); err != nil {
		t.Fatalf("the review of link %d: %v", linkID, err)
	}
	rows, err := ms.db.Pool.Query(t.Context(), `SELECT profile, url, final_url, error, redirects, duration_ms, screenshot IS NOT NULL
		FROM review_captures WHERE review_id = $1 ORDER BY array_position(ARRAY['desktop','mobile','wechat'], profile)`, reviewID)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var c captureRow
		var ms64 int64
		if err := rows.Scan(&c.Profile, &c.URL, &c.FinalURL, &c.Error, &c.Redirects, &ms64, &c.Screenshot); err != nil {
			t.Fatal(err)
		}
		c.Duration = time.Duration(ms64) * time.Millisecond
		captures = append(captures, c)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return scorer, captures
}

// TestModerationDestinationNeverAnswers: a destination that accepts the connection and never
// answers ends each visitor within the browser's time limit, with the capture's error saying so.
// What the reviewer could not see is no evidence of safety: the link is tried again, and after
// the last try it goes to a moderator (flagged, category incomplete, the reason naming the
// timeouts), never passed. A flagged link keeps working meanwhile.
func TestModerationDestinationNeverAnswers(t *testing.T) {
	sites, _ := moderationRig(t)
	sites.hang(t, "blackhole.test")
	// Long enough for a fresh Chromium on a machine busy with other tests to send the request.
	const limit = 8 * time.Second
	browser := newModerationBrowser(t, browse.Options{HostRules: sites.hostRules(), AllowLoopback: true, Timeout: limit})
	d := newDeployment(t)
	a := d.start(t)
	owner := a.signup("owner@example.com")
	_, mod := a.moderator("mod@example.com")
	ms := moderationStores(t, d)
	ms.runWorker(t, review.Options{Browser: browser, Scorer: heuristicScorer(t), BlindRetries: 1})
	l := a.createLink(owner, map[string]any{"url": "http://blackhole.test/"})
	// The first try saw nothing: the link stays due with the try counted and its reason, and is
	// tried again (its row goes only when a review is recorded, at the second try's end, a
	// visitor's limit or more after the first).
	var firstTry string
	eventually(t, 2*(limit+time.Second)+20*time.Second, "the first try counted as blind", func() bool {
		var attempts int
		err := ms.db.Pool.QueryRow(t.Context(), `SELECT attempts, last_error FROM moderation_due WHERE link_id = $1`, l.ID).Scan(&attempts, &firstTry)
		return err == nil && attempts >= 1
	})
	if !strings.HasPrefix(firstTry, "blind: ") || !strings.Contains(firstTry, "timeout") {
		t.Errorf("the first try's reason: %q, want the visitors' timeouts", firstTry)
	}
	got := a.waitReviewed(owner, l.ID, 2*(limit+time.Second)+20*time.Second)
	if got.Moderation.State != "flagged" || got.Moderation.Category != moderation.CategoryIncomplete || got.Status != "active" {
		t.Errorf("the link: %+v", got)
	}
	scorer, captures := ms.latestCaptures(t, l.ID)
	if scorer != "heuristic" || len(captures) != 3 {
		t.Fatalf("scorer %q, %d captures", scorer, len(captures))
	}
	for _, c := range captures {
		// Each visitor gets the limit and the review returns soon after it, however slowly
		// Chromium lets go on a busy machine.
		if c.Error != "timeout" || c.Duration < limit/2 || c.Duration > limit+2*time.Second {
			t.Errorf("%s: error %q after %v, want timeout within the %v limit", c.Profile, c.Error, c.Duration, limit)
		}
	}
	// The destination was asked (a visitor of a busy machine may not get its request out before
	// its limit: its capture says timeout all the same); that there were two tries is the count
	// above, not the requests.
	if n := sites.requests("blackhole.test"); n < 1 {
		t.Errorf("the destination saw no request")
	}
	if f := a.modFile(mod, l.ID); len(f.Reviews) != 1 || !strings.Contains(f.Reviews[0].Reason, "timeout") {
		t.Errorf("the moderator's file: %+v", f.Reviews)
	}
	if r := a.visit("HEAD", "/"+l.Code); r.Status != http.StatusFound {
		t.Errorf("the flagged link answers %d", r.Status)
	}
	ms.expectSettled(t, l.ID, "the link")
}

// TestModerationRefusesPrivateDestinations: links to private, link-local and (when loopback is
// not allowed) loopback addresses, directly or through a redirect from an allowed page, are
// reviewed without any request reaching the address: every capture says refused, and the link
// is decided.
func TestModerationRefusesPrivateDestinations(t *testing.T) {
	sites, browser := moderationRig(t)
	sites.handle(t, "hop.test", func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/to-metadata":
			http.Redirect(w, r, "http://169.254.169.254/latest/meta-data/", http.StatusFound)
		case "/to-private":
			http.Redirect(w, r, "http://10.0.0.1/admin", http.StatusFound)
		default:
			http.NotFound(w, r)
		}
	})
	intranet := &countingServer{}
	srv := httptest.NewServer(intranet)
	defer srv.Close()
	sites.handle(t, "intranet.test", intranet.ServeHTTP)

	type check struct {
		url, reason string
		chain       []string // the redirect chain after the link's URL
	}
	// Two deployments, each with its worker, side by side: one whose browser allows loopback
	// (the tests' pages are there), for private and link-local addresses, directly and through
	// a redirect; one as deployed, MODERATION_ALLOW_LOOPBACK off, for loopback by address, by
	// name, and by a host name BROWSER_HOST_RULES map to it.
	port := srv.Listener.Addr().(*net.TCPAddr).Port
	runs := []struct {
		browser *browse.Browser
		checks  []check
	}{
		{browser, []check{
			{url: "http://10.0.0.1/", reason: "private address 10.0.0.1"},
			{url: "http://169.254.169.254/latest/meta-data/", reason: "link-local address 169.254.169.254"},
			{url: "http://hop.test/to-metadata", reason: "link-local address 169.254.169.254",
				chain: []string{"http://169.254.169.254/latest/meta-data/"}},
			{url: "http://hop.test/to-private", reason: "private address 10.0.0.1", chain: []string{"http://10.0.0.1/admin"}},
		}},
		{newModerationBrowser(t, browse.Options{HostRules: sites.hostRules(), Timeout: rigPageTimeout}), []check{
			{url: fmt.Sprintf("http://127.0.0.1:%d/", port), reason: "loopback address 127.0.0.1"},
			{url: fmt.Sprintf("http://localhost:%d/admin", port), reason: "loopback address"},
			{url: "http://intranet.test/", reason: "loopback address 127.0.0.1 (intranet.test mapped to 127.0.0.1:" + sites.port() + ")"},
		}},
	}
	type made struct {
		a     *server
		owner tenant
		ms    *modStores
		links []linkJSON
	}
	var all []made
	for _, run := range runs {
		d := newDeployment(t)
		m := made{a: d.start(t), ms: moderationStores(t, d)}
		m.owner = m.a.signup("owner@example.com")
		m.ms.runWorker(t, review.Options{Browser: run.browser, Scorer: heuristicScorer(t)})
		for _, c := range run.checks {
			m.links = append(m.links, m.a.createLink(m.owner, map[string]any{"url": c.url}))
		}
		all = append(all, m)
	}
	for i, run := range runs {
		m := all[i]
		for j, c := range run.checks {
			if got := m.a.waitReviewed(m.owner, m.links[j].ID, 90*time.Second); got.Moderation.State == "" {
				t.Errorf("%s: %+v", c.url, got)
			}
			_, captures := m.ms.latestCaptures(t, m.links[j].ID)
			if len(captures) != 3 {
				t.Errorf("%s: %d captures", c.url, len(captures))
			}
			for _, cp := range captures {
				if !strings.HasPrefix(cp.Error, "refused: ") || !strings.Contains(cp.Error, c.reason) || cp.Screenshot {
					t.Errorf("%s %s: error %q, screenshot %v; want refused: …%s…", c.url, cp.Profile, cp.Error, cp.Screenshot, c.reason)
				}
				if c.chain != nil && !slices.Equal(cp.Redirects, append([]string{c.url}, c.chain...)) {
					t.Errorf("%s %s: redirects %v, want %v after it", c.url, cp.Profile, cp.Redirects, c.chain)
				}
			}
		}
	}
	if n := sites.requests("hop.test"); n < 6 {
		t.Errorf("the allowed page served %d requests, want each visitor of both redirects", n)
	}
	if n := intranet.count(); n != 0 {
		t.Errorf("the loopback server served %d requests", n)
	}
}

// countingServer answers every request with a page, counting them.
type countingServer struct {
	mu sync.Mutex
	n  int
}

func (c *countingServer) ServeHTTP(w http.ResponseWriter, _ *http.Request) {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
	writeHTML(w, `<title>intranet</title><p>internal</p>`)
}

func (c *countingServer) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

// gatedBrowser holds the reviews of destinations under its prefix until its gate opens, and
// then answers them with a plain page of its own; other destinations go to the real browser.
type gatedBrowser struct {
	review.Browser
	prefix  string
	entered chan string
	gate    chan struct{}
}

func (g *gatedBrowser) Review(ctx context.Context, url string) ([]moderation.Capture, error) {
	if !strings.HasPrefix(url, g.prefix) {
		return g.Browser.Review(ctx, url)
	}
	g.entered <- url
	select {
	case <-g.gate:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	captures := make([]moderation.Capture, len(moderation.Profiles))
	for i, p := range moderation.Profiles {
		captures[i] = moderation.Capture{Profile: p, URL: url, FinalURL: url, Redirects: []string{url}, Status: 200,
			Title: "A page held at the gate", Text: "Opened once the test lets it through."}
	}
	return captures, nil
}

// TestModerationQueueRebuilt: reviews due in PostgreSQL whose Redis queue is lost (the key
// deleted: the tests share one Redis, so no FLUSHALL) come back through the worker's rebuild
// from moderation_due and are reviewed. The worker is busy meanwhile, so that it cannot take
// them before the loss; its scan of new links never queues a link due already, so only the
// rebuild can bring them back.
func TestModerationQueueRebuilt(t *testing.T) {
	sites, browser := moderationRig(t)
	sites.html(t, "busy-shop.test", shopPage)
	d := newDeployment(t)
	a := d.start(t)
	owner := a.signup("owner@example.com")
	ms := moderationStores(t, d)
	gb := &gatedBrowser{Browser: browser, prefix: "http://busy-shop.test/busy", entered: make(chan string, 2), gate: make(chan struct{})}
	ms.runWorker(t, review.Options{Browser: gb, Scorer: heuristicScorer(t), Concurrency: 2, Rebuild: time.Second})
	var busy []linkJSON
	for i := range 2 {
		busy = append(busy, a.createLink(owner, map[string]any{"url": fmt.Sprintf("%s/%d", gb.prefix, i)}))
	}
	for range busy {
		select {
		case <-gb.entered:
		case <-time.After(20 * time.Second):
			t.Fatal("the worker did not take the first links")
		}
	}
	var lost []linkJSON
	for i := range 2 {
		lost = append(lost, a.createLink(owner, map[string]any{"url": fmt.Sprintf("http://busy-shop.test/%d", i)}))
	}
	for _, l := range lost {
		eventually(t, 10*time.Second, "the new link due and queued", func() bool {
			ok, reason, _ := ms.dueRow(t, l.ID)
			_, queued := ms.queued(t, l.ID)
			return ok && reason == "created" && queued
		})
	}
	// The queue lost (the worker's rebuild, every second, may already be refilling it).
	if n, err := ms.rdb.Del(t.Context(), ms.key); err != nil || n != 1 {
		t.Fatalf("delete the queue: %d deleted, %v", n, err)
	}
	close(gb.gate)
	for _, l := range append(lost, busy...) {
		if got := a.waitReviewed(owner, l.ID, 90*time.Second); got.Moderation.State != "passed" {
			t.Errorf("%s: %+v", l.URL, got.Moderation)
		}
		if n := ms.reviewCount(t, l.ID); n != 1 {
			t.Errorf("%s: %d reviews", l.URL, n)
		}
	}
	eventually(t, 5*time.Second, "the queue empty", func() bool {
		n, _ := ms.queue.Len(t.Context())
		return n == 0
	})
}

// TestModerationMilestones sends visits through real redirects and watches moderation_due and
// the Redis queue between them, with no worker running: the link is queued at exactly 1, 2, 4
// and 8 people's visits (each time removed again, as a finished review does), never in between,
// and never for crawlers. A milestone reached while a review runs leaves the link due after it.
func TestModerationMilestones(t *testing.T) {
	d := newDeployment(t)
	a := d.start(t)
	owner := a.signup("owner@example.com")
	l := a.createLink(owner, map[string]any{"url": "https://example.com/popular"})
	ms := moderationStores(t, d)
	var people, bots int64
	visit := func(n int, ua string) {
		t.Helper()
		for range n {
			if st, _ := a.sendHit(l.Code, hit{from: fmt.Sprintf("10.9.%d.%d", people, bots), ua: ua}); st != http.StatusFound {
				t.Fatalf("visit: %d", st)
			}
			if ua == uaBot {
				bots++
			} else {
				people++
			}
		}
		eventually(t, 10*time.Second, fmt.Sprintf("%d people's and %d crawlers' visits stored", people, bots), func() bool {
			var p, b int64
			err := ms.db.Pool.QueryRow(t.Context(), `SELECT visits, bots FROM visit_totals WHERE link_id = $1`, l.ID).Scan(&p, &b)
			return err == nil && p == people && b == bots
		})
	}
	due := func() bool {
		t.Helper()
		// The consumer queues the link in Redis just after the visits' commit made it due.
		var ok, queued bool
		var reason string
		var visits int64
		var at time.Time
		eventually(t, 5*time.Second, fmt.Sprintf("after %d visits, the link due in PostgreSQL and queued in Redis alike", people), func() bool {
			ok, reason, visits = ms.dueRow(t, l.ID)
			at, queued = ms.queued(t, l.ID)
			return ok == queued
		})
		// Queued ahead of new links by the lead of visits (moderation.Prioritise).
		if ok && (reason != "visits" || visits != people || time.Since(at) > time.Minute+moderation.LeadVisits || time.Until(at) > -moderation.LeadVisits+time.Second) {
			t.Errorf("after %d visits: due for %q at %d visits, queued for %v", people, reason, visits, at)
		}
		return ok
	}
	reviewed := func() {
		t.Helper()
		if _, err := ms.db.Pool.Exec(t.Context(), `DELETE FROM moderation_due WHERE link_id = $1`, l.ID); err != nil {
			t.Fatal(err)
		}
		if err := ms.queue.Forget(t.Context(), l.ID); err != nil {
			t.Fatal(err)
		}
	}

	visit(3, uaBot)
	if due() {
		t.Errorf("crawlers' visits queued the link")
	}
	var queuedAt []int64
	for people < 8 {
		visit(1, uaDesktop)
		if due() {
			queuedAt = append(queuedAt, people)
			reviewed()
		}
		if people == 5 {
			visit(4, uaBot)
			if due() {
				t.Errorf("crawlers' visits queued the link")
			}
		}
	}
	if fmt.Sprint(queuedAt) != "[1 2 4 8]" {
		t.Errorf("queued at %v people's visits, want [1 2 4 8]", queuedAt)
	}

	// Visits 9 to 16 in one batch while nothing is due: one milestone.
	visit(4, uaDesktop)
	if due() {
		t.Errorf("queued at %d", people)
	}
	visit(4, uaDesktop)
	if !due() {
		t.Fatalf("not queued at %d", people)
	}
	// The review of milestone 16 runs while visits reach 32: after it the link is due again.
	jobs, err := ms.store.Jobs(t.Context(), []int64{l.ID})
	if err != nil || len(jobs) != 1 {
		t.Fatalf("jobs: %v %v", jobs, err)
	}
	visit(16, uaDesktop)
	r := moderation.Review{Duration: time.Second, Verdict: moderation.Verdict{Score: 0.1, Category: "benign",
		Reason: "fine", Scorer: "heuristic"}, Captures: []moderation.Capture{{Profile: moderation.Desktop, URL: l.URL}}}
	out, err := ms.store.Record(t.Context(), jobs[0], r, moderation.DefaultThresholds)
	if err != nil {
		t.Fatal(err)
	}
	if ok, _, visits := ms.dueRow(t, l.ID); !out.StillDue || !ok || visits != 32 {
		t.Errorf("a milestone during a review: still due %v, row %v at %d visits; want due again at 32", out.StillDue, ok, visits)
	}
}

// TestModerationWorkerThroughput measures one worker (concurrency 2, the real browser) on
// simple local pages, with the fake model and with the heuristics alone: reviews per minute
// and the median review time. It takes about a minute, so it runs only with MODERATION_BENCH=1
// (MODERATION_BENCH_LINKS links per run, 30 by default):
//
//	driver=$(deploy/local/browser.sh) && MODERATION_BENCH=1 PLAYWRIGHT_DRIVER_PATH=$driver \
//	  deploy/local/with-services.sh go test -count=1 -run TestModerationWorkerThroughput -v ./backend/e2e
func TestModerationWorkerThroughput(t *testing.T) {
	// Not parallel: it measures throughput.
	if os.Getenv("MODERATION_BENCH") == "" {
		t.Skip("MODERATION_BENCH is not set")
	}
	n := 30
	if v, err := strconv.Atoi(os.Getenv("MODERATION_BENCH_LINKS")); err == nil && v > 0 {
		n = v
	}
	sites, browser := moderationRig(t)
	sites.handle(t, "bench.test", func(w http.ResponseWriter, r *http.Request) {
		writeHTML(w, strings.Replace(shopPage, "Corner Shop", "Corner Shop "+r.URL.Path, 2))
	})
	model := testenv.NewChatModel(t, func(testenv.ChatCall) (int, string) {
		return http.StatusOK, verdictJSON(0.05, "benign", "an ordinary page")
	})
	for _, withModel := range []bool{true, false} {
		name := "heuristics"
		if withModel {
			name = "model"
		}
		t.Run(name, func(t *testing.T) {
			d := newSerialDeployment(t)
			a := d.start(t)
			owner := a.signup("owner@example.com")
			ms := moderationStores(t, d)
			for i := range n {
				a.createLink(owner, map[string]any{"url": fmt.Sprintf("http://bench.test/%d", i)})
			}
			sc := heuristicScorer(t)
			if withModel {
				sc = modelScorer(t, model, 20*time.Second)
			}
			start := time.Now()
			ms.runWorker(t, review.Options{Browser: browser, Scorer: sc, Concurrency: 2})
			var done int
			eventually(t, time.Duration(n)*10*time.Second, "every link reviewed", func() bool {
				time.Sleep(50 * time.Millisecond)
				_ = ms.db.Pool.QueryRow(t.Context(), `SELECT count(*) FROM link_reviews`).Scan(&done)
				return done >= n
			})
			elapsed := time.Since(start)
			var median, p90 float64
			var errs int
			if err := ms.db.Pool.QueryRow(t.Context(), `SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY duration_ms),
				percentile_cont(0.9) WITHIN GROUP (ORDER BY duration_ms),
				(SELECT count(*) FROM review_captures WHERE error <> '') FROM link_reviews`).Scan(&median, &p90, &errs); err != nil {
				t.Fatal(err)
			}
			load, _ := os.ReadFile("/proc/loadavg")
			t.Logf("%s: %d reviews in %v: %.1f reviews per minute; review time median %v, 90th percentile %v; %d captures with errors; load average %s",
				name, n, elapsed.Round(time.Millisecond), float64(n)/elapsed.Minutes(),
				time.Duration(median)*time.Millisecond, time.Duration(p90)*time.Millisecond, errs, strings.Join(strings.Fields(string(load))[:3], " "))
		})
	}
}
