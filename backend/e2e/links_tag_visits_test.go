package e2e

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"testing"
	"time"
)

// TestLinkListTagByVisits makes visits through real redirects to tagged links and lists the tag
// by visits: the counts the ingest keeps beside the tag come with each link, in the order of
// (visits, ID) both ways and in pages of every size (none twice, none missed); a tag put on a
// visited link later comes at its count; another workspace's tag of the same name, more
// visited, never comes; a cursor of another order answers 400.
func TestLinkListTagByVisits(t *testing.T) {
	s := newDeployment(t).start(t)
	a := s.signup("tag-visits@example.com")
	b := s.signup("tag-visits-neighbour@example.com")
	want := []int64{2, 0, 4, 2, 1}
	links := make([]linkJSON, len(want)+1)
	for i := range want {
		links[i] = s.createLink(a, map[string]any{"url": fmt.Sprintf("https://example.com/tagged/%d", i), "tags": []string{"spring"}})
	}
	// Visited before the tag is put on it.
	late := len(want)
	links[late] = s.createLink(a, map[string]any{"url": "https://example.com/tagged/late"})
	other := s.createLink(b, map[string]any{"url": "https://example.org/tagged", "tags": []string{"spring"}})
	visit := func(code string, n int, net string) {
		for j := range n {
			if st, _ := s.sendHit(code, hit{fmt.Sprintf("10.%s.%d", net, j), uaDesktop, ""}); st != http.StatusFound {
				t.Fatalf("visit of %s: %d", code, st)
			}
		}
	}
	for i, n := range want {
		visit(links[i].Code, int(n), fmt.Sprintf("5.%d", i))
	}
	visit(links[late].Code, 3, "6.0")
	visit(other.Code, 9, "7.0")
	visitsOf := func(ls []listedLink) map[int64]int64 {
		m := map[int64]int64{}
		for _, l := range ls {
			if l.Visits != nil {
				m[l.ID] = *l.Visits
			}
		}
		return m
	}
	// The tag's listing by visits shows the counts once the ingest stored them.
	eventually(t, 10*time.Second, "the tag's visits in the listing", func() bool {
		got := visitsOf(listAll(t, s, a, "tag=spring&sort=-visits", 100))
		for i, n := range want {
			if got[links[i].ID] != n {
				return false
			}
		}
		return visitsOf(listAll(t, s, a, "", 100))[links[late].ID] == 3 && visitsOf(listAll(t, s, b, "tag=spring&sort=-visits", 100))[other.ID] == 9
	})
	r := s.do("PATCH", fmt.Sprintf("/api/v1/workspaces/%d/links/%d", a.WorkspaceID, links[late].ID), a.Key, map[string]any{"tags": []string{"spring"}})
	if r.Status != http.StatusOK {
		t.Fatalf("tag the late link: %d %s", r.Status, r.Body)
	}
	id := func(i int) int64 { return links[i].ID }
	orders := map[string][]int64{
		"tag=spring&sort=-visits": {id(2), id(late), id(3), id(0), id(4), id(1)},
		"tag=spring&sort=visits":  {id(1), id(4), id(0), id(3), id(late), id(2)},
	}
	for query, order := range orders {
		for _, limit := range []int{1, 2, 4, 100} {
			got := listAll(t, s, a, query, limit)
			if !slices.Equal(ids(got), order) {
				t.Errorf("%s in pages of %d: %v, want %v", query, limit, ids(got), order)
			}
			if v := visitsOf(got); v[id(late)] != 3 || v[id(2)] != 4 {
				t.Errorf("%s: visits %v", query, v)
			}
		}
		if got := ids(listAll(t, s, b, query, 2)); !slices.Equal(got, []int64{other.ID}) {
			t.Errorf("%s of the neighbour: %v", query, got)
		}
	}
	ws := fmt.Sprintf("/api/v1/workspaces/%d/links", a.WorkspaceID)
	first := answer[linkPage](t, s.do("GET", ws+"?limit=1&tag=spring", a.Key, nil), http.StatusOK, "first page")
	r = s.do("GET", ws+"?tag=spring&sort=-visits&cursor="+url.QueryEscape(first.NextCursor), a.Key, nil)
	wantError(t, r, http.StatusBadRequest, "value_invalid", "a cursor newest first in an order by visits")
}
