package postgres_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/link"
	"github.com/shortlink/shortlink/backend/postgres"
	"github.com/shortlink/shortlink/backend/stats"
	"github.com/shortlink/shortlink/backend/testenv"
	"github.com/shortlink/shortlink/backend/visit"
)

// TestLinkStatsFilteredMatchVisits stores random visits through the real insert and checks
// that, for filters of one and two values and ranges of every shape in several zones, the
// statistics read from the raw visits are what the matching visits themselves say: totals,
// unique visitors (first matching visit of each UTC day), series and breakdowns; and that a
// filter every visit matches answers what the rollups answer.
func TestLinkStatsFilteredMatchVisits(t *testing.T) {
	t.Parallel()
	db := testenv.DB(t)
	ctx := context.Background()
	accounts, links := postgres.NewAccountStore(db), postgres.NewLinkStore(db)
	_, ws := newUser(t, accounts, "filtered@example.com")
	insertLink(t, links, ws.ID, 1)
	insertLink(t, links, ws.ID, 2)
	variants := []link.Variant{{URL: "https://a.example/", Weight: 1}, {URL: "https://b.example/", Weight: 1}}
	if _, err := db.Pool.Exec(ctx, `UPDATE links SET rules = '{"variants":[{"url":"https://a.example/","weight":1},{"url":"https://b.example/","weight":1}]}' WHERE id = 1`); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	start := time.Date(2025, 3, 7, 0, 0, 0, 0, time.UTC)
	evs := randomVisits(rng, 3000, ws.ID, 1, start, 6)
	slices.SortFunc(evs, func(a, b visit.Event) int { return a.At.Compare(b.At) })
	visits := postgres.NewVisits(db)
	for b := range slices.Chunk(evs, 700) {
		if _, err := visits.Insert(ctx, []visit.Batch{b}); err != nil {
			t.Fatal(err)
		}
	}
	// The other link's visits, in the same hours and with the same values, count for none.
	if _, err := visits.Insert(ctx, []visit.Batch{randomVisits(rng, 300, ws.ID, 2, start, 6)}); err != nil {
		t.Fatal(err)
	}
	svc := stats.NewService(postgres.NewStatsStore(db), statsLinks{links})

	filters := []stats.Filter{
		{stats.Country: "CN"},
		{stats.Country: "DE", stats.Device: "ios"},
		{stats.Referrer: "t.co", stats.OS: "Windows"},
		{stats.InApp: "WeChat", stats.Browser: "Chrome"},
		{stats.Country: "JP"},
	}
	matches := func(f stats.Filter, e visit.Event) bool {
		for dim, v := range map[stats.Dim]string{stats.Country: e.Country, stats.Device: e.Device, stats.OS: e.OS,
			stats.Browser: e.Browser, stats.Referrer: e.Referrer, stats.InApp: e.InApp} {
			if w, ok := f[dim]; ok && w != v {
				return false
			}
		}
		return true
	}
	queries := []stats.Query{
		{From: "2025-03-07", To: "2025-03-12"},
		{From: "2025-03-08", To: "2025-03-09", TZ: "Asia/Shanghai"},
		{From: "2025-03-09T13:20:00Z", To: "2025-03-09T18:00:00Z"},
		{From: "2025-03-07T23:00:00Z", To: "2025-03-09T01:00:00Z"},
	}
	for i := range 6 {
		from := start.Add(time.Duration(rng.IntN(6*24)) * time.Hour)
		to := from.Add(time.Duration(1+rng.IntN(4*24)) * time.Hour)
		queries = append(queries, stats.Query{From: from.Format(time.RFC3339), To: to.Format(time.RFC3339), TZ: []string{"", "Europe/Berlin", "Asia/Tokyo"}[i%3]})
	}
	for _, f := range filters {
		var mine []visit.Event
		for _, e := range evs {
			if matches(f, e) {
				mine = append(mine, e)
			}
		}
		for _, q := range queries {
			r, err := q.Range(start, stats.LinkDays)
			if err != nil {
				t.Fatalf("%+v: %v", q, err)
			}
			got, err := svc.LinkFiltered(ctx, ws.ID, 1, r, f)
			if err != nil {
				t.Fatalf("%v %+v: %v", f, q, err)
			}
			hr := r.Hours()
			v, u, b, keys := expected(mine, hr.From, hr.To, variants)
			if got.Visits != v || got.UniqueVisitors != u || got.Bots != b {
				t.Errorf("%v %+v: visits, uniques, bots = %d %d %d, want %d %d %d", f, q, got.Visits, got.UniqueVisitors, got.Bots, v, u, b)
			}
			if g := flatten(got.Breakdowns); fmt.Sprint(g) != fmt.Sprint(keys) {
				t.Errorf("%v %+v: breakdowns\n%v\nwant\n%v", f, q, g, keys)
			}
			var daily, hourly int64
			for _, p := range got.Series.Daily {
				daily += p.Visits
			}
			for _, p := range got.Series.Hourly {
				hourly += p.Visits
			}
			wantHours := min(48, int(hr.To.Sub(hr.From)/time.Hour))
			lastHours, _, _, _ := expected(mine, hr.To.Add(-time.Duration(wantHours)*time.Hour), hr.To, nil)
			if daily != v || hourly != lastHours || len(got.Series.Hourly) != wantHours || len(got.Series.Daily) != len(r.Days()) {
				t.Errorf("%v %+v: the days add up to %d, the hours to %d over %d; want %d and %d over %d", f, q, daily, hourly, len(got.Series.Hourly), v, lastHours, wantHours)
			}
			if got.Filter == nil {
				t.Errorf("%v %+v: no filter echoed", f, q)
			}
		}
	}

	// Every visit has one of three browsers: the three filtered answers add up to the rollups'.
	for _, q := range queries {
		r, _ := q.Range(start, stats.LinkDays)
		all, err := svc.Link(ctx, ws.ID, 1, r)
		if err != nil {
			t.Fatal(err)
		}
		var v, u, b int64
		for _, br := range []string{"Safari", "Chrome", "WebView"} {
			got, err := svc.LinkFiltered(ctx, ws.ID, 1, r, stats.Filter{stats.Browser: br})
			if err != nil {
				t.Fatal(err)
			}
			v, b = v+got.Visits, b+got.Bots
			u += got.UniqueVisitors
		}
		if v != all.Visits || b != all.Bots || u < all.UniqueVisitors {
			t.Errorf("%+v: the browsers add up to %d visits, %d bots, %d uniques; the rollups %d, %d, %d", q, v, b, u, all.Visits, all.Bots, all.UniqueVisitors)
		}
	}
}
