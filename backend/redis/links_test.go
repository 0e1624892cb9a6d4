package redis_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/shortlink/shortlink/backend/link"
	"github.com/shortlink/shortlink/backend/redis"
	"github.com/shortlink/shortlink/backend/testenv"
)

func newCache(t *testing.T) *redis.LinkCache {
	t.Helper()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	c, err := redis.Open(context.Background(), testenv.RedisURL(t), testenv.RedisPrefix(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return redis.NewLinkCache(c, redis.NewBus(c, log), log)
}

func version(url string, at time.Time) *link.Link {
	return &link.Link{ID: 7, WorkspaceID: 1, Key: "abc123", URL: url, RedirectStatus: 302,
		Status: link.StatusActive, CreatedAt: at, UpdatedAt: at}
}

// TestLinkCacheOrdersVersions: writes of one link that reach Redis out of order keep the newest,
// and a deletion is not undone by an edit cached after it.
func TestLinkCacheOrdersVersions(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	lc := newCache(t)
	t0 := time.Now()
	get := func() string {
		t.Helper()
		l, found, err := lc.Get(ctx, 0, "abc123")
		switch {
		case err != nil:
			t.Fatal(err)
		case !found:
			return "unknown"
		case l == nil:
			return "missing"
		}
		return l.URL
	}

	if err := lc.Created(ctx, []*link.Link{version("https://example.com/v1", t0)}); err != nil {
		t.Fatal(err)
	}
	if got := get(); got != "https://example.com/v1" {
		t.Fatalf("after create: %s", got)
	}
	if err := lc.Changed(ctx, version("https://example.com/v3", t0.Add(2*time.Millisecond))); err != nil {
		t.Fatal(err)
	}
	if err := lc.Changed(ctx, version("https://example.com/v2", t0.Add(time.Millisecond))); err != nil { // late
		t.Fatal(err)
	}
	if got := get(); got != "https://example.com/v3" {
		t.Fatalf("an older edit cached last won: %s", got)
	}
	lc.Fill(ctx, 0, "abc123", version("https://example.com/v0", t0)) // a slow reader
	if got := get(); got != "https://example.com/v3" {
		t.Fatalf("a fill replaced an edit: %s", got)
	}
	if err := lc.Removed(ctx, version("https://example.com/v3", t0.Add(2*time.Millisecond))); err != nil {
		t.Fatal(err)
	}
	if err := lc.Changed(ctx, version("https://example.com/v3b", t0.Add(2*time.Millisecond))); err != nil { // late
		t.Fatal(err)
	}
	if got := get(); got != "missing" {
		t.Fatalf("an edit cached after the deletion revived the link: %s", got)
	}
	// A late cache write of a create does not undo the deletion either...
	if err := lc.Created(ctx, []*link.Link{version("https://example.com/v0", t0)}); err != nil {
		t.Fatal(err)
	}
	if got := get(); got != "missing" {
		t.Fatalf("a late create revived a deleted link: %s", got)
	}
	// ...but a new link may take a deleted alias's place at once.
	if err := lc.Created(ctx, []*link.Link{version("https://example.com/new", t0.Add(time.Second))}); err != nil {
		t.Fatal(err)
	}
	if got := get(); got != "https://example.com/new" {
		t.Fatalf("a new link under a deleted key: %s", got)
	}
	lc.RemovedMany(ctx, []*link.Link{{Key: "abc123"}})
	if err := lc.Changed(ctx, version("https://example.com/late", t0.Add(-time.Millisecond))); err != nil {
		t.Fatal(err)
	}
	if err := lc.Created(ctx, []*link.Link{version("https://example.com/late", t0.Add(-time.Millisecond))}); err != nil {
		t.Fatal(err)
	}
	if got := get(); got != "missing" {
		t.Fatalf("a write cached after its workspace's deletion: %s", got)
	}
	if err := lc.Created(ctx, []*link.Link{version("https://example.com/next", time.Now().Add(time.Millisecond))}); err != nil {
		t.Fatal(err)
	}
	if got := get(); got != "https://example.com/next" {
		t.Fatalf("a new link under a key of a deleted workspace: %s", got)
	}
}

// TestLinkCacheCreatedBatch: a batch of created links, more than one script call holds, is
// written in full, each link through its own version check: a link deleted meanwhile stays
// deleted, its neighbours are stored.
func TestLinkCacheCreatedBatch(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	lc := newCache(t)
	t0 := time.Now()
	links := make([]*link.Link, 1200)
	for i := range links {
		l := version(fmt.Sprintf("https://example.com/%d", i), t0)
		l.Key = fmt.Sprintf("k%d", i)
		links[i] = l
	}
	// Deleted while the batch committed: its tombstone is newer than the create.
	if err := lc.Removed(ctx, links[700]); err != nil {
		t.Fatal(err)
	}
	if err := lc.Created(ctx, links); err != nil {
		t.Fatal(err)
	}
	for i, l := range links {
		got, found, err := lc.Get(ctx, 0, l.Key)
		switch {
		case err != nil:
			t.Fatal(err)
		case i == 700:
			if !found || got != nil {
				t.Fatalf("the deleted link: %+v, found %v; want missing", got, found)
			}
		case !found || got == nil || got.URL != l.URL || got.ID != l.ID:
			t.Fatalf("link %d: %+v, found %v; want %s", i, got, found, l.URL)
		}
	}
}

// TestLinkCacheWithoutScripts: a Redis that does not know the cache's script (a restarted
// server) still takes created and changed links; the created one's key holds a remembered miss,
// which only the script replaces.
func TestLinkCacheWithoutScripts(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	lc := newCache(t)
	raw := goredis.NewClient(mustParse(t, testenv.RedisURL(t)))
	defer func() { _ = raw.Close() }()
	lc.Fill(ctx, 0, "abc123", nil)
	for i, url := range []string{"https://example.com/created", "https://example.com/stored"} {
		if err := raw.ScriptFlush(ctx).Err(); err != nil {
			t.Fatal(err)
		}
		l := version(url, time.Now())
		if i == 0 {
			if err := lc.Created(ctx, []*link.Link{l}); err != nil {
				t.Fatal(err)
			}
		} else if err := lc.Store(ctx, []*link.Link{l}, nil); err != nil {
			t.Fatal(err)
		}
		got, found, err := lc.Get(ctx, 0, "abc123")
		if err != nil || !found || got == nil || got.URL != url {
			t.Fatalf("after a script flush: %+v, %v, %v; want %s", got, found, err, url)
		}
	}
}

func mustParse(t *testing.T, url string) *goredis.Options {
	t.Helper()
	o, err := goredis.ParseURL(url)
	if err != nil {
		t.Fatal(err)
	}
	return o
}
