package e2e

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net/http"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/shortlink/shortlink/backend/postgres"
	"github.com/shortlink/shortlink/backend/stats"
	"github.com/shortlink/shortlink/backend/testenv"
	"github.com/shortlink/shortlink/backend/visit"
)

// benchLinks gives the statistics service the links of the store.
type benchLinks struct{ *postgres.LinkStore }

func (benchLinks) ShortURL(_ int64, key string) string { return "http://" + shortHost + "/" + key }

// BenchmarkLinkStats10M fills a fresh database with 10,000,000 visits of one busy link over
// the last 90 days (and 5% more spread over 20 other links of the workspace) through
// postgres.Visits.Insert, 10,000 at a time, so that every rollup is the one the ingest keeps;
// then times a link's statistics over the default 90 days through the service and store, in UTC
// and in Asia/Shanghai, over the last 7 days, and through HTTP, and again filtered by a country
// (and a device), which reads the raw visits. It takes a while (see
// docs/architecture.md), so it runs only with STATS_BENCH=1; STATS_BENCH_VISITS sets another number of visits.
//
//	STATS_BENCH=1 deploy/local/with-services.sh go test -run '^$' -bench LinkStats10M -benchtime 100x -timeout 3h ./backend/e2e
func BenchmarkLinkStats10M(b *testing.B) {
	if os.Getenv("STATS_BENCH") == "" {
		b.Skip("set STATS_BENCH=1 to fill a database with 10 million visits and time the statistics")
	}
	total := 10_000_000
	if v := os.Getenv("STATS_BENCH_VISITS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1000 {
			b.Fatalf("STATS_BENCH_VISITS=%q: a number of at least 1000", v)
		}
		total = n
	}
	ctx := context.Background()
	dbURL := testenv.DatabaseURL(b)
	base := startBenchServer(b, "DATABASE_URL", dbURL,
		"OPERATOR_EMAIL", "operator@sho.rt", "OPERATOR_PASSWORD", "operator-password",
		"PLAN_LIMITS", "enterprise.requests_per_minute=unlimited")
	db, err := postgres.Open(ctx, dbURL)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(db.Close)

	// A workspace on enterprise with the busy link (three variants) and its neighbours.
	client := &http.Client{Timeout: time.Minute}
	call := func(method, path, token string, body any, out any) {
		b.Helper()
		var rd io.Reader
		if body != nil {
			buf, _ := json.Marshal(body)
			rd = bytes.NewReader(buf)
		}
		req, _ := http.NewRequest(method, base+path, rd)
		req.Header.Set("Content-Type", "application/json")
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		res, err := client.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		defer func() { _ = res.Body.Close() }()
		raw, _ := io.ReadAll(res.Body)
		if res.StatusCode >= 300 {
			b.Fatalf("%s %s: %d %s", method, path, res.StatusCode, raw)
		}
		if out != nil {
			if err := json.Unmarshal(raw, out); err != nil {
				b.Fatal(err)
			}
		}
	}
	var user struct {
		Workspace   struct{ ID int64 }
		AccessToken string `json:"access_token"`
	}
	call("POST", "/api/v1/auth/signup", "", map[string]any{"email": "busy@example.com", "password": "correct horse battery"}, &user)
	var op struct {
		AccessToken string `json:"access_token"`
	}
	call("POST", "/api/v1/auth/login", "", map[string]any{"email": "operator@sho.rt", "password": "operator-password"}, &op)
	ws := user.Workspace.ID
	call("PATCH", fmt.Sprintf("/api/v1/admin/workspaces/%d", ws), op.AccessToken, map[string]any{"plan": "enterprise"}, nil)
	links := fmt.Sprintf("/api/v1/workspaces/%d/links", ws)
	var busy struct{ ID int64 }
	call("POST", links, user.AccessToken, map[string]any{"url": "https://shop.example/sale", "variants": []any{
		map[string]any{"url": "https://shop.example/a", "weight": 50},
		map[string]any{"url": "https://shop.example/b", "weight": 30},
		map[string]any{"url": "https://shop.example/c", "weight": 20},
	}}, &busy)
	noise := make([]int64, 20)
	for i := range noise {
		var l struct{ ID int64 }
		call("POST", links, user.AccessToken, map[string]any{"url": fmt.Sprintf("https://shop.example/%d", i)}, &l)
		noise[i] = l.ID
	}

	end := time.Now()
	start := end.Add(-90 * 24 * time.Hour)
	visits := postgres.NewVisits(db)
	if err := visits.CreatePartitions(ctx, start, 92); err != nil {
		b.Fatal(err)
	}
	began := time.Now()
	fillVisits(b, visits, ws, busy.ID, noise, total, start, end)
	filled := time.Since(began)
	// What autovacuum does in the background on a running system, done now: the planner's
	// statistics and the visibility map of the rollups.
	if _, err := db.Pool.Exec(ctx, `VACUUM ANALYZE visits, visit_hours, visit_key_hours, visit_key_days, visit_totals, workspace_visit_hours`); err != nil {
		b.Fatal(err)
	}
	var rows int64
	if err := db.Pool.QueryRow(ctx, `SELECT count(*) FROM visits`).Scan(&rows); err != nil {
		b.Fatal(err)
	}
	b.Logf("filled %d visits (%d of the busy link) in %v: %.0f visits/s", rows, total, filled.Round(time.Second), float64(rows)/filled.Seconds())

	svc := stats.NewService(postgres.NewStatsStore(db), benchLinks{postgres.NewLinkStore(db)})
	for _, c := range []struct {
		name string
		q    stats.Query
		f    stats.Filter
	}{
		{"service/90d-UTC", stats.Query{}, nil},
		{"service/90d-Shanghai", stats.Query{TZ: "Asia/Shanghai"}, nil},
		{"service/7d-NewYork", stats.Query{From: end.AddDate(0, 0, -6).Format(time.DateOnly), TZ: "America/New_York"}, nil},
		// Filtered, from the raw visits: the most common country, and a rarer pair.
		{"service/90d-UTC-country", stats.Query{}, stats.Filter{stats.Country: "CN"}},
		{"service/90d-UTC-country-device", stats.Query{}, stats.Filter{stats.Country: "DE", stats.Device: "ios"}},
		{"service/7d-NewYork-country", stats.Query{From: end.AddDate(0, 0, -6).Format(time.DateOnly), TZ: "America/New_York"}, stats.Filter{stats.Country: "CN"}},
	} {
		b.Run(c.name, func(b *testing.B) {
			var st *stats.LinkStats
			for b.Loop() {
				r, err := c.q.Range(time.Now(), stats.LinkDays)
				if err != nil {
					b.Fatal(err)
				}
				if st, err = svc.LinkFiltered(ctx, ws, busy.ID, r, c.f); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/op")
			b.Logf("%s: %d visits, %d unique visitors, %d bots, %d days, %d referrers", c.name, st.Visits,
				st.UniqueVisitors, st.Bots, len(st.Series.Daily), len(st.Breakdowns.Referrer))
		})
	}
	b.Run("http/90d-UTC", func(b *testing.B) {
		path := fmt.Sprintf("/api/v1/workspaces/%d/links/%d/stats", ws, busy.ID)
		for b.Loop() {
			call("GET", path, user.AccessToken, nil, nil)
		}
		b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/op")
	})
	b.Run("http/90d-UTC-country", func(b *testing.B) {
		path := fmt.Sprintf("/api/v1/workspaces/%d/links/%d/stats?country=CN", ws, busy.ID)
		for b.Loop() {
			call("GET", path, user.AccessToken, nil, nil)
		}
		b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/op")
	})
}

// fillVisits stores total visits of the busy link between start and end, in time order, plus
// 5% more of the noise links, in batches of 10,000 from two writers: 50 countries, 4 devices,
// 6 systems, 8 browsers, 200 referrers (a third of the visits without one), 3 variants, a few
// in-app browsers, 10% crawlers, and people drawn from two million, the most regular ones
// coming back every day.
func fillVisits(b *testing.B, store *postgres.Visits, ws, busy int64, noise []int64, total int, start, end time.Time) {
	const batch = 10_000
	countries := []string{"CN", "US", "DE", "JP", "GB", "FR", "IN", "BR", "KR", "CA", "AU", "RU", "IT", "ES", "MX",
		"ID", "NL", "TR", "SA", "CH", "SE", "PL", "BE", "TW", "HK", "SG", "TH", "VN", "MY", "PH", "AR", "ZA", "EG",
		"NG", "AE", "IL", "AT", "DK", "NO", "FI", "IE", "PT", "GR", "CZ", "RO", "HU", "NZ", "CL", "CO", "PK"}
	referrers := make([]string, 200)
	for i := range referrers {
		referrers[i] = fmt.Sprintf("site%03d.example", i)
	}
	copy(referrers, []string{"google.com", "weibo.com", "t.co", "facebook.com", "baidu.com", "mp.weixin.qq.com"})
	devices := []string{"ios", "android", "desktop", "other"}
	systems := map[string][]string{"ios": {"iOS"}, "android": {"Android", "HarmonyOS"}, "desktop": {"Windows", "macOS", "Linux"}, "other": {"Other"}}
	browsers := []string{"Safari", "Chrome", "WebView", "Firefox", "Edge", "Samsung Internet", "QQ Browser", "UC Browser"}
	inApps := []string{"WeChat", "QQ", "Weibo", "DingTalk"}

	// zipf picks index i of n with odds about 1/(i+1).
	zipf := func(rng *rand.Rand, n int) int {
		return min(n-1, int(math.Exp(rng.Float64()*math.Log(float64(n+1))))-1)
	}
	events := int(float64(total) * 1.05)
	step := end.Sub(start) / time.Duration(events)
	jobs := make(chan int)
	var wg sync.WaitGroup
	var failed error
	var mu sync.Mutex
	for w := range 2 {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(w), 7))
			buf := make([]visit.Event, 0, batch)
			for first := range jobs {
				buf = buf[:0]
				for i := first; i < min(first+batch, events); i++ {
					at := start.Add(time.Duration(i) * step)
					link := busy
					if i%21 == 20 {
						link = noise[rng.IntN(len(noise))]
					}
					device := devices[zipf(rng, len(devices))]
					person := uint64(rng.IntN(2_000_000))
					if rng.IntN(3) == 0 {
						person %= 20_000 // the regulars
					}
					day := uint64(at.Unix() / 86400)
					var hash [16]byte
					binary.LittleEndian.PutUint64(hash[:8], mix(day<<32|person))
					binary.LittleEndian.PutUint64(hash[8:], mix(person<<20^day))
					e := visit.Event{
						ID: uuid.New(), At: at, LinkID: link, WorkspaceID: ws,
						Variant: -1, Country: countries[zipf(rng, len(countries))],
						Device: device, OS: systems[device][rng.IntN(len(systems[device]))],
						Browser: browsers[zipf(rng, len(browsers))],
						Crawler: rng.IntN(10) == 0, Visitor: hash[:],
					}
					if link == busy {
						e.Variant = []int{0, 0, 0, 0, 0, 1, 1, 1, 2, 2}[rng.IntN(10)]
					}
					if rng.IntN(3) > 0 {
						e.Referrer = referrers[zipf(rng, len(referrers))]
					}
					if device != "desktop" && rng.IntN(5) == 0 {
						e.InApp, e.Browser = inApps[zipf(rng, len(inApps))], "WebView"
					}
					if e.Crawler {
						e.Country, e.Device, e.OS, e.Browser, e.InApp, e.Variant = "US", "other", "", "Googlebot", "", -1
					}
					buf = append(buf, e)
				}
				if _, err := store.Insert(context.Background(), []visit.Batch{buf}); err != nil {
					mu.Lock()
					failed = err
					mu.Unlock()
				}
			}
		})
	}
	began := time.Now()
	for first := 0; first < events; first += batch {
		jobs <- first
		if n := first / batch; n > 0 && n%100 == 0 {
			b.Logf("%d of %d visits stored after %v", first, events, time.Since(began).Round(time.Second))
		}
		mu.Lock()
		err := failed
		mu.Unlock()
		if err != nil {
			break
		}
	}
	close(jobs)
	wg.Wait()
	if failed != nil {
		b.Fatal(failed)
	}
}

// mix is SplitMix64's finaliser: distinct inputs, unrelated outputs.
func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}
