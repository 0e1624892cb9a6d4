package stats

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
)

// timedStore answers Activity after cost, each reading's visits one more than the last's, and
// counts its readings. Its other methods are not called by the cache.
type timedStore struct {
	Store
	cost  atomic.Int64 // nanoseconds a reading takes
	reads atomic.Int64
}

func (s *timedStore) Activity(_ context.Context, _ Scope, _, _ time.Time, _ int) (*Activity, error) {
	n := s.reads.Add(1)
	time.Sleep(time.Duration(s.cost.Load()))
	return &Activity{Visits: []Hour{{Visits: n}}}, nil
}

// TestActivityCacheKeepsSlowReadings: a reading that took slowActivity or more is served as it
// is for freshFactor times its cost, readers of one key at once share one reading, past that the
// kept reading is served while one fresh reading is made, and past staleFor it is read again
// before answering; a fast reading is never kept. Time is the bubble's (testing/synctest): a
// reading's cost and the waits between readers are exact, whatever the machine's load.
func TestActivityCacheKeepsSlowReadings(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx := context.Background()
		store := &timedStore{}
		store.cost.Store(int64(300 * time.Millisecond))
		c := newActivityCache(store, time.Now)
		from := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		to := from.AddDate(0, 0, 30)
		scope := Scope{WorkspaceID: 7}
		read := func(scope Scope) int64 {
			t.Helper()
			act, err := c.get(ctx, scope, from, to, TopLinks)
			if err != nil {
				t.Fatal(err)
			}
			return act.Visits[0].Visits
		}

		if n := read(scope); n != 1 {
			t.Fatalf("first reading %d, want 1", n)
		}
		// Kept for 20 × 300 ms = 6 s from when it ended.
		time.Sleep(5900 * time.Millisecond)
		if n, r := read(scope), store.reads.Load(); n != 1 || r != 1 {
			t.Errorf("within its fresh time: reading %d after %d readings, want the kept 1 after 1", n, r)
		}

		// Five readers of another scope at once: one reading, which all five get.
		var wg sync.WaitGroup
		got := make([]int64, 5)
		for i := range got {
			wg.Go(func() { got[i] = read(Scope{WorkspaceID: 8}) })
		}
		wg.Wait()
		if r := store.reads.Load(); r != 2 {
			t.Errorf("%d readings after five readers at once, want 2", r)
		}
		for i, n := range got {
			if n != 2 {
				t.Errorf("reader %d got reading %d, want the shared 2", i, n)
			}
		}

		// Past its fresh time the kept reading is served at once while one fresh one is made.
		time.Sleep(200 * time.Millisecond)
		start := time.Now()
		if n := read(scope); n != 1 || time.Since(start) != 0 {
			t.Errorf("the stale reading: %d after %v, want the kept 1 at once", n, time.Since(start))
		}
		if n := read(scope); n != 1 {
			t.Errorf("while the fresh reading is made: %d, want the kept 1", n)
		}
		synctest.Wait() // the fresh reading is asleep in its cost
		time.Sleep(300 * time.Millisecond)
		synctest.Wait() // … and kept
		if n, r := read(scope), store.reads.Load(); n != 3 || r != 3 {
			t.Errorf("after the fresh reading: %d after %d readings, want 3 after 3", n, r)
		}

		// Past staleFor a reading is not served: the reader waits for a new one.
		time.Sleep(staleFor)
		if n := read(scope); n != 4 {
			t.Errorf("past staleFor: %d, want a new reading 4", n)
		}

		// A fast reading is never kept: each reader reads.
		store.cost.Store(int64(10 * time.Millisecond))
		fast := Scope{WorkspaceID: 9}
		if a, b := read(fast), read(fast); a != 5 || b != 6 {
			t.Errorf("fast readings %d, %d, want 5 and 6", a, b)
		}
	})
}
