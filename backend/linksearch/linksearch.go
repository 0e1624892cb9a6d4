// Package linksearch keeps the links list's search table behind the links: a loop on every
// server copies the text of the links created, edited or deleted since, in batches, one node
// at a time (docs/api.md#the-links-list says how fresh a search is).
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
	// Oldest is when its oldest row was queued (zero when the queue is empty).
	Oldest time.Time
}

// Store is the search table and its queue.
type Store interface {
	// Index copies the text of the links of the queue's oldest rows, up to about links links,
	// and removes those rows, unless another node is at it (Batch.Busy).
	Index(ctx context.Context, links int) (Batch, error)
	// Backlog is the queue's size and age.
	Backlog(ctx context.Context) (Backlog, error)
}

// Indexer runs Store.Index in a loop.
type Indexer struct {
	store Store
	log   *slog.Logger
	// Every is the pause between two looks at an empty queue, Links a batch's size.
	Every time.Duration
	Links int
	// Indexed, when set, is called after every batch that took rows (tests wait on it).
	Indexed func(Batch)
}

// NewIndexer returns an indexer looking at the queue every second, in batches of 10,000 links.
func NewIndexer(store Store, log *slog.Logger) *Indexer {
	return &Indexer{store: store, log: log, Every: time.Second, Links: 10000}
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
		for ctx.Err() == nil {
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
			if x.Indexed != nil {
				x.Indexed(b)
			}
			x.log.Debug("links search: indexed", "links", b.Links, "written", b.Written, "deleted", b.Deleted,
				"lag", time.Since(b.Oldest).Round(time.Millisecond))
		}
		t.Reset(x.Every)
	}
}
