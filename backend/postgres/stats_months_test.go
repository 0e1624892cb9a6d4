package postgres_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/postgres"
	"github.com/shortlink/shortlink/backend/stats"
	"github.com/shortlink/shortlink/backend/testenv"
	"github.com/shortlink/shortlink/backend/visit"
)

// TestLinkStatsMonths: once CompactDays has summed whole months into visit_key_months, a
// link's statistics over ranges across months, in zones whose days start on either side of
// UTC's, still equal what the raw visits say, before and after visits arrive late for a month
// already summed, a day summed and a day not summed; another workspace's link in the same
// months counts for none of it.
func TestLinkStatsMonths(t *testing.T) {
	t.Parallel()
	db := testenv.DB(t)
	ctx := context.Background()
	accounts, links := postgres.NewAccountStore(db), postgres.NewLinkStore(db)
	_, ws := newUser(t, accounts, "months@example.com")
	_, other := newUser(t, accounts, "months-other@example.com")
	insertLink(t, links, ws.ID, 1)
	insertLink(t, links, other.ID, 2)
	start := time.Date(2025, 1, 20, 0, 0, 0, 0, time.UTC)
	// Nothing summed before the visits come: every day is summed by CompactDays.
	if _, err := db.Pool.Exec(ctx, `UPDATE visit_rollups SET key_days_before = '2025-01-20', key_months_before = '2025-01-01'`); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	evs := randomVisits(rng, 4000, ws.ID, 1, start, 80)
	slices.SortFunc(evs, func(a, b visit.Event) int { return a.At.Compare(b.At) })
	visits := postgres.NewVisits(db)
	for b := range slices.Chunk(evs, 800) {
		if _, err := visits.Insert(ctx, []visit.Batch{b}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := visits.Insert(ctx, []visit.Batch{randomVisits(rng, 1000, other.ID, 2, start, 80)}); err != nil {
		t.Fatal(err)
	}
	if days, err := visits.CompactDays(ctx, time.Date(2025, 4, 5, 12, 0, 0, 0, time.UTC)); err != nil || days != 75 {
		t.Fatalf("summed %d days (%v), want 75", days, err)
	}
	var before time.Time
	if err := db.Pool.QueryRow(ctx, `SELECT key_months_before::timestamptz FROM visit_rollups`).Scan(&before); err != nil || !before.Equal(time.Date(2025, 4, 1, 0, 0, 0, 0, time.UTC)) {
		t.Fatalf("months summed before %v (%v), want April", before, err)
	}
	svc := stats.NewService(postgres.NewStatsStore(db), statsLinks{links})
	queries := []stats.Query{
		{From: "2025-01-20", To: "2025-04-09"},
		{From: "2025-02-01", To: "2025-03-31"},
		{From: "2025-02-01", To: "2025-03-31", TZ: "Asia/Shanghai"},
		{From: "2025-01-31", To: "2025-04-01", TZ: "America/New_York"},
		{From: "2025-01-25", To: "2025-03-02", TZ: "Pacific/Kiritimati"},
		{From: "2025-02-14T05:00:00Z", To: "2025-04-06T17:00:00Z", TZ: "Europe/Berlin"},
		{From: "2025-03-01", To: "2025-03-31", TZ: "Asia/Kolkata"},
	}
	check := func(when string, evs []visit.Event) {
		t.Helper()
		for _, q := range queries {
			r, err := q.Range(start.AddDate(0, 0, 80), stats.MaxDays)
			if err != nil {
				t.Fatalf("%+v: %v", q, err)
			}
			got, err := svc.Link(ctx, ws.ID, 1, r)
			if err != nil {
				t.Fatalf("%+v: %v", q, err)
			}
			hr := r.Hours()
			v, u, b, keys := expected(evs, hr.From, hr.To, nil)
			if got.Visits != v || got.UniqueVisitors != u || got.Bots != b {
				t.Errorf("%s, %+v: visits, uniques, bots = %d %d %d, want %d %d %d", when, q, got.Visits, got.UniqueVisitors, got.Bots, v, u, b)
			}
			if g := flatten(got.Breakdowns); fmt.Sprint(g) != fmt.Sprint(keys) {
				t.Errorf("%s, %+v: breakdowns\n%v\nwant\n%v", when, q, g, keys)
			}
		}
	}
	check("summed", evs)
	var monthly int64
	if err := db.Pool.QueryRow(ctx, `SELECT count(*) FROM visit_key_months WHERE link_id = 1 AND month = '2025-02-01'`).Scan(&monthly); err != nil || monthly == 0 {
		t.Fatalf("%d monthly rows of February (%v)", monthly, err)
	}

	// Late visits: for February (summed as a month), April 2 (a day summed, its month not)
	// and April 8 (not summed), by people not seen before those days.
	var late []visit.Event
	for _, day := range []time.Time{start.AddDate(0, 0, 20), start.AddDate(0, 0, 72), start.AddDate(0, 0, 78)} {
		for _, e := range randomVisits(rng, 200, ws.ID, 1, day, 1) {
			e.Visitor = append([]byte("late-"), e.Visitor...)
			late = append(late, e)
		}
	}
	slices.SortFunc(late, func(a, b visit.Event) int { return a.At.Compare(b.At) })
	if _, err := visits.Insert(ctx, []visit.Batch{late}); err != nil {
		t.Fatal(err)
	}
	check("late", append(slices.Clone(evs), late...))

	r, _ := stats.Query{From: "2025-02-01", To: "2025-03-31"}.Range(start, stats.MaxDays)
	if _, err := svc.Link(ctx, ws.ID, 2, r); !apperr.Is(err, apperr.NotFound) {
		t.Errorf("another workspace's link: %v", err)
	}
}
