// Command listq times the links list through the HTTP API (docs/benchmarks.md#workspaces-of-10-million-links):
// for each case, pages of 50 walked by next_cursor from the first, warm (one walk untimed
// first), one request at a time; prints each case's p50, p95 and p99 as a table.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
	"time"
)

// cases are the list's queries measured, by name; the tags, domains and texts are the seed's
// (bench/seed).
var cases = []struct{ name, query string }{
	{"newest first", ""},
	{"oldest first", "sort=created"},
	{"most visits", "sort=-visits"},
	{"least visits", "sort=visits"},
	{"recently updated", "sort=updated"},
	{"tag on half, newest", "tag=sms-all"},
	{"tag on half, most visits", "tag=sms-all&sort=-visits"},
	{"tag on half, least visits", "tag=sms-all&sort=visits"},
	{"tag on 1,000, newest", "tag=vip"},
	{"tag on 1,000, most visits", "tag=vip&sort=-visits"},
	{"largest campaign, most visits", "tag=campaign-0001&sort=-visits"},
	{"small campaign, most visits", "tag=campaign-0900&sort=-visits"},
	{"two tags", "tag=sms-all&tag=campaign-0002"},
	{"two tags, most visits", "tag=sms-all&tag=campaign-0002&sort=-visits"},
	{"domain", "domain=go.shop-a.com"},
	{"domain, most visits", "domain=go.shop-a.com&sort=-visits"},
	{"status active", "status=active"},
	{"status disabled", "status=disabled"},
	{"status disabled, most visits", "status=disabled&sort=-visits"},
	{"status banned", "status=banned"},
	{"status held", "status=held"},
	{"status expired", "status=expired"},
	{"health broken", "health=broken"},
	{"health ok, most visits", "health=ok&sort=-visits"},
	{"search title word", "q=parcel"},
	{"search title, Chinese", "q=" + url.QueryEscape("春季")},
	{"search URL infix", "q=new-arrivals%2Fcampaign-0450"},
	{"search URL prefix", "q=" + url.QueryEscape("https://bank-z")},
	{"search nothing holds", "q=zzqxv"},
	{"search title, most visits", "q=parcel&sort=-visits"},
	{"tag on half + search", "tag=sms-all&q=coupon"},
	{"tag on half + disabled + most visits", "tag=sms-all&status=disabled&sort=-visits"},
	{"domain + search", "domain=go.shop-a.com&q=renew"},
	{"search title word, oldest first", "q=parcel&sort=created"},
	{"search title, Chinese, four characters", "q=" + url.QueryEscape("包裹正在")},
	{"search a title's number (few links)", "q=777777"},
	{"search a title's number, most visits", "q=777777&sort=-visits"},
	{"search title, Chinese with a number (few links)", "q=" + url.QueryEscape("第777777号")},
	{"search + disabled", "status=disabled&q=parcel"},
	{"search + tag on 1,000", "tag=vip&q=parcel"},
}

func main() {
	base := flag.String("api", "", "the workspace's links URL: http://host/api/v1/workspaces/ID/links")
	key := flag.String("key", "", "an API key with links:read")
	walks := flag.Int("walks", 8, "timed walks of each case")
	pages := flag.Int("pages", 5, "pages a walk follows by next_cursor")
	only := flag.String("only", "", "only the cases whose name holds this")
	flag.Parse()
	c := &client{base: *base, key: *key, http: &http.Client{Timeout: time.Minute}}
	fmt.Printf("| query | parameters | requests | p50 ms | p95 ms | p99 ms | links on the first page |\n|---|---|---|---|---|---|---|\n")
	failed := false
	for _, tc := range cases {
		if *only != "" && !strings.Contains(tc.name, *only) {
			continue
		}
		first, _, err := c.walk(tc.query, *pages) // warm
		if err != nil {
			fmt.Printf("| %s | `%s` | | | | | %v |\n", tc.name, tc.query, err)
			failed = true
			continue
		}
		var times []time.Duration
		budget := time.Now().Add(20 * time.Second)
		for w := 0; w < *walks && time.Now().Before(budget); w++ {
			_, t, err := c.walk(tc.query, *pages)
			if err != nil {
				fmt.Fprintln(os.Stderr, tc.name, err)
				failed = true
				break
			}
			times = append(times, t...)
		}
		slices.Sort(times)
		fmt.Printf("| %s | `%s` | %d | %.1f | %.1f | %.1f | %d |\n", tc.name, tc.query, len(times),
			ms(pct(times, 50)), ms(pct(times, 95)), ms(pct(times, 99)), first)
	}
	if failed {
		os.Exit(1)
	}
}

type client struct {
	base, key string
	http      *http.Client
}

// walk reads up to pages pages of query, following next_cursor, and answers how many links
// the first held and each page's time.
func (c *client) walk(query string, pages int) (int, []time.Duration, error) {
	var times []time.Duration
	first := -1
	cursor := ""
	for range pages {
		q := query
		if cursor != "" {
			q += "&cursor=" + url.QueryEscape(cursor)
		}
		start := time.Now()
		var page struct {
			Links      []json.RawMessage `json:"links"`
			NextCursor string            `json:"next_cursor"`
		}
		if err := c.get(q+"&limit=50", &page); err != nil {
			return 0, nil, err
		}
		times = append(times, time.Since(start))
		if first < 0 {
			first = len(page.Links)
		}
		if cursor = page.NextCursor; cursor == "" {
			break
		}
	}
	return first, times, nil
}

func (c *client) get(query string, v any) error {
	req, err := http.NewRequest(http.MethodGet, c.base+"?"+strings.TrimPrefix(query, "&"), nil)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+c.key)
	resp, err := c.http.Do(req)
	if err != nil {
		return err
	}
	defer func() { _ = resp.Body.Close() }()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s: %s", resp.Status, strings.TrimSpace(string(body)))
	}
	return json.Unmarshal(body, v)
}

func pct(d []time.Duration, p int) time.Duration {
	if len(d) == 0 {
		return 0
	}
	return d[min(len(d)-1, (len(d)*p+99)/100-1)]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
