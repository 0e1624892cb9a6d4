package moderation_test

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/moderation"
	"github.com/shortlink/shortlink/backend/redis"
	"github.com/shortlink/shortlink/backend/testenv"
)

// Workers claiming at once never get the same link; every due link is claimed once.
func TestClaimIsExclusive(t *testing.T) {
	rdb, _ := testenv.Redis(t)
	q := moderation.NewQueue(redis.NewReviewQueue(rdb))
	ctx := context.Background()
	now := time.Now()
	var ids []int64
	for i := range int64(500) {
		ids = append(ids, i+1)
	}
	if err := q.Enqueue(ctx, now, ids...); err != nil {
		t.Fatal(err)
	}
	if err := q.Enqueue(ctx, now.Add(time.Hour), 501); err != nil { // not due yet
		t.Fatal(err)
	}
	var mu sync.Mutex
	var got []int64
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				c, err := q.Claim(ctx, now, time.Minute, 7)
				if err != nil {
					t.Error(err)
					return
				}
				if len(c) == 0 {
					return
				}
				mu.Lock()
				got = append(got, c...)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	slices.Sort(got)
	if !slices.Equal(got, ids) {
		t.Errorf("claimed %d links (%d distinct), want each of %d once", len(got), len(slices.Compact(slices.Clone(got))), len(ids))
	}
}

// A claimed link comes back after the visibility timeout unless forgotten; Later postpones it.
func TestClaimVisibility(t *testing.T) {
	rdb, _ := testenv.Redis(t)
	q := moderation.NewQueue(redis.NewReviewQueue(rdb))
	ctx := context.Background()
	now := time.Now()
	if err := q.Enqueue(ctx, now, 1, 2, 3); err != nil {
		t.Fatal(err)
	}
	c, err := q.Claim(ctx, now, 30*time.Second, 10)
	if err != nil || len(c) != 3 {
		t.Fatalf("claim: %v %v", c, err)
	}
	if c, _ := q.Claim(ctx, now.Add(29*time.Second), 30*time.Second, 10); len(c) != 0 {
		t.Errorf("claimed again before the timeout: %v", c)
	}
	if err := q.Forget(ctx, 1); err != nil {
		t.Fatal(err)
	}
	if err := q.Later(ctx, 2, now.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	// The worker holding 3 died: 3 is due again after the timeout; 1 is done, 2 later.
	c, err = q.Claim(ctx, now.Add(31*time.Second), 30*time.Second, 10)
	if err != nil || !slices.Equal(c, []int64{3}) {
		t.Errorf("after the timeout claimed %v (%v), want [3]", c, err)
	}
	// Queueing a claimed link again keeps its claim.
	if err := q.Enqueue(ctx, now, 3); err != nil {
		t.Fatal(err)
	}
	if c, _ := q.Claim(ctx, now.Add(32*time.Second), 30*time.Second, 10); len(c) != 0 {
		t.Errorf("a claimed link queued again was claimed twice: %v", c)
	}
	if n, _ := q.Len(ctx); n != 2 {
		t.Errorf("queue holds %d links, want 2", n)
	}
}

// A Redis that lost the set gets it back from what PostgreSQL holds; claims are kept.
func TestRebuild(t *testing.T) {
	rdb, _ := testenv.Redis(t)
	q := moderation.NewQueue(redis.NewReviewQueue(rdb))
	ctx := context.Background()
	now := time.Now()
	if err := q.Enqueue(ctx, now, 1); err != nil {
		t.Fatal(err)
	}
	if c, _ := q.Claim(ctx, now, time.Minute, 10); len(c) != 1 {
		t.Fatal("claim")
	}
	if err := q.Rebuild(ctx, []moderation.Due{{LinkID: 1, At: now}, {LinkID: 2, At: now}}); err != nil {
		t.Fatal(err)
	}
	if c, _ := q.Claim(ctx, now, time.Minute, 10); !slices.Equal(c, []int64{2}) {
		t.Errorf("after the rebuild claimed %v, want [2] (1 is still claimed)", c)
	}
	if err := rdb.DeleteAll(ctx); err != nil { // the set is the namespace's only key
		t.Fatal(err)
	}
	if err := q.Rebuild(ctx, []moderation.Due{{LinkID: 1, At: now}, {LinkID: 2, At: now}}); err != nil {
		t.Fatal(err)
	}
	if c, _ := q.Claim(ctx, now, time.Minute, 10); !slices.Equal(c, []int64{1, 2}) {
		t.Errorf("after losing the set claimed %v, want [1 2]", c)
	}
}
