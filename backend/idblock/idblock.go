// Package idblock hands out link IDs from local blocks, fetching the next block in the
// background when the current one runs low, so a create does not wait for the database.
package idblock

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"
)

// Source issues blocks of IDs that were never issued before (a database sequence).
type Source interface {
	// NextBlock returns n fresh IDs in ascending order.
	NextBlock(ctx context.Context, n int) ([]int64, error)
}

// Allocator serves IDs from a local block and prefetches the next one.
type Allocator struct {
	src  Source
	size int
	log  *slog.Logger
	// OnBlock, when set, is told the highest ID of every block fetched, before any of its IDs
	// is used (other nodes learn from it which IDs are issued).
	onBlock func(max int64)

	mu       sync.Mutex
	cur      []int64
	next     []int64
	fetching bool
	fetched  chan struct{} // closed when an in-flight fetch ends
	fetchErr error
}

// New returns an allocator fetching blocks of size IDs; onBlock may be nil.
func New(src Source, size int, onBlock func(max int64), log *slog.Logger) *Allocator {
	return &Allocator{src: src, size: size, onBlock: onBlock, log: log}
}

// Next returns an ID never returned before by any allocator over the same source.
func (a *Allocator) Next(ctx context.Context) (int64, error) {
	a.mu.Lock()
	for {
		if len(a.cur) == 0 && len(a.next) > 0 {
			a.cur, a.next = a.next, nil
		}
		if len(a.cur) > 0 {
			id := a.cur[0]
			a.cur = a.cur[1:]
			// Prefetch when a quarter of the block is left, so the steady state never waits.
			if len(a.cur) <= a.size/4 && a.next == nil && !a.fetching {
				a.startFetch()
			}
			a.mu.Unlock()
			return id, nil
		}
		if !a.fetching {
			a.startFetch()
		}
		wait := a.fetched
		a.mu.Unlock()
		select {
		case <-wait:
		case <-ctx.Done():
			return 0, ctx.Err()
		}
		a.mu.Lock()
		if len(a.cur) == 0 && len(a.next) == 0 && a.fetchErr != nil {
			err := a.fetchErr
			a.fetchErr = nil
			a.mu.Unlock()
			return 0, err
		}
	}
}

// startFetch runs with a.mu held.
func (a *Allocator) startFetch() {
	a.fetching = true
	a.fetched = make(chan struct{})
	go a.fetch(a.fetched)
}

func (a *Allocator) fetch(done chan struct{}) {
	ctx, cancel := context.WithTimeout(context.Background(), fetchTimeout)
	defer cancel()
	ids, err := a.src.NextBlock(ctx, a.size)
	if err == nil && len(ids) > 0 {
		if a.onBlock != nil {
			a.onBlock(ids[len(ids)-1])
		}
	}
	a.mu.Lock()
	a.fetching = false
	if err != nil {
		a.fetchErr = fmt.Errorf("fetch id block: %w", err)
		a.log.Error("fetch id block", "err", err)
	} else {
		a.next = ids
	}
	a.mu.Unlock()
	close(done)
}

// fetchTimeout bounds a block fetch: it is one round trip, so longer means trouble.
const fetchTimeout = 10 * time.Second
