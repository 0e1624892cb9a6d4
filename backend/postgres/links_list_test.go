package postgres_test

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/shortlink/shortlink/backend/link"
	"github.com/shortlink/shortlink/backend/postgres"
	"github.com/shortlink/shortlink/backend/stats"
	"github.com/shortlink/shortlink/backend/testenv"
	"github.com/shortlink/shortlink/backend/visit"
)

// TestLinkListDays stores visits through the ingest at known times and reads each link's
// visits per day of the last 7 in a time zone, as the statistics count them: a UTC hour in the
// day it begins in, an hour begun before the first day (half-hour zones) in the first.
func TestLinkListDays(t *testing.T) {
	t.Parallel()
	db := testenv.DB(t)
	ctx := context.Background()
	accounts, links := postgres.NewAccountStore(db), postgres.NewLinkStore(db)
	_, ws := newUser(t, accounts, "days@example.com")
	insertLink(t, links, ws.ID, 1)
	insertLink(t, links, ws.ID, 2)
	now := time.Now()
	kolkata, err := stats.Zone("Asia/Kolkata")
	if err != nil {
		t.Fatal(err)
	}
	days := stats.LastDayBounds(now, kolkata, 7)
	at := func(day int, d time.Duration) time.Time { return days[day].Add(d) }
	var evs []visit.Event
	add := func(linkID int64, when time.Time, bot bool) {
		evs = append(evs, visit.Event{ID: uuid.New(), At: when, LinkID: linkID, WorkspaceID: ws.ID, Variant: -1,
			Crawler: bot, Visitor: []byte(fmt.Sprint(len(evs)))})
	}
	add(1, at(0, -20*time.Minute), false) // in the UTC hour that begins 30 min before the first day
	add(1, at(0, -2*time.Hour), false)    // before the range
	add(1, at(2, 10*time.Minute), false)  // in the UTC hour that begins at 23:30 of day 1
	add(1, at(2, 5*time.Hour), false)
	add(1, at(2, 5*time.Hour), true)     // a crawler's
	add(1, at(6, 45*time.Minute), false) // today
	add(2, at(5, 23*time.Hour+40*time.Minute), false)
	if _, err := postgres.NewVisits(db).Insert(ctx, []visit.Batch{evs}); err != nil {
		t.Fatal(err)
	}
	got, _, err := links.List(ctx, ws.ID, link.Filter{Sort: link.SortOldest, Days: days, Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Fatalf("%d links", len(got))
	}
	for i, want := range []link.Visits{{Total: 5, Days: []int64{1, 1, 1, 0, 0, 0, 1}}, {Total: 1, Days: []int64{0, 0, 0, 0, 0, 1, 0}}} {
		v := got[i].Visits
		if v == nil || v.Total != want.Total || !slices.Equal(v.Days, want.Days) {
			t.Errorf("link %d: %+v, want %+v", got[i].ID, v, want)
		}
	}
	// Without days, none.
	got, _, err = links.List(ctx, ws.ID, link.Filter{Limit: 10})
	if err != nil || got[1].Visits == nil || got[1].Visits.Total != 5 || got[1].Visits.Days != nil {
		t.Fatalf("without days: %v %+v", err, got[1].Visits)
	}
}

// BenchmarkListLinks100k times one page of the links list, as the web app asks for it (25
// links, each with its last 7 days), in a workspace of 100,000 links of which 70% have visits,
// 1,000,000 visits in all in the rollups (visit_hours over the last 10 days, visit_totals), in
// every order, deep in the list, and filtered.
//
//	go test -run '^$' -bench ListLinks100k -benchtime 50x ./backend/postgres
func BenchmarkListLinks100k(b *testing.B) {
	db := testenv.DB(b)
	ctx := context.Background()
	exec := func(sql string, args ...any) {
		b.Helper()
		if _, err := db.Pool.Exec(ctx, sql, args...); err != nil {
			b.Fatalf("%.60s: %v", sql, err)
		}
	}
	var ws, neighbour int64
	for _, id := range []*int64{&ws, &neighbour} {
		if err := db.Pool.QueryRow(ctx, `INSERT INTO workspaces (name) VALUES ('w') RETURNING id`).Scan(id); err != nil {
			b.Fatal(err)
		}
	}
	began := time.Now()
	exec(`INSERT INTO links (id, workspace_id, key, url, url_hash, status, created_at)
		SELECT g, CASE WHEN g % 5 = 4 THEN $2::bigint ELSE $1::bigint END, 'k' || g, 'https://example.com/page/' || g, g,
			CASE WHEN g % 50 = 0 THEN 'disabled' ELSE 'active' END, now() - (125000 - g) * interval '1 minute'
		FROM generate_series(1, 125000) g`, ws, neighbour)
	exec(`INSERT INTO visit_hours (link_id, hour, workspace_id, visits)
		SELECT l.id, date_trunc('hour', now()) - ((l.id * 7 + k * 37) % 240) * interval '1 hour', l.workspace_id, 1 + (l.id * k) % 5
		FROM links l, generate_series(1, 5) k WHERE l.id % 10 < 7
		ON CONFLICT DO NOTHING`)
	exec(`INSERT INTO visit_totals (link_id, workspace_id, visits)
		SELECT link_id, workspace_id, sum(visits) FROM visit_hours GROUP BY 1, 2`)
	exec(`VACUUM ANALYZE links, visit_hours, visit_totals`)
	var n, visits int64
	if err := db.Pool.QueryRow(ctx, `SELECT count(*), sum(t.visits) FROM links l LEFT JOIN visit_totals t ON t.link_id = l.id WHERE l.workspace_id = $1`, ws).Scan(&n, &visits); err != nil {
		b.Fatal(err)
	}
	b.Logf("%d links, %d visits in the workspace; filled in %v", n, visits, time.Since(began).Round(time.Millisecond))

	store := postgres.NewLinkStore(db)
	shanghai, err := stats.Zone("Asia/Shanghai")
	if err != nil {
		b.Fatal(err)
	}
	days := stats.LastDayBounds(time.Now(), shanghai, 7)
	// middle is a cursor half way down the list by visits.
	var middle link.Cursor
	if err := db.Pool.QueryRow(ctx, `SELECT link_id, visits FROM visit_totals WHERE workspace_id = $1
		ORDER BY visits DESC, link_id DESC OFFSET 35000 LIMIT 1`, ws).Scan(&middle.ID, &middle.Visits); err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		f    link.Filter
	}{
		{"newest", link.Filter{}},
		{"newest-no-days", link.Filter{Days: []time.Time{}}},
		{"oldest", link.Filter{Sort: link.SortOldest}},
		{"newest-page-2000", link.Filter{After: &link.Cursor{ID: 50000}}},
		{"most-visited", link.Filter{Sort: link.SortMostVisited}},
		{"most-visited-middle", link.Filter{Sort: link.SortMostVisited, After: &middle}},
		{"most-visited-unvisited", link.Filter{Sort: link.SortMostVisited, After: &link.Cursor{ID: 60000}}},
		{"least-visited", link.Filter{Sort: link.SortLeastVisited}},
		{"least-visited-middle", link.Filter{Sort: link.SortLeastVisited, After: &middle}},
		{"most-visited-disabled", link.Filter{Sort: link.SortMostVisited, Status: link.StatusDisabled}},
		{"most-visited-active", link.Filter{Sort: link.SortMostVisited, Status: link.StatusActive}},
		{"most-visited-search", link.Filter{Sort: link.SortMostVisited, Query: "page/777"}},
		{"newest-search", link.Filter{Query: "page/777"}},
	} {
		f := c.f
		f.Limit = 25
		if f.Days == nil {
			f.Days = days
		}
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
		b.Run(c.name, func(b *testing.B) {
			var page []*link.Link
			for b.Loop() {
				if page, _, err = store.List(ctx, ws, f); err != nil {
					b.Fatal(err)
				}
			}
			if len(page) == 0 {
				b.Fatal("an empty page")
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/op")
		})
	}
}

// BenchmarkListLinksByTag times one page of the links list filtered by a tag (25 links, each
// with its last 7 days, as the web app asks), in a workspace of TAG_BENCH_LINKS links (1,000,000
// by default) beside a neighbour's: a tag on half of them, one on one link in a thousand, one
// on a tenth of them none of which has visits (the worst case of an order by visits: every
// visited link of the workspace is passed); a fifth of the links have visits. The target is
// under 50 ms a page. The search cases (q) read the search table (migration 00063), filled here
// by its indexer; LIST_BENCH_WALK=1 has every search walk the links instead, as where the
// table's index is missing.
//
//	go test -run '^$' -bench ListLinksByTag -benchtime 20x ./backend/postgres
func BenchmarkListLinksByTag(b *testing.B) {
	size, db, exec, ws, neighbour := bigWorkspaces(b, "TAG_BENCH_LINKS")
	ctx := context.Background()
	began := time.Now()
	total := size * 5 / 4 // a fifth of the rows are the neighbour's
	exec(`INSERT INTO links (id, workspace_id, key, url, url_hash, status, created_at)
		SELECT g, CASE WHEN g % 5 = 4 THEN $2::bigint ELSE $1::bigint END, 'k' || g, 'https://example.com/page/' || g, g,
			CASE WHEN g % 50 = 0 THEN 'disabled' ELSE 'active' END, now() - ($3 - g) * interval '1 second'
		FROM generate_series(1, $3) g`, ws, neighbour, total)
	var half, rare, cold, theirs int64
	for _, t := range []struct {
		id   *int64
		ws   int64
		name string
	}{{&half, ws, "half"}, {&rare, ws, "rare"}, {&cold, ws, "cold"}, {&theirs, neighbour, "half"}} {
		if err := db.Pool.QueryRow(ctx, `INSERT INTO tags (workspace_id, name, folded, color) VALUES ($1, $2, $2, '#000000') RETURNING id`,
			t.ws, t.name).Scan(t.id); err != nil {
			b.Fatal(err)
		}
	}
	exec(`INSERT INTO link_tags (tag_id, link_id)
		SELECT CASE WHEN l.workspace_id = $1 THEN $2::bigint ELSE $3::bigint END, l.id FROM links l WHERE l.id % 2 = 0`, ws, half, theirs)
	exec(`INSERT INTO link_tags (tag_id, link_id) SELECT $1, id FROM links WHERE workspace_id = $2 AND id % 1000 = 7`, rare, ws)
	exec(`INSERT INTO link_tags (tag_id, link_id) SELECT $1, id FROM links WHERE workspace_id = $2 AND id % 10 = 5`, cold, ws)
	exec(`INSERT INTO visit_hours (link_id, hour, workspace_id, visits)
		SELECT l.id, date_trunc('hour', now()) - ((l.id * 7 + k * 37) % 240) * interval '1 hour', l.workspace_id, 1 + (l.id / 10 * k) % 7
		FROM links l, generate_series(1, 3) k WHERE l.id % 10 IN (3, 6)
		ON CONFLICT DO NOTHING`)
	exec(`INSERT INTO visit_totals (link_id, workspace_id, visits)
		SELECT link_id, workspace_id, sum(visits) FROM visit_hours GROUP BY 1, 2`)
	exec(`UPDATE link_tags lt SET visits = t.visits FROM visit_totals t WHERE t.link_id = lt.link_id`)
	indexSearch(b, db)
	exec(`VACUUM ANALYZE links, link_tags, tags, visit_hours, visit_totals, link_search`)
	var n, tagged int64
	if err := db.Pool.QueryRow(ctx, `SELECT (SELECT count(*) FROM links WHERE workspace_id = $1), (SELECT count(*) FROM link_tags WHERE tag_id = $2)`,
		ws, half).Scan(&n, &tagged); err != nil {
		b.Fatal(err)
	}
	b.Logf("%d links in the workspace, %d with the tag half; filled in %v", n, tagged, time.Since(began).Round(time.Millisecond))

	store := postgres.NewLinkStore(db)
	if os.Getenv("LIST_BENCH_WALK") != "" {
		store.SetSearchCandidates(-1)
	}
	shanghai, err := stats.Zone("Asia/Shanghai")
	if err != nil {
		b.Fatal(err)
	}
	days := stats.LastDayBounds(time.Now(), shanghai, 7)
	deep := &link.Cursor{ID: int64(total / 2)}
	for _, c := range []struct {
		name string
		f    link.Filter
	}{
		{"half-newest", link.Filter{TagID: &half}},
		{"half-oldest", link.Filter{TagID: &half, Sort: link.SortOldest}},
		{"half-newest-deep", link.Filter{TagID: &half, After: deep}},
		{"half-disabled", link.Filter{TagID: &half, Status: link.StatusDisabled}},
		{"half-search", link.Filter{TagID: &half, Query: "page/7770"}},
		{"half-search-common", link.Filter{TagID: &half, Query: "page/12"}},
		{"half-search-none", link.Filter{TagID: &half, Query: "nowhere-to-be-found"}},
		{"rare-search", link.Filter{TagID: &rare, Query: "page/7"}},
		{"search", link.Filter{Query: "page/7770"}},
		{"search-title-case", link.Filter{Query: "PAGE/77701"}},
		{"search-short", link.Filter{Query: "77"}},
		{"search-everywhere", link.Filter{Query: "example.com"}},
		{"search-none", link.Filter{Query: "nowhere-to-be-found"}},
		{"search-common-most-visited", link.Filter{Query: "page/1", Sort: link.SortMostVisited}},
		{"rare-newest", link.Filter{TagID: &rare}},
		{"rare-newest-deep", link.Filter{TagID: &rare, After: deep}},
		{"rare-disabled", link.Filter{TagID: &rare, Status: link.StatusActive}},
		{"rare-most-visited", link.Filter{TagID: &rare, Sort: link.SortMostVisited}},
		{"half-most-visited", link.Filter{TagID: &half, Sort: link.SortMostVisited}},
		{"half-least-visited", link.Filter{TagID: &half, Sort: link.SortLeastVisited}},
		{"cold-most-visited", link.Filter{TagID: &cold, Sort: link.SortMostVisited}},
	} {
		f := c.f
		f.Limit = 25
		f.Days = days
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
		b.Run(c.name, func(b *testing.B) {
			var page []*link.Link
			for b.Loop() {
				if page, _, err = store.List(ctx, ws, f); err != nil {
					b.Fatal(err)
				}
			}
			if len(page) == 0 && !strings.HasSuffix(c.name, "-none") {
				b.Fatal("an empty page")
			}
			for _, l := range page {
				if f.Query != "" && !strings.Contains(strings.ToLower(l.URL), strings.ToLower(f.Query)) {
					b.Fatalf("link %d (%s) does not hold %q", l.ID, l.URL, f.Query)
				}
				if f.TagID == nil {
					if l.WorkspaceID != ws {
						b.Fatalf("link %d of workspace %d", l.ID, l.WorkspaceID)
					}
					continue
				}
				if l.WorkspaceID != ws || !slices.Contains(l.Tags, map[int64]string{half: "half", rare: "rare", cold: "cold"}[*f.TagID]) {
					b.Fatalf("link %d of workspace %d, tags %v", l.ID, l.WorkspaceID, l.Tags)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/op")
		})
	}
}

// bigWorkspaces readies a benchmark over many links: their number (sizeVar, else 1,000,000),
// a fresh database, a statement runner that fails the benchmark, and two workspaces, the
// measured one and a neighbour.
func bigWorkspaces(b *testing.B, sizeVar string) (size int, db *postgres.DB, exec func(sql string, args ...any), ws, neighbour int64) {
	b.Helper()
	size = 1_000_000
	if v := os.Getenv(sizeVar); v != "" {
		if _, err := fmt.Sscan(v, &size); err != nil {
			b.Fatalf("%s=%q: %v", sizeVar, v, err)
		}
	}
	db = testenv.DB(b)
	ctx := context.Background()
	exec = func(sql string, args ...any) {
		b.Helper()
		if _, err := db.Pool.Exec(ctx, sql, args...); err != nil {
			b.Fatalf("%.60s: %v", sql, err)
		}
	}
	for _, id := range []*int64{&ws, &neighbour} {
		if err := db.Pool.QueryRow(ctx, `INSERT INTO workspaces (name) VALUES ('w') RETURNING id`).Scan(id); err != nil {
			b.Fatal(err)
		}
	}
	return size, db, exec, ws, neighbour
}
