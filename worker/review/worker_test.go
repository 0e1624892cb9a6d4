package review_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/cachesync"
	"github.com/shortlink/shortlink/backend/link"
	"github.com/shortlink/shortlink/backend/moderation"
	"github.com/shortlink/shortlink/backend/postgres"
	"github.com/shortlink/shortlink/backend/redis"
	"github.com/shortlink/shortlink/backend/testenv"
	"github.com/shortlink/shortlink/worker/review"
)

// fakeBrowser sees every destination as a page whose title is its URL; it can be made to
// block (a review in progress) or fail.
type fakeBrowser struct {
	mu      sync.Mutex
	visits  map[string]int
	block   chan struct{} // when set, reviews wait on it (or their context)
	failing atomic.Bool
}

func (b *fakeBrowser) Review(ctx context.Context, url string) ([]moderation.Capture, error) {
	b.mu.Lock()
	b.visits[url]++
	block := b.block
	b.mu.Unlock()
	if block != nil {
		select {
		case <-block:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	if b.failing.Load() {
		return nil, errors.New("browser crashed")
	}
	return []moderation.Capture{{Profile: moderation.Desktop, URL: url, FinalURL: url, Title: url}}, nil
}

func (b *fakeBrowser) count(url string) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.visits[url]
}

// urlScorer bans destinations containing "phish", flags those containing "odd".
type urlScorer struct{}

func (urlScorer) Score(_ context.Context, l moderation.LinkFacts, _ []moderation.Capture) (moderation.Verdict, error) {
	switch {
	case strings.Contains(l.URL, "phish"):
		return moderation.Verdict{Score: 0.95, Category: "phishing", Reason: "phish", Scorer: "heuristic"}, nil
	case strings.Contains(l.URL, "odd"):
		return moderation.Verdict{Score: 0.6, Category: "scam", Reason: "odd", Scorer: "heuristic"}, nil
	}
	return moderation.Verdict{Score: 0.05, Category: "benign", Reason: "fine", Scorer: "heuristic"}, nil
}

type workerEnv struct {
	t     *testing.T
	db    *postgres.DB
	queue *moderation.Queue
	store *postgres.Moderation
	rdb   *redis.Client
	ws    int64
}

func newWorkerEnv(t *testing.T) *workerEnv {
	db := testenv.DB(t)
	rdb, _ := testenv.Redis(t)
	e := &workerEnv{t: t, db: db, queue: moderation.NewQueue(redis.NewReviewQueue(rdb)), store: postgres.NewModeration(db), rdb: rdb}
	if err := db.Pool.QueryRow(context.Background(), `INSERT INTO workspaces (name) VALUES ('w') RETURNING id`).Scan(&e.ws); err != nil {
		t.Fatal(err)
	}
	return e
}

func (e *workerEnv) link(id int64, url string) {
	e.t.Helper()
	if _, err := e.db.Pool.Exec(context.Background(), `INSERT INTO links (id, workspace_id, key, url, url_hash, created_at)
		VALUES ($1, $2, $4, $3, $1, now())`, id, e.ws, url, fmt.Sprintf("k%d", id)); err != nil {
		e.t.Fatal(err)
	}
}

func (e *workerEnv) state(id int64) (state, status string) {
	e.t.Helper()
	err := e.db.Pool.QueryRow(context.Background(), `SELECT coalesce(m.state, 'pending'), l.status
		FROM links l LEFT JOIN link_moderation m ON m.link_id = l.id WHERE l.id = $1`, id).Scan(&state, &status)
	if err != nil {
		e.t.Fatal(err)
	}
	return state, status
}

func (e *workerEnv) worker(b review.Browser) *review.Worker {
	return review.New(review.Options{
		Store: e.store, Queue: e.queue, Browser: b, Scorer: urlScorer{}, Concurrency: 2,
		Visibility: time.Second, Poll: 20 * time.Millisecond, Log: slog.New(slog.DiscardHandler),
	})
}

// New links are found, reviewed once each by two workers sharing the queue, and decided.
func TestWorkersReviewNewLinks(t *testing.T) {
	e := newWorkerEnv(t)
	e.link(1, "https://phish.example/login")
	e.link(2, "https://odd.example/")
	e.link(3, "https://fine.example/")
	b := &fakeBrowser{visits: map[string]int{}}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	workers := []*review.Worker{e.worker(b), e.worker(b)}
	for _, w := range workers {
		go w.Run(ctx)
	}
	testenv.Eventually(t, 15*time.Second, "three reviews", func() bool {
		s1, _ := e.state(1)
		s2, _ := e.state(2)
		s3, _ := e.state(3)
		return s1 == "banned" && s2 == "flagged" && s3 == "passed"
	})
	if _, status := e.state(1); status != "banned" {
		t.Errorf("the phishing link's status is %s", status)
	}
	// A round of each worker that began after the decisions has finished, and the reviews it
	// started with it: a second review would show by now.
	for _, w := range workers {
		from := w.Polls()
		testenv.Eventually(t, 15*time.Second, "two more rounds of a worker, no review under way", func() bool {
			return w.Polls() >= from+2 && w.Reviewing() == 0
		})
	}
	for _, u := range []string{"https://phish.example/login", "https://odd.example/", "https://fine.example/"} {
		if n := b.count(u); n != 1 {
			t.Errorf("%s reviewed %d times", u, n)
		}
	}
	if n, _ := e.queue.Len(context.Background()); n != 0 {
		t.Errorf("%d links left in the queue", n)
	}
}

// A queue lost and rebuilt while a review runs queues the link again; the worker reviewing it
// does not start a second review of it beside the first, and the link ends reviewed once.
func TestQueueRebuiltDuringReview(t *testing.T) {
	e := newWorkerEnv(t)
	e.link(1, "https://fine.example/slow")
	b := &fakeBrowser{visits: map[string]int{}, block: make(chan struct{})}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w := e.worker(b)
	go w.Run(ctx)
	testenv.Eventually(t, 15*time.Second, "the review begun", func() bool { return b.count("https://fine.example/slow") == 1 })
	if err := e.rdb.DeleteAll(ctx); err != nil {
		t.Fatal(err)
	}
	due, err := e.store.Due(ctx)
	if err != nil || len(due) != 1 {
		t.Fatalf("due: %v %v", due, err)
	}
	if err := e.queue.Rebuild(ctx, due); err != nil {
		t.Fatal(err)
	}
	testenv.Eventually(t, 15*time.Second, "the link claimed again", func() bool {
		n, err := e.queue.DueNow(ctx, time.Now())
		return err == nil && n == 0
	})
	// Several rounds of the worker with the link claimed again while its review runs.
	from := w.Polls()
	testenv.Eventually(t, 15*time.Second, "several rounds of the worker", func() bool { return w.Polls() >= from+3 })
	close(b.block)
	testenv.Eventually(t, 15*time.Second, "the link reviewed", func() bool { s, _ := e.state(1); return s == "passed" })
	testenv.Eventually(t, 15*time.Second, "the queue empty", func() bool { n, _ := e.queue.Len(ctx); return n == 0 })
	if n := b.count("https://fine.example/slow"); n != 1 {
		t.Errorf("reviewed %d times", n)
	}
}

// A worker that dies holding a link gives it back after the visibility timeout; one stopped
// (SIGTERM) gives it back at once; a failing browser retries later; a Redis that lost the
// queue gets it back from PostgreSQL.
func TestWorkerFaults(t *testing.T) {
	e := newWorkerEnv(t)
	ctx := context.Background()
	e.link(1, "https://fine.example/a")

	// A worker stopped in the middle of a review.
	blocked := &fakeBrowser{visits: map[string]int{}, block: make(chan struct{})}
	wctx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { e.worker(blocked).Run(wctx); close(done) }()
	testenv.Eventually(t, 15*time.Second, "the review starts", func() bool { return blocked.count("https://fine.example/a") == 1 })
	stop()
	<-done
	if due, _ := e.queue.DueNow(ctx, time.Now()); due != 1 {
		t.Fatalf("a stopped worker left %d links due, want 1 given back", due)
	}

	// A worker that dies: its claim runs out.
	if c, _ := e.queue.Claim(ctx, time.Now(), 500*time.Millisecond, 10); len(c) != 1 {
		t.Fatal("claim")
	}
	b := &fakeBrowser{visits: map[string]int{}}
	wctx, stop = context.WithCancel(ctx)
	defer stop()
	go e.worker(b).Run(wctx)
	testenv.Eventually(t, 15*time.Second, "the dead worker's link reviewed", func() bool { s, _ := e.state(1); return s == "passed" })

	// Redis loses the queue while a link is due: it comes back from PostgreSQL.
	stop()
	e.link(2, "https://phish.example/b")
	if _, err := e.store.DueCreated(ctx, time.Now().Add(-time.Minute)); err != nil {
		t.Fatal(err)
	}
	if err := e.queue.Forget(ctx, 2); err != nil { // as if flushed
		t.Fatal(err)
	}
	wctx, stop = context.WithCancel(ctx)
	defer stop()
	go e.worker(b).Run(wctx)
	testenv.Eventually(t, 15*time.Second, "the lost link reviewed", func() bool { s, _ := e.state(2); return s == "banned" })

	// A failing browser: the attempt is counted and the link retried later, not dropped.
	stop()
	failing := &fakeBrowser{visits: map[string]int{}}
	failing.failing.Store(true)
	e.link(3, "https://fine.example/c")
	wctx, stop = context.WithCancel(ctx)
	defer stop()
	go e.worker(failing).Run(wctx)
	testenv.Eventually(t, 15*time.Second, "a failed attempt counted", func() bool {
		var n int
		err := e.db.Pool.QueryRow(ctx, `SELECT attempts FROM moderation_due WHERE link_id = 3`).Scan(&n)
		return err == nil && n == 1
	})
	if s, _ := e.state(3); s != "pending" {
		t.Errorf("a link whose review failed is %s", s)
	}
}

// A worker's ban reaches the nodes the way a moderator's does: the change feed records it (the
// same status write), and the function given the banned link writes the shared cache and
// announces the change on the bus.
func TestWorkerBanReachesCaches(t *testing.T) {
	e := newWorkerEnv(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	log := slog.New(slog.DiscardHandler)
	rc, err := redis.Open(ctx, testenv.RedisURL(t), testenv.RedisPrefix(t))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = rc.Close() }()
	bus := redis.NewBus(rc, log)
	cache := redis.NewLinkCache(rc, bus, log)
	var mu sync.Mutex
	told := map[string]string{}    // key → the status the hook was told of
	announced := map[string]bool{} // keys announced on the bus
	subscribed := make(chan struct{}, 1)
	go bus.Listen(ctx, func(ev cachesync.Event) {
		mu.Lock()
		defer mu.Unlock()
		switch ev.Kind {
		case cachesync.EventResync:
			select {
			case subscribed <- struct{}{}:
			default:
			}
		case cachesync.EventLink:
			announced[ev.Key] = true
		}
	})
	<-subscribed
	changed := func(ctx context.Context, l *link.Link) {
		mu.Lock()
		told[l.Key] = l.Status
		mu.Unlock()
		if err := cache.Changed(ctx, l); err != nil {
			t.Errorf("cache %s: %v", l.Key, err)
		}
	}
	changes := func(key string) (n int) {
		if err := e.db.Pool.QueryRow(ctx, `SELECT count(*) FROM link_changes WHERE key = $1 AND NOT deleted`, key).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}

	// The worker bans k1.
	e.link(1, "https://phish.example/login")
	w := review.New(review.Options{
		Store: e.store, Queue: e.queue, Browser: &fakeBrowser{visits: map[string]int{}}, Scorer: urlScorer{},
		Poll: 20 * time.Millisecond, StatusChanged: changed, Log: log,
	})
	wctx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { w.Run(wctx); close(done) }()
	testenv.Eventually(t, 15*time.Second, "the worker's ban", func() bool { _, status := e.state(1); return status == "banned" })
	stop()
	<-done

	// A moderator bans k2.
	e.link(2, "https://fine.example/")
	var actor int64
	if err := e.db.Pool.QueryRow(ctx, `INSERT INTO users (email, password_hash) VALUES ('m@example.com', 'x') RETURNING id`).Scan(&actor); err != nil {
		t.Fatal(err)
	}
	desk := moderation.NewDesk(e.store, nil, log)
	desk.OnStatusChanged(changed)
	if _, err := desk.Decide(ctx, 2, actor, "ban", moderation.Explanation{Reason: moderation.ReasonPhishing}); err != nil {
		t.Fatal(err)
	}

	for _, key := range []string{"k1", "k2"} {
		testenv.Eventually(t, 15*time.Second, key+" announced", func() bool { mu.Lock(); defer mu.Unlock(); return announced[key] })
		mu.Lock()
		status := told[key]
		mu.Unlock()
		if status != link.StatusBanned {
			t.Errorf("%s: the caches were told of status %q", key, status)
		}
		if n := changes(key); n != 1 {
			t.Errorf("%s: %d entries in the change feed, want 1", key, n)
		}
		var domainID int64
		if err := e.db.Pool.QueryRow(ctx, `SELECT domain_id FROM links WHERE key = $1`, key).Scan(&domainID); err != nil {
			t.Fatal(err)
		}
		if l, found, err := cache.Get(ctx, domainID, key); err != nil || !found || l.Status != link.StatusBanned {
			t.Errorf("%s in the shared cache: %+v %v %v", key, l, found, err)
		}
	}
}

// With VerdictTTL, links to one page (tracking parameters aside) open the browser once; a
// different path or parameter opens it again; a domain found phishing has its next new link
// banned without the browser.
func TestWorkerSharesVerdicts(t *testing.T) {
	e := newWorkerEnv(t)
	e.link(1, "https://shop.example/item?utm_source=a")
	e.link(2, "https://shop.example/item?fbclid=x&utm_source=b")
	e.link(3, "https://shop.example/item?colour=red")
	e.link(4, "https://shop.example/other")
	e.link(5, "https://phish.example/pay?id=1")
	e.link(6, "https://phish.example/pay?id=2")
	b := &fakeBrowser{visits: map[string]int{}}
	w := review.New(review.Options{
		Store: e.store, Queue: e.queue, Browser: b, Scorer: urlScorer{}, Concurrency: 2,
		Visibility: 5 * time.Second, Poll: 20 * time.Millisecond, Log: slog.New(slog.DiscardHandler),
		VerdictTTL: time.Hour,
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go w.Run(ctx)
	testenv.Eventually(t, 15*time.Second, "six decisions", func() bool {
		for id := int64(1); id <= 6; id++ {
			if s, _ := e.state(id); s == "pending" {
				return false
			}
		}
		return true
	})
	opened := 0
	for _, u := range []string{"https://shop.example/item?utm_source=a", "https://shop.example/item?fbclid=x&utm_source=b"} {
		opened += b.count(u)
	}
	if opened != 1 {
		t.Errorf("the shop's item opened %d times, want once", opened)
	}
	for _, u := range []string{"https://shop.example/item?colour=red", "https://shop.example/other"} {
		if n := b.count(u); n != 1 {
			t.Errorf("%s opened %d times, want once", u, n)
		}
	}
	if n := b.count("https://phish.example/pay?id=1") + b.count("https://phish.example/pay?id=2"); n != 1 {
		t.Errorf("the phishing domain opened %d times, want once", n)
	}
	for _, id := range []int64{5, 6} {
		if s, status := e.state(id); s != "banned" || status != "banned" {
			t.Errorf("phishing link %d: %s, %s", id, s, status)
		}
	}
	var shared int
	if err := e.db.Pool.QueryRow(context.Background(), `SELECT count(*) FROM link_reviews WHERE shared_how <> ''`).Scan(&shared); err != nil || shared != 2 {
		t.Errorf("%d shared reviews, want 2 (%v)", shared, err)
	}
}

// blindBrowser times out for every visitor the first failFor[url] tries of a destination, and
// shows the page after.
type blindBrowser struct {
	fakeBrowser
	failFor map[string]int
}

func (b *blindBrowser) Review(ctx context.Context, url string) ([]moderation.Capture, error) {
	captures, err := b.fakeBrowser.Review(ctx, url)
	if err == nil && b.count(url) <= b.failFor[url] {
		for i := range captures {
			captures[i].Title, captures[i].Error = "", "timeout"
		}
	}
	return captures, err
}

// countingScorer is urlScorer counting its calls per destination.
type countingScorer struct {
	mu    sync.Mutex
	calls map[string]int
}

func (s *countingScorer) Score(ctx context.Context, l moderation.LinkFacts, c []moderation.Capture) (moderation.Verdict, error) {
	s.mu.Lock()
	s.calls[l.URL]++
	s.mu.Unlock()
	return urlScorer{}.Score(ctx, l, c)
}

func (s *countingScorer) count(url string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.calls[url]
}

// A review whose browser saw nothing is tried again without a scorer's call, the link left
// pending meanwhile; a try that sees the page decides it as usual, and after the last try a
// link never seen is flagged for a moderator (category incomplete), not passed, while a ban
// found on what there was stands.
func TestWorkerRetriesBlindReviews(t *testing.T) {
	e := newWorkerEnv(t)
	once, always, phish := "https://blind-once.example/", "https://blind-always.example/", "https://phish-blind.example/"
	e.link(1, once)
	e.link(2, always)
	e.link(3, phish)
	b := &blindBrowser{fakeBrowser: fakeBrowser{visits: map[string]int{}}, failFor: map[string]int{once: 1, always: 100, phish: 100}}
	scorer := &countingScorer{calls: map[string]int{}}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w := review.New(review.Options{
		Store: e.store, Queue: e.queue, Browser: b, Scorer: scorer, Concurrency: 2,
		Visibility: 5 * time.Second, Poll: 20 * time.Millisecond, Log: slog.New(slog.DiscardHandler),
		BlindRetries: 2, BlindBackoff: 10 * time.Millisecond,
	})
	go w.Run(ctx)
	testenv.Eventually(t, 15*time.Second, "three decisions", func() bool {
		s1, _ := e.state(1)
		s2, _ := e.state(2)
		s3, _ := e.state(3)
		return s1 != "pending" && s2 != "pending" && s3 != "pending"
	})
	if s, _ := e.state(1); s != "passed" {
		t.Errorf("seen at its second try: %s", s)
	}
	if s, _ := e.state(2); s != "flagged" {
		t.Errorf("never seen: %s", s)
	}
	if s, status := e.state(3); s != "banned" || status != "banned" {
		t.Errorf("never seen, phishing by its URL: %s, %s", s, status)
	}
	// Tries: two for the first (one blind), three (the last scored) for the others; the
	// scorer is asked once a link, at its deciding try.
	for url, want := range map[string]int{once: 2, always: 3, phish: 3} {
		if n := b.count(url); n != want {
			t.Errorf("%s: %d tries, want %d", url, n, want)
		}
		if n := scorer.count(url); n != 1 {
			t.Errorf("%s: %d scorer calls, want 1", url, n)
		}
	}
	var category, reason string
	if err := e.db.Pool.QueryRow(ctx, `SELECT category, reason FROM link_reviews WHERE link_id = 2`).Scan(&category, &reason); err != nil {
		t.Fatal(err)
	}
	if category != moderation.CategoryIncomplete || !strings.Contains(reason, "desktop: timeout") {
		t.Errorf("the never-seen link's review: %s, %q", category, reason)
	}
}

// A moderator's ban of a whole domain bans its new links without the browser, each with the
// category the ban named (phishing when it named none) and the reason code domain_banned.
func TestWorkerBansUnderDomainWithItsCategory(t *testing.T) {
	e := newWorkerEnv(t)
	ctx := context.Background()
	var actor int64
	if err := e.db.Pool.QueryRow(ctx, `INSERT INTO users (email, password_hash) VALUES ('m@example.com', 'x') RETURNING id`).Scan(&actor); err != nil {
		t.Fatal(err)
	}
	desk := moderation.NewDesk(e.store, nil, slog.New(slog.DiscardHandler))
	for domain, category := range map[string]string{"spam-host.example": "spam", "plain-ban.example": ""} {
		if _, err := desk.SetDomain(ctx, actor, domain, moderation.DomainBanned, category, ""); err != nil {
			t.Fatal(err)
		}
	}
	e.link(1, "https://www.spam-host.example/deal")
	e.link(2, "https://plain-ban.example/offer")
	b := &fakeBrowser{visits: map[string]int{}}
	w := review.New(review.Options{
		Store: e.store, Queue: e.queue, Browser: b, Scorer: urlScorer{}, Concurrency: 2,
		Visibility: 5 * time.Second, Poll: 20 * time.Millisecond, Log: slog.New(slog.DiscardHandler),
		VerdictTTL: time.Hour,
	})
	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go w.Run(wctx)
	testenv.Eventually(t, 15*time.Second, "both links banned", func() bool {
		_, s1 := e.state(1)
		_, s2 := e.state(2)
		return s1 == "banned" && s2 == "banned"
	})
	for id, want := range map[int64]string{1: "spam", 2: "phishing"} {
		var category, code, by string
		if err := e.db.Pool.QueryRow(ctx, `SELECT category, reason_code, decided_by FROM link_moderation WHERE link_id = $1`,
			id).Scan(&category, &code, &by); err != nil {
			t.Fatal(err)
		}
		if category != want || code != moderation.ReasonDomainBanned || by != moderation.DecidedByDomain {
			t.Errorf("link %d banned under its domain: category %q, reason code %q, decided by %q; want %q, %q, %q",
				id, category, code, by, want, moderation.ReasonDomainBanned, moderation.DecidedByDomain)
		}
	}
	for _, u := range []string{"https://www.spam-host.example/deal", "https://plain-ban.example/offer"} {
		if n := b.count(u); n != 0 {
			t.Errorf("%s opened %d times under a banned domain", u, n)
		}
	}
	// A category outside the standard reasons is refused, and so is one given to a clear.
	for _, c := range []struct{ state, category, reason string }{
		{moderation.DomainBanned, "nasty", "category_unknown"},
		{moderation.DomainCleared, "spam", "value_invalid"},
	} {
		_, err := desk.SetDomain(ctx, actor, "spam-host.example", c.state, c.category, "")
		var ae *apperr.Error
		if !errors.As(err, &ae) || ae.Code != apperr.Invalid || ae.Reason != c.reason || ae.Field != "category" {
			t.Errorf("%s with category %q: %v, want %s on category", c.state, c.category, err, c.reason)
		}
	}
}
