package e2e

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/moderation"
)

// hit is one visit sent in TestVisitAnalytics: who, from where, with which referrer.
type hit struct {
	from, ua, referer string
}

// sendHit asks for the short link as the hit's browser, and answers the status and Location.
func (s *server) sendHit(code string, h hit) (int, string) {
	s.t.Helper()
	req, err := http.NewRequest("GET", s.base+"/"+code, nil)
	if err != nil {
		s.t.Fatal(err)
	}
	req.Host = shortHost
	req.Header.Set("X-Forwarded-For", h.from)
	req.Header.Set("User-Agent", h.ua)
	if h.referer != "" {
		req.Header.Set("Referer", h.referer)
	}
	res, err := noRedirects.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	_ = res.Body.Close()
	return res.StatusCode, res.Header.Get("Location")
}

var noRedirects = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

// keyMap is a breakdown as a map of keys to visits.
func keyMap(list []countJSON) map[string]int64 {
	m := map[string]int64{}
	for _, k := range list {
		m[k.Key] = k.Visits
	}
	return m
}

// TestVisitAnalytics sends visits with known countries, devices, systems, browsers, referrers,
// variants and crawlers through real redirects on two server processes, and reads exactly
// those numbers back in the link's statistics, the dashboards and both exports (docs/architecture.md#statistics).
// It also checks that the visit cap's counter agrees, and that milestones reach the moderation
// queue.
func TestVisitAnalytics(t *testing.T) {
	d := rulesDeployment(t)
	s1, s2 := d.start(t), d.start(t)
	tn := s1.signupOn("numbers@example.com", "enterprise")
	plain := s1.createLink(tn, map[string]any{"url": "https://example.com/plain"})
	ab := s1.createLink(tn, map[string]any{"url": "https://example.com/ab", "variants": []map[string]any{
		{"url": "https://a.example.com/", "weight": 50}, {"url": "https://b.example.com/", "weight": 50}}})
	capped := s1.createLink(tn, map[string]any{"url": "https://example.com/capped", "max_visits": 5})

	uaLinux := "Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0"
	people := []hit{
		{fromDE, uaDesktop, ""}, {fromDE, uaDesktop, ""}, {fromDE, uaDesktop, ""}, // one person, thrice
		{fromCN, uaIPhone, "https://t.co/abc"}, {"10.2.0.8", uaIPhone, "https://T.co/def"},
		{fromRU, uaAndroid, "https://news.example.org/a?b=c"},
		{fromXX, uaLinux, ""},
	}
	bots := []hit{{fromDE, uaBot, ""}, {fromCN, uaBot, ""}, {fromXX, uaTwitter, ""}}
	nodes := []*server{s1, s2}
	for i, h := range append(append([]hit{}, people...), bots...) {
		if st, _ := nodes[i%2].sendHit(plain.Code, h); st != http.StatusFound {
			t.Fatalf("visit %d of the plain link: %d", i, st)
		}
	}
	// Four people on the A/B link; each variant is counted as the redirect chose it.
	variantWant := map[string]int64{}
	for i, from := range []string{"10.1.0.20", "10.1.0.21", "10.1.0.22", "10.1.0.23"} {
		st, loc := nodes[i%2].sendHit(ab.Code, hit{from, uaDesktop, ""})
		if st != http.StatusFound {
			t.Fatalf("visit %d of the A/B link: %d", i, st)
		}
		variantWant[loc]++
	}
	// Two crawlers (which never use the cap up), then eight people on a link capped at 5.
	answered := map[int]int{}
	for i := range 2 {
		st, _ := nodes[i%2].sendHit(capped.Code, hit{fromDE, uaBot, ""})
		answered[st]++
	}
	for i := range 8 {
		st, _ := nodes[i%2].sendHit(capped.Code, hit{"10.1.1." + strconv.Itoa(i), uaAndroid, ""})
		answered[st]++
	}
	if answered[http.StatusFound] != 7 || answered[http.StatusGone] != 3 {
		t.Fatalf("capped link answered %v, want 5 people and 2 crawlers redirected, 3 people refused", answered)
	}

	statsOf := func(l linkJSON) linkStatsJSON {
		t.Helper()
		var st linkStatsJSON
		r := s2.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/links/%d/stats", tn.WorkspaceID, l.ID), tn.Key, nil)
		if r.Status != http.StatusOK {
			t.Fatalf("stats: %d %s", r.Status, r.Body)
		}
		r.json(t, &st)
		return st
	}
	// Within 5 seconds of the last redirect, every number is there.
	var st linkStatsJSON
	eventually(t, 5*time.Second, "visits in the statistics", func() bool {
		// Totals and breakdowns are two reads: wait until both hold every visit.
		st = statsOf(plain)
		var devices int64
		for _, k := range st.Breakdowns["device"] {
			devices += k.Visits
		}
		return st.Visits == int64(len(people)) && st.Bots == int64(len(bots)) && devices == st.Visits &&
			statsOf(ab).Visits == 4 && statsOf(capped).Visits == 5
	})
	if st.UniqueVisitors != 5 {
		t.Errorf("unique visitors %d, want 5", st.UniqueVisitors)
	}
	var hourly, daily int64
	for _, h := range st.Series.Hourly {
		hourly += h.Visits
	}
	for _, d := range st.Series.Daily {
		daily += d.Visits
	}
	if hourly != 7 || daily != 7 || len(st.Series.Hourly) != 48 || len(st.Series.Daily) != 90 {
		t.Errorf("series: %d hours adding up to %d, %d days adding up to %d; want 48 and 90 adding up to 7",
			len(st.Series.Hourly), hourly, len(st.Series.Daily), daily)
	}
	want := map[string]map[string]int64{
		"country":  {"DE": 3, "CN": 2, "RU": 1},
		"device":   {"desktop": 4, "ios": 2, "android": 1},
		"os":       {"Windows": 3, "iOS": 2, "Android": 1, "Linux": 1},
		"browser":  {"Chrome": 3, "Chrome Mobile": 1, "Mobile Safari": 2, "Firefox": 1},
		"referrer": {"t.co": 2, "news.example.org": 1},
		"variant":  {},
	}
	for dim, w := range want {
		if got := keyMap(st.Breakdowns[dim]); !maps.Equal(got, w) {
			t.Errorf("breakdown by %s: %v, want %v", dim, got, w)
		}
	}
	if got := keyMap(statsOf(ab).Breakdowns["variant"]); !maps.Equal(got, variantWant) {
		t.Errorf("variants: %v, want %v", got, variantWant)
	}
	if c := statsOf(capped); c.Visits != 5 || c.Bots != 2 {
		t.Errorf("capped link: %d people, %d crawlers; want 5, 2", c.Visits, c.Bots)
	}
	// The visit cap's own counter agrees with the statistics.
	// Each node writes what it counted within a second (visitcap.FlushInterval).
	ctx := context.Background()
	conn := d.conn(t)
	var capCount int64
	eventually(t, 3*time.Second, "the visit cap's count written", func() bool {
		return conn.QueryRow(ctx, `SELECT visits FROM visit_counts WHERE link_id = $1`, capped.ID).Scan(&capCount) == nil && capCount == 5
	})

	// Milestones: every link had people's visits, so each is queued once for moderation.
	rdb := d.redis(t)
	queued, err := rdb.ZRange(ctx, moderation.DueKey(d.env["REDIS_PREFIX"]), 0, -1)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range []linkJSON{plain, ab, capped} {
		if !containsString(queued, strconv.FormatInt(l.ID, 10)) {
			t.Errorf("link %d is not queued for moderation (queue: %v)", l.ID, queued)
		}
	}

	// The workspace's dashboard and the operator's.
	var dash struct {
		Today struct {
			Links  int64 `json:"links"`
			Visits int64 `json:"visits"`
		} `json:"today"`
		Days []struct {
			Date   string `json:"date"`
			Links  int64  `json:"links"`
			Visits int64  `json:"visits"`
		} `json:"days"`
		TopLinks []struct {
			ID       int64  `json:"id"`
			Code     string `json:"code"`
			ShortURL string `json:"short_url"`
			Visits   int64  `json:"visits"`
		} `json:"top_links"`
		Users      int64 `json:"users"`
		Workspaces int64 `json:"workspaces"`
	}
	r := s1.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/stats", tn.WorkspaceID), tn.Token, nil)
	if r.Status != http.StatusOK {
		t.Fatalf("dashboard: %d %s", r.Status, r.Body)
	}
	r.json(t, &dash)
	if dash.Today.Links != 3 || dash.Today.Visits != 16 || len(dash.Days) != 14 || dash.Days[13].Visits != 16 {
		t.Errorf("dashboard today %+v, %d days; want 3 links and 16 visits", dash.Today, len(dash.Days))
	}
	if len(dash.TopLinks) != 3 || dash.TopLinks[0].ID != plain.ID || dash.TopLinks[0].Visits != 7 ||
		dash.TopLinks[0].ShortURL != plain.ShortURL {
		t.Errorf("top links %+v, want the plain link first with 7", dash.TopLinks)
	}
	r = s2.do("GET", "/api/v1/admin/stats", s2.operatorToken(), nil)
	if r.Status != http.StatusOK {
		t.Fatalf("operator dashboard: %d %s", r.Status, r.Body)
	}
	r.json(t, &dash)
	if dash.Today.Visits < 16 || dash.Today.Links < 3 || dash.Users < 2 || dash.Workspaces < 1 {
		t.Errorf("operator dashboard %+v", dash)
	}

	// The exports.
	r = s1.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/links/export.csv", tn.WorkspaceID), tn.Key, nil)
	rows := readCSV(t, r)
	totals := map[string]string{}
	col := index(rows[0])
	for _, row := range rows[1:] {
		totals[row[col["code"]]] = row[col["visits"]] + "/" + row[col["bots"]]
	}
	if want := map[string]string{plain.Code: "7/3", ab.Code: "4/0", capped.Code: "5/2"}; !maps.Equal(totals, want) {
		t.Errorf("links export totals %v, want %v", totals, want)
	}
	r = s2.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/visits/export.csv", tn.WorkspaceID), tn.Key, nil)
	rows = readCSV(t, r)
	col = index(rows[0])
	humans, crawlers := 0, 0
	for _, row := range rows[1:] {
		if row[col["bot"]] == "true" {
			crawlers++
		} else {
			humans++
		}
	}
	if humans != 16 || crawlers != 5 {
		t.Errorf("visits export: %d people, %d crawlers; want 16, 5", humans, crawlers)
	}
}

func index(header []string) map[string]int {
	m := map[string]int{}
	for i, h := range header {
		m[h] = i
	}
	return m
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
