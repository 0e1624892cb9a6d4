package link

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promauto"

	"github.com/shortlink/shortlink/backend/apperr"
)

// batchRows shows how well creates coalesce: rows per insert.
var batchRows = promauto.NewHistogram(prometheus.HistogramOpts{
	Name:    "shortlink_link_insert_batch_rows",
	Help:    "Rows per coalesced link insert.",
	Buckets: prometheus.ExponentialBuckets(1, 2, 11),
})

// defaultWriteTimeout bounds one batch insert when Options.WriteTimeout is not set.
const defaultWriteTimeout = 10 * time.Second

// cacheWait bounds how long a batch waits for the cache to take its new links before its rows
// are answered. Redis takes a batch in a millisecond or two; one that is paused or failing
// over would otherwise hold every batch for its client's timeouts (500 ms), a quarter of the
// creates or less. Links not taken in time are handed to Cache.NotCached.
const cacheWait = 50 * time.Millisecond

// errClosed answers creates that arrive after shutdown began.
var errClosed = errors.New("link writer is closed")

// batcher coalesces concurrent creates into multi-row inserts. Several writers take from one
// queue: while one batch commits, the next one forms, so there is no idle flush interval and
// the batch size grows with the load.
type batcher struct {
	store Store
	cache Cache
	max   int
	// timeout bounds one batch insert.
	timeout time.Duration
	queue   chan *pending
	wg      sync.WaitGroup
	mu      sync.RWMutex
	closed  bool
	log     *slog.Logger
}

type pending struct {
	// ctx is the caller's: a row whose caller has gone by the time its batch is written is
	// left out (its answer was not waited for, so nothing was acknowledged).
	ctx  context.Context
	link *Link
	done chan error
}

func newBatcher(store Store, cache Cache, writers, max int, timeout time.Duration, log *slog.Logger) *batcher {
	if timeout <= 0 {
		timeout = defaultWriteTimeout
	}
	b := &batcher{store: store, cache: cache, max: max, timeout: timeout, queue: make(chan *pending, max*writers), log: log}
	for range writers {
		b.wg.Add(1)
		go b.write()
	}
	return b
}

// submit queues l; the returned channel answers once its row is committed (nil) or refused
// (its own error). A row whose caller's ctx has ended when its batch is written is answered
// with that error and not written; once its insert has begun it is the writer's to finish.
// When the queue is full, submit waits for room until ctx ends.
func (b *batcher) submit(ctx context.Context, l *Link) <-chan error {
	done := make(chan error, 1)
	b.mu.RLock()
	defer b.mu.RUnlock()
	if b.closed {
		done <- errClosed
		return done
	}
	select {
	case b.queue <- &pending{ctx: ctx, link: l, done: done}:
	case <-ctx.Done():
		done <- ctx.Err()
	}
	return done
}

// close stops taking creates and returns when every queued row has been written.
func (b *batcher) close() {
	b.mu.Lock()
	if !b.closed {
		b.closed = true
		close(b.queue)
	}
	b.mu.Unlock()
	b.wg.Wait()
}

func (b *batcher) write() {
	defer b.wg.Done()
	cw := &cacheWriter{cache: b.cache, queue: make(chan cacheWrite, 1), timer: time.NewTimer(cacheWait)}
	cw.timer.Stop()
	b.wg.Add(1)
	go func() { defer b.wg.Done(); cw.run() }()
	defer close(cw.queue)
	batch := make([]*pending, 0, b.max)
	for p := range b.queue {
		batch = append(batch[:0], p)
	fill:
		for len(batch) < b.max {
			select {
			case q, ok := <-b.queue:
				if !ok {
					break fill
				}
				batch = append(batch, q)
			default:
				break fill
			}
		}
		b.flush(batch, cw)
	}
}

func (b *batcher) flush(batch []*pending, cw *cacheWriter) {
	// Rows whose callers stopped waiting (their deadline passed while the database was slow)
	// are not written: their answer would reach nobody.
	kept := batch[:0]
	for _, p := range batch {
		if err := p.ctx.Err(); err != nil {
			p.done <- err
			continue
		}
		kept = append(kept, p)
	}
	batch = kept
	if len(batch) == 0 {
		return
	}
	// Writes are not tied to any one caller's context, only bounded: a database that stops
	// answering must turn into errors the callers can retry, not into requests that hang.
	ctx, cancel := context.WithTimeout(context.Background(), b.timeout)
	defer cancel()
	links := make([]*Link, len(batch))
	for i, p := range batch {
		links[i] = p.link
	}
	batchRows.Observe(float64(len(links)))
	errs, err := b.store.Insert(ctx, links)
	if err != nil && len(batch) > 1 && (errors.Is(err, ErrRefused) || apperr.CodeOf(err) != apperr.Internal) {
		// One bad row must not sink its neighbours: retry each alone for its own answer. A
		// database that cannot be reached fails them all at once instead.
		b.log.Warn("batch insert failed, retrying rows one by one", "rows", len(batch), "err", err)
		for _, p := range batch {
			b.flush([]*pending{p}, cw)
		}
		return
	}
	created := links[:0:0]
	for i, p := range batch {
		e := err
		if e == nil {
			e = errs[i]
		}
		if e == nil {
			created = append(created, p.link)
		}
	}
	if len(created) > 0 {
		cw.store(created)
	}
	for i, p := range batch {
		e := err
		if e == nil {
			e = errs[i]
		}
		p.done <- e
	}
}

// cacheWriter writes the new links of one writer's batches to the cache on a goroutine of its
// own, so that a cache that stalls holds no batch longer than cacheWait.
type cacheWriter struct {
	cache Cache
	// queue holds at most one write waiting behind the one under way.
	queue chan cacheWrite
	timer *time.Timer
}

type cacheWrite struct {
	links []*Link
	done  chan error
}

func (c *cacheWriter) run() {
	for w := range c.queue {
		w.done <- c.cache.Created(context.Background(), w.links)
	}
}

// store hands links to the cache and waits at most cacheWait for it to take them; those not
// taken by then go to NotCached (the write may still land later, which the cache's version
// check makes harmless).
func (c *cacheWriter) store(links []*Link) {
	w := cacheWrite{links: links, done: make(chan error, 1)}
	select {
	case c.queue <- w:
	default:
		// Earlier writes are still under way: the cache is slow, and this one would wait.
		c.cache.NotCached(links)
		return
	}
	c.timer.Reset(cacheWait)
	select {
	case err := <-w.done:
		c.timer.Stop()
		if err != nil {
			c.cache.NotCached(links)
		}
	case <-c.timer.C:
		c.cache.NotCached(links)
	}
}
