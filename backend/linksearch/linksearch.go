// Package linksearch keeps the links list's search table behind the links: a loop on every
// server copies the text of the links created, edited or deleted since, in batches, one node
// at a time (docs/api.md#listing-links says how fresh a search is).
package linksearch

import (
	"context"
	"log/slog"
	"time"
)

// Batch is what one call of Store.Index did.
type Batch struct {
	// Busy says another node held the indexer's lock: nothing was done.
	Busy bool
	// Rows is the queue's rows taken, Links the distinct links they named; Written of them had
	// their text copied (new or changed), Deleted their row removed (the link is gone).
	Rows, Links, Written, Deleted int64
	// Oldest is when the oldest row taken was queued (zero when none was).
	Oldest time.Time
}

// Backlog is the queue not yet indexed.
type Backlog struct {
	Rows, Links int64
	// Oldest and Newest are when its oldest and newest rows were queued (zero when the queue
	// is empty).
	Oldest, Newest time.Time
}

// Store is the search table and its queue.
type Store interface {
	// Index copies the text of the links of the queue's oldest rows, up to about links links,
	// and removes those rows, unless another node is at it (Batch.Busy).
	Index(ctx context.Context, links int) (Batch, error)
	// Backlog is the queue's size and age.
	Backlog(ctx context.Context) (Backlog, error)
	// Ends is Backlog's Oldest and Newest only, read from the queue's key.
	Ends(ctx context.Context) (oldest, newest time.Time, err error)
}

// Indexer runs Store.Index in a loop. It lets a burst of changes settle before it copies
// them: the search reads the queue meanwhile, so it answers as fresh, and the creates of the
// burst do not share the CPU with their indexing (docs/benchmarks.md#the-text-search).
type Indexer struct {
	store Store
	log   *slog.Logger
	// Every is the pause between two looks at the queue, Links a batch's size.
	Every time.Duration
	Links int
	// Settle is how long the queue must have had no new row, or MaxLag how old its oldest
	// row must be, for the indexer to copy it.
	Settle, MaxLag time.Duration
}

// NewIndexer returns an indexer looking at the queue every second, copying it in batches of
// 10,000 links once it has had no new row for 2 s, or its oldest row is a minute old.
func NewIndexer(store Store, log *slog.Logger) *Indexer {
	return &Indexer{store: store, log: log, Every: time.Second, Links: 10000, Settle: 2 * time.Second, MaxLag: time.Minute}
}

// due reports whether the queue is to be copied now.
func (x *Indexer) due(ctx context.Context) bool {
	oldest, newest, err := x.store.Ends(ctx)
	if err != nil {
		if ctx.Err() == nil {
			x.log.Warn("links search: read the queue", "err", err)
		}
		return false
	}
	return !oldest.IsZero() && (time.Since(newest) >= x.Settle || time.Since(oldest) >= x.MaxLag)
}

// Run indexes until ctx ends: batch after batch while the queue has rows, then a pause.
func (x *Indexer) Run(ctx context.Context) {
	t := time.NewTimer(0)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		for ctx.Err() == nil && x.due(ctx) {
			b, err := x.store.Index(ctx, x.Links)
			if err != nil {
				if ctx.Err() == nil {
					x.log.Warn("links search: index", "err", err)
				}
				break
			}
			if b.Busy || b.Rows == 0 {
				break
			}
			x.log.Debug("links search: indexed", "links", b.Links, "written", b.Written, "deleted", b.Deleted,
				"lag", time.Since(b.Oldest).Round(time.Millisecond))
		}
		t.Reset(x.Every)
	}
}
