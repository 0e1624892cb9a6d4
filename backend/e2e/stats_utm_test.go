package e2e

import (
	"encoding/csv"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestStatsUTM follows the utm_source, utm_medium and utm_campaign of short-link requests into
// a link's breakdowns and the visits export (of one link, or of the workspace), and checks that
// a dashboard answers the days it is asked for and that no workspace exports another's link.
func TestStatsUTM(t *testing.T) {
	d := newDeployment(t)
	s := d.start(t)
	alice := s.signupOn("utm@example.com", "enterprise")
	bob := s.signupOn("utm-bob@example.com", "enterprise")
	l := s.createLink(alice, map[string]any{"url": "https://example.com/utm"})
	other := s.createLink(alice, map[string]any{"url": "https://example.com/other"})
	bobs := s.createLink(bob, map[string]any{"url": "https://example.com/bob"})

	for i, q := range []string{
		"?utm_source=newsletter&utm_medium=email&utm_campaign=spring%20sale",
		"?utm_source=newsletter&x=1",
		"?utm_source=" + strings.Repeat("a", 300),
		"?ref=abc",
		"",
	} {
		if st, loc := s.sendHit(l.Code+q, hit{fmt.Sprintf("10.9.0.%d", i), uaDesktop, ""}); st != http.StatusFound {
			t.Fatalf("visit %q: %d %s", q, st, loc)
		}
	}
	if st, _ := s.sendHit(other.Code+"?utm_source=elsewhere", hit{"10.9.1.1", uaDesktop, ""}); st != http.StatusFound {
		t.Fatalf("visit of the other link: %d", st)
	}
	if st, loc := s.sendHit(l.Code+"?utm_source=x", hit{"10.9.2.1", uaDesktop, ""}); st != http.StatusFound || loc != "https://example.com/utm" {
		t.Fatalf("redirect with a query: %d %q", st, loc)
	}

	var st linkStatsJSON
	eventually(t, 10*time.Second, "the visits in the statistics", func() bool {
		r := s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/links/%d/stats", alice.WorkspaceID, l.ID), alice.Key, nil)
		st = answer[linkStatsJSON](t, r, http.StatusOK, "link stats")
		var sources int64
		for _, c := range st.Breakdowns["utm_source"] {
			sources += c.Visits
		}
		return st.Visits == 6 && sources == 4
	})
	want := map[string]string{
		"utm_source":   "newsletter=2 " + strings.Repeat("a", 100) + "=1 x=1",
		"utm_medium":   "email=1",
		"utm_campaign": "spring sale=1",
	}
	for dim, w := range want {
		if got := counts(st.Breakdowns[dim]); got != w {
			t.Errorf("%s: %s, want %s", dim, got, w)
		}
	}

	// The visits export of the one link carries the parameters; the workspace's has both links.
	export := func(tn tenant, query string) response {
		t.Helper()
		return s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/visits/export.csv?%s", tn.WorkspaceID, query), tn.Token, nil)
	}
	r := export(alice, fmt.Sprintf("link=%d", l.ID))
	if r.Status != http.StatusOK {
		t.Fatalf("export of a link: %d %s", r.Status, r.Body)
	}
	rows, err := csv.NewReader(strings.NewReader(string(r.Body))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 7 || strings.Join(rows[0][13:], ",") != "utm_source,utm_medium,utm_campaign" {
		t.Fatalf("export of a link: %d rows, header %v", len(rows), rows[0])
	}
	campaigns := 0
	for _, row := range rows[1:] {
		if row[2] != l.Code {
			t.Errorf("export of a link holds a visit of %q", row[2])
		}
		if row[15] == "spring sale" && row[13] == "newsletter" && row[14] == "email" {
			campaigns++
		}
	}
	if campaigns != 1 {
		t.Errorf("export of a link: %d rows with the campaign, want 1", campaigns)
	}
	if r := export(alice, ""); r.Status != http.StatusOK || strings.Count(string(r.Body), "\n") != 8 {
		t.Errorf("export of the workspace: %d, %d lines", r.Status, strings.Count(string(r.Body), "\n"))
	}
	// Another workspace's link is not found; a link that is not an ID is invalid.
	if r := export(alice, fmt.Sprintf("link=%d", bobs.ID)); r.Status != http.StatusNotFound {
		t.Errorf("export of another workspace's link: %d %s", r.Status, r.Body)
	}
	if r := export(bob, fmt.Sprintf("link=%d", l.ID)); r.Status != http.StatusNotFound {
		t.Errorf("bob's export of alice's link: %d %s", r.Status, r.Body)
	}
	if r := export(alice, "link=abc"); r.Status != http.StatusBadRequest || r.errorCode(t) != "invalid" {
		t.Errorf("export of link=abc: %d %s", r.Status, r.Body)
	}

	// A dashboard of today alone, and of the last 7 days.
	type dashboardJSON struct {
		From  string `json:"from"`
		To    string `json:"to"`
		Today struct{ Visits int64 }
		Days  []struct{ Date string }
	}
	today := time.Now().UTC().Format(time.DateOnly)
	week := time.Now().UTC().AddDate(0, 0, -6).Format(time.DateOnly)
	for _, c := range []struct {
		query string
		days  int
	}{{"", 14}, {"from=" + today + "&to=" + today, 1}, {"from=" + week + "&to=" + today, 7}} {
		r := s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/stats?tz=UTC&%s", alice.WorkspaceID, c.query), alice.Key, nil)
		dash := answer[dashboardJSON](t, r, http.StatusOK, "dashboard "+c.query)
		if len(dash.Days) != c.days || dash.Days[len(dash.Days)-1].Date != today || dash.Today.Visits != 7 {
			t.Errorf("dashboard %q: %d days to %v, %d visits today; want %d days to %s, 7 visits", c.query, len(dash.Days), dash.Days, dash.Today.Visits, c.days, today)
		}
		if !strings.HasPrefix(dash.From, dash.Days[0].Date) {
			t.Errorf("dashboard %q: from %s, first day %s", c.query, dash.From, dash.Days[0].Date)
		}
	}
	r = s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/stats?from=2020-01-01&to=2025-01-01", alice.WorkspaceID), alice.Key, nil)
	if r.Status != http.StatusBadRequest || r.errorCode(t) != "invalid" {
		t.Errorf("a dashboard of five years: %d %s", r.Status, r.Body)
	}
}
