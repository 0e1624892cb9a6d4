package postgres_test

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/postgres"
	"github.com/shortlink/shortlink/backend/stats"
	"github.com/shortlink/shortlink/backend/testenv"
	"github.com/shortlink/shortlink/backend/visit"
)

// TestSeederRollupsReadAsIngested: the rollups the ingest made of some visits, written again
// by the Seeder's COPY into another database, answer the same statistics and dashboard there
// (docs/benchmarks.md#statistics-at-a-billion-visits), and another workspace's seeded rows stay
// out of them.
func TestSeederRollupsReadAsIngested(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	start := time.Date(2025, 3, 7, 0, 0, 0, 0, time.UTC)

	ingested := testenv.DB(t)
	_, ws := newUser(t, postgres.NewAccountStore(ingested), "ingest@example.com")
	insertLink(t, postgres.NewLinkStore(ingested), ws.ID, 1)
	rng := rand.New(rand.NewPCG(3, 4))
	evs := randomVisits(rng, 2000, ws.ID, 1, start, 5)
	slices.SortFunc(evs, func(a, b visit.Event) int { return a.At.Compare(b.At) })
	visits := postgres.NewVisits(ingested)
	for b := range slices.Chunk(evs, 500) {
		if _, err := visits.Insert(ctx, []visit.Batch{b}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := visits.CompactDays(ctx, start.AddDate(0, 0, 3)); err != nil {
		t.Fatal(err)
	}

	seeded := testenv.DB(t)
	_, seededWS := newUser(t, postgres.NewAccountStore(seeded), "seed@example.com")
	_, other := newUser(t, postgres.NewAccountStore(seeded), "other@example.com")
	if seededWS.ID != ws.ID {
		t.Fatalf("workspace %d, want %d", seededWS.ID, ws.ID)
	}
	s := postgres.NewSeeder(seeded)
	var total postgres.SeedLink
	if err := ingested.Pool.QueryRow(ctx, `SELECT visits, bots, uniques FROM visit_totals WHERE link_id = 1`).
		Scan(&total.Visits, &total.Bots, &total.Uniques); err != nil {
		t.Fatal(err)
	}
	made := start.Add(-time.Hour)
	if err := s.Links(ctx, []postgres.SeedLink{
		{ID: 1, WorkspaceID: ws.ID, Key: "k1", URL: "https://example.com/", Status: "active", CreatedAt: made,
			Visits: total.Visits, Bots: total.Bots, Uniques: total.Uniques},
		{ID: 2, WorkspaceID: other.ID, Key: "k2", URL: "https://example.com/", Status: "active", CreatedAt: made, Visits: 1000},
	}); err != nil {
		t.Fatal(err)
	}
	hours := readRows(t, ingested, `SELECT link_id, hour, visits, bots, uniques FROM visit_hours ORDER BY 1, 2`,
		func(r pgx.CollectableRow) (postgres.SeedHour, error) {
			var h postgres.SeedHour
			err := r.Scan(&h.LinkID, &h.Hour, &h.Visits, &h.Bots, &h.Uniques)
			return h, err
		})
	key := func(r pgx.CollectableRow) (postgres.SeedKey, error) {
		var k postgres.SeedKey
		err := r.Scan(&k.LinkID, &k.At, &k.Dim, &k.Key, &k.Visits)
		return k, err
	}
	keyHours := readRows(t, ingested, `SELECT link_id, hour, dim, key, visits FROM visit_key_hours`, key)
	keyDays := readRows(t, ingested, `SELECT link_id, day::timestamptz, dim, key, visits FROM visit_key_days`, key)
	var summedBefore time.Time
	if err := ingested.Pool.QueryRow(ctx, `SELECT key_days_before::timestamptz FROM visit_rollups`).Scan(&summedBefore); err != nil {
		t.Fatal(err)
	}
	spaceHours := map[time.Time]int64{}
	for _, h := range hours {
		spaceHours[h.Hour] += h.Visits
	}
	var sh []time.Time
	var sv []int64
	for h, v := range spaceHours {
		sh, sv = append(sh, h), append(sv, v)
	}
	// The other workspace's link gets visits in the same hours, and rows of its own.
	var otherHours []postgres.SeedHour
	var otherKeys []postgres.SeedKey
	for _, h := range hours {
		otherHours = append(otherHours, postgres.SeedHour{LinkID: 2, Hour: h.Hour, Visits: 1000, Bots: 1})
		otherKeys = append(otherKeys, postgres.SeedKey{LinkID: 2, At: h.Hour, Dim: 'c', Key: "ZZ", Visits: 1000})
	}
	for _, err := range []error{
		s.LinkHours(ctx, ws.ID, hours), s.KeyHours(ctx, keyHours), s.KeyDays(ctx, keyDays),
		s.SummedBefore(ctx, summedBefore), s.WorkspaceHours(ctx, ws.ID, sh, sv),
		s.LinkHours(ctx, other.ID, otherHours), s.KeyHours(ctx, otherKeys),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}

	want := stats.NewService(postgres.NewStatsStore(ingested), statsLinks{postgres.NewLinkStore(ingested)})
	got := stats.NewService(postgres.NewStatsStore(seeded), statsLinks{postgres.NewLinkStore(seeded)})
	now := start.AddDate(0, 0, 5)
	for _, q := range []stats.Query{
		{From: "2025-03-07", To: "2025-03-11"},
		{From: "2025-03-08", To: "2025-03-10", TZ: "Asia/Shanghai"},
		{From: "2025-03-07", To: "2025-03-11", TZ: "America/New_York"},
		{From: "2025-03-08T05:00:00Z", To: "2025-03-10T19:00:00Z", TZ: "Europe/Berlin"},
	} {
		r, err := q.Range(now, stats.LinkDays)
		if err != nil {
			t.Fatal(err)
		}
		a, err := want.Link(ctx, ws.ID, 1, r)
		if err != nil {
			t.Fatal(err)
		}
		b, err := got.Link(ctx, ws.ID, 1, r)
		if err != nil {
			t.Fatal(err)
		}
		if ja, jb := asJSON(t, a), asJSON(t, b); ja != jb {
			t.Errorf("%+v: seeded statistics\n%s\nwant\n%s", q, jb, ja)
		}
		dr, err := q.DashboardRange(now)
		if err != nil {
			t.Fatal(err)
		}
		da, err := want.Workspace(ctx, ws.ID, dr)
		if err != nil {
			t.Fatal(err)
		}
		db, err := got.Workspace(ctx, ws.ID, dr)
		if err != nil {
			t.Fatal(err)
		}
		// The seeder's workspace hours count crawlers and people first seen as fractions of
		// the visits; the visits and the top links are the ingest's.
		for i := range da.Days {
			if da.Days[i].Visits != db.Days[i].Visits {
				t.Errorf("%+v: day %s: %d visits, want %d", q, da.Days[i].Date, db.Days[i].Visits, da.Days[i].Visits)
			}
		}
		if ja, jb := asJSON(t, da.TopLinks), asJSON(t, db.TopLinks); ja != jb {
			t.Errorf("%+v: seeded top links %s, want %s", q, jb, ja)
		}
	}
	r, _ := stats.Query{}.Range(now, stats.LinkDays)
	if _, err := got.Link(ctx, ws.ID, 2, r); !apperr.Is(err, apperr.NotFound) {
		t.Errorf("another workspace's seeded link: %v", err)
	}
}

func readRows[T any](t *testing.T, db *postgres.DB, query string, scan pgx.RowToFunc[T]) []T {
	t.Helper()
	rows, err := db.Pool.Query(context.Background(), query)
	if err != nil {
		t.Fatal(err)
	}
	out, err := pgx.CollectRows(rows, scan)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func asJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
