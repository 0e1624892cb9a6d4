package e2e

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestVisitsExportFiltered sends visits through the redirect and exports a link's visits with
// the filters of its statistics: the file's people's rows are the filtered statistics' visits,
// every row has the filter's values, crawlers' rows come with them; another workspace's link
// is not found, and bad filters answer 400 with the statistics' reasons.
func TestVisitsExportFiltered(t *testing.T) {
	d := withRules(t, newDeployment(t))
	s := d.start(t)
	alice := s.signupOn("export-filter@example.com", "enterprise")
	bob := s.signupOn("export-filter-bob@example.com", "enterprise")
	l := s.createLink(alice, map[string]any{"url": "https://example.com/export-filter"})
	other := s.createLink(alice, map[string]any{"url": "https://example.com/export-filter-other"})
	bobs := s.createLink(bob, map[string]any{"url": "https://example.com/export-filter-bob"})
	const uaBot = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
	for _, v := range []struct {
		code, query string
		h           hit
	}{
		{l.Code, "?utm_source=news", hit{"10.1.0.31", uaDesktop, "https://t.co/x"}},
		{l.Code, "?utm_source=news", hit{"10.1.0.32", uaDesktop, ""}},
		{l.Code, "", hit{"10.1.0.33", uaIPhone, "https://t.co/y"}},
		{l.Code, "", hit{"10.1.0.34", uaWeChat, ""}},
		{l.Code, "", hit{"10.2.0.31", uaWeChat, ""}},
		{l.Code, "", hit{"10.1.0.35", uaBot, ""}},
		{other.Code, "", hit{"10.1.0.36", uaDesktop, ""}},
		{bobs.Code, "", hit{"10.1.0.37", uaDesktop, ""}},
	} {
		if st, loc := s.sendHit(v.code+v.query, v.h); st != http.StatusFound {
			t.Fatalf("visit %s%s: %d %s", v.code, v.query, st, loc)
		}
	}
	ws := fmt.Sprintf("/api/v1/workspaces/%d", alice.WorkspaceID)
	statsPath := fmt.Sprintf("%s/links/%d/stats", ws, l.ID)
	eventually(t, 30*time.Second, "the visits in the statistics", func() bool {
		st := answer[linkStatsJSON](t, s.do("GET", statsPath, alice.Key, nil), http.StatusOK, "stats")
		return st.Visits == 5 && st.Bots == 1
	})
	// Bob's visit may be stored in a later batch than Alice's.
	eventually(t, 30*time.Second, "bob's visit stored", func() bool {
		return len(s.visitsOf(t, bob, bobs.ID, "")) == 1
	})

	inApp := answer[linkStatsJSON](t, s.do("GET", statsPath, alice.Key, nil), http.StatusOK, "stats").Breakdowns["in_app"]
	if len(inApp) != 1 || inApp[0].Visits != 2 {
		t.Fatalf("the in-app browsers: %+v, want WeChat's 2", inApp)
	}
	for _, query := range []string{"country=DE", "in_app=" + url.QueryEscape(inApp[0].Key), "country=DE&device=desktop", "utm_source=news&referrer=t.co", "country=CN&utm_source=news"} {
		st := answer[linkStatsJSON](t, s.do("GET", statsPath+"?"+query, alice.Key, nil), http.StatusOK, "stats "+query)
		rows := s.visitsOf(t, alice, l.ID, query)
		want, _ := url.ParseQuery(query)
		var people, bots int64
		for _, r := range rows {
			if r["link_id"] != strconv.FormatInt(l.ID, 10) {
				t.Errorf("%s: a row of link %s", query, r["link_id"])
			}
			for k := range want {
				if r[k] != want.Get(k) {
					t.Errorf("%s: a row with %s %q", query, k, r[k])
				}
			}
			if r["bot"] == "true" {
				bots++
			} else {
				people++
			}
		}
		if people != st.Visits || bots != st.Bots {
			t.Errorf("%s: the file has %d people's rows and %d crawlers', the statistics %d and %d", query, people, bots, st.Visits, st.Bots)
		}
	}
	if rows := s.visitsOf(t, alice, l.ID, ""); len(rows) != 6 {
		t.Errorf("unfiltered: %d rows, want 6", len(rows))
	}

	// Tenancy first: bob's export of alice's link, filtered, is not found; his own holds his only.
	if r := s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/visits/export.csv?link=%d&country=DE", bob.WorkspaceID, l.ID), bob.Key, nil); r.Status != http.StatusNotFound {
		t.Errorf("bob exports alice's link: %d %s", r.Status, r.Body)
	}
	if r := s.do("GET", fmt.Sprintf("%s/visits/export.csv?link=%d&country=DE", ws, l.ID), bob.Key, nil); r.Status != http.StatusForbidden && r.Status != http.StatusNotFound {
		t.Errorf("bob in alice's workspace: %d %s", r.Status, r.Body)
	}
	for _, r := range s.visitsOf(t, bob, bobs.ID, "country=DE") {
		if r["link_id"] != strconv.FormatInt(bobs.ID, 10) {
			t.Errorf("bob's export holds link %s", r["link_id"])
		}
	}

	old := time.Now().UTC().AddDate(0, 0, -420).Format(time.DateOnly)
	older := time.Now().UTC().AddDate(0, 0, -300).Format(time.DateOnly)
	export := fmt.Sprintf("%s/visits/export.csv?link=%d&", ws, l.ID)
	for _, c := range []struct{ path, reason, field string }{
		{export + "country=de", "filter_invalid", "country"},
		{export + "in_app=WeChat&in_app=QQ", "filter_invalid", "in_app"},
		{export + "device=tablet", "filter_invalid", "device"},
		{export + "utm_campaign=", "filter_invalid", "utm_campaign"},
		{export + "country=DE&from=" + old + "&to=" + older, "filter_range_unavailable", "from"},
		{ws + "/visits/export.csv?country=DE", "filter_unsupported", "country"},
	} {
		r := s.do("GET", c.path, alice.Key, nil)
		if r.Status != http.StatusBadRequest || r.errorCode(t) != "invalid" {
			t.Errorf("%s: %d %s", c.path, r.Status, r.Body)
			continue
		}
		if reason, field := r.errorReasonField(t); reason != c.reason || field != c.field {
			t.Errorf("%s: reason %s field %s, want %s %s", c.path, reason, field, c.reason, c.field)
		}
	}
}

// visitsOf exports the visits of the tenant's link with the filter query, each row by column.
func (s *server) visitsOf(t *testing.T, tn tenant, linkID int64, query string) []map[string]string {
	t.Helper()
	rows := readCSV(t, s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/visits/export.csv?link=%d&%s", tn.WorkspaceID, linkID, query), tn.Key, nil))
	var out []map[string]string
	for _, r := range rows[1:] {
		m := map[string]string{}
		for i, name := range rows[0] {
			m[name] = r[i]
		}
		out = append(out, m)
	}
	return out
}

// TestLinksExportFiltered: the links export takes the list's filters, and its rows are the
// links the list answers with them (archived ones only when asked, every link without a
// filter); another workspace's links never appear, and bad filters answer 400 in the error
// shape.
func TestLinksExportFiltered(t *testing.T) {
	s := newDeployment(t).start(t)
	alice := s.signupOn("export-list@example.com", "enterprise")
	bob := s.signupOn("export-list-bob@example.com", "enterprise")
	ws := fmt.Sprintf("/api/v1/workspaces/%d", alice.WorkspaceID)
	news := s.createLink(alice, map[string]any{"url": "https://news.example/one", "tags": []string{"news", "promo"}})
	s.createLink(alice, map[string]any{"url": "https://news.example/two", "tags": []string{"news"}})
	off := s.createLink(alice, map[string]any{"url": "https://shop.example/off", "tags": []string{"promo"}})
	if r := s.do("PATCH", fmt.Sprintf("%s/links/%d", ws, off.ID), alice.Key, map[string]any{"status": "disabled"}); r.Status != http.StatusOK {
		t.Fatalf("disable: %d %s", r.Status, r.Body)
	}
	s.createLink(alice, map[string]any{"url": "https://shop.example/archived", "tags": []string{"news"}, "archived": true})
	s.createLink(alice, map[string]any{"url": "https://plain.example/"})
	bobs := s.createLink(bob, map[string]any{"url": "https://news.example/bob", "tags": []string{"news"}})

	exported := func(tn tenant, query string) []int64 {
		t.Helper()
		rows := readCSV(t, s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/links/export.csv?%s", tn.WorkspaceID, query), tn.Key, nil))
		var ids []int64
		for _, r := range rows[1:] {
			id, err := strconv.ParseInt(r[0], 10, 64)
			if err != nil {
				t.Fatalf("%s: row %q", query, r)
			}
			ids = append(ids, id)
		}
		if !slices.IsSorted(ids) {
			t.Errorf("%s: the rows are not by ID: %v", query, ids)
		}
		return ids
	}
	for _, query := range []string{
		"archived=false", "archived=true", "archived=all", "tag=news", "tag=news&archived=false", "tag=NEWS&tag=promo", "tag=promo&status=disabled",
		"status=active&archived=all", "q=news.example", "q=shop&archived=all", "domain=" + shortHost + "&tag=news", "tag=nosuchtag",
		"health=broken&archived=all",
	} {
		listed := query
		if !strings.Contains(query, "archived=") {
			listed += "&archived=all" // the export's default, unlike the list's
		}
		want := s.listedIDs(t, alice, listed+"&limit=100")
		if got := exported(alice, query); !slices.Equal(got, want) {
			t.Errorf("%s: exported %v, listed %v", query, got, want)
		}
	}
	if got, all := exported(alice, ""), s.listedIDs(t, alice, "archived=all&limit=100"); !slices.Equal(got, all) || len(all) != 5 {
		t.Errorf("without a filter: exported %v, want every link %v", got, all)
	}
	if got := exported(alice, "tag=news&tag=promo"); !slices.Equal(got, []int64{news.ID}) {
		t.Errorf("two tags: %v, want [%d]", got, news.ID)
	}
	for _, query := range []string{"", "tag=news", "q=news.example&archived=all"} {
		if got := exported(bob, query); !slices.Equal(got, []int64{bobs.ID}) {
			t.Errorf("bob's export %q: %v, want his link only", query, got)
		}
	}
	if r := s.do("GET", ws+"/links/export.csv?tag=news", bob.Key, nil); r.Status != http.StatusForbidden && r.Status != http.StatusNotFound {
		t.Errorf("bob exports alice's workspace: %d %s", r.Status, r.Body)
	}

	for _, c := range []struct{ query, reason, field string }{
		{"status=gone", "value_invalid", "status"},
		{"archived=maybe", "value_invalid", "archived"},
		{"health=sick", "value_invalid", "health"},
		{"q=" + strings.Repeat("a", 201), "value_invalid", "q"},
		{"domain=elsewhere.example", "domain_not_verified", "domain"},
		{"tag=a&tag=b&tag=c&tag=d&tag=e&tag=f&tag=g&tag=h&tag=i&tag=j&tag=k", "value_invalid", "tag"},
	} {
		r := s.do("GET", ws+"/links/export.csv?"+c.query, alice.Key, nil)
		if r.Status != http.StatusBadRequest || r.errorCode(t) != "invalid" {
			t.Errorf("%s: %d %s", c.query, r.Status, r.Body)
			continue
		}
		if reason, field := r.errorReasonField(t); reason != c.reason || field != c.field {
			t.Errorf("%s: reason %s field %s, want %s %s", c.query, reason, field, c.reason, c.field)
		}
	}
}
