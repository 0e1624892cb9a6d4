package e2e

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/binary"
	"encoding/csv"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/shortlink/shortlink/backend/postgres"
	"github.com/shortlink/shortlink/backend/visit"
)

// storeVisits stores events the way the ingest consumers do, so that every rollup the
// statistics read is the real one. Each call is one batch: a batch spans at most a few weeks.
func storeVisits(t *testing.T, d *deployment, events ...visit.Event) {
	t.Helper()
	db, err := postgres.Open(context.Background(), d.env["DATABASE_URL"])
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	st, err := postgres.NewVisits(db).Insert(context.Background(), []visit.Batch{events})
	if err != nil || st.Events != len(events) {
		t.Fatalf("store %d visits: %+v %v", len(events), st, err)
	}
}

var eventSeq atomic.Uint32

// visitOf is a person's visit of a link at a time (RFC 3339), with fixed ID; set changes the rest.
func visitOf(t *testing.T, at string, workspaceID, linkID int64, who string, set ...func(*visit.Event)) visit.Event {
	t.Helper()
	when, err := time.Parse(time.RFC3339, at)
	if err != nil {
		t.Fatal(err)
	}
	var id uuid.UUID
	binary.BigEndian.PutUint32(id[12:], eventSeq.Add(1))
	id[6] = 0x70 // version 7
	e := visit.Event{ID: id, At: when, LinkID: linkID, WorkspaceID: workspaceID, Variant: -1, Visitor: []byte(who)}
	for _, f := range set {
		f(&e)
	}
	return e
}

// seen sets what the classifier would have said of a visitor.
func seen(country, device, os, browser, referrer, inApp string, variant int) func(*visit.Event) {
	return func(e *visit.Event) {
		e.Country, e.Device, e.OS, e.Browser, e.Referrer, e.InApp, e.Variant = country, device, os, browser, referrer, inApp, variant
	}
}

func crawler(e *visit.Event) { e.Crawler, e.Browser, e.Device = true, "Googlebot", "other" }

type pointJSON struct {
	Start  string `json:"start"`
	Visits int64  `json:"visits"`
	Bots   int64  `json:"bots"`
}

type countJSON struct {
	Key    string `json:"key"`
	Visits int64  `json:"visits"`
}

type linkStatsJSON struct {
	From           string `json:"from"`
	To             string `json:"to"`
	TZ             string `json:"tz"`
	Visits         int64  `json:"visits"`
	UniqueVisitors int64  `json:"unique_visitors"`
	Bots           int64  `json:"bots"`
	Series         struct {
		Hourly []pointJSON `json:"hourly"`
		Daily  []pointJSON `json:"daily"`
	} `json:"series"`
	Breakdowns map[string][]countJSON `json:"breakdowns"`
}

// nonZero lists the points that counted anything, as "index:visits/bots".
func nonZero(ps []pointJSON) []string {
	var out []string
	for i, p := range ps {
		if p.Visits != 0 || p.Bots != 0 {
			out = append(out, fmt.Sprintf("%d:%d/%d", i, p.Visits, p.Bots))
		}
	}
	return out
}

func counts(cs []countJSON) string {
	var parts []string
	for _, c := range cs {
		parts = append(parts, fmt.Sprintf("%s=%d", c.Key, c.Visits))
	}
	return strings.Join(parts, " ")
}

// TestLinkStats checks a link's numbers exactly through the API: totals, unique visitors,
// series in UTC and in zones east and west of it (with a change to summer time), every
// breakdown, range edges and rounding, and who may read them.
func TestLinkStats(t *testing.T) {
	d := newDeployment(t)
	s := d.start(t)
	alice := s.signupOn("alice@example.com", "enterprise")
	bob := s.signup("bob@example.com")
	l1 := s.createLink(alice, map[string]any{"url": "https://example.com/ab", "variants": []any{
		map[string]any{"url": "https://a.example/", "weight": 1},
		map[string]any{"url": "https://b.example/", "weight": 1},
		map[string]any{"url": "https://c.example/", "weight": 1},
	}})
	l2 := s.createLink(alice, map[string]any{"url": "https://example.com/other"})
	lb := s.createLink(bob, map[string]any{"url": "https://bob.example/"})
	ws := alice.WorkspaceID

	storeVisits(t, d,
		visitOf(t, "2025-03-10T01:15:00Z", ws, l1.ID, "ann", seen("CN", "ios", "iOS", "Safari", "google.com", "WeChat", 0)),
		visitOf(t, "2025-03-10T01:45:00Z", ws, l1.ID, "ann", seen("CN", "ios", "iOS", "Safari", "google.com", "WeChat", 0)),
		visitOf(t, "2025-03-10T15:30:00Z", ws, l1.ID, "bob", seen("US", "desktop", "Windows", "Chrome", "", "", 1)),
		visitOf(t, "2025-03-10T16:10:00Z", ws, l1.ID, "crawler", seen("US", "", "", "", "", "", -1), crawler),
		visitOf(t, "2025-03-11T02:00:00Z", ws, l1.ID, "ann", seen("CN", "android", "Android", "Chrome", "t.co", "", 0)),
		// Variant 5 is no longer one of the link's.
		visitOf(t, "2025-03-11T23:30:00Z", ws, l1.ID, "dan", seen("DE", "android", "Android", "Chrome", "t.co", "", 5)),
		visitOf(t, "2025-03-12T00:30:00Z", ws, l1.ID, "eve", seen("", "desktop", "macOS", "Safari", "news.ycombinator.com", "", 2)),
		visitOf(t, "2025-03-10T05:00:00Z", ws, l2.ID, "ann", seen("CN", "ios", "iOS", "Safari", "", "", -1)),
		visitOf(t, "2025-03-10T05:00:00Z", bob.WorkspaceID, lb.ID, "ann", seen("CN", "ios", "iOS", "Safari", "", "", -1)),
	)
	recent := time.Now().Add(-time.Hour).UTC().Format(time.RFC3339)
	storeVisits(t, d, visitOf(t, recent, ws, l2.ID, "zoe", seen("FR", "desktop", "Linux", "Firefox", "", "", -1)))

	get := func(linkID int64, query, cred string) linkStatsJSON {
		t.Helper()
		r := s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/links/%d/stats?%s", ws, linkID, query), cred, nil)
		if r.Status != http.StatusOK {
			t.Fatalf("stats %s: %d %s", query, r.Status, r.Body)
		}
		var out linkStatsJSON
		r.json(t, &out)
		return out
	}
	check := func(what string, got, want any) {
		t.Helper()
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: %v, want %v", what, got, want)
		}
	}

	// Three whole UTC days: the daily rollups alone.
	st := get(l1.ID, "from=2025-03-10&to=2025-03-12", alice.Key)
	check("utc range", []string{st.From, st.To, st.TZ}, []string{"2025-03-10T00:00:00Z", "2025-03-13T00:00:00Z", "UTC"})
	// ann on two days counts twice, her second visit of the 10th not at all; the crawler never.
	check("utc totals", []int64{st.Visits, st.UniqueVisitors, st.Bots}, []int64{6, 5, 1})
	check("utc daily", st.Series.Daily, []pointJSON{
		{"2025-03-10T00:00:00Z", 3, 1}, {"2025-03-11T00:00:00Z", 2, 0}, {"2025-03-12T00:00:00Z", 1, 0}})
	check("utc hourly length", len(st.Series.Hourly), 48)
	check("utc hourly first", st.Series.Hourly[0].Start, "2025-03-11T00:00:00Z")
	check("utc hourly last", st.Series.Hourly[47].Start, "2025-03-12T23:00:00Z")
	check("utc hourly", nonZero(st.Series.Hourly), []string{"2:1/0", "23:1/0", "24:1/0"})
	b := st.Breakdowns
	check("country", counts(b["country"]), "CN=3 DE=1 US=1")
	check("device", counts(b["device"]), "android=2 desktop=2 ios=2")
	check("os", counts(b["os"]), "Android=2 iOS=2 Windows=1 macOS=1")
	check("browser", counts(b["browser"]), "Chrome=3 Safari=3")
	check("referrer", counts(b["referrer"]), "google.com=2 t.co=2 news.ycombinator.com=1")
	check("variant", counts(b["variant"]), "https://a.example/=3 #5=1 https://b.example/=1 https://c.example/=1")
	check("in_app", counts(b["in_app"]), "WeChat=2")

	// Shanghai (UTC+8): its two days start at 16:00 UTC, so the ends come from the hourly
	// rollups and the middle from the daily ones.
	st = get(l1.ID, "from=2025-03-10&to=2025-03-11&tz=Asia/Shanghai", alice.Token)
	check("shanghai range", []string{st.From, st.To, st.TZ}, []string{"2025-03-10T00:00:00+08:00", "2025-03-12T00:00:00+08:00", "Asia/Shanghai"})
	check("shanghai totals", []int64{st.Visits, st.UniqueVisitors, st.Bots}, []int64{4, 3, 1})
	check("shanghai daily", st.Series.Daily, []pointJSON{{"2025-03-10T00:00:00+08:00", 3, 0}, {"2025-03-11T00:00:00+08:00", 1, 1}})
	check("shanghai hourly length", len(st.Series.Hourly), 48)
	check("shanghai hourly first", st.Series.Hourly[0].Start, "2025-03-10T00:00:00+08:00")
	check("shanghai hourly", nonZero(st.Series.Hourly), []string{"9:2/0", "23:1/0", "24:0/1", "34:1/0"})
	check("shanghai country", counts(st.Breakdowns["country"]), "CN=3 US=1")
	check("shanghai variant", counts(st.Breakdowns["variant"]), "https://a.example/=3 https://b.example/=1")
	check("shanghai referrer", counts(st.Breakdowns["referrer"]), "google.com=2 t.co=1")

	// New York: summer time starts on 9 March 2025, a day of 23 hours; the range is 47 hours,
	// so the hourly series is that long.
	st = get(l1.ID, "from=2025-03-09&to=2025-03-10&tz=America/New_York", alice.Key)
	check("new york range", []string{st.From, st.To}, []string{"2025-03-09T00:00:00-05:00", "2025-03-11T00:00:00-04:00"})
	check("new york totals", []int64{st.Visits, st.UniqueVisitors, st.Bots}, []int64{4, 3, 1})
	check("new york daily", st.Series.Daily, []pointJSON{{"2025-03-09T00:00:00-05:00", 2, 0}, {"2025-03-10T00:00:00-04:00", 2, 1}})
	check("new york hourly length", len(st.Series.Hourly), 47)
	check("new york hourly ends", []string{st.Series.Hourly[0].Start, st.Series.Hourly[46].Start},
		[]string{"2025-03-09T00:00:00-05:00", "2025-03-10T23:00:00-04:00"})
	check("new york device", counts(st.Breakdowns["device"]), "ios=2 android=1 desktop=1")

	// Times inside hours are rounded outward to whole hours.
	st = get(l1.ID, "from="+url.QueryEscape("2025-03-10T01:30:00Z")+"&to="+url.QueryEscape("2025-03-10T15:10:00+00:00"), alice.Key)
	check("rounded range", []string{st.From, st.To}, []string{"2025-03-10T01:00:00Z", "2025-03-10T16:00:00Z"})
	check("rounded totals", []int64{st.Visits, st.UniqueVisitors, st.Bots}, []int64{3, 2, 0})
	check("rounded hourly", []any{len(st.Series.Hourly), nonZero(st.Series.Hourly)}, []any{15, []string{"0:2/0", "14:1/0"}})
	check("rounded daily", st.Series.Daily, []pointJSON{{"2025-03-10T00:00:00Z", 3, 0}})
	check("rounded country", counts(st.Breakdowns["country"]), "CN=2 US=1")

	// A day without visits: zeros everywhere, and empty lists rather than nulls.
	r := s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/links/%d/stats?from=2024-01-01&to=2024-01-01", ws, l1.ID), alice.Key, nil)
	if !strings.Contains(string(r.Body), `"country":[]`) || !strings.Contains(string(r.Body), `"variant":[]`) {
		t.Errorf("empty breakdowns: %s", r.Body)
	}
	r.json(t, &st)
	check("empty", []any{st.Visits, st.UniqueVisitors, st.Bots, len(st.Series.Hourly), nonZero(st.Series.Hourly), st.Series.Daily},
		[]any{0, 0, 0, 24, []string(nil), []pointJSON{{"2024-01-01T00:00:00Z", 0, 0}}})

	// The default range: 90 days to now, the last hour of the hourly series the current one.
	st = get(l2.ID, "", alice.Key)
	now := time.Now().UTC()
	check("default totals", []int64{st.Visits, st.UniqueVisitors}, []int64{1, 1})
	check("default days", len(st.Series.Daily), 90)
	check("default from", st.From, now.AddDate(0, 0, -89).Format(time.DateOnly)+"T00:00:00Z")
	check("default last hour", st.Series.Hourly[47].Start, now.Truncate(time.Hour).Format(time.RFC3339))
	check("default country", counts(st.Breakdowns["country"]), "FR=1")

	// Another workspace's link is not found, through either workspace.
	for _, path := range []string{
		fmt.Sprintf("/api/v1/workspaces/%d/links/%d/stats", ws, lb.ID),
		fmt.Sprintf("/api/v1/workspaces/%d/links/%d/stats", bob.WorkspaceID, l1.ID),
	} {
		if r := s.do("GET", path, alice.Key, nil); r.Status != http.StatusNotFound || r.errorCode(t) != "not_found" {
			t.Errorf("GET %s: %d %s", path, r.Status, r.Body)
		}
	}
	// Bad ranges and zones are refused in the error shape.
	for _, q := range []string{"tz=Mars/Olympus", "tz=Local", "from=yesterday", "to=2025-13-01", "from=2025-03-10&to=2025-03-09",
		"from=" + url.QueryEscape("2025-03-10T10:00:00Z") + "&to=" + url.QueryEscape("2025-03-10T10:00:00Z"),
		"from=2024-01-01&to=2025-03-01", "from=1900-01-01&to=1900-01-02"} {
		r := s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/links/%d/stats?%s", ws, l1.ID, q), alice.Key, nil)
		if r.Status != http.StatusBadRequest || r.errorCode(t) != "invalid" {
			t.Errorf("stats?%s: %d %s, want 400 invalid", q, r.Status, r.Body)
		}
	}
}

// TestStatsReaders: every role may read statistics, and API keys with stats:read; keys
// without it may not.
func TestStatsReaders(t *testing.T) {
	s := newDeployment(t).start(t)
	owner := s.signupOn("owner@example.com", "personal")
	ws := fmt.Sprintf("/api/v1/workspaces/%d", owner.WorkspaceID)
	l := s.createLink(owner, map[string]any{"url": "https://example.com/"})

	viewer := s.joined(owner, "viewer@example.com", "viewer")
	keys := map[string]string{}
	for _, sc := range []string{"stats:read", "links:read", "links:write"} {
		var k struct{ Key string }
		s.do("POST", ws+"/api-keys", owner.Token, map[string]any{"name": sc, "scopes": []string{sc}}).json(t, &k)
		keys[sc] = k.Key
	}
	paths := []string{fmt.Sprintf("%s/links/%d/stats", ws, l.ID), ws + "/stats", ws + "/links/export.csv", ws + "/visits/export.csv"}
	for _, p := range paths {
		for who, cred := range map[string]string{"viewer": viewer.Token, "owner": owner.Token, "stats:read key": keys["stats:read"]} {
			if r := s.do("GET", p, cred, nil); r.Status != http.StatusOK {
				t.Errorf("%s GET %s: %d %s", who, p, r.Status, r.Body)
			}
		}
		for _, sc := range []string{"links:read", "links:write"} {
			if r := s.do("GET", p, keys[sc], nil); r.Status != http.StatusForbidden || r.errorCode(t) != "forbidden" {
				t.Errorf("%s key GET %s: %d %s, want 403", sc, p, r.Status, r.Body)
			}
		}
	}
}

type dashboardJSON struct {
	TZ    string `json:"tz"`
	Today struct {
		Date                string
		Links, Visits, Bots int64
	} `json:"today"`
	Days []struct {
		Date                string
		Links, Visits, Bots int64
	} `json:"days"`
	TopLinks []struct {
		ID          int64  `json:"id"`
		WorkspaceID int64  `json:"workspace_id"`
		Code        string `json:"code"`
		ShortURL    string `json:"short_url"`
		Visits      int64  `json:"visits"`
		Bots        int64  `json:"bots"`
	} `json:"top_links"`
	Users      int64 `json:"users"`
	Workspaces int64 `json:"workspaces"`
}

// TestDashboards: the workspace dashboard (gated by dashboard) and the operators' one over
// every workspace, with the days in a zone, the links created, the visits and the top links.
func TestDashboards(t *testing.T) {
	d := newDeployment(t)
	s := d.start(t)
	alice, bob := s.signup("alice@example.com"), s.signup("bob@example.com")
	wsA := fmt.Sprintf("/api/v1/workspaces/%d", alice.WorkspaceID)

	var links []linkJSON
	for i := range 12 {
		links = append(links, s.createLink(alice, map[string]any{"url": fmt.Sprintf("https://example.com/%d", i)}))
	}
	other := s.createLink(bob, map[string]any{"url": "https://bob.example/"})

	// Free has no dashboard.
	if r := s.do("GET", wsA+"/stats", alice.Key, nil); r.Status != http.StatusForbidden || r.errorCode(t) != "plan_required" {
		t.Fatalf("free dashboard: %d %s", r.Status, r.Body)
	}
	s.setPlan(alice, "personal")

	const tz = "Asia/Shanghai"
	loc, _ := time.LoadLocation(tz)
	now := time.Now()
	ago := func(d time.Duration) string { return now.Add(-d).UTC().Format(time.RFC3339) }
	dayOf := func(at string) string { t, _ := time.Parse(time.RFC3339, at); return t.In(loc).Format(time.DateOnly) }
	// Link i gets 12-i visits just now, so the ranking is by index; link 11 none. Older
	// visits: 3 days ago, 13 days ago (the first day shown) and 15 days ago (not shown).
	var evs []visit.Event
	for i, l := range links[:11] {
		for j := range 12 - i {
			evs = append(evs, visitOf(t, ago(time.Minute), alice.WorkspaceID, l.ID, fmt.Sprintf("p%d-%d", i, j)))
		}
	}
	justNow := int64(len(evs)) // 12+11+…+2
	evs = append(evs, visitOf(t, ago(time.Minute), alice.WorkspaceID, links[0].ID, "bot", crawler))
	storeVisits(t, d, evs...)
	threeDays, thirteenDays, fifteenDays := ago(72*time.Hour), ago(13*24*time.Hour), ago(15*24*time.Hour)
	storeVisits(t, d,
		visitOf(t, threeDays, alice.WorkspaceID, links[10].ID, "q1"),
		visitOf(t, threeDays, alice.WorkspaceID, links[10].ID, "q2"),
		visitOf(t, thirteenDays, alice.WorkspaceID, links[10].ID, "q3"),
		visitOf(t, fifteenDays, alice.WorkspaceID, links[10].ID, "q4"),
		visitOf(t, ago(time.Minute), bob.WorkspaceID, other.ID, "b1"),
	)
	// A deleted link takes no place among the top links.
	if r := s.do("DELETE", fmt.Sprintf("%s/links/%d", wsA, links[1].ID), alice.Key, nil); r.Status != http.StatusNoContent {
		t.Fatalf("delete: %d %s", r.Status, r.Body)
	}

	var dash dashboardJSON
	r := s.do("GET", wsA+"/stats?tz="+tz, alice.Key, nil)
	if r.Status != http.StatusOK {
		t.Fatalf("dashboard: %d %s", r.Status, r.Body)
	}
	r.json(t, &dash)
	today := now.In(loc).Format(time.DateOnly)
	if len(dash.Days) != 14 || dash.Days[13].Date != today || dash.Today.Date != today || dash.TZ != tz ||
		dash.Days[0].Date != now.In(loc).AddDate(0, 0, -13).Format(time.DateOnly) {
		t.Fatalf("days: %s", r.Body)
	}
	want := map[string][3]int64{} // date → links, visits, bots
	add := func(day string, links, visits, bots int64) {
		w := want[day]
		want[day] = [3]int64{w[0] + links, w[1] + visits, w[2] + bots}
	}
	add(today, 11, 0, 0)                        // the deleted link is no longer counted
	add(dayOf(ago(time.Minute)), 0, justNow, 1) // a deleted link's visits stay counted
	add(dayOf(threeDays), 0, 2, 0)
	add(dayOf(thirteenDays), 0, 1, 0)
	for _, day := range dash.Days {
		if w := want[day.Date]; [3]int64{day.Links, day.Visits, day.Bots} != w {
			t.Errorf("day %s: links %d visits %d bots %d, want %v", day.Date, day.Links, day.Visits, day.Bots, w)
		}
	}
	if dash.Today.Visits != dash.Days[13].Visits || dash.Today.Links != 11 {
		t.Errorf("today: %+v", dash.Today)
	}
	var ranked []string
	for _, tl := range dash.TopLinks {
		ranked = append(ranked, fmt.Sprintf("%d:%d/%d", tl.ID, tl.Visits, tl.Bots))
	}
	var wantRanked []string
	for _, i := range []int{0, 2, 3, 4, 5, 6, 7, 8, 9, 10} {
		v := int64(12 - i)
		if i == 10 {
			v += 3 // the visits of 3 and 13 days ago
		}
		var bots int64
		if i == 0 {
			bots = 1
		}
		wantRanked = append(wantRanked, fmt.Sprintf("%d:%d/%d", links[i].ID, v, bots))
	}
	// Link 10 has 5 visits, as many as link 7: the smaller ID first.
	slices.SortStableFunc(wantRanked, func(a, b string) int {
		var ida, va, idb, vb int64
		_, _ = fmt.Sscanf(a, "%d:%d", &ida, &va)
		_, _ = fmt.Sscanf(b, "%d:%d", &idb, &vb)
		if va != vb {
			return int(vb - va)
		}
		return int(ida - idb)
	})
	if fmt.Sprint(ranked) != fmt.Sprint(wantRanked) {
		t.Errorf("top links %v, want %v", ranked, wantRanked)
	}
	if tl := dash.TopLinks[0]; tl.Code != links[0].Code || tl.ShortURL != links[0].ShortURL || tl.WorkspaceID != alice.WorkspaceID {
		t.Errorf("top link: %+v, want %+v", tl, links[0])
	}
	if r := s.do("GET", wsA+"/stats?tz=Nowhere/City", alice.Key, nil); r.Status != http.StatusBadRequest || r.errorCode(t) != "invalid" {
		t.Errorf("bad tz: %d %s", r.Status, r.Body)
	}

	// The operators' dashboard counts every workspace; others may not see it.
	op := s.operatorToken()
	r = s.do("GET", "/api/v1/admin/stats", op, nil)
	if r.Status != http.StatusOK {
		t.Fatalf("admin stats: %d %s", r.Status, r.Body)
	}
	var all dashboardJSON
	r.json(t, &all)
	if all.Users != 3 || all.Workspaces != 3 || all.TZ != "UTC" || len(all.Days) != 14 {
		t.Errorf("admin stats: %s", r.Body)
	}
	var visits, created int64
	for _, day := range all.Days {
		visits += day.Visits
		created += day.Links
	}
	if visits != justNow+2+1+1 || created != 12 || len(all.TopLinks) != 10 || all.TopLinks[0].ID != links[0].ID {
		t.Errorf("admin days: visits %d links %d top %d: %s", visits, created, len(all.TopLinks), r.Body)
	}
	for _, cred := range []string{alice.Token, alice.Key} {
		if r := s.do("GET", "/api/v1/admin/stats", cred, nil); r.Status != http.StatusForbidden || r.errorCode(t) != "forbidden" {
			t.Errorf("admin stats as alice: %d %s", r.Status, r.Body)
		}
	}
	if r := s.do("GET", "/api/v1/admin/stats?tz=x", op, nil); r.Status != http.StatusBadRequest {
		t.Errorf("admin stats bad tz: %d %s", r.Status, r.Body)
	}
}

// expectRows fails t unless the rows of an export are want, but for the column at (created_at),
// which must hold a time of the last minute: want has it empty.
func expectRows(t *testing.T, what string, rows, want [][]string, at int) {
	t.Helper()
	if len(rows) != len(want) {
		t.Fatalf("%s: %q", what, rows)
	}
	for i, row := range rows {
		if i > 0 {
			if created, err := time.Parse(time.RFC3339, row[at]); err != nil || time.Since(created) > time.Minute {
				t.Errorf("%s row %d created_at %q", what, i, row[at])
			}
			row[at] = ""
		}
		if !slices.Equal(row, want[i]) {
			t.Errorf("%s row %d = %q, want %q", what, i, row, want[i])
		}
	}
}

// readCSV checks an export's headers and returns its rows.
func readCSV(t *testing.T, r response) [][]string {
	t.Helper()
	if r.Status != http.StatusOK || r.Header.Get("Content-Type") != "text/csv; charset=utf-8" ||
		!strings.HasPrefix(r.Header.Get("Content-Disposition"), "attachment; filename=") {
		t.Fatalf("export: %d %v %s", r.Status, r.Header, r.Body)
	}
	rows, err := csv.NewReader(strings.NewReader(string(r.Body))).ReadAll()
	if err != nil {
		t.Fatalf("export is not CSV: %v\n%s", err, r.Body)
	}
	return rows
}

// TestStatsExports: the links and visits exports, their columns and contents, the export
// feature, and ranges.
func TestStatsExports(t *testing.T) {
	d := newDeployment(t)
	s := d.start(t)
	alice, bob := s.signup("alice@example.com"), s.signup("bob@example.com")
	ws := fmt.Sprintf("/api/v1/workspaces/%d", alice.WorkspaceID)
	for _, p := range []string{ws + "/links/export.csv", ws + "/visits/export.csv"} {
		if r := s.do("GET", p, alice.Key, nil); r.Status != http.StatusForbidden || r.errorCode(t) != "plan_required" {
			t.Errorf("free %s: %d %s", p, r.Status, r.Body)
		}
	}
	s.setPlan(alice, "trial")
	l1 := s.createLink(alice, map[string]any{"url": "https://example.com/a", "title": "=cmd|' /C calc'!A0", "variants": []any{
		map[string]any{"url": "https://a.example/", "weight": 1}, map[string]any{"url": "https://b.example/", "weight": 1}}})
	l2 := s.createLink(alice, map[string]any{"url": "https://example.com/b", "title": "plain"})
	gone := s.createLink(alice, map[string]any{"url": "https://example.com/gone"})
	lb := s.createLink(bob, map[string]any{"url": "https://bob.example/"})
	storeVisits(t, d,
		visitOf(t, "2025-03-10T01:15:00Z", alice.WorkspaceID, l1.ID, "ann", seen("CN", "ios", "iOS", "Safari", "google.com", "WeChat", 1)),
		visitOf(t, "2025-03-10T01:15:00Z", alice.WorkspaceID, l1.ID, "ann", seen("CN", "ios", "iOS", "Safari", "google.com", "WeChat", 1)),
		visitOf(t, "2025-03-10T16:30:00Z", alice.WorkspaceID, l1.ID, "crawler", crawler),
		visitOf(t, "2025-03-11T09:00:00Z", alice.WorkspaceID, gone.ID, "bob", seen("US", "desktop", "Windows", "Edge", "@evil.example", "", -1)),
		visitOf(t, "2025-03-10T05:00:00Z", bob.WorkspaceID, lb.ID, "bob"),
	)
	if r := s.do("DELETE", fmt.Sprintf("%s/links/%d", ws, gone.ID), alice.Key, nil); r.Status != http.StatusNoContent {
		t.Fatal(r.Status)
	}

	rows := readCSV(t, s.do("GET", ws+"/links/export.csv", alice.Key, nil))
	want := [][]string{
		{"id", "code", "short_url", "url", "title", "status", "created_at", "visits", "unique_visitors", "bots", "tags"},
		{fmt.Sprint(l1.ID), l1.Code, l1.ShortURL, l1.URL, "'=cmd|' /C calc'!A0", "active", "", "2", "1", "1", ""},
		{fmt.Sprint(l2.ID), l2.Code, l2.ShortURL, l2.URL, "plain", "active", "", "0", "0", "0", ""},
	}
	expectRows(t, "links export", rows, want, 6)
	// Compressed for a client that asks (docs/architecture.md#statistics), the same rows once inflated.
	req, err := http.NewRequest("GET", s.base+ws+"/links/export.csv", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+alice.Key)
	req.Header.Set("Accept-Encoding", "br;q=1, gzip;q=0.8")
	zipped := s.send(req)
	if zipped.Header.Get("Content-Encoding") != "gzip" || !slices.Contains(zipped.Header.Values("Vary"), "Accept-Encoding") {
		t.Fatalf("links export asked in gzip: %v", zipped.Header)
	}
	zr, err := gzip.NewReader(bytes.NewReader(zipped.Body))
	if err != nil {
		t.Fatal(err)
	}
	if zipped.Body, err = io.ReadAll(zr); err != nil {
		t.Fatalf("links export in gzip: %v", err)
	}
	expectRows(t, "links export in gzip", readCSV(t, zipped), want, 6)

	// Visits of two days in Shanghai; the deleted link's visit keeps its row without a code.
	rows = readCSV(t, s.do("GET", ws+"/visits/export.csv?from=2025-03-10&to=2025-03-11&tz=Asia/Shanghai", alice.Token, nil))
	ann := hex.EncodeToString([]byte("ann"))
	want = [][]string{
		{"at", "link_id", "code", "variant", "country", "device", "os", "browser", "referrer", "in_app", "bot", "visitor", "event_id", "utm_source", "utm_medium", "utm_campaign"},
		{"2025-03-10T09:15:00+08:00", fmt.Sprint(l1.ID), l1.Code, "https://b.example/", "CN", "ios", "iOS", "Safari", "google.com", "WeChat", "false", ann, "", "", "", ""},
		{"2025-03-10T09:15:00+08:00", fmt.Sprint(l1.ID), l1.Code, "https://b.example/", "CN", "ios", "iOS", "Safari", "google.com", "WeChat", "false", ann, "", "", "", ""},
		{"2025-03-11T00:30:00+08:00", fmt.Sprint(l1.ID), l1.Code, "", "", "other", "", "Googlebot", "", "", "true", hex.EncodeToString([]byte("crawler")), "", "", "", ""},
		{"2025-03-11T17:00:00+08:00", fmt.Sprint(gone.ID), "", "", "US", "desktop", "Windows", "Edge", "'@evil.example", "", "false", hex.EncodeToString([]byte("bob")), "", "", "", ""},
	}
	if len(rows) != len(want) {
		t.Fatalf("visits export: %q", rows)
	}
	ids := map[string]bool{}
	for i, row := range rows {
		if i > 0 {
			if _, err := uuid.Parse(row[12]); err != nil || ids[row[12]] {
				t.Errorf("row %d event_id %q", i, row[12])
			}
			ids[row[12]] = true
			row[12] = ""
		}
		if !slices.Equal(row, want[i]) {
			t.Errorf("visits row %d = %q, want %q", i, row, want[i])
		}
	}
	// A range without visits is the header alone; the default range (30 days) has none here.
	for _, q := range []string{"?from=2024-01-01&to=2024-01-31", ""} {
		if rows := readCSV(t, s.do("GET", ws+"/visits/export.csv"+q, alice.Key, nil)); len(rows) != 1 || rows[0][0] != "at" {
			t.Errorf("visits export%s: %q", q, rows)
		}
	}
	if r := s.do("GET", ws+"/visits/export.csv?from=2020-01-01&to=2025-01-01", alice.Key, nil); r.Status != http.StatusBadRequest || r.errorCode(t) != "invalid" {
		t.Errorf("too long a range: %d %s", r.Status, r.Body)
	}
}

// TestVisitsExportPages streams more visits than one page of the store, in order, each once.
func TestVisitsExportPages(t *testing.T) {
	d := newDeployment(t)
	s := d.start(t)
	tn := s.signupOn("many@example.com", "enterprise")
	l := s.createLink(tn, map[string]any{"url": "https://many.example/"})
	const total = 2600
	base := time.Date(2025, 3, 10, 0, 0, 0, 0, time.UTC)
	var evs []visit.Event
	for i := range total {
		// Pairs share a time: the pages must split ties by event ID.
		at := base.Add(time.Duration(i/2) * time.Second).Format(time.RFC3339)
		evs = append(evs, visitOf(t, at, tn.WorkspaceID, l.ID, fmt.Sprint(i)))
	}
	storeVisits(t, d, evs...)
	rows := readCSV(t, s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/visits/export.csv?from=2025-03-10&to=2025-03-10", tn.WorkspaceID), tn.Key, nil))
	if len(rows) != total+1 {
		t.Fatalf("%d rows, want %d", len(rows)-1, total)
	}
	seenIDs := map[string]bool{}
	for i, row := range rows[1:] {
		if want := base.Add(time.Duration(i/2) * time.Second).Format(time.RFC3339); row[0] != want || seenIDs[row[12]] {
			t.Fatalf("row %d: %q, want at %s once", i, row, want)
		}
		seenIDs[row[12]] = true
	}
}
