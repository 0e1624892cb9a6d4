// Package review is the moderation worker's loop: it claims due links from the queue, has the
// browser open each destination as three visitors, has the scorer judge what they saw, and
// records the decision.
package review

import (
	"context"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promauto"

	"github.com/shortlink/shortlink/backend/link"
	"github.com/shortlink/shortlink/backend/moderation"
)

var (
	reviewsTotal = promauto.NewCounterVec(prometheus.CounterOpts{
		Name: "shortlink_moderation_reviews_total",
		Help: "Reviews finished, by the state they decided and the scorer that decided.",
	}, []string{"state", "scorer"})
	reviewSeconds = promauto.NewHistogram(prometheus.HistogramOpts{
		Name:    "shortlink_moderation_review_seconds",
		Help:    "Time of a review: the browser's three visits and the scoring.",
		Buckets: []float64{1, 2, 5, 10, 20, 30, 60, 120},
	})
	reviewScores = promauto.NewHistogram(prometheus.HistogramOpts{
		Name:    "shortlink_moderation_scores",
		Help:    "Scores the reviews gave.",
		Buckets: []float64{0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1},
	})
	reviewErrors = promauto.NewCounterVec(prometheus.CounterOpts{
		Name: "shortlink_moderation_errors_total",
		Help: "Failures of the worker, by kind: queue, store, browser, scorer, blind (the browser could not see the page).",
	}, []string{"kind"})
	queueDepth = promauto.NewGauge(prometheus.GaugeOpts{
		Name: "shortlink_moderation_queue_due",
		Help: "Links due for a review now and not claimed by a worker.",
	})
	queueAge = promauto.NewGauge(prometheus.GaugeOpts{
		Name: "shortlink_moderation_queue_oldest_seconds",
		Help: "How long the oldest review due has waited, as of the last rebuild of the queue.",
	})
	queueTotal = promauto.NewGauge(prometheus.GaugeOpts{
		Name: "shortlink_moderation_queue_length",
		Help: "Reviews due, now or later, claimed or not, as of the last rebuild of the queue.",
	})
	sharedTotal = promauto.NewCounterVec(prometheus.CounterOpts{
		Name: "shortlink_moderation_shared_total",
		Help: "Reviews decided without opening the browser, by how: destination (a recent review of the same page), domain_pass or domain_ban (the domain's record).",
	}, []string{"how"})
)

// Browser opens a destination as the three visitors (package browse).
type Browser interface {
	Review(ctx context.Context, url string) ([]moderation.Capture, error)
}

// Scorer judges what the browser saw (package score).
type Scorer interface {
	Score(ctx context.Context, link moderation.LinkFacts, captures []moderation.Capture) (moderation.Verdict, error)
}

// Options configure a Worker.
type Options struct {
	Store      moderation.Store
	Queue      *moderation.Queue
	Browser    Browser
	Scorer     Scorer
	Thresholds moderation.Thresholds
	// Concurrency is how many reviews run at once (1 when < 1).
	Concurrency int
	// Visibility is how long a claimed link stays with this worker before another may take
	// it: longer than a review can last. 5 minutes when 0.
	Visibility time.Duration
	// Poll is how often the worker looks for due links and new ones; 1 s when 0.
	Poll time.Duration
	// Rebuild is how often the queue is rebuilt from PostgreSQL (a Redis that lost it, a
	// queueing that failed); 30 s when 0.
	Rebuild time.Duration
	// Base is the short domain's public URL ("https://sho.rt/"), for the short URLs the
	// scorer is told.
	Base string
	// StatusChanged is told of every link a review banned or released from its hold, as a
	// moderator's ban is told to
	// moderation.Desk.OnStatusChanged's function: it writes the shared cache and announces the
	// change to every node. The change feed brings every node along within a second anyway.
	StatusChanged func(context.Context, *link.Link)
	Log           *slog.Logger
	// Destinations normalise destinations for sharing verdicts (MODERATION_TRACKING_PARAMS).
	Destinations moderation.Destinations
	// VerdictTTL is how long a review's verdict is shared with new links to the same
	// destination, and how far back a domain's record goes (MODERATION_VERDICT_TTL); 0 shares
	// nothing and keeps no record: every link opens the browser.
	VerdictTTL time.Duration
	// Reputation decides new links on their domain's record; its TTL is VerdictTTL.
	Reputation moderation.Reputation
	// BlindRetries is how many times a review whose browser could not see the destination (a
	// capture failed, timed out or came back nearly empty: moderation.Blind) is tried again
	// before the link goes to a moderator (MODERATION_BLIND_RETRIES); 3 when 0, none when < 0.
	BlindRetries int
	// BlindBackoff is the wait before the first such try; each next one waits four times
	// longer (MODERATION_BLIND_BACKOFF). 30 s when 0.
	BlindBackoff time.Duration
}

// Worker takes due reviews from the queue, reviews them and records the decisions. Several
// workers share one queue; each link is reviewed by one at a time.
type Worker struct {
	o    Options
	slot chan struct{}
	wg   sync.WaitGroup

	// running holds the links under review here: a queue rebuilt while one runs (after Redis
	// lost it) queues the link again, and it must not be reviewed twice at once.
	runMu   sync.Mutex
	running map[int64]bool

	// polls counts the rounds of Run finished (Polls).
	polls atomic.Int64

	warnMu sync.Mutex
	warned map[string]time.Time // when each message was last logged

	// domains are the registrable domains whose new links are being reviewed here: the next
	// new link of one waits for that review, whose verdict may decide it. Store.HoldDomain
	// does the same across worker processes; this map spares it the round trip here.
	domMu   sync.Mutex
	domains map[string]bool

	// wake is signalled when a slot frees: the next claim need not wait for the poll.
	wake chan struct{}
}

// warnEvery is the least time between two log lines of one kind: PostgreSQL or Redis down
// would otherwise log every poll.
const warnEvery = 30 * time.Second

// warn logs msg with err, at most once per warnEvery.
func (w *Worker) warn(msg string, err error) {
	w.warnMu.Lock()
	last, now := w.warned[msg], time.Now()
	ok := now.Sub(last) >= warnEvery
	if ok {
		w.warned[msg] = now
	}
	w.warnMu.Unlock()
	if ok {
		w.o.Log.Warn(msg, "err", err)
	}
}

// New returns a Worker; Run starts it.
func New(o Options) *Worker {
	if o.Concurrency < 1 {
		o.Concurrency = 1
	}
	if o.Visibility <= 0 {
		o.Visibility = 5 * time.Minute
	}
	if o.Poll <= 0 {
		o.Poll = time.Second
	}
	if o.Rebuild <= 0 {
		o.Rebuild = rebuildEvery
	}
	if o.Base != "" && !strings.HasSuffix(o.Base, "/") {
		o.Base += "/"
	}
	if o.Thresholds == (moderation.Thresholds{}) {
		o.Thresholds = moderation.DefaultThresholds
	}
	if o.BlindRetries == 0 {
		o.BlindRetries = DefaultBlindRetries
	}
	if o.BlindBackoff <= 0 {
		o.BlindBackoff = DefaultBlindBackoff
	}
	if o.Reputation == (moderation.Reputation{}) {
		o.Reputation = moderation.DefaultReputation
	}
	o.Reputation.TTL = o.VerdictTTL
	return &Worker{o: o, slot: make(chan struct{}, o.Concurrency), warned: map[string]time.Time{}, running: map[int64]bool{}, domains: map[string]bool{},
		wake: make(chan struct{}, 1)}
}

// The defaults of Options.BlindRetries and BlindBackoff: tries after 30 s, 2 min and 8 min,
// then a moderator.
const (
	DefaultBlindRetries = 3
	DefaultBlindBackoff = 30 * time.Second
)

// The worker's rhythm: new links are looked for every scanEvery, and the queue is rebuilt from
// PostgreSQL every rebuildEvery unless Options.Rebuild says otherwise.
const (
	scanEvery    = 2 * time.Second
	scanSlack    = 30 * time.Second // creates commit up to this late after their created_at
	rebuildEvery = 30 * time.Second
)

// Run reviews until ctx ends. Then it stops claiming, cancels the reviews under way and gives
// their links back to the queue at once, so another worker takes them without waiting for
// the visibility timeout.
func (w *Worker) Run(ctx context.Context) {
	var lastScan, lastRebuild time.Time
	scanFrom := time.Now().Add(-24 * time.Hour) // links created while no worker ran
	for ctx.Err() == nil {
		now := time.Now()
		if now.Sub(lastRebuild) >= w.o.Rebuild {
			w.rebuild(ctx)
			lastRebuild = now
		}
		if now.Sub(lastScan) >= scanEvery {
			if w.scan(ctx, scanFrom) {
				scanFrom = now.Add(-scanSlack)
			}
			lastScan = now
		}
		w.claim(ctx)
		w.polls.Add(1)
		select {
		case <-ctx.Done():
		case <-w.wake:
		case <-time.After(w.o.Poll):
		}
	}
	w.wg.Wait()
}

// Polls answers how many rounds of Run have finished, each a claim of due links and the start
// of their reviews: a test waits for a round that began after an event to know the worker had
// its chance to act on it.
func (w *Worker) Polls() int64 { return w.polls.Load() }

// Reviewing answers how many links are under review here now.
func (w *Worker) Reviewing() int {
	w.runMu.Lock()
	defer w.runMu.Unlock()
	return len(w.running)
}

// rebuild adds every link due in PostgreSQL to the queue.
func (w *Worker) rebuild(ctx context.Context) {
	due, err := w.o.Store.Due(ctx)
	if err == nil {
		now, oldest := time.Now(), time.Duration(0)
		for _, d := range due {
			oldest = max(oldest, now.Sub(d.At))
		}
		queueAge.Set(oldest.Seconds())
		queueTotal.Set(float64(len(due)))
		err = w.o.Queue.Rebuild(ctx, due)
	}
	if err != nil && ctx.Err() == nil {
		reviewErrors.WithLabelValues("queue").Inc()
		w.warn("moderation: rebuild the queue", err)
	}
}

// scan records the links created since from as due and queues them; false when it failed.
func (w *Worker) scan(ctx context.Context, from time.Time) bool {
	due, err := w.o.Store.DueCreated(ctx, from)
	if err != nil {
		if ctx.Err() == nil {
			reviewErrors.WithLabelValues("store").Inc()
			w.warn("moderation: look for new links", err)
		}
		return false
	}
	if len(due) > 0 {
		// Recorded already: a failure here is mended by the next rebuild.
		if err := w.o.Queue.Rebuild(ctx, due); err != nil {
			reviewErrors.WithLabelValues("queue").Inc()
			w.warn("moderation: queue new links", err)
		}
	}
	return true
}

// claim takes as many due links as there are free slots and starts their reviews.
func (w *Worker) claim(ctx context.Context) {
	if n, err := w.o.Queue.DueNow(ctx, time.Now()); err == nil {
		queueDepth.Set(float64(n))
	}
	free := cap(w.slot) - len(w.slot)
	if free == 0 {
		return
	}
	ids, err := w.o.Queue.Claim(ctx, time.Now(), w.o.Visibility, free)
	if err != nil {
		if ctx.Err() == nil {
			reviewErrors.WithLabelValues("queue").Inc()
			w.warn("moderation: claim reviews", err)
		}
		return
	}
	if len(ids) == 0 {
		return
	}
	jobs, err := w.o.Store.Jobs(ctx, ids)
	if err != nil {
		reviewErrors.WithLabelValues("store").Inc()
		w.warn("moderation: read claimed reviews", err)
		w.giveBack(ids)
		return
	}
	found := map[int64]bool{}
	for _, j := range jobs {
		found[j.LinkID] = true
		if !w.start(j.LinkID) {
			// Under review here already: that review settles the link in the queue.
			continue
		}
		w.slot <- struct{}{}
		w.wg.Add(1)
		go func() {
			worked := true
			defer func() {
				w.finish(j.LinkID)
				<-w.slot
				if worked {
					// A link put back to wait for its domain wakes no one: the poll brings it
					// back, and the waiting links do not spin through the queue meanwhile.
					select {
					case w.wake <- struct{}{}:
					default:
					}
				}
				w.wg.Done()
			}()
			worked = w.review(ctx, j)
		}()
	}
	for _, id := range ids {
		if !found[id] {
			// Deleted, or reviewed meanwhile by a worker that claimed it before a restore.
			_ = w.o.Queue.Forget(ctx, id)
		}
	}
}

// start marks the link under review; false when it is already.
func (w *Worker) start(id int64) bool {
	w.runMu.Lock()
	defer w.runMu.Unlock()
	if w.running[id] {
		return false
	}
	w.running[id] = true
	return true
}

// finish ends the link's review.
func (w *Worker) finish(id int64) {
	w.runMu.Lock()
	delete(w.running, id)
	w.runMu.Unlock()
}

// giveBack makes claimed links due again now.
func (w *Worker) giveBack(ids []int64) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for _, id := range ids {
		_ = w.o.Queue.Later(ctx, id, time.Now())
	}
}

// review opens the link's destination, scores it and records the decision. A new link, or a
// new destination, first looks for a recent review of the same destination, then at its
// domain's record (moderation.Reputation): either may decide it without the browser. False
// when the link was put back to wait for another review of its domain.
func (w *Worker) review(ctx context.Context, j moderation.Job) bool {
	start := time.Now()
	base := moderation.Review{Destination: w.o.Destinations.Normalise(j.URL), Domain: moderation.RegistrableDomain(j.URL)}
	if w.o.VerdictTTL > 0 && moderation.MayShare(j.Reason) && base.Domain != "" {
		if !w.holdDomain(base.Domain) {
			// Another new link of the domain is under review here: its verdict may decide this
			// one. Others due go first meanwhile.
			rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
			defer cancel()
			_ = w.o.Queue.Later(rctx, j.LinkID, time.Now().Add(domainWait))
			return false
		}
		defer w.releaseDomain(base.Domain)
		release, ok, err := w.o.Store.HoldDomain(ctx, base.Domain)
		switch {
		case err != nil:
			// Without the hold two workers may review the domain's new links at once: some
			// work twice, never a wrong decision.
			reviewErrors.WithLabelValues("store").Inc()
			w.warn("moderation: hold a domain", err)
		case !ok:
			// Another worker reviews a new link of the domain.
			rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
			defer cancel()
			_ = w.o.Queue.Later(rctx, j.LinkID, time.Now().Add(domainWait))
			return false
		default:
			defer release()
		}
		if r, how, ok := w.shared(ctx, j, base); ok {
			r.Duration = time.Since(start)
			w.record(ctx, j, r)
			sharedTotal.WithLabelValues(how).Inc()
			return true
		}
	}
	captures, err := w.o.Browser.Review(ctx, j.URL)
	if err != nil {
		w.failed(ctx, j, "browser", err)
		return true
	}
	blind := moderation.Blind(captures)
	if len(blind) > 0 && j.Attempts < w.o.BlindRetries {
		// Not evidence of safety, and not worth a model's call yet: the link keeps its state
		// and is tried again after a backoff.
		w.retryBlind(ctx, j, blind)
		return true
	}
	facts := moderation.LinkFacts{ID: j.LinkID, URL: j.URL, ShortURL: w.o.Base + j.Key}
	v, err := w.o.Scorer.Score(ctx, facts, captures)
	if err != nil {
		w.failed(ctx, j, "scorer", err)
		return true
	}
	// What the reviewer could not see never passes: a moderator decides.
	v = moderation.Unseen(v, append(blind, moderation.Refused(captures)...), w.o.Thresholds)
	r := base
	r.Captures, r.Verdict, r.Duration = captures, v, time.Since(start)
	switch {
	case v.Category == moderation.CategoryIncomplete:
		// Nothing seen is nothing to share: the next link of the destination or the domain
		// opens the browser itself.
		r.Destination, r.Domain = "", ""
	case w.o.VerdictTTL > 0:
		// What the browser saw is the domain's record: it may hold the domain's new links, or
		// end their hold.
		r.Record = &w.o.Reputation
	}
	w.record(ctx, j, r)
	return true
}

// domainWait is how long a new link waits while another new link of its domain is reviewed.
const domainWait = 250 * time.Millisecond

// shared is the review taken from a recent review of the same destination, or from the
// domain's record, and how ("destination", "domain_pass", "domain_ban"); ok false when the
// browser must be opened.
func (w *Worker) shared(ctx context.Context, j moderation.Job, base moderation.Review) (r moderation.Review, how string, ok bool) {
	since := time.Now().Add(-w.o.VerdictTTL)
	s, err := w.o.Store.Shared(ctx, base.Destination, since)
	if err != nil {
		reviewErrors.WithLabelValues("store").Inc()
		w.warn("moderation: look for a shared review", err)
		return r, "", false
	}
	r = base
	if s != nil {
		r.Shared, r.SharedHow, r.Verdict = s, "destination", s.Verdict
		r.Verdict.Notes = append(slices.Clone(s.Verdict.Notes), "shared: the verdict of a review of the same destination made at "+
			s.ReviewedAt.UTC().Format(time.RFC3339))
		return r, "destination", true
	}
	recent, err := w.o.Store.DomainVerdicts(ctx, base.Domain, since, max(w.o.Reputation.Run, 1)*2, w.o.Thresholds)
	if err != nil {
		reviewErrors.WithLabelValues("store").Inc()
		w.warn("moderation: read a domain's record", err)
		return r, "", false
	}
	decided, category, err := w.o.Store.DomainState(ctx, base.Domain)
	if err != nil {
		reviewErrors.WithLabelValues("store").Inc()
		w.warn("moderation: read a domain's decision", err)
		return r, "", false
	}
	plan, dv := w.o.Reputation.Plan(j.Reason, j.LinkID, decided, recent)
	if plan == moderation.PlanBan && dv == nil {
		// A moderator banned the domain: no review to take; the link is banned as the moderator
		// named the ban (phishing for a ban that named nothing).
		if category == "" {
			category = moderation.DefaultDomainCategory
		}
		r.SharedHow = "domain"
		r.Verdict = moderation.Verdict{Score: 1, Category: category, Scorer: "heuristic",
			Reason: "a moderator banned its domain " + base.Domain + " (" + category + ")"}
		return r, "domain_banned", true
	}
	switch plan {
	case moderation.PlanPass:
		how = "domain_pass"
		r.Verdict = dv.Verdict
		r.Verdict.Reason = "its domain " + base.Domain + " passed its recent reviews; this link is reviewed at its first visits"
	case moderation.PlanBan:
		how = "domain_ban"
		r.Verdict = dv.Verdict
		r.Verdict.Reason = "its domain " + base.Domain + " was found phishing: " + dv.Verdict.Reason
	default:
		return r, "", false
	}
	s = &dv.Shared
	r.Shared, r.SharedHow = s, "domain"
	r.Verdict.Notes = append(slices.Clone(dv.Verdict.Notes), "shared: the domain's record, last reviewed at "+
		s.ReviewedAt.UTC().Format(time.RFC3339))
	return r, how, true
}

// holdDomain marks a new link's domain under review here; false when it is already.
func (w *Worker) holdDomain(d string) bool {
	w.domMu.Lock()
	defer w.domMu.Unlock()
	if w.domains[d] {
		return false
	}
	w.domains[d] = true
	return true
}

func (w *Worker) releaseDomain(d string) {
	w.domMu.Lock()
	delete(w.domains, d)
	w.domMu.Unlock()
}

// record stores a review and settles the link in the queue.
func (w *Worker) record(ctx context.Context, j moderation.Job, r moderation.Review) {
	log := w.o.Log.With("link", j.LinkID, "reason", j.Reason)
	v := r.Verdict
	// Recording must not be cut short by a stop: the review is done.
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	out, err := w.o.Store.Record(rctx, j, r, w.o.Thresholds)
	if err != nil {
		w.failed(ctx, j, "store", err)
		return
	}
	if out.Link != nil && w.o.StatusChanged != nil {
		w.o.StatusChanged(rctx, out.Link)
	}
	reviewsTotal.WithLabelValues(string(out.State), v.Scorer).Inc()
	if r.Shared == nil {
		reviewSeconds.Observe(r.Duration.Seconds())
		reviewScores.Observe(v.Score)
	}
	if out.StillDue {
		err = w.o.Queue.Later(rctx, j.LinkID, time.Now())
	} else {
		err = w.o.Queue.Forget(rctx, j.LinkID)
	}
	if err != nil {
		// The claim runs out and the link is taken again; the store says whether it is due.
		log.Warn("moderation: update the queue after a review", "err", err)
	}
	log.Info("moderation: reviewed", "state", out.State, "score", v.Score, "category", v.Category,
		"scorer", v.Scorer, "shared", r.SharedHow, "seconds", r.Duration.Seconds())
}

// retryBlind counts a review that could not see the destination and makes the link due again
// after BlindBackoff, four times longer each try; a stop gives it back at once.
func (w *Worker) retryBlind(ctx context.Context, j moderation.Job, blind []string) {
	bctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if ctx.Err() != nil {
		_ = w.o.Queue.Later(bctx, j.LinkID, time.Now())
		return
	}
	reviewErrors.WithLabelValues("blind").Inc()
	reason := "blind: " + strings.Join(blind, "; ")
	attempts, err := w.o.Store.Failed(bctx, j, reason)
	if err != nil {
		attempts = j.Attempts + 1
	}
	delay := min(w.o.BlindBackoff<<(2*min(max(attempts-1, 0), 10)), time.Hour)
	w.o.Log.Info("moderation: the browser could not see the page; trying again later", "link", j.LinkID,
		"attempts", attempts, "retry_in", delay, "why", reason)
	_ = w.o.Queue.Later(bctx, j.LinkID, time.Now().Add(delay))
}

// failed counts a failed review and makes the link due again after a backoff; a stop gives it
// back at once.
func (w *Worker) failed(ctx context.Context, j moderation.Job, kind string, err error) {
	bctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if ctx.Err() != nil {
		_ = w.o.Queue.Later(bctx, j.LinkID, time.Now())
		return
	}
	reviewErrors.WithLabelValues(kind).Inc()
	attempts, serr := w.o.Store.Failed(bctx, j, kind+": "+err.Error())
	if serr != nil {
		attempts = j.Attempts + 1
	}
	delay := min(30*time.Second<<min(attempts-1, 10), time.Hour)
	w.o.Log.Warn("moderation: review failed; retrying later", "link", j.LinkID, "kind", kind,
		"attempts", attempts, "retry_in", delay, "err", err)
	_ = w.o.Queue.Later(bctx, j.LinkID, time.Now().Add(delay))
}
