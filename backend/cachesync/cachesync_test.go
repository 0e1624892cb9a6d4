package cachesync_test

import (
	"context"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/cachesync"
	"github.com/shortlink/shortlink/backend/link"
	"github.com/shortlink/shortlink/backend/postgres"
	"github.com/shortlink/shortlink/backend/testenv"
)

// remote records what the syncer writes, and fails while down is set.
type remote struct {
	mu     sync.Mutex
	down   bool
	server string
	links  []*link.Link
	gone   []cachesync.Change
}

func (r *remote) Server(context.Context) (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.down {
		return "", context.DeadlineExceeded
	}
	return r.server, nil
}

func (r *remote) Store(_ context.Context, links []*link.Link, gone []cachesync.Change) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.down {
		return context.DeadlineExceeded
	}
	r.links = append(r.links, links...)
	r.gone = append(r.gone, gone...)
	return nil
}

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

func setup(t *testing.T) (*postgres.DB, int64) {
	t.Helper()
	db := testenv.DB(t)
	var ws int64
	if err := db.Pool.QueryRow(context.Background(), `INSERT INTO workspaces (name) VALUES ('w') RETURNING id`).Scan(&ws); err != nil {
		t.Fatal(err)
	}
	return db, ws
}

// TestFeed: edits and deletions committed in PostgreSQL reach the syncer through the trigger,
// are written to the remote cache from the current rows, and stay pending while it refuses.
func TestFeed(t *testing.T) {
	t.Parallel()
	db, ws := setup(t)
	ctx := context.Background()
	exec := func(sql string, args ...any) {
		t.Helper()
		if _, err := db.Pool.Exec(ctx, sql, args...); err != nil {
			t.Fatal(err)
		}
	}
	exec(`INSERT INTO links (id, workspace_id, key, url, url_hash) VALUES (1, $1, 'a', 'https://e.com/a', 1), (2, $1, 'b', 'https://e.com/b', 2), (3, $1, 'c', 'https://e.com/c', 3)`, ws)
	feed := postgres.NewLinkChanges(db)
	rem, loc := &remote{}, &local{}
	s := cachesync.New(feed, feed, rem, loc, feed, time.Hour, slog.New(slog.DiscardHandler))
	if err := s.Start(ctx); err != nil {
		t.Fatal(err)
	}
	if err := s.Round(ctx); err != nil || len(rem.links)+len(rem.gone) != 0 {
		t.Fatalf("creates are not in the feed: %v, %+v %+v", err, rem.links, rem.gone)
	}

	exec(`UPDATE links SET url = 'https://e.com/a2', updated_at = now() WHERE id = 1`)
	exec(`UPDATE links SET title = 'no version move' WHERE id = 3`)
	exec(`DELETE FROM links WHERE id = 2`)
	rem.down = true
	if err := s.Round(ctx); err != nil {
		t.Fatal(err)
	}
	if s.Waiting() != 2 || len(loc.invalidated) != 2 { // this node reads PostgreSQL meanwhile
		t.Fatalf("with the remote down: %d pending, invalidated %v", s.Waiting(), loc.invalidated)
	}
	rem.down = false
	if err := s.Round(ctx); err != nil {
		t.Fatal(err)
	}
	if s.Waiting() != 0 {
		t.Fatalf("%d pending after the remote came back", s.Waiting())
	}
	if len(rem.links) != 1 || rem.links[0].URL != "https://e.com/a2" {
		t.Errorf("remote got links %+v", rem.links)
	}
	if len(rem.gone) != 1 || rem.gone[0].Key != "b" || !rem.gone[0].Deleted || rem.gone[0].Version <= 0 {
		t.Errorf("remote got tombstones %+v", rem.gone)
	}

	// A workspace deletion's cascade is in the feed too, in one statement however many rows.
	exec(`DELETE FROM workspaces WHERE id = $1`, ws)
	if err := s.Round(ctx); err != nil {
		t.Fatal(err)
	}
	if len(rem.gone) != 3 {
		t.Errorf("after the cascade, tombstones %+v", rem.gone)
	}
}

// TestFeedReadsLateCommits: a change whose sequence number was taken before a later one's but
// committed after it is still read (the cursor waits on the gap).
func TestFeedReadsLateCommits(t *testing.T) {
	t.Parallel()
	db, ws := setup(t)
	ctx := context.Background()
	if _, err := db.Pool.Exec(ctx, `INSERT INTO links (id, workspace_id, key, url, url_hash) VALUES (1, $1, 'slow', 'https://e.com/1', 1), (2, $1, 'fast', 'https://e.com/2', 2)`, ws); err != nil {
		t.Fatal(err)
	}
	feed := postgres.NewLinkChanges(db)
	rem, loc := &remote{}, &local{}
	s := cachesync.New(feed, feed, rem, loc, feed, time.Hour, slog.New(slog.DiscardHandler))
	if err := s.Start(ctx); err != nil {
		t.Fatal(err)
	}
	slow, err := db.Pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = slow.Rollback(ctx) }()
	if _, err := slow.Exec(ctx, `UPDATE links SET updated_at = now() WHERE id = 1`); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Pool.Exec(ctx, `UPDATE links SET updated_at = now() WHERE id = 2`); err != nil {
		t.Fatal(err)
	}
	if err := s.Round(ctx); err != nil || len(rem.links) != 1 || rem.links[0].Key != "fast" {
		t.Fatalf("first round: %v %+v", err, rem.links)
	}
	if err := slow.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if err := s.Round(ctx); err != nil || len(rem.links) != 2 || rem.links[1].Key != "slow" {
		t.Fatalf("the late commit was not read: %v %+v", err, rem.links)
	}
}

// TestReservationsIncremental: reservations are read once in full, then only the new ones.
func TestReservationsIncremental(t *testing.T) {
	t.Parallel()
	db, ws := setup(t)
	ctx := context.Background()
	if _, err := db.Pool.Exec(ctx, `INSERT INTO reserved_ids (id, workspace_id) SELECT i, $1 FROM generate_series(1000001, 1000100) i`, ws); err != nil {
		t.Fatal(err)
	}
	feed := postgres.NewLinkChanges(db)
	loc := &local{}
	r := cachesync.NewReservationSync(feed, loc)
	if err := r.Start(ctx, 1000050); err != nil {
		t.Fatal(err)
	}
	if len(loc.reserved) != 50 {
		t.Fatalf("start loaded %d reservations, want the 50 above the issued range", len(loc.reserved))
	}
	for range 3 {
		if err := r.Round(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if len(loc.reserved) != 50 {
		t.Fatalf("rounds without news read %d reservations again", len(loc.reserved)-50)
	}
	if _, err := db.Pool.Exec(ctx, `INSERT INTO reserved_ids (id, workspace_id) VALUES (5000000, $1)`, ws); err != nil {
		t.Fatal(err)
	}
	if err := r.Round(ctx); err != nil || len(loc.reserved) != 51 || loc.reserved[50] != 5000000 {
		t.Fatalf("after a new reservation: %v %v", err, loc.reserved[50:])
	}
}

// TestPendingAndReplay: a change Redis refuses is reported pending (the redirect path reads
// past Redis for it) until Redis takes it; when Redis comes back as another server, the changes
// of the last TTL are written again, though they had been applied.
func TestPendingAndReplay(t *testing.T) {
	t.Parallel()
	db, ws := setup(t)
	ctx := context.Background()
	if _, err := db.Pool.Exec(ctx, `INSERT INTO links (id, workspace_id, key, url, url_hash) VALUES (1, $1, 'p', 'https://e.com/1', 1)`, ws); err != nil {
		t.Fatal(err)
	}
	feed := postgres.NewLinkChanges(db)
	rem, loc := &remote{server: "first"}, &local{}
	s := cachesync.New(feed, feed, rem, loc, feed, time.Hour, slog.New(slog.DiscardHandler))
	if err := s.Start(ctx); err != nil {
		t.Fatal(err)
	}
	if err := s.Round(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Pool.Exec(ctx, `UPDATE links SET url = 'https://e.com/2', updated_at = now() WHERE id = 1`); err != nil {
		t.Fatal(err)
	}
	rem.down = true
	if err := s.Round(ctx); err != nil {
		t.Fatal(err)
	}
	if !s.Pending(0, "p") || s.Pending(0, "other") {
		t.Fatalf("pending while Redis refuses: %v", s.Pending(0, "p"))
	}
	rem.down = false
	if err := s.Round(ctx); err != nil || s.Pending(0, "p") || len(rem.links) != 1 {
		t.Fatalf("after Redis took it: %v, pending %v, written %d", err, s.Pending(0, "p"), len(rem.links))
	}
	if err := s.Round(ctx); err != nil || len(rem.links) != 1 {
		t.Fatalf("a round without news wrote %d", len(rem.links))
	}

	rem.server = "second" // restarted from an older snapshot, or a replica promoted
	if err := s.Round(ctx); err != nil {
		t.Fatal(err)
	}
	if len(rem.links) != 2 || rem.links[1].URL != "https://e.com/2" {
		t.Fatalf("after the server changed, written %+v", rem.links)
	}

	s.Missed(cachesync.Change{DomainID: 0, Key: "p", Version: 1})
	if !s.Pending(0, "p") {
		t.Fatal("a change missed on the fast path is not pending")
	}
}
