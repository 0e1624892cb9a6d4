package cachepolicy_test

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/account"
	"github.com/shortlink/shortlink/backend/cachepolicy"
	"github.com/shortlink/shortlink/backend/cachesync"
	"github.com/shortlink/shortlink/backend/link"
	"github.com/shortlink/shortlink/backend/redis"
	"github.com/shortlink/shortlink/backend/testenv"
)

// local records what this node's cache is told.
type local struct {
	mu          sync.Mutex
	invalidated []string
	reserved    []int64
}

func (l *local) Invalidate(_ int64, key string) {
	l.mu.Lock()
	l.invalidated = append(l.invalidated, key)
	l.mu.Unlock()
}

func (l *local) Reserve(id int64) {
	l.mu.Lock()
	l.reserved = append(l.reserved, id)
	l.mu.Unlock()
}

func (l *local) dropped(key string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Contains(l.invalidated, key)
}

func newLink(id int64, key, url string, at time.Time) *link.Link {
	return &link.Link{ID: id, WorkspaceID: 1, Key: key, URL: url, Status: link.StatusActive, CreatedAt: at, UpdatedAt: at}
}

// With Redis answering, a change is written to Redis and this node's copy dropped, and nothing
// waits; with Redis down, every change but a workspace's removal (which the change feed covers)
// waits in the cache sync, so this node reads those links past Redis, and this node's copies
// are dropped all the same.
func TestLinks(t *testing.T) {
	rs := testenv.NewRedisServer(t)
	ctx := context.Background()
	log := slog.New(slog.DiscardHandler)
	rc, err := redis.Open(ctx, rs.URL(), "sl:")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = rc.Close() })
	shared := redis.NewLinkCache(rc, redis.NewBus(rc, log), log)
	pending := cachesync.New(nil, nil, nil, nil, nil, time.Hour, log)
	loc := &local{}
	c := cachepolicy.NewLinks(shared, loc, pending, log)

	now := time.Now().Truncate(time.Microsecond)
	a := newLink(1, "a", "https://e.com/a", now)
	if err := c.Created(ctx, []*link.Link{a}); err != nil {
		t.Fatal(err)
	}
	if got, found, err := shared.Get(ctx, 0, "a"); err != nil || !found || got.URL != a.URL {
		t.Fatalf("a created link in Redis: %+v %v %v", got, found, err)
	}
	edited := newLink(1, "a", "https://e.com/a2", now.Add(time.Second))
	c.Changed(ctx, edited)
	if got, found, err := shared.Get(ctx, 0, "a"); err != nil || !found || got.URL != edited.URL {
		t.Fatalf("an edited link in Redis: %+v %v %v", got, found, err)
	}
	if !loc.dropped("a") || pending.Waiting() != 0 {
		t.Fatalf("after an edit Redis took: dropped %v, %d waiting", loc.invalidated, pending.Waiting())
	}
	c.Reserved(ctx, 5000)
	if !slices.Equal(loc.reserved, []int64{5000}) {
		t.Fatalf("reserved here: %v", loc.reserved)
	}

	rs.Stop()
	c.Changed(ctx, newLink(2, "b", "https://e.com/b", now.Add(2*time.Second)))
	c.Removed(ctx, edited)
	c.ChangedMany(ctx, []*link.Link{newLink(3, "c", "https://e.com/c", now), newLink(4, "d", "https://e.com/d", now)})
	c.NotCached([]*link.Link{newLink(5, "e", "https://e.com/e", now)})
	for _, key := range []string{"a", "b", "c", "d", "e"} {
		if !pending.Pending(0, key) {
			t.Errorf("with Redis down, %q does not wait for it", key)
		}
	}
	for _, key := range []string{"b", "c", "d"} {
		if !loc.dropped(key) {
			t.Errorf("with Redis down, this node kept its copy of %q", key)
		}
	}
	c.RemovedMany(ctx, []*link.Link{newLink(6, "f", "https://e.com/f", now)})
	c.RemovedRefs(ctx, []account.LinkRef{{DomainID: 0, Key: "g"}})
	if !loc.dropped("f") || !loc.dropped("g") {
		t.Errorf("a deleted workspace's links kept here: %v", loc.invalidated)
	}
	if pending.Waiting() != 5 {
		t.Errorf("%d changes wait for Redis, want 5 (a workspace's removal is the change feed's)", pending.Waiting())
	}
}

// Past MaxNotCachedPending waiting changes, new links Redis did not take are only counted: a
// Redis down for minutes does not grow the node's memory by every link created meanwhile.
func TestNotCachedBounded(t *testing.T) {
	t.Parallel()
	log := slog.New(slog.DiscardHandler)
	pending := cachesync.New(nil, nil, nil, nil, nil, time.Hour, log)
	c := cachepolicy.NewLinks(nil, &local{}, pending, log)
	now := time.Now()
	c.NotCached([]*link.Link{newLink(1, "first", "https://e.com/", now)})
	if !pending.Pending(0, "first") {
		t.Fatal("a new link Redis did not take does not wait for it")
	}
	for i := pending.Waiting(); i < cachepolicy.MaxNotCachedPending; i++ {
		pending.Missed(cachesync.Change{DomainID: 1, Key: fmt.Sprint(i), Version: 1})
	}
	c.NotCached([]*link.Link{newLink(2, "past", "https://e.com/", now)})
	if pending.Pending(0, "past") || pending.Waiting() != cachepolicy.MaxNotCachedPending {
		t.Fatalf("past the bound: pending %v, %d waiting", pending.Pending(0, "past"), pending.Waiting())
	}
}
