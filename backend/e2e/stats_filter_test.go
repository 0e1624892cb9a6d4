package e2e

import (
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// TestLinkStatsFiltered sends visits through the redirect and reads a link's statistics
// filtered by one value, by two at once and by a pair no visit has; the unfiltered answer is
// the rollups' as before, the public share filters its own link only, another workspace's link
// stays not found, and bad filters answer 400 with their reason.
func TestLinkStatsFiltered(t *testing.T) {
	d := withRules(t, newDeployment(t))
	s := d.start(t)
	alice := s.signupOn("filter@example.com", "enterprise")
	bob := s.signupOn("filter-bob@example.com", "enterprise")
	l := s.createLink(alice, map[string]any{"url": "https://example.com/filter"})
	other := s.createLink(alice, map[string]any{"url": "https://example.com/filter-other"})
	bobs := s.createLink(bob, map[string]any{"url": "https://example.com/filter-bob"})

	for _, v := range []struct {
		code, query string
		h           hit
	}{
		{l.Code, "?utm_source=news", hit{"10.1.0.21", uaDesktop, "https://t.co/x"}},
		{l.Code, "?utm_source=news", hit{"10.1.0.22", uaDesktop, ""}},
		{l.Code, "", hit{"10.1.0.23", uaIPhone, "https://t.co/y"}},
		{l.Code, "", hit{"10.2.0.21", uaDesktop, ""}},
		{l.Code, "?utm_source=news", hit{"10.3.0.21", uaAndroid, ""}},
		{other.Code, "", hit{"10.1.0.24", uaDesktop, ""}},
	} {
		if st, loc := s.sendHit(v.code+v.query, v.h); st != http.StatusFound {
			t.Fatalf("visit %s%s: %d %s", v.code, v.query, st, loc)
		}
	}

	path := fmt.Sprintf("/api/v1/workspaces/%d/links/%d/stats", alice.WorkspaceID, l.ID)
	statsOf := func(query string) linkStatsJSON {
		t.Helper()
		return answer[linkStatsJSON](t, s.do("GET", path+"?"+query, alice.Key, nil), http.StatusOK, "stats "+query)
	}
	// A visit's raw row is written in the transaction that adds it to the rollups: once the
	// rollups hold all five, so do the raw visits.
	var plain linkStatsJSON
	eventually(t, 10*time.Second, "the visits in the statistics", func() bool {
		plain = statsOf("")
		var devices int64
		for _, c := range plain.Breakdowns["device"] {
			devices += c.Visits
		}
		return plain.Visits == 5 && devices == 5
	})
	r := s.do("GET", path, alice.Key, nil)
	if strings.Contains(string(r.Body), `"filter"`) {
		t.Errorf("the unfiltered answer names a filter: %s", r.Body)
	}
	if got := keyMap(plain.Breakdowns["country"]); !maps.Equal(got, map[string]int64{"DE": 3, "CN": 1, "RU": 1}) {
		t.Errorf("unfiltered countries: %v", got)
	}

	type filtered struct {
		linkStatsJSON
		Filter map[string]string `json:"filter"`
	}
	cases := []struct {
		query                   string
		visits, uniques         int64
		country, device, source map[string]int64
	}{
		{"country=DE", 3, 3, map[string]int64{"DE": 3}, map[string]int64{"desktop": 2, "ios": 1}, map[string]int64{"news": 2}},
		{"country=DE&device=desktop", 2, 2, map[string]int64{"DE": 2}, map[string]int64{"desktop": 2}, map[string]int64{"news": 2}},
		{"utm_source=news&referrer=t.co", 1, 1, map[string]int64{"DE": 1}, map[string]int64{"desktop": 1}, map[string]int64{"news": 1}},
		{"country=CN&utm_source=news", 0, 0, map[string]int64{}, map[string]int64{}, map[string]int64{}},
	}
	for _, c := range cases {
		f := answer[filtered](t, s.do("GET", path+"?"+c.query, alice.Key, nil), http.StatusOK, "stats "+c.query)
		q, _ := url.ParseQuery(c.query)
		for k := range q {
			if f.Filter[k] != q.Get(k) {
				t.Errorf("%s: filter echoed %v", c.query, f.Filter)
			}
		}
		var hourly, daily int64
		for _, p := range f.Series.Hourly {
			hourly += p.Visits
		}
		for _, p := range f.Series.Daily {
			daily += p.Visits
		}
		if f.Visits != c.visits || f.UniqueVisitors != c.uniques || hourly != c.visits || daily != c.visits ||
			len(f.Series.Hourly) != len(plain.Series.Hourly) || len(f.Series.Daily) != len(plain.Series.Daily) {
			t.Errorf("%s: %d visits, %d unique, series %d over %d hours and %d over %d days; want %d visits, %d unique",
				c.query, f.Visits, f.UniqueVisitors, hourly, len(f.Series.Hourly), daily, len(f.Series.Daily), c.visits, c.uniques)
		}
		if f.From != plain.From || f.To != plain.To || f.TZ != plain.TZ {
			t.Errorf("%s: range %s–%s %s, unfiltered %s–%s %s", c.query, f.From, f.To, f.TZ, plain.From, plain.To, plain.TZ)
		}
		for dim, want := range map[string]map[string]int64{"country": c.country, "device": c.device, "utm_source": c.source} {
			if got := keyMap(f.Breakdowns[dim]); !maps.Equal(got, want) {
				t.Errorf("%s: %s %v, want %v", c.query, dim, got, want)
			}
		}
	}
	// A filter every visit matches answers what the rollups answer.
	all := statsOf("browser=" + url.QueryEscape(plain.Breakdowns["browser"][0].Key))
	if all.Visits != plain.Breakdowns["browser"][0].Visits {
		t.Errorf("filter by the first browser: %d visits, want %d", all.Visits, plain.Breakdowns["browser"][0].Visits)
	}

	// The share shows its own link's visits, filtered the same way.
	sh := answer[shareJSON](t, s.do("POST", fmt.Sprintf("/api/v1/workspaces/%d/links/%d/share", alice.WorkspaceID, l.ID), alice.Token, nil),
		http.StatusCreated, "share")
	pub := answer[filtered](t, s.do("GET", "/api/v1/share/"+sh.ID+"/stats?country=DE&device=ios", "", nil), http.StatusOK, "shared filtered")
	if pub.Visits != 1 || pub.Filter["device"] != "ios" || len(pub.Breakdowns["variant"]) != 0 {
		t.Errorf("shared filtered: %d visits, filter %v", pub.Visits, pub.Filter)
	}

	// Tenancy comes first: another workspace's link is not found, filtered or not.
	for _, c := range []struct {
		who  tenant
		link int64
		ws   int64
	}{{bob, l.ID, alice.WorkspaceID}, {bob, l.ID, bob.WorkspaceID}, {alice, bobs.ID, alice.WorkspaceID}} {
		r := s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/links/%d/stats?country=DE", c.ws, c.link), c.who.Key, nil)
		if r.Status != http.StatusNotFound && r.Status != http.StatusForbidden {
			t.Errorf("link %d in workspace %d, filtered: %d %s", c.link, c.ws, r.Status, r.Body)
		}
	}
	if r := s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/links/%d/stats?country=DE", bob.WorkspaceID, l.ID), bob.Key, nil); r.Status != http.StatusNotFound {
		t.Errorf("bob's filtered read of alice's link: %d %s", r.Status, r.Body)
	}

	// Bad filters: 400 with the reason and the parameter.
	old := time.Now().UTC().AddDate(0, 0, -420).Format(time.DateOnly)
	older := time.Now().UTC().AddDate(0, 0, -300).Format(time.DateOnly)
	for _, c := range []struct{ path, query, reason, field string }{
		{path, "country=de", "filter_invalid", "country"},
		{path, "country=DE&country=CN", "filter_invalid", "country"},
		{path, "device=tablet", "filter_invalid", "device"},
		{path, "referrer=" + strings.Repeat("a", 254), "filter_invalid", "referrer"},
		{path, "utm_source=", "filter_invalid", "utm_source"},
		{path, "os=%00", "filter_invalid", "os"},
		{path, "browser=%FF", "filter_invalid", "browser"},
		{path, "country=DE&from=" + old + "&to=" + older, "filter_range_unavailable", "from"},
		{"/api/v1/share/" + sh.ID + "/stats", "country=xx", "filter_invalid", "country"},
		{fmt.Sprintf("/api/v1/workspaces/%d/stats", alice.WorkspaceID), "country=DE", "filter_unsupported", "country"},
	} {
		r := s.do("GET", c.path+"?"+c.query, alice.Key, nil)
		if r.Status != http.StatusBadRequest {
			t.Errorf("%s?%s: %d %s", c.path, c.query, r.Status, r.Body)
			continue
		}
		if reason, field := r.errorReasonField(t); reason != c.reason || field != c.field {
			t.Errorf("%s?%s: reason %s field %s, want %s %s", c.path, c.query, reason, field, c.reason, c.field)
		}
	}
	// Unfiltered, the same old range is the rollups' to answer.
	if r := s.do("GET", path+"?from="+old+"&to="+older, alice.Key, nil); r.Status != http.StatusOK {
		t.Errorf("the old range unfiltered: %d %s", r.Status, r.Body)
	}
}
