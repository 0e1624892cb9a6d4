package cachepolicy_test

import (
	"context"
	"log/slog"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/cachepolicy"
	"github.com/shortlink/shortlink/backend/cachesync"
	"github.com/shortlink/shortlink/backend/redis"
	"github.com/shortlink/shortlink/backend/testenv"
)

// node records what an announcement changes on this node.
type node struct {
	mu     sync.Mutex
	issued []int64
	gone   []int64
}

func (n *node) Issued(max int64) {
	n.mu.Lock()
	n.issued = append(n.issued, max)
	n.mu.Unlock()
}

func (n *node) WorkspaceGone(id int64) {
	n.mu.Lock()
	n.gone = append(n.gone, id)
	n.mu.Unlock()
}

// Each announcement changes this node first, then reaches the other nodes on the bus as its
// event.
func TestAnnouncer(t *testing.T) {
	t.Parallel()
	rc, _ := testenv.Redis(t)
	log := slog.New(slog.DiscardHandler)
	bus := redis.NewBus(rc, log)
	var mu sync.Mutex
	var heard []cachesync.Event
	ctx, stop := context.WithCancel(context.Background())
	t.Cleanup(stop)
	go bus.Listen(ctx, func(e cachesync.Event) {
		mu.Lock()
		heard = append(heard, e)
		mu.Unlock()
	})
	has := func(e cachesync.Event) func() bool {
		return func() bool {
			mu.Lock()
			defer mu.Unlock()
			return slices.Contains(heard, e)
		}
	}
	testenv.Eventually(t, 5*time.Second, "the bus subscribes", has(cachesync.Event{Kind: cachesync.EventResync}))

	here := &node{}
	a := cachepolicy.NewAnnouncer(bus, here, log)
	a.IDBlock(1000)
	a.Domain(ctx, 7)
	a.KeyRevoked(ctx, 8)
	a.WorkspaceGone(ctx, 9)
	here.mu.Lock()
	if !slices.Equal(here.issued, []int64{1000}) || !slices.Equal(here.gone, []int64{9}) {
		t.Errorf("this node: issued %v, gone %v", here.issued, here.gone)
	}
	here.mu.Unlock()
	for _, e := range []cachesync.Event{
		{Kind: cachesync.EventIssued, ID: 1000},
		{Kind: cachesync.EventDomain, ID: 7},
		{Kind: cachesync.EventKeyRevoked, ID: 8},
		{Kind: cachesync.EventWorkspaceGone, ID: 9},
	} {
		testenv.Eventually(t, 5*time.Second, "the other nodes hear "+string(e.Kind), has(e))
	}
}
