package e2e

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/shortlink/shortlink/worker/review"
)

// TestModerationOneReviewPerDomainAcrossWorkers: two bin/shortlink-worker processes, each with
// two reviews at once, take the new links of one domain: never two of its pages are opened at
// the same time. A worker killed in the middle of such a review leaves no hold behind: the
// domain's next new link is reviewed at once by another worker, long before the killed
// worker's claim runs out.
func TestModerationOneReviewPerDomainAcrossWorkers(t *testing.T) {
	sites, browser := moderationRig(t)
	bin := workerBinary(t)
	var mu sync.Mutex
	inFlight := map[string]int{} // path → requests under way
	most := 0                    // the most paths opened at once
	stuck := make(chan struct{})
	reached := make(chan struct{}, 64)
	sites.handle(t, "one-domain.test", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/favicon.ico" {
			http.NotFound(w, r)
			return
		}
		mu.Lock()
		inFlight[r.URL.Path]++
		most = max(most, len(inFlight))
		mu.Unlock()
		defer func() {
			mu.Lock()
			if inFlight[r.URL.Path]--; inFlight[r.URL.Path] == 0 {
				delete(inFlight, r.URL.Path)
			}
			mu.Unlock()
		}()
		if r.URL.Path == "/stuck" {
			select {
			case reached <- struct{}{}:
			default:
			}
			select {
			case <-stuck:
			case <-r.Context().Done():
				return
			}
		} else {
			// Long enough for two reviews to overlap if both were let through.
			select {
			case <-time.After(700 * time.Millisecond):
			case <-r.Context().Done():
				return
			}
		}
		writeHTML(w, shopPage)
	})
	// Alone, not beside the parallel tests: its worker processes and timeouts are what it
	// measures, and two cores shared with the parallel tests starve them.
	d := newSerialDeployment(t)
	a := d.start(t)
	owner := a.signup("owner@example.com")
	ms := moderationStores(t, d)
	env := []string{"BROWSER_HOST_RULES=" + sites.hostRules(), "MODERATION_ALLOW_LOOPBACK=true",
		// A visitor's patience for a machine loaded beyond the test's own work (at 10 s, three
		// visitors of a page served at once timed out three tries in a row beside a busy core
		// and another suite's browsers): the checks below wait for events, not for this.
		"MODERATION_PAGE_TIMEOUT=20s", "MODERATION_MODEL_TIMEOUT=1s", "MODERATION_CONCURRENCY=2"}
	const visibility = 3*20*time.Second + 3*time.Second // as main.go derives it

	var ids []int64
	for i := range 4 {
		ids = append(ids, a.createLink(owner, map[string]any{"url": fmt.Sprintf("http://one-domain.test/p%d", i)}).ID)
	}
	p1 := startWorkerProcess(t, d, bin, env...)
	p2 := startWorkerProcess(t, d, bin, env...)
	start := time.Now()
	for _, id := range ids {
		if l := a.waitReviewed(owner, id, 2*time.Minute); l.Moderation.State != "passed" {
			t.Errorf("link %d: %+v", id, l.Moderation)
		}
	}
	mu.Lock()
	t.Logf("4 pages of one domain reviewed by two workers in %v; at most %d of its pages requested at once",
		time.Since(start).Round(time.Millisecond), most)
	if most != 1 {
		t.Errorf("%d pages of one domain were requested at once, want 1", most)
	}
	mu.Unlock()
	// The reviews' own times (each from its start to its recording) never overlap.
	var overlaps int
	if err := ms.db.Pool.QueryRow(t.Context(), `WITH r AS (SELECT id, created_at - duration_ms * interval '1 millisecond' AS began,
			created_at AS ended FROM link_reviews WHERE link_id = ANY($1) AND shared_how = '')
		SELECT count(*) FROM r x JOIN r y ON x.id < y.id AND x.began < y.ended AND y.began < x.ended`, ids).Scan(&overlaps); err != nil {
		t.Fatal(err)
	}
	if overlaps != 0 {
		t.Errorf("%d pairs of the domain's reviews ran at the same time, want none", overlaps)
	}

	// One worker left; killed while it holds the domain.
	if err := p2.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = p2.wait(t, 10*time.Second)
	held := a.createLink(owner, map[string]any{"url": "http://one-domain.test/stuck"})
	select {
	case <-reached:
	case <-time.After(90 * time.Second): // reviews queued before it may each take their timeout
		t.Fatal("the worker did not open the stuck page within 90 s")
	}
	claimedUntil, _ := ms.queued(t, held.ID)
	advisory := func() int {
		var n int
		if err := ms.db.Pool.QueryRow(context.Background(), `WITH k AS (SELECT hashtextextended('moderation-domain:one-domain.test', 0) AS k)
			SELECT count(*) FROM pg_locks l JOIN pg_database d ON d.oid = l.database, k
			WHERE l.locktype = 'advisory' AND d.datname = current_database() AND l.objsubid = 1
			  AND l.classid::bigint = (k.k >> 32) & 4294967295 AND l.objid::bigint = k.k & 4294967295`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n := advisory(); n != 1 {
		t.Errorf("%d advisory locks while the worker reviews the stuck page, want 1 (the domain's)", n)
	}
	if err := p1.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = p1.wait(t, 10*time.Second)
	killedAt := time.Now()
	eventually(t, 5*time.Second, "the killed worker's hold of the domain gone", func() bool { return advisory() == 0 })

	// Another worker reviews the domain's next link at once; the stuck page's link comes back
	// once the killed worker's claim has run out.
	close(stuck)
	ms.runWorker(t, review.Options{Browser: browser, Scorer: heuristicScorer(t), VerdictTTL: time.Hour})
	next := a.createLink(owner, map[string]any{"url": "http://one-domain.test/next"})
	a.waitReviewed(owner, next.ID, 90*time.Second)
	t.Logf("the domain's next link was reviewed %v after the kill; the killed worker's claim runs out %v after it",
		time.Since(killedAt).Round(time.Millisecond), claimedUntil.Sub(killedAt).Round(time.Millisecond))
	if time.Now().After(claimedUntil) {
		t.Errorf("the domain's next link waited for the killed worker's claim (%v) to run out", visibility)
	}
	// The killed worker's claim is not waited out (half a minute of a test that runs alone): its
	// end is moved to now, and the link it held is reviewed again.
	ms.endClaim(t, held.ID)
	a.waitReviewed(owner, held.ID, 90*time.Second)
}
