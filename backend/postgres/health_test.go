package postgres_test

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/shortlink/shortlink/backend/health"
	"github.com/shortlink/shortlink/backend/link"
	"github.com/shortlink/shortlink/backend/postgres"
	"github.com/shortlink/shortlink/backend/testenv"
)

// BenchmarkLinkHealth times link health's statements over 1,000,000 links (HEALTH_BENCH_LINKS
// for another number) in two workspaces, most checked ok, 2% broken, the newest 10% not swept
// yet: the listing's ?health= pages, a checker's claim, a sweep step and the digests' look.
// LIST_BENCH_EXPLAIN=1 logs the listing's plans.
func BenchmarkLinkHealth(b *testing.B) {
	size, db, exec, ws, neighbour := bigWorkspaces(b, "HEALTH_BENCH_LINKS")
	ctx := context.Background()
	began := time.Now()
	exec(`INSERT INTO links (id, workspace_id, key, url, url_hash, created_at)
		SELECT g, CASE WHEN g % 5 = 4 THEN $2::bigint ELSE $1::bigint END, 'k' || g,
			'https://host' || (g % 5000) || '.example/page/' || g, g, now() - ($3 - g) * interval '1 second'
		FROM generate_series(1, $3) g`, ws, neighbour, size)
	// The oldest 90% swept and checked, one day apart; 2% of them broken since the last days.
	exec(`INSERT INTO link_health (link_id, workspace_id, url, host, state, failures, status, error, checked_at, broken_at, next_at)
		SELECT id, workspace_id, url, substring(url from '://([^/]*)'),
			CASE WHEN id % 50 = 0 THEN 'broken' ELSE 'ok' END, CASE WHEN id % 50 = 0 THEN 2 ELSE 0 END,
			CASE WHEN id % 50 = 0 THEN 404 ELSE 200 END, CASE WHEN id % 50 = 0 THEN 'status' ELSE '' END,
			now() - (id % 86400) * interval '1 second',
			CASE WHEN id % 50 = 0 THEN now() - (id % 200000) * interval '1 second' END,
			now() + (86400 - id % 86400) * interval '1 second'
		FROM links WHERE id <= $1`, size*9/10)
	exec(`UPDATE link_health SET next_at = now() - interval '1 minute' WHERE link_id % 1000 = 1`)
	exec(`UPDATE link_health_sweep SET after_id = $1`, size*9/10-2500)
	exec(`VACUUM ANALYZE links, link_health`)
	b.Logf("%d links, filled in %v", size, time.Since(began).Round(time.Millisecond))

	store := postgres.NewLinkStore(db)
	deep := &link.Cursor{ID: int64(size / 2)}
	for _, c := range []struct {
		name string
		f    link.Filter
	}{
		{"broken-newest", link.Filter{Health: "broken"}},
		{"broken-deep", link.Filter{Health: "broken", After: deep}},
		{"broken-oldest", link.Filter{Health: "broken", Sort: link.SortOldest}},
		{"broken-most-visited", link.Filter{Health: "broken", Sort: link.SortMostVisited}},
		{"broken-search", link.Filter{Health: "broken", Query: "host100.example"}},
		{"ok-newest", link.Filter{Health: "ok"}},
		{"ok-deep", link.Filter{Health: "ok", After: deep}},
	} {
		f := c.f
		f.Limit = 25
		if os.Getenv("LIST_BENCH_EXPLAIN") != "" {
			q, args := postgres.ListQuery(ws, f)
			rows, err := db.Pool.Query(ctx, "EXPLAIN (ANALYZE, COSTS OFF) "+q, args...)
			if err != nil {
				b.Fatal(err)
			}
			plan, err := pgx.CollectRows(rows, pgx.RowTo[string])
			if err != nil {
				b.Fatal(err)
			}
			b.Logf("%s:\n%s", c.name, strings.Join(plan, "\n"))
		}
		b.Run("list-"+c.name, func(b *testing.B) {
			var page []*link.Link
			var err error
			for b.Loop() {
				if page, _, err = store.List(ctx, ws, f); err != nil {
					b.Fatal(err)
				}
			}
			if len(page) == 0 {
				b.Fatal("an empty page")
			}
			for _, l := range page {
				if l.WorkspaceID != ws || l.Health == nil || l.Health.State != f.Health {
					b.Fatalf("link %d of workspace %d, health %+v", l.ID, l.WorkspaceID, l.Health)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/op")
		})
	}

	hs := postgres.NewHealthStore(db)
	b.Run("claim", func(b *testing.B) {
		for b.Loop() {
			tx, err := db.Pool.Begin(ctx)
			if err != nil {
				b.Fatal(err)
			}
			// Each claim takes due rows; give them back so the next finds as many.
			due, err := hs.Claim(ctx, 8, 10, time.Now().Add(time.Minute))
			if err != nil || len(due) == 0 {
				b.Fatalf("claim: %d, %v", len(due), err)
			}
			_ = tx.Rollback(ctx)
			for _, d := range due {
				if err := hs.Postpone(ctx, d.LinkID, time.Now().Add(-time.Minute)); err != nil {
					b.Fatal(err)
				}
			}
		}
		b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/op")
	})
	b.Run("sweep-5000", func(b *testing.B) {
		for b.Loop() {
			if _, err := hs.Sweep(ctx, 5000, 0); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/op")
	})
	b.Run("digests-due", func(b *testing.B) {
		for b.Loop() {
			if _, err := hs.DigestsDue(ctx, 24*time.Hour, 100); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/op")
	})
	var _ health.Store = hs
}

// TestHealthSweepAndClaim: the sweep gives new links their rows (the newest at once, the
// others as the cursor comes round) and resets a row whose destination changed; claims of
// two checkers at once take disjoint links, at most perHost of a host, leased until a time.
func TestHealthSweepAndClaim(t *testing.T) {
	db := testenv.DB(t)
	ctx := context.Background()
	exec := func(sql string, args ...any) {
		t.Helper()
		if _, err := db.Pool.Exec(ctx, sql, args...); err != nil {
			t.Fatalf("%.60s: %v", sql, err)
		}
	}
	count := func(sql string, args ...any) int {
		t.Helper()
		var n int
		if err := db.Pool.QueryRow(ctx, sql, args...).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	var ws int64
	if err := db.Pool.QueryRow(ctx, `INSERT INTO workspaces (name) VALUES ('w') RETURNING id`).Scan(&ws); err != nil {
		t.Fatal(err)
	}
	addLinks := func(from, to int) {
		exec(`INSERT INTO links (id, workspace_id, key, url, url_hash)
			SELECT g, $1, 'k' || g, 'https://h' || (g % 3) || '.example/' || g, g FROM generate_series($2::int, $3::int) g`, ws, from, to)
	}
	addLinks(1, 10)
	hs := postgres.NewHealthStore(db)
	if n, err := hs.Sweep(ctx, 4, 0); err != nil || n != 4 {
		t.Fatalf("sweep: %d, %v", n, err)
	}
	if n := count(`SELECT count(*) FROM link_health`); n != 10 {
		t.Fatalf("%d rows after the first step, want every link (the newest)", n)
	}
	if n := count(`SELECT count(*) FROM link_health WHERE host = 'h1.example'`); n != 4 {
		t.Errorf("%d rows of host h1.example, want 4", n)
	}
	// A new link gets its row at the next step, wherever the cursor is.
	addLinks(11, 11)
	if _, err := hs.Sweep(ctx, 4, 0); err != nil {
		t.Fatal(err)
	}
	if n := count(`SELECT count(*) FROM link_health WHERE link_id = 11`); n != 1 {
		t.Fatal("the newest link has no row")
	}
	// A changed destination: its row is reset when the cursor passes it.
	exec(`UPDATE link_health SET state = 'broken', failures = 2, next_at = now() + interval '1 day' WHERE link_id = 2`)
	exec(`UPDATE links SET url = 'https://moved.example/' WHERE id = 2`)
	for range 4 {
		if _, err := hs.Sweep(ctx, 4, 0); err != nil {
			t.Fatal(err)
		}
	}
	if n := count(`SELECT count(*) FROM link_health WHERE link_id = 2 AND state = 'unknown' AND failures = 0
		AND url = 'https://moved.example/' AND host = 'moved.example' AND next_at <= now()`); n != 1 {
		t.Error("the moved link's row was not reset")
	}
	// A pace: a second step within it does nothing.
	if _, err := hs.Sweep(ctx, 4, time.Hour); err != nil {
		t.Fatal(err)
	}
	if n, err := hs.Sweep(ctx, 4, time.Hour); err != nil || n != 0 {
		t.Errorf("a step within the pace: %d, %v", n, err)
	}

	// Two checkers at once: disjoint, two of a host at most each.
	exec(`UPDATE link_health SET next_at = now() - interval '1 second'`)
	type claim struct {
		due []health.Due
		err error
	}
	out := make(chan claim, 2)
	for range 2 {
		go func() {
			d, err := hs.Claim(ctx, 4, 2, time.Now().Add(time.Minute))
			out <- claim{d, err}
		}()
	}
	seen := map[int64]bool{}
	for range 2 {
		c := <-out
		if c.err != nil {
			t.Fatal(c.err)
		}
		hosts := map[string]int{}
		for _, d := range c.due {
			if seen[d.LinkID] {
				t.Errorf("link %d claimed twice", d.LinkID)
			}
			seen[d.LinkID] = true
			if hosts[d.Host]++; hosts[d.Host] > 2 {
				t.Errorf("more than 2 links of %s in one claim", d.Host)
			}
			if !d.Active || d.WorkspaceID != ws {
				t.Errorf("claimed %+v", d)
			}
		}
	}
	if len(seen) == 0 {
		t.Fatal("nothing claimed")
	}
	if n := count(`SELECT count(*) FROM link_health WHERE next_at > now() + interval '50 seconds'`); n != len(seen) {
		t.Errorf("%d rows leased, want %d", n, len(seen))
	}
}
