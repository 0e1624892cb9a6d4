// Package visitcap counts the human visits of links that have a visit cap (max_visits,
// docs/rules-and-plans.md#link-rules) exactly across nodes: an atomic counter per capped link in Redis, seeded from and
// written back to PostgreSQL (the Store), and the Store alone while Redis is down.
//
// The redirect path calls Take for each human visit of a link whose rules have MaxVisits, and
// answers 410 when it says no; crawlers and links without a cap never reach it. A node builds
// one Counter at start-up (New, with the Redis counters of redis.NewVisitCaps and
// postgres.NewVisitCounts) and closes it after its HTTP server has drained (Close writes the
// last counts).
//
// What a Redis loss costs. Each node writes the counts it saw to the Store once per
// FlushInterval, and then raises the Redis keys to the stored counts. Should Redis lose a key
// (a restart without persistence, FLUSHALL, eviction, failover to a replica that was behind),
// the key is seeded again from the Store, which lacks the visits counted since the nodes last
// wrote: those visits, and no more, can be handed out a second time, and only until the next
// write raises the key again. With the default interval a loss gives back at most the visits of
// the last second of each capped link, and usually far fewer (TestRedisLossUnderLoad measures
// it). A graceful restart writes first (Close) and gives nothing back; a node that crashed
// takes its unwritten counts with it, which matters only if Redis is lost as well before
// another visit of the link is written.
//
// While Redis is down every visit of a capped link is one statement in the Store, exact
// across nodes from the counts they had written: a node's own counts are never taken twice (its
// Store takes start from at least the highest count it saw, written or not), but the visits
// other nodes counted in Redis in their last interval before it failed, and had not written
// yet, can pass a second time, as with a loss. A node uses Redis again only after raising it to
// every count the Store took meanwhile. Nodes that disagree on whether Redis is up (a partition, or the moment between
// two nodes' returns, at most one interval) count in two places, and the visits one counts in
// the Store during that window can pass on top of the other's.
package visitcap

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"
)

// FlushInterval is how often a node writes the totals it counted to the Store: the bound, in
// time, of what a Redis loss gives back.
const FlushInterval = time.Second

// redisTimeout bounds the writer's ping of Redis after it failed.
const redisTimeout = time.Second

// Store keeps the counts durably: what a Redis that lost its keys is seeded from, and where
// visits are counted while Redis is down.
type Store interface {
	// Visits returns the stored count of the link, 0 when none was stored.
	Visits(ctx context.Context, linkID int64) (int64, error)
	// Take counts one visit of the link on top of at least seen (the highest count the node
	// saw, which it may not have stored yet) if fewer than max were counted, as one atomic
	// step across every node, and returns whether it did and the count after it.
	Take(ctx context.Context, linkID, max, seen int64) (allowed bool, visits int64, err error)
	// Raise stores at least each given count (never lowering one) and returns the stored counts
	// of those links afterwards. Each link appears at most once in counts.
	Raise(ctx context.Context, counts []Count) ([]Count, error)
}

// Shared is the count every node shares, kept in Redis, where each visit is counted while it
// answers.
type Shared interface {
	// Get returns the link's count; found is false when there is none.
	Get(ctx context.Context, linkID int64) (n int64, found bool, err error)
	// Take takes one of the link's max visits (max >= 1) as one atomic step across every node:
	// it answers the count after this visit when it passes, minus the count when it does not,
	// and 0 when the link has no count yet.
	Take(ctx context.Context, linkID, max int64) (int64, error)
	// TakeSeeded is Take for a link that may have no count yet: it starts from stored, or keeps
	// a higher count already there.
	TakeSeeded(ctx context.Context, linkID, max, stored int64) (int64, error)
	// Raise sets each link's count to at least the given one.
	Raise(ctx context.Context, counts []Count) error
	// Ping reports whether the shared count answers.
	Ping(ctx context.Context) error
}

// Count is how many visits a link has had.
type Count struct {
	LinkID int64
	Visits int64
}

// Counter hands out the visits of capped links. It is safe for concurrent use; every node has
// one, sharing Redis and the Store.
type Counter struct {
	shared Shared // nil: count in the Store only
	store  Store
	log    *slog.Logger

	// down says Redis failed; Takes then go to the Store. Only the writer sets it back, after
	// it has raised Redis to the counts the Store took meanwhile (reconcile).
	down atomic.Bool
	// fallback is held shared by Takes counting in the Store and exclusively by the writer, so
	// that no visit the Store counted is missing from Redis when this node uses it again.
	fallback sync.RWMutex

	mu    sync.Mutex
	dirty map[int64]int64 // counts seen since the last write, to store and then to raise Redis to
	// writing are the counts a write is storing now: seen, not yet in the Store.
	writing map[int64]int64

	stop      chan struct{}
	done      chan struct{}
	closeOnce sync.Once
}

// New starts a Counter counting in shared (nil: no Redis, every visit is counted in the Store)
// and writing counts to store every FlushInterval. Close stops it.
func New(shared Shared, store Store, log *slog.Logger) *Counter {
	return newCounter(shared, store, log, FlushInterval)
}

func newCounter(shared Shared, store Store, log *slog.Logger, interval time.Duration) *Counter {
	c := &Counter{
		shared: shared, store: store, log: log,
		dirty: map[int64]int64{},
		stop:  make(chan struct{}), done: make(chan struct{}),
	}
	c.down.Store(shared == nil)
	go c.run(interval)
	return c
}

// Take counts one visit of the link if fewer than max were counted, and answers whether this
// visitor may pass: across every node, exactly max visitors pass. Call it only for people (never
// for crawlers) on links with a cap, once per visit that the cap should count. Raising max
// lets visitors through again; lowering it below the count refuses them.
//
// An error means neither Redis nor the Store could count the visit; allowed is then false.
func (c *Counter) Take(ctx context.Context, linkID, max int64) (allowed bool, err error) {
	if max < 1 {
		return false, nil
	}
	if !c.down.Load() {
		n, err := c.takeRedis(ctx, linkID, max)
		if err == nil {
			if n > 0 {
				c.saw(linkID, n)
			}
			return n > 0, nil
		}
		var seedErr *seedError
		if ctx.Err() != nil || errors.As(err, &seedErr) {
			// Redis answered: the Store is what failed (the key must be seeded), and it would
			// fail the count below too.
			return false, err
		}
		// A reply lost after the script ran counted this visit already; counting it again
		// below can only close the link one visit early, never let one more through.
		if !c.down.Swap(true) {
			c.log.Warn("visit cap: redis is not answering; counting capped links in PostgreSQL", "err", err)
		}
	}
	return c.takeStore(ctx, linkID, max)
}

// Reached reports whether the link's max visits are used up, without counting one: the
// redirect path asks it first, so that a link at its cap answers 410 before any other rule (and
// before a password or form page a visitor would fill in vain). A count it cannot read is
// taken as not reached: Take decides in the end.
func (c *Counter) Reached(ctx context.Context, linkID, max int64) bool {
	if max < 1 {
		return true
	}
	if !c.down.Load() {
		n, found, err := c.shared.Get(ctx, linkID)
		if err != nil {
			return false
		}
		if found {
			return n >= max
		}
	}
	n, err := c.store.Visits(ctx, linkID)
	return err == nil && n >= max
}

// takeRedis takes the visit in the shared count: the count after this visit when it passes,
// minus the count when it does not. A missing count is seeded from the Store.
func (c *Counter) takeRedis(ctx context.Context, linkID, max int64) (int64, error) {
	n, err := c.shared.Take(ctx, linkID, max)
	if err != nil || n != 0 {
		return n, err
	}
	stored, err := c.store.Visits(ctx, linkID)
	if err != nil {
		return 0, &seedError{err}
	}
	// Another node may have seeded and counted meanwhile: the script keeps the higher count.
	return c.shared.TakeSeeded(ctx, linkID, max, stored)
}

// seedError is a failure to read the stored count a missing key is seeded with.
type seedError struct{ err error }

func (e *seedError) Error() string { return "visit cap: seed counter: " + e.err.Error() }
func (e *seedError) Unwrap() error { return e.err }

// takeStore counts the visit in the Store, under the shared side of fallback: the count is
// noted before the writer may reconcile.
func (c *Counter) takeStore(ctx context.Context, linkID, max int64) (bool, error) {
	c.fallback.RLock()
	if !c.down.Load() {
		// The writer reconciled while this Take waited: Redis holds every count again.
		c.fallback.RUnlock()
		return c.Take(ctx, linkID, max)
	}
	ok, n, err := c.store.Take(ctx, linkID, max, c.seen(linkID))
	if ok {
		c.saw(linkID, n)
	}
	c.fallback.RUnlock()
	return ok, err
}

// saw notes a count for the next write.
func (c *Counter) saw(linkID, n int64) {
	c.mu.Lock()
	if n > c.dirty[linkID] {
		c.dirty[linkID] = n
	}
	c.mu.Unlock()
}

// seen is the highest count of the link this node saw that the Store may not hold yet.
func (c *Counter) seen(linkID int64) int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return max(c.dirty[linkID], c.writing[linkID])
}

// run writes the counts every interval until Close.
func (c *Counter) run(interval time.Duration) {
	defer close(c.done)
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-c.stop:
			return
		case <-t.C:
			ctx, cancel := context.WithTimeout(context.Background(), interval+redisTimeout)
			if err := c.flush(ctx); err != nil {
				c.log.Warn("visit cap: store counts", "err", err)
			}
			cancel()
		}
	}
}

// flush stores the counts seen since the last flush, then raises the Redis keys to the stored
// counts, which also hold what other nodes stored and what the Store counted while Redis was
// down. Counts not written stay for the next flush.
//
// After Redis failed, flush is what uses it again: once Redis answers, it blocks this node's
// Takes in the Store for the time of one write (fallback), raises Redis to every count they
// took, and only then lets Takes go to Redis.
func (c *Counter) flush(ctx context.Context) error {
	reconcile := false
	if c.shared != nil && c.down.Load() {
		rctx, cancel := context.WithTimeout(ctx, redisTimeout)
		err := c.shared.Ping(rctx)
		cancel()
		if reconcile = err == nil; reconcile {
			c.fallback.Lock()
			defer c.fallback.Unlock()
		}
	}
	c.mu.Lock()
	batch := make([]Count, 0, len(c.dirty))
	for id, n := range c.dirty {
		batch = append(batch, Count{id, n})
	}
	c.writing, c.dirty = c.dirty, map[int64]int64{}
	c.mu.Unlock()

	stored := batch
	if len(batch) > 0 {
		var err error
		stored, err = c.store.Raise(ctx, batch)
		if err != nil {
			c.keep(batch)
		}
		c.mu.Lock()
		c.writing = nil
		c.mu.Unlock()
		if err != nil {
			return err
		}
	}
	if c.shared == nil || (c.down.Load() && !reconcile) {
		c.keep(stored) // for Redis, once it answers
		return nil
	}
	if err := c.shared.Raise(ctx, stored); err != nil {
		c.keep(stored)
		if !c.down.Swap(true) {
			c.log.Warn("visit cap: redis is not answering; counting capped links in PostgreSQL", "err", err)
		}
		return nil // Takes count in the Store meanwhile: not a failure to store
	}
	if reconcile {
		c.down.Store(false)
		c.log.Info("visit cap: redis answers again; counting capped links there")
	}
	return nil
}

// keep puts counts back for the next flush.
func (c *Counter) keep(counts []Count) {
	for _, n := range counts {
		c.saw(n.LinkID, n.Visits)
	}
}

// Close stops the writer and stores the last counts, so that a graceful restart gives nothing
// back even if Redis is lost afterwards.
func (c *Counter) Close() {
	c.closeOnce.Do(func() {
		close(c.stop)
		<-c.done
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := c.flush(ctx); err != nil {
			c.log.Warn("visit cap: store the last counts", "err", err)
		}
	})
}
