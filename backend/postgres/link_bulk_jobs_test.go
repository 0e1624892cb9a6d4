package postgres_test

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/audit"
	"github.com/shortlink/shortlink/backend/bulkjob"
	"github.com/shortlink/shortlink/backend/link"
	"github.com/shortlink/shortlink/backend/postgres"
	"github.com/shortlink/shortlink/backend/testenv"
)

// removedLinks records what a bulk job tells the caches.
type removedLinks struct {
	mu      sync.Mutex
	removed []string
}

func (c *removedLinks) RemovedMany(_ context.Context, links []*link.Link) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, l := range links {
		c.removed = append(c.removed, l.Key)
	}
}

// TestBulkJobResumesAfterItsLeaseRunsOut: a node freezes a job's links and does one batch, then
// stops (its lease left to run out, here by moving it into the past); the next node resumes at
// the checkpoint, the first can write nothing more, and the job deletes exactly the links the
// filter matched in its workspace when it was submitted: none of another workspace, none made
// afterwards, none twice.
func TestBulkJobResumesAfterItsLeaseRunsOut(t *testing.T) {
	t.Parallel()
	db := testenv.DB(t)
	ctx := context.Background()
	accounts, links, store := postgres.NewAccountStore(db), postgres.NewLinkStore(db), postgres.NewBulkJobStore(db)
	_, a := newUser(t, accounts, "bulk-a@example.com")
	_, b := newUser(t, accounts, "bulk-b@example.com")
	for id := int64(1); id <= 7; id++ {
		insertLink(t, links, a.ID, id)
	}
	insertLink(t, links, b.ID, 50)
	exec := func(sql string, args ...any) {
		t.Helper()
		if _, err := db.Pool.Exec(ctx, sql, args...); err != nil {
			t.Fatal(err)
		}
	}
	// Links 1–5 and workspace b's are disabled: the filter's; 6 and 7 stay active.
	exec(`UPDATE links SET status = 'disabled' WHERE id IN (1, 2, 3, 4, 5, 50)`)

	j := &bulkjob.Job{WorkspaceID: a.ID, Actor: audit.User(1, "bulk-a@example.com"), Delete: true,
		Filter: bulkjob.Filter{Status: link.StatusDisabled}, Match: bulkjob.Match{Filter: link.Filter{Status: link.StatusDisabled}}}
	if err := store.Create(ctx, j, 3); err != nil {
		t.Fatal(err)
	}
	// Made after the submission: matches the filter, is never touched.
	insertLink(t, links, a.ID, 8)
	exec(`UPDATE links SET status = 'disabled' WHERE id = 8`)

	lease := time.Minute
	first, err := store.Claim(ctx, "node-a", lease)
	if err != nil || first == nil || first.ID != j.ID || first.Claims != 1 {
		t.Fatalf("claim: %+v %v", first, err)
	}
	if err := store.Freeze(ctx, first, "node-a", 2, lease); err != nil || first.Total != 5 {
		t.Fatalf("freeze: total %d, %v", first.Total, err)
	}
	batch, err := store.Next(ctx, first, "node-a")
	if err != nil || batch.Done != 2 || batch.Last || len(batch.Removed) != 2 {
		t.Fatalf("first batch: %+v %v", batch, err)
	}
	if again, _ := store.Claim(ctx, "node-b", lease); again != nil {
		t.Fatalf("a held job was claimed: %+v", again)
	}

	// node-a stops here; its lease runs out.
	exec(`UPDATE link_bulk_jobs SET lease_until = now() - interval '1 second' WHERE id = $1`, j.ID)
	second, err := store.Claim(ctx, "node-b", lease)
	if err != nil || second == nil || second.Claims != 2 || !second.Snapshot || second.NextChunk != 1 || second.Done != 2 || second.Total != 5 {
		t.Fatalf("resumed: %+v %v", second, err)
	}
	if _, err := store.Next(ctx, first, "node-a"); !errors.Is(err, bulkjob.ErrLeaseLost) {
		t.Fatalf("node-a after losing its lease: %v", err)
	}
	cache := &removedLinks{}
	svc := bulkjob.NewService(store, nil, cache, nil, bulkjob.Options{Owner: "node-b", Lease: lease, BatchSize: 2},
		slog.New(slog.DiscardHandler))
	svc.RunJob(ctx, second)

	done, err := store.Get(ctx, a.ID, j.ID)
	if err != nil || done.State != bulkjob.StateDone || done.Total != 5 || done.Done != 5 || done.Failed != 0 || done.FinishedAt == nil {
		t.Fatalf("finished: %+v %v", done, err)
	}
	slices.Sort(cache.removed)
	if !slices.Equal(cache.removed, []string{"k3", "k4", "k5"}) {
		t.Errorf("node-b told the caches of %v", cache.removed)
	}
	var left []int64
	if err := db.Pool.QueryRow(ctx, `SELECT array_agg(id ORDER BY id) FROM links`).Scan(&left); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(left, []int64{6, 7, 8, 50}) {
		t.Errorf("links left: %v, want 6, 7 (active), 8 (made after), 50 (another workspace's)", left)
	}
	var frozen int
	if err := db.Pool.QueryRow(ctx, `SELECT count(*) FROM link_bulk_job_links`).Scan(&frozen); err != nil || frozen != 0 {
		t.Errorf("%d frozen IDs kept after the end (%v)", frozen, err)
	}
	if _, err := store.Get(ctx, b.ID, j.ID); err == nil {
		t.Error("another workspace read the job")
	}
}

// TestBulkJobCanceledMidway: a cancel asked while a job runs stops it before its next batch:
// the batch done stays done, the links after it are untouched, the job ends canceled with its
// count, its frozen IDs are dropped, and it cannot be canceled again.
func TestBulkJobCanceledMidway(t *testing.T) {
	t.Parallel()
	db := testenv.DB(t)
	ctx := context.Background()
	accounts, links, store := postgres.NewAccountStore(db), postgres.NewLinkStore(db), postgres.NewBulkJobStore(db)
	_, a := newUser(t, accounts, "bulk-cancel@example.com")
	for id := int64(1); id <= 6; id++ {
		insertLink(t, links, a.ID, id)
	}
	j := &bulkjob.Job{WorkspaceID: a.ID, Actor: audit.User(1, "bulk-cancel@example.com"), Delete: true}
	if err := store.Create(ctx, j, 3); err != nil {
		t.Fatal(err)
	}
	lease := time.Minute
	running, err := store.Claim(ctx, "node-a", lease)
	if err != nil || running == nil || running.ID != j.ID {
		t.Fatalf("claim: %+v %v", running, err)
	}
	if err := store.Freeze(ctx, running, "node-a", 2, lease); err != nil || running.Total != 6 {
		t.Fatalf("freeze: total %d, %v", running.Total, err)
	}
	if b, err := store.Next(ctx, running, "node-a"); err != nil || b.Done != 2 {
		t.Fatalf("first batch: %+v %v", b, err)
	}
	asked, err := store.Cancel(ctx, a.ID, j.ID)
	if err != nil || asked.State != bulkjob.StateRunning || !asked.Cancel {
		t.Fatalf("cancel a running job: %+v %v", asked, err)
	}
	running.Done = 2
	svc := bulkjob.NewService(store, nil, &removedLinks{}, nil, bulkjob.Options{Owner: "node-a", Lease: lease, BatchSize: 2, Parallel: 2},
		slog.New(slog.DiscardHandler))
	svc.RunJob(ctx, running)

	ended, err := store.Get(ctx, a.ID, j.ID)
	if err != nil || ended.State != bulkjob.StateCanceled || ended.Done != 2 || ended.Total != 6 || ended.FinishedAt == nil {
		t.Fatalf("after the cancel: %+v %v", ended, err)
	}
	var left []int64
	if err := db.Pool.QueryRow(ctx, `SELECT array_agg(id ORDER BY id) FROM links`).Scan(&left); err != nil {
		t.Fatal(err)
	}
	if len(left) != 4 {
		t.Errorf("links left: %v, want the 4 after the first batch", left)
	}
	var frozen int
	if err := db.Pool.QueryRow(ctx, `SELECT count(*) FROM link_bulk_job_links`).Scan(&frozen); err != nil || frozen != 0 {
		t.Errorf("%d frozen IDs kept after the cancel (%v)", frozen, err)
	}
	if _, err := store.Cancel(ctx, a.ID, j.ID); err == nil {
		t.Error("an ended job was canceled again")
	}
}
