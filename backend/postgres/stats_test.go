package postgres_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/link"
	"github.com/shortlink/shortlink/backend/postgres"
	"github.com/shortlink/shortlink/backend/stats"
	"github.com/shortlink/shortlink/backend/testenv"
	"github.com/shortlink/shortlink/backend/visit"
)

// statsLinks gives the statistics the links of the store, with short URLs on one host.
type statsLinks struct{ *postgres.LinkStore }

func (statsLinks) ShortURL(_ int64, key string) string { return "https://sho.rt/" + key }

// randomVisits makes n visits of a link spread over days days from start, with a few values
// of every property, some unknown, a tenth crawlers, and people who come back.
func randomVisits(rng *rand.Rand, n int, workspaceID, linkID int64, start time.Time, days int) []visit.Event {
	pick := func(vs ...string) string { return vs[rng.IntN(len(vs))] }
	out := make([]visit.Event, n)
	for i := range out {
		out[i] = visit.Event{
			ID:          uuid.New(),
			At:          start.Add(time.Duration(rng.Int64N(int64(days) * int64(24*time.Hour)))).Truncate(time.Microsecond),
			LinkID:      linkID,
			WorkspaceID: workspaceID,
			Variant:     rng.IntN(4) - 1,
			Country:     pick("CN", "US", "DE", ""),
			Device:      pick("ios", "android", "desktop", "other"),
			OS:          pick("iOS", "Android", "Windows", ""),
			Browser:     pick("Safari", "Chrome", "WebView"),
			Referrer:    pick("", "google.com", "t.co", "weibo.com"),
			InApp:       pick("", "", "WeChat", "QQ"),
			Crawler:     rng.IntN(10) == 0,
			Visitor:     []byte(fmt.Sprintf("v%d", rng.IntN(n/4+1))),
		}
	}
	return out
}

// expected computes, from the visits themselves, what the statistics of [from, to) are.
func expected(evs []visit.Event, from, to time.Time, variants []link.Variant) (visits, uniques, bots int64, keys map[string]int64) {
	keys = map[string]int64{}
	first := map[string]time.Time{} // a person's first visit of each UTC day
	for _, e := range evs {
		if e.Crawler {
			continue
		}
		k := e.At.UTC().Format(time.DateOnly) + string(e.Visitor)
		if f, ok := first[k]; !ok || e.At.Before(f) {
			first[k] = e.At
		}
	}
	for _, f := range first {
		if !f.Before(from) && f.Before(to) {
			uniques++
		}
	}
	for _, e := range evs {
		if e.At.Before(from) || !e.At.Before(to) {
			continue
		}
		if e.Crawler {
			bots++
			continue
		}
		visits++
		variant := ""
		if e.Variant >= 0 {
			variant = fmt.Sprintf("#%d", e.Variant)
			if e.Variant < len(variants) {
				variant = variants[e.Variant].URL
			}
		}
		for dim, v := range map[string]string{"country": e.Country, "device": e.Device, "os": e.OS, "browser": e.Browser,
			"referrer": e.Referrer, "variant": variant, "in_app": e.InApp} {
			if v != "" {
				keys[dim+"="+v]++
			}
		}
	}
	return visits, uniques, bots, keys
}

func flatten(b stats.Breakdowns) map[string]int64 {
	out := map[string]int64{}
	for dim, list := range map[string][]stats.Count{"country": b.Country, "device": b.Device, "os": b.OS, "browser": b.Browser,
		"referrer": b.Referrer, "variant": b.Variant, "in_app": b.InApp} {
		for _, c := range list {
			out[dim+"="+c.Key] = c.Visits
		}
		if !slices.IsSortedFunc(list, func(a, b stats.Count) int {
			if a.Visits != b.Visits {
				return int(b.Visits - a.Visits)
			}
			return compareStrings(a.Key, b.Key)
		}) {
			out["unsorted "+dim] = 1
		}
	}
	return out
}

func compareStrings(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// TestLinkStatsMatchVisits stores random visits through the real insert and checks that, for
// ranges of every shape in several zones, the statistics read from the rollups (whole days from
// the daily ones, the ends from the hourly ones) are what the visits themselves say.
func TestLinkStatsMatchVisits(t *testing.T) {
	t.Parallel()
	db := testenv.DB(t)
	ctx := context.Background()
	accounts, links := postgres.NewAccountStore(db), postgres.NewLinkStore(db)
	_, ws := newUser(t, accounts, "stats@example.com")
	_, other := newUser(t, accounts, "other@example.com")
	insertLink(t, links, ws.ID, 1)
	insertLink(t, links, other.ID, 2)
	variants := []link.Variant{{URL: "https://a.example/", Weight: 1}, {URL: "https://b.example/", Weight: 1}}
	if _, err := db.Pool.Exec(ctx, `UPDATE links SET rules = '{"variants":[{"url":"https://a.example/","weight":1},{"url":"https://b.example/","weight":1}]}' WHERE id = 1`); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	start := time.Date(2025, 3, 7, 0, 0, 0, 0, time.UTC)
	evs := randomVisits(rng, 3000, ws.ID, 1, start, 6)
	// Visits reach the store in about the order they happened: a person is unique in the hour
	// of the first visit stored that day.
	slices.SortFunc(evs, func(a, b visit.Event) int { return a.At.Compare(b.At) })
	visits := postgres.NewVisits(db)
	for b := range slices.Chunk(evs, 700) {
		if _, err := visits.Insert(ctx, []visit.Batch{b}); err != nil {
			t.Fatal(err)
		}
	}
	// Another link's visits, in the same hours, count for none of link 1's numbers.
	if _, err := visits.Insert(ctx, []visit.Batch{randomVisits(rng, 300, other.ID, 2, start, 6)}); err != nil {
		t.Fatal(err)
	}
	svc := stats.NewService(postgres.NewStatsStore(db), statsLinks{links})

	queries := []stats.Query{
		{From: "2025-03-07", To: "2025-03-12"},
		{From: "2025-03-08", To: "2025-03-09", TZ: "Asia/Shanghai"},
		{From: "2025-03-08", To: "2025-03-10", TZ: "America/New_York"},
		{From: "2025-03-09T13:20:00Z", To: "2025-03-09T18:00:00Z"},
		{From: "2025-03-07T23:00:00Z", To: "2025-03-09T01:00:00Z"},
		{From: "2025-03-07", To: "2025-03-12", TZ: "Asia/Kolkata"},
		{From: "2025-03-01", To: "2025-03-08", TZ: "Pacific/Kiritimati"},
	}
	for i := range 20 {
		from := start.Add(time.Duration(rng.IntN(6*24)) * time.Hour)
		to := from.Add(time.Duration(1+rng.IntN(4*24)) * time.Hour)
		queries = append(queries, stats.Query{From: from.Format(time.RFC3339), To: to.Format(time.RFC3339), TZ: []string{"", "Europe/Berlin", "Asia/Tokyo"}[i%3]})
	}
	for _, q := range queries {
		r, err := q.Range(start, stats.LinkDays)
		if err != nil {
			t.Fatalf("%+v: %v", q, err)
		}
		got, err := svc.Link(ctx, ws.ID, 1, r)
		if err != nil {
			t.Fatalf("%+v: %v", q, err)
		}
		hr := r.Hours()
		v, u, b, keys := expected(evs, hr.From, hr.To, variants)
		if got.Visits != v || got.UniqueVisitors != u || got.Bots != b {
			t.Errorf("%+v: visits, uniques, bots = %d %d %d, want %d %d %d", q, got.Visits, got.UniqueVisitors, got.Bots, v, u, b)
		}
		if g := flatten(got.Breakdowns); fmt.Sprint(g) != fmt.Sprint(keys) {
			t.Errorf("%+v: breakdowns\n%v\nwant\n%v", q, g, keys)
		}
		var daily, dailyBots int64
		for i, p := range got.Series.Daily {
			daily += p.Visits
			dailyBots += p.Bots
			if p.Start.Location() != r.Loc || p.Start.Hour() != 0 || (i > 0 && !p.Start.After(got.Series.Daily[i-1].Start)) {
				t.Errorf("%+v: day %d starts %v", q, i, p.Start)
			}
		}
		if daily != v || dailyBots != b {
			t.Errorf("%+v: the days add up to %d and %d bots, want %d and %d", q, daily, dailyBots, v, b)
		}
		wantHours := min(48, int(hr.To.Sub(hr.From)/time.Hour))
		if len(got.Series.Hourly) != wantHours || !got.Series.Hourly[wantHours-1].Start.Equal(hr.To.Add(-time.Hour)) {
			t.Errorf("%+v: %d hours ending %v", q, len(got.Series.Hourly), got.Series.Hourly[len(got.Series.Hourly)-1].Start)
		}
		lastHours, _, lastBots, _ := expected(evs, hr.To.Add(-time.Duration(wantHours)*time.Hour), hr.To, nil)
		var hv, hb int64
		for _, p := range got.Series.Hourly {
			hv += p.Visits
			hb += p.Bots
		}
		if hv != lastHours || hb != lastBots {
			t.Errorf("%+v: the hours add up to %d and %d bots, want %d and %d", q, hv, hb, lastHours, lastBots)
		}
	}

	// The link of another workspace is not found, whatever the range.
	r, _ := stats.Query{}.Range(start, stats.LinkDays)
	if _, err := svc.Link(ctx, ws.ID, 2, r); !apperr.Is(err, apperr.NotFound) {
		t.Errorf("another workspace's link: %v", err)
	}
}

// TestLinkStatsKeyLimit: a breakdown lists the MaxKeys keys with most visits, ties by key.
func TestLinkStatsKeyLimit(t *testing.T) {
	t.Parallel()
	db := testenv.DB(t)
	ctx := context.Background()
	_, ws := newUser(t, postgres.NewAccountStore(db), "keys@example.com")
	links := postgres.NewLinkStore(db)
	insertLink(t, links, ws.ID, 1)
	at := time.Date(2025, 3, 10, 12, 0, 0, 0, time.UTC)
	var evs []visit.Event
	for i := range stats.MaxKeys + 20 {
		n := 1
		if i%10 == 0 {
			n = 3 // r000, r010, … lead
		}
		for range n {
			evs = append(evs, visit.Event{ID: uuid.New(), At: at, LinkID: 1, WorkspaceID: ws.ID, Variant: -1,
				Referrer: fmt.Sprintf("r%03d.example", i), Visitor: []byte{byte(i)}})
		}
	}
	if _, err := postgres.NewVisits(db).Insert(ctx, []visit.Batch{evs}); err != nil {
		t.Fatal(err)
	}
	svc := stats.NewService(postgres.NewStatsStore(db), statsLinks{links})
	for _, q := range []stats.Query{{From: "2025-03-10", To: "2025-03-10"}, {From: "2025-03-10T11:00:00Z", To: "2025-03-10T13:00:00Z"}} {
		r, _ := q.Range(at, stats.LinkDays)
		got, err := svc.Link(ctx, ws.ID, 1, r)
		if err != nil {
			t.Fatal(err)
		}
		refs := got.Breakdowns.Referrer
		if len(refs) != stats.MaxKeys || refs[0] != (stats.Count{Key: "r000.example", Visits: 3}) ||
			refs[11] != (stats.Count{Key: "r110.example", Visits: 3}) || refs[12] != (stats.Count{Key: "r001.example", Visits: 1}) ||
			refs[99].Key != "r097.example" {
			t.Errorf("%+v: referrers %v", q, refs)
		}
	}
}

// TestStatsExportStore: every link by ID across pages with its totals, and the store refuses
// a dashboard of no workspace.
func TestStatsExportStore(t *testing.T) {
	t.Parallel()
	db := testenv.DB(t)
	ctx := context.Background()
	_, ws := newUser(t, postgres.NewAccountStore(db), "export@example.com")
	_, other := newUser(t, postgres.NewAccountStore(db), "other@example.com")
	links := postgres.NewLinkStore(db)
	const n = 2345
	now := time.Now().UTC()
	var batch []*link.Link
	for i := range n {
		batch = append(batch, &link.Link{ID: int64(i + 1), WorkspaceID: ws.ID, Key: fmt.Sprintf("k%d", i+1), URL: "https://example.com/",
			RedirectStatus: 302, Status: link.StatusActive, CreatedAt: now, UpdatedAt: now})
	}
	for b := range slices.Chunk(batch, 1000) {
		if _, err := links.Insert(ctx, b); err != nil {
			t.Fatal(err)
		}
	}
	insertLink(t, links, other.ID, n+1)
	at := time.Date(2025, 3, 10, 12, 0, 0, 0, time.UTC)
	evs := []visit.Event{
		{ID: uuid.New(), At: at, LinkID: 1500, WorkspaceID: ws.ID, Variant: -1, Visitor: []byte("a")},
		{ID: uuid.New(), At: at, LinkID: 1500, WorkspaceID: ws.ID, Variant: -1, Visitor: []byte("a")},
		{ID: uuid.New(), At: at, LinkID: 1500, WorkspaceID: ws.ID, Variant: -1, Visitor: []byte("b"), Crawler: true},
		{ID: uuid.New(), At: at, LinkID: n + 1, WorkspaceID: other.ID, Variant: -1, Visitor: []byte("a")},
	}
	if _, err := postgres.NewVisits(db).Insert(ctx, []visit.Batch{evs}); err != nil {
		t.Fatal(err)
	}
	svc := stats.NewService(postgres.NewStatsStore(db), statsLinks{links})
	var seen int64
	for l, err := range svc.ExportLinks(ctx, ws.ID, link.Filter{Archived: link.ArchivedAll}) {
		if err != nil {
			t.Fatal(err)
		}
		seen++
		if l.ID != seen || l.ShortURL != "https://sho.rt/"+l.Key {
			t.Fatalf("link %d after %d: %+v", l.ID, seen-1, l)
		}
		want := [3]int64{}
		if l.ID == 1500 {
			want = [3]int64{2, 1, 1}
		}
		if got := [3]int64{l.Visits, l.Uniques, l.Bots}; got != want {
			t.Errorf("link %d totals %v, want %v", l.ID, got, want)
		}
	}
	if seen != n {
		t.Errorf("%d links exported, want %d", seen, n)
	}
	if _, err := postgres.NewStatsStore(db).Activity(ctx, stats.Scope{}, at, at.Add(time.Hour), 10); err == nil {
		t.Error("a dashboard of no workspace was answered")
	}
}
