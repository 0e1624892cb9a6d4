package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"
)

// listedLink is a link as a listing shows it, with its visits.
type listedLink struct {
	ID       int64   `json:"id"`
	Status   string  `json:"status"`
	Visits   *int64  `json:"visits"`
	Visits7d []int64 `json:"visits_7d"`
}

type linkPage struct {
	Links      []listedLink `json:"links"`
	NextCursor string       `json:"next_cursor"`
}

// listAll pages through the listing of query (without cursor) limit links at a time, failing on
// a link seen twice; it returns the links in the order seen.
func listAll(t *testing.T, s *server, tn tenant, query string, limit int) []listedLink {
	t.Helper()
	var out []listedLink
	seen := map[int64]bool{}
	cursor := ""
	for range 100 {
		r := s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/links?%s&limit=%d&cursor=%s", tn.WorkspaceID, query, limit, url.QueryEscape(cursor)), tn.Key, nil)
		p := answer[linkPage](t, r, http.StatusOK, "list "+query)
		if len(p.Links) > limit {
			t.Fatalf("%s: %d links on a page of %d", query, len(p.Links), limit)
		}
		for _, l := range p.Links {
			if seen[l.ID] {
				t.Fatalf("%s, %d a page: link %d listed twice", query, limit, l.ID)
			}
			seen[l.ID] = true
			out = append(out, l)
		}
		if p.NextCursor == "" {
			return out
		}
		cursor = p.NextCursor
	}
	t.Fatalf("%s: the pages do not end", query)
	return nil
}

func ids(ls []listedLink) []int64 {
	out := make([]int64, len(ls))
	for i, l := range ls {
		out[i] = l.ID
	}
	return out
}

// TestLinkListVisitsAndOrder makes visits through real redirects and reads them back in the
// links listing: each link's visits since made and per day of the last 7, the orders by
// creation and by visits with pages of every size (none twice, none missed), the status
// filter in an order by visits, alone and with a tag, another workspace's links never listed, and bad orders,
// cursors and zones refused with their reason.
func TestLinkListVisitsAndOrder(t *testing.T) {
	s := newDeployment(t).start(t)
	a := s.signup("ordered@example.com")
	b := s.signup("neighbour@example.com")
	// People's visits per link, in order of creation; the fifth link has a crawler's visit
	// only, which is no visit.
	want := []int64{0, 3, 1, 3, 0, 2}
	links := make([]linkJSON, len(want))
	for i := range want {
		links[i] = s.createLink(a, map[string]any{"url": fmt.Sprintf("https://example.com/ordered/%d", i)})
	}
	other := s.createLink(b, map[string]any{"url": "https://example.org/neighbour"})
	hits := 0
	for i, n := range want {
		for j := range n {
			if st, _ := s.sendHit(links[i].Code, hit{fmt.Sprintf("10.3.%d.%d", i, j), uaDesktop, ""}); st != http.StatusFound {
				t.Fatalf("visit of link %d: %d", i, st)
			}
			hits++
		}
	}
	if st, _ := s.sendHit(links[4].Code, hit{fromDE, uaBot, ""}); st != http.StatusFound {
		t.Fatalf("crawler's visit: %d", st)
	}
	for j := range 5 {
		if st, _ := s.sendHit(other.Code, hit{fmt.Sprintf("10.4.0.%d", j), uaDesktop, ""}); st != http.StatusFound {
			t.Fatalf("visit of the neighbour's link: %d", st)
		}
	}
	visitsOf := func(ls []listedLink) map[int64]int64 {
		m := map[int64]int64{}
		for _, l := range ls {
			if l.Visits == nil {
				t.Fatalf("link %d listed without visits", l.ID)
			}
			m[l.ID] = *l.Visits
		}
		return m
	}
	eventually(t, 10*time.Second, "the visits in the listing", func() bool {
		var sum int64
		for _, v := range visitsOf(listAll(t, s, a, "sort=-created", 100)) {
			sum += v
		}
		return sum == int64(hits) && visitsOf(listAll(t, s, b, "", 100))[other.ID] == 5
	})
	got := visitsOf(listAll(t, s, a, "", 100))
	for i, l := range links {
		if got[l.ID] != want[i] {
			t.Errorf("link %d: %d visits listed, want %d", i, got[l.ID], want[i])
		}
	}

	// Every order, in pages of every size, lists the same links in the same order.
	byID := func(i int) int64 { return links[i].ID }
	orders := map[string][]int64{
		"sort=-created": {byID(5), byID(4), byID(3), byID(2), byID(1), byID(0)},
		"sort=created":  {byID(0), byID(1), byID(2), byID(3), byID(4), byID(5)},
		// Ties by ID, newest first; reversed in the other direction.
		"sort=-visits": {byID(3), byID(1), byID(5), byID(2), byID(4), byID(0)},
		"sort=visits":  {byID(0), byID(4), byID(2), byID(5), byID(1), byID(3)},
	}
	for query, order := range orders {
		for _, limit := range []int{1, 2, 4, 100} {
			if got := ids(listAll(t, s, a, query, limit)); !slices.Equal(got, order) {
				t.Errorf("%s in pages of %d: %v, want %v", query, limit, got, order)
			}
		}
	}
	if got := ids(listAll(t, s, a, "", 100)); !slices.Equal(got, orders["sort=-created"]) {
		t.Errorf("the default order: %v, want newest first", got)
	}

	// The last 7 days per link in a time zone: asked for, and only then.
	for _, l := range listAll(t, s, a, "with=sparkline&tz=Asia/Shanghai&sort=-visits", 2) {
		var sum int64
		for _, n := range l.Visits7d {
			sum += n
		}
		if len(l.Visits7d) != 7 || sum != *l.Visits {
			t.Errorf("link %d: visits_7d %v, want 7 days summing to %d", l.ID, l.Visits7d, *l.Visits)
		}
	}
	r := s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/links", a.WorkspaceID), a.Key, nil)
	if p := answer[linkPage](t, r, http.StatusOK, "list"); p.Links[0].Visits7d != nil {
		t.Errorf("visits_7d without with=sparkline: %v", p.Links[0].Visits7d)
	}

	// The status filter in an order by visits.
	r = s.do("PATCH", fmt.Sprintf("/api/v1/workspaces/%d/links/%d", a.WorkspaceID, links[3].ID), a.Key, map[string]any{"status": "disabled"})
	if r.Status != http.StatusOK {
		t.Fatalf("disable: %d %s", r.Status, r.Body)
	}
	if got := ids(listAll(t, s, a, "sort=-visits&status=active", 2)); !slices.Equal(got, []int64{byID(1), byID(5), byID(2), byID(4), byID(0)}) {
		t.Errorf("active links by visits: %v", got)
	}
	if got := ids(listAll(t, s, a, "sort=visits&status=disabled", 2)); !slices.Equal(got, []int64{byID(3)}) {
		t.Errorf("disabled links by visits: %v", got)
	}
	for _, query := range []string{"sort=-visits&q=ordered", "sort=visits&q=ordered"} {
		want := orders[strings.TrimSuffix(query, "&q=ordered")]
		if got := ids(listAll(t, s, a, query, 2)); !slices.Equal(got, want) {
			t.Errorf("%s: %v, want %v", query, got, want)
		}
	}
	// A tag with a status in an order by visits (the tag's rows kept by the status's links'
	// IDs): links 1, 2, 3 and 5 tagged, 2 and 3 disabled; the neighbour's link carries a tag of
	// the same name.
	for i, l := range append(slices.Clone(links), other) {
		tn, patch := a, map[string]any{"tags": []string{"picked"}}
		if l.ID == other.ID {
			tn = b
		} else if i != 1 && i != 2 && i != 3 && i != 5 {
			continue
		}
		if i == 2 {
			patch["status"] = "disabled"
		}
		if r := s.do("PATCH", fmt.Sprintf("/api/v1/workspaces/%d/links/%d", tn.WorkspaceID, l.ID), tn.Key, patch); r.Status != http.StatusOK {
			t.Fatalf("tag link %d: %d %s", i, r.Status, r.Body)
		}
	}
	for query, want := range map[string][]int64{
		"sort=-visits&status=disabled&tag=picked": {byID(3), byID(2)},
		"sort=visits&status=disabled&tag=picked":  {byID(2), byID(3)},
		"sort=-visits&status=active&tag=picked":   {byID(1), byID(5)},
	} {
		for _, limit := range []int{1, 2, 100} {
			if got := ids(listAll(t, s, a, query, limit)); !slices.Equal(got, want) {
				t.Errorf("%s in pages of %d: %v, want %v", query, limit, got, want)
			}
		}
	}

	// The neighbour's link, the most visited, is in no order of this workspace; nor are these
	// links in the neighbour's.
	for query := range orders {
		if got := ids(listAll(t, s, a, query, 3)); slices.Contains(got, other.ID) {
			t.Errorf("%s lists another workspace's link", query)
		}
		if got := ids(listAll(t, s, b, query, 3)); !slices.Equal(got, []int64{other.ID}) {
			t.Errorf("%s of the other workspace: %v", query, got)
		}
	}

	// Bad input answers 400 with the reason and the field.
	ws := fmt.Sprintf("/api/v1/workspaces/%d/links", a.WorkspaceID)
	first := answer[linkPage](t, s.do("GET", ws+"?limit=1", a.Key, nil), http.StatusOK, "first page")
	byVisits := answer[linkPage](t, s.do("GET", ws+"?limit=1&sort=-visits", a.Key, nil), http.StatusOK, "first page by visits")
	for _, c := range []struct{ query, reason, field string }{
		{"sort=clicks", "value_invalid", "sort"},
		{"sort=-", "value_invalid", "sort"},
		{"cursor=%21%21", "value_invalid", "cursor"},
		{"sort=-visits&cursor=" + url.QueryEscape(first.NextCursor), "value_invalid", "cursor"},
		{"sort=created&cursor=" + url.QueryEscape(byVisits.NextCursor), "value_invalid", "cursor"},
		{"sort=visits&cursor=-1.5", "value_invalid", "cursor"},
		{"with=stats", "value_invalid", "with"},
		{"with=sparkline&tz=Mars%2FOlympus", "value_invalid", "tz"},
	} {
		r := s.do("GET", ws+"?"+c.query, a.Key, nil)
		var e struct {
			Error struct{ Code, Reason, Field string } `json:"error"`
		}
		_ = json.Unmarshal(r.Body, &e)
		if r.Status != http.StatusBadRequest || e.Error.Code != "invalid" || e.Error.Reason != c.reason || e.Error.Field != c.field {
			t.Errorf("%s: %d %s, want 400 invalid %s on %s", c.query, r.Status, r.Body, c.reason, c.field)
		}
	}
}
