package stats

import (
	"context"
	"fmt"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"
)

// A dashboard reads every link visited in its range (the top links), so a workspace with
// hundreds of thousands of busy links costs PostgreSQL a second or more per reading, several on
// a loaded machine. Readings that took slowActivity or more are kept: served as they are for
// freshFactor times what they cost (at most maxFresh), then, for up to staleFor, served while
// one fresh reading is made in the background. Readings of the same scope and range at once
// share one query. Small workspaces, read in milliseconds, are always read afresh.
const (
	slowActivity   = 250 * time.Millisecond
	freshFactor    = 20
	maxFresh       = time.Minute
	staleFor       = 10 * time.Minute
	refreshTimeout = time.Minute
	// maxActivities bounds the readings kept; past it, the cache starts again empty.
	maxActivities = 10_000
)

type activityKey struct {
	scope    Scope
	from, to int64 // Unix seconds
	top      int
}

type activityEntry struct {
	act        *Activity
	at         time.Time
	took       time.Duration
	refreshing bool
}

// activityCache keeps slow Activity readings of a Store.
type activityCache struct {
	store Store
	now   func() time.Time

	mu      sync.Mutex
	entries map[activityKey]*activityEntry
	flight  singleflight.Group
}

func newActivityCache(store Store, now func() time.Time) *activityCache {
	return &activityCache{store: store, now: now, entries: map[activityKey]*activityEntry{}}
}

// get answers the scope's Activity of [from, to): kept, kept while a fresh one is read, or read.
func (c *activityCache) get(ctx context.Context, scope Scope, from, to time.Time, top int) (*Activity, error) {
	k := activityKey{scope: scope, from: from.Unix(), to: to.Unix(), top: top}
	c.mu.Lock()
	if e := c.entries[k]; e != nil {
		age := c.now().Sub(e.at)
		if age < min(freshFactor*e.took, maxFresh) {
			c.mu.Unlock()
			return e.act, nil
		}
		if age < staleFor {
			if !e.refreshing {
				e.refreshing = true
				go func() {
					ctx, cancel := context.WithTimeout(context.Background(), refreshTimeout)
					defer cancel()
					if _, err := c.read(ctx, k, scope, from, to, top); err != nil {
						c.mu.Lock()
						e.refreshing = false // the next reader tries again
						c.mu.Unlock()
					}
				}()
			}
			c.mu.Unlock()
			return e.act, nil
		}
	}
	c.mu.Unlock()
	return c.read(ctx, k, scope, from, to, top)
}

// read queries the Store, once for all the callers of the same key at a time, and keeps the
// reading if it was slow.
func (c *activityCache) read(ctx context.Context, k activityKey, scope Scope, from, to time.Time, top int) (*Activity, error) {
	v, err, _ := c.flight.Do(fmt.Sprint(k), func() (any, error) {
		start := c.now()
		act, err := c.store.Activity(ctx, scope, from, to, top)
		if err != nil {
			return nil, err
		}
		took := c.now().Sub(start)
		c.mu.Lock()
		defer c.mu.Unlock()
		if took < slowActivity {
			delete(c.entries, k)
			return act, nil
		}
		if len(c.entries) >= maxActivities {
			clear(c.entries)
		}
		c.entries[k] = &activityEntry{act: act, at: c.now(), took: took}
		return act, nil
	})
	if err != nil {
		return nil, err
	}
	return v.(*Activity), nil
}
