// Command statq times the statistics through the HTTP API (docs/benchmarks.md#statistics-at-a-billion-visits):
// the workspace dashboard and a few links' statistics over 7, 30, 90 and 365 days, and the
// links list by visits. Each case's first answer is timed apart (the dashboard keeps a slow
// reading, so later ones may be served from it), then the case is asked again one request at
// a time, warm, and its p50, p95 and p99 are printed as a table.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"
)

func main() {
	base := flag.String("api", "", "the workspace's URL: http://host/api/v1/workspaces/ID")
	key := flag.String("key", "", "an API key with stats:read and links:read")
	links := flag.String("links", "", "links to read the statistics of, as name=ID,name=ID")
	times := flag.Int("times", 20, "timed requests of each case after the first")
	only := flag.String("only", "", "only the cases whose name holds this")
	flag.Parse()
	c := &client{base: *base, key: *key, http: &http.Client{Timeout: 5 * time.Minute}}
	fmt.Printf("| read | parameters | first ms | requests | p50 ms | p95 ms | p99 ms | visits answered |\n|---|---|---|---|---|---|---|---|\n")
	failed := false
	for _, tc := range cases(time.Now(), *links) {
		if *only != "" && !strings.Contains(tc.name, *only) {
			continue
		}
		first, visits, err := c.get(tc.path)
		if err != nil {
			fmt.Printf("| %s | `%s` | | | | | | %v |\n", tc.name, tc.path, err)
			failed = true
			continue
		}
		var ts []time.Duration
		budget := time.Now().Add(30 * time.Second)
		for i := 0; i < *times && time.Now().Before(budget); i++ {
			t, _, err := c.get(tc.path)
			if err != nil {
				fmt.Fprintln(os.Stderr, tc.name, err)
				failed = true
				break
			}
			ts = append(ts, t)
		}
		slices.Sort(ts)
		fmt.Printf("| %s | `%s` | %.1f | %d | %.1f | %.1f | %.1f | %d |\n", tc.name, tc.path, ms(first), len(ts),
			ms(pct(ts, 50)), ms(pct(ts, 95)), ms(pct(ts, 99)), visits)
	}
	if failed {
		os.Exit(1)
	}
}

type testCase struct{ name, path string }

// cases are the reads measured: ranges of whole days ending today, as the web app asks them.
func cases(now time.Time, links string) []testCase {
	days := func(n int, loc *time.Location) string {
		today := now.In(loc)
		return "from=" + today.AddDate(0, 0, 1-n).Format(time.DateOnly) + "&to=" + today.Format(time.DateOnly)
	}
	shanghai, _ := time.LoadLocation("Asia/Shanghai")
	newYork, _ := time.LoadLocation("America/New_York")
	out := []testCase{{"dashboard, 14 days (default)", "/stats"}}
	for _, n := range []int{7, 30, 90, 365} {
		out = append(out, testCase{"dashboard, " + strconv.Itoa(n) + " days", "/stats?" + days(n, time.UTC)})
	}
	out = append(out, testCase{"links list, most visits", "/links?sort=-visits&limit=50"})
	for _, l := range strings.Split(links, ",") {
		name, id, ok := strings.Cut(l, "=")
		if !ok {
			continue
		}
		p := "/links/" + id + "/stats"
		out = append(out, testCase{"link " + name + ", 90 days (default)", p})
		for _, n := range []int{7, 30, 365} {
			out = append(out, testCase{"link " + name + ", " + strconv.Itoa(n) + " days", p + "?" + days(n, time.UTC)})
		}
		out = append(out,
			testCase{"link " + name + ", 90 days, Asia/Shanghai", p + "?" + days(90, shanghai) + "&tz=Asia/Shanghai"},
			testCase{"link " + name + ", 90 days, America/New_York", p + "?" + days(90, newYork) + "&tz=America/New_York"})
	}
	return out
}

type client struct {
	base, key string
	http      *http.Client
}

// get answers the time of one request and the people's visits its answer counts.
func (c *client) get(path string) (time.Duration, int64, error) {
	req, err := http.NewRequest(http.MethodGet, c.base+path, nil)
	if err != nil {
		return 0, 0, err
	}
	req.Header.Set("Authorization", "Bearer "+c.key)
	start := time.Now()
	resp, err := c.http.Do(req)
	if err != nil {
		return 0, 0, err
	}
	defer func() { _ = resp.Body.Close() }()
	body, err := io.ReadAll(resp.Body)
	took := time.Since(start)
	if err != nil {
		return 0, 0, err
	}
	if resp.StatusCode != http.StatusOK {
		return 0, 0, fmt.Errorf("%s: %s", resp.Status, strings.TrimSpace(string(body)))
	}
	var v struct {
		Visits int64 `json:"visits"`
		Days   []struct {
			Visits int64 `json:"visits"`
		} `json:"days"`
		Links []struct {
			Visits int64 `json:"visits"`
		} `json:"links"`
	}
	if err := json.Unmarshal(body, &v); err != nil {
		return 0, 0, err
	}
	n := v.Visits
	for _, d := range v.Days {
		n += d.Visits
	}
	for _, l := range v.Links {
		n += l.Visits
	}
	return took, n, nil
}

func pct(d []time.Duration, p int) time.Duration {
	if len(d) == 0 {
		return 0
	}
	return d[min(len(d)-1, (len(d)*p+99)/100-1)]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
