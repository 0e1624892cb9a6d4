package e2e

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/shortlink/shortlink/worker/browse"
	"github.com/shortlink/shortlink/worker/review"
)

// TestModerationPriorityFairness: one workspace imports 300 links to a few destinations in a
// batch, then another workspace makes a single link; the real worker (Chromium, the heuristics)
// finds them all in one scan and decides the single create before most of the import, not after
// its tail.
func TestModerationPriorityFairness(t *testing.T) {
	sites, _ := moderationRig(t)
	// A browser of its own: what it measures is the worker's order, which the shared browser's
	// queue of other tests' reviews would blur (the single link waits for a browser while the
	// import's links that share a verdict are decided without one).
	browser := newModerationBrowser(t, browse.Options{HostRules: sites.hostRules(), AllowLoopback: true, Timeout: rigPageTimeout})
	sites.html(t, "bulk-shop.test", shopPage)
	sites.handle(t, "bulk-blog.test", func(w http.ResponseWriter, r *http.Request) { writeHTML(w, scaleBlogPost(r.URL.Path)) })
	sites.html(t, "single-site.test", shopPage)
	d := newDeployment(t)
	a := d.start(t)
	importer := a.signup("importer@example.com")
	a.setPlan(importer, "enterprise")
	single := a.signup("single@example.com")
	ms := moderationStores(t, d)

	const n = 300
	batch := make([]map[string]any, n)
	for i := range batch {
		if i%2 == 0 {
			batch[i] = map[string]any{"url": fmt.Sprintf("http://bulk-shop.test/?utm_campaign=c%d", i)}
		} else {
			batch[i] = map[string]any{"url": fmt.Sprintf("http://bulk-blog.test/posts/%d?ref=r%d", i%3, i)}
		}
	}
	r := a.do("POST", fmt.Sprintf("/api/v1/workspaces/%d/links/batch", importer.WorkspaceID), importer.Token, map[string]any{"links": batch})
	res := answer[struct {
		Results []struct {
			Link *struct {
				ID int64 `json:"id"`
			} `json:"link"`
		}
	}](t, r, http.StatusOK, "the import's batch")
	var ids []int64
	for _, x := range res.Results {
		if x.Link != nil {
			ids = append(ids, x.Link.ID)
		}
	}
	if len(ids) != n {
		t.Fatalf("the batch made %d links", len(ids))
	}
	one := a.createLink(single, map[string]any{"url": "http://single-site.test/"})

	start := time.Now()
	ms.runWorker(t, review.Options{Browser: browser, Scorer: heuristicScorer(t), VerdictTTL: time.Hour})
	a.waitReviewed(single, one.ID, 90*time.Second)
	singleAt := time.Since(start)
	eventually(t, time.Minute, "the import decided", func() bool {
		var decided int
		_ = ms.db.Pool.QueryRow(t.Context(), `SELECT count(*) FROM link_moderation WHERE link_id = ANY($1)`, ids).Scan(&decided)
		return decided == n
	})
	// The order of decisions: the reviews' IDs.
	var after int
	if err := ms.db.Pool.QueryRow(t.Context(), `SELECT count(*) FROM link_reviews
		WHERE link_id = ANY($1) AND id > (SELECT max(id) FROM link_reviews WHERE link_id = $2)`, ids, one.ID).Scan(&after); err != nil {
		t.Fatal(err)
	}
	t.Logf("the single create was decided %v after the worker started, before %d of the import's %d links; the import in %v",
		singleAt.Round(time.Millisecond), after, n, time.Since(start).Round(time.Millisecond))
	if after < n/2 {
		t.Errorf("the single create was decided before only %d of the import's %d links, want most of them", after, n)
	}
}
