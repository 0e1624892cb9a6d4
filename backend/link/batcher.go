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

// writeTimeout bounds one batch insert.
const writeTimeout = 10 * time.Second

// errClosed answers creates that arrive after shutdown began.
var errClosed = errors.New("link writer is closed")

// batcher coalesces concurrent creates into multi-row inserts. Several writers take from one
// queue: while one batch commits, the next one forms, so there is no idle flush interval and
// the batch size grows with the load.
type batcher struct {
	store  Store
	cache  Cache
	max    int
	queue  chan *pending
	wg     sync.WaitGroup
	mu     sync.RWMutex
	closed bool
	log    *slog.Logger
}

type pending struct {
	link *Link
	done chan error
}

func newBatcher(store Store, cache Cache, writers, max int, log *slog.Logger) *batcher {
	b := &batcher{store: store, cache: cache, max: max, queue: make(chan *pending, max*writers), log: log}
	for range writers {
		b.wg.Add(1)
		go b.write()
	}
	return b
}

// submit queues l; the returned channel answers once its row is committed (nil) or refused
// (its own error). The row is written even if the caller goes away: once queued it is the
// writer's to finish.
func (b *batcher) submit(l *Link) <-chan error {
	done := make(chan error, 1)
	b.mu.RLock()
	defer b.mu.RUnlock()
	if b.closed {
		done <- errClosed
		return done
	}
	b.queue <- &pending{link: l, done: done}
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
		b.flush(batch)
	}
}

func (b *batcher) flush(batch []*pending) {
	// Writes are not tied to any one caller's context, only bounded: a database that stops
	// answering must turn into errors the callers can retry, not into requests that hang.
	ctx, cancel := context.WithTimeout(context.Background(), writeTimeout)
	defer cancel()
	links := make([]*Link, len(batch))
	for i, p := range batch {
		links[i] = p.link
	}
	batchRows.Observe(float64(len(links)))
	errs, err := b.store.Insert(ctx, links)
	var dbErr interface{ SQLState() string }
	if err != nil && len(batch) > 1 && (errors.As(err, &dbErr) || apperr.CodeOf(err) != apperr.Internal) {
		// One bad row must not sink its neighbours: retry each alone for its own answer. A
		// database that cannot be reached fails them all at once instead.
		b.log.Warn("batch insert failed, retrying rows one by one", "rows", len(batch), "err", err)
		for _, p := range batch {
			b.flush([]*pending{p})
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
		b.cache.Created(ctx, created)
	}
	for i, p := range batch {
		e := err
		if e == nil {
			e = errs[i]
		}
		p.done <- e
	}
}
