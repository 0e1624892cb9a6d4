package redis_test

import (
	"context"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/cachesync"
	"github.com/shortlink/shortlink/backend/redis"
	"github.com/shortlink/shortlink/backend/testenv"
)

// A node's event reaches every node listening in its deployment's namespace (a domain changed
// or removed: the others reload their domains at once instead of at the next sync round), and
// no node of another namespace.
func TestBusCarriesEventsWithinItsNamespace(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	prefix := testenv.RedisPrefix(t)
	open := func(prefix string) *redis.Bus {
		t.Helper()
		c, err := redis.Open(ctx, testenv.RedisURL(t), prefix)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = c.Close() })
		return redis.NewBus(c, slog.New(slog.NewTextHandler(io.Discard, nil)))
	}
	var mu sync.Mutex
	heard := map[string][]cachesync.Event{}
	listen := func(name string, b *redis.Bus) {
		lctx, stop := context.WithCancel(ctx)
		t.Cleanup(stop)
		go b.Listen(lctx, func(e cachesync.Event) {
			mu.Lock()
			defer mu.Unlock()
			heard[name] = append(heard[name], e)
		})
	}
	subscribed := func(name string) bool {
		mu.Lock()
		defer mu.Unlock()
		return len(heard[name]) > 0 && heard[name][0].Kind == cachesync.EventResync
	}
	listen("same", open(prefix))
	listen("other", open(prefix+"other:"))
	testenv.Eventually(t, 5*time.Second, "both buses subscribe", func() bool { return subscribed("same") && subscribed("other") })

	if err := open(prefix).Publish(ctx, cachesync.Event{Kind: cachesync.EventDomain, ID: 42}); err != nil {
		t.Fatal(err)
	}
	testenv.Eventually(t, 5*time.Second, "the domain event reaches the node of the same namespace", func() bool {
		mu.Lock()
		defer mu.Unlock()
		for _, e := range heard["same"] {
			if e == (cachesync.Event{Kind: cachesync.EventDomain, ID: 42}) {
				return true
			}
		}
		return false
	})
	mu.Lock()
	defer mu.Unlock()
	if len(heard["other"]) != 1 {
		t.Errorf("the node of another namespace heard %+v, want its subscription only", heard["other"])
	}
}
