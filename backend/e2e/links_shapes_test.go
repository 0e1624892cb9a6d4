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

// TestLinkListShapes reads the links list's shapes of large workspaces through the API
// (docs/api.md#listing-links): several tags at once (links carrying every one), the order by
// last change both ways with its cursor, and expired links; in pages of every size, with a
// neighbour whose links carry tags of the same names and never appear; bad input refused with
// its reason.
func TestLinkListShapes(t *testing.T) {
	s := newDeployment(t).start(t)
	a := s.signup("shapes@example.com")
	b := s.signup("shapes-neighbour@example.com")
	tagsOf := [][]string{{"red", "big"}, {"red"}, {"big"}, {"Red", "BIG", "x"}, {}, {"red", "big"}}
	links := make([]linkJSON, len(tagsOf))
	for i, tags := range tagsOf {
		links[i] = s.createLink(a, map[string]any{"url": fmt.Sprintf("https://example.com/shapes/%d", i), "tags": tags})
	}
	theirs := s.createLink(b, map[string]any{"url": "https://example.org/shapes", "tags": []string{"red", "big"}})
	id := func(i int) int64 { return links[i].ID }

	for query, want := range map[string][]int64{
		"tag=red&tag=big":              {id(5), id(3), id(0)},
		"tag=BIG&tag=red&tag=big":      {id(5), id(3), id(0)},
		"tag=red&tag=big&sort=created": {id(0), id(3), id(5)},
		"tag=red&tag=big&sort=-visits": {id(5), id(3), id(0)},
		"tag=red&tag=big&tag=x":        {id(3)},
		"tag=red&tag=nope":             {},
		"tag=red":                      {id(5), id(3), id(1), id(0)},
	} {
		for _, limit := range []int{1, 2, 100} {
			got := ids(listAll(t, s, a, query, limit))
			if !slices.Equal(got, want) && !(len(got) == 0 && len(want) == 0) {
				t.Errorf("%s in pages of %d: %v, want %v", query, limit, got, want)
			}
		}
		if got := ids(listAll(t, s, b, query, 2)); slices.ContainsFunc(got, func(id int64) bool { return id != theirs.ID }) {
			t.Errorf("%s of the neighbour lists another workspace's links: %v", query, got)
		}
	}

	// The order by change: link 2 edited last, then link 4; the others in their order of
	// creation (their last change).
	ws := fmt.Sprintf("/api/v1/workspaces/%d/links", a.WorkspaceID)
	for _, i := range []int{2, 4} {
		if r := s.do("PATCH", fmt.Sprintf("%s/%d", ws, id(i)), a.Key, map[string]any{"title": "changed"}); r.Status != http.StatusOK {
			t.Fatalf("edit: %d %s", r.Status, r.Body)
		}
	}
	for query, want := range map[string][]int64{
		"sort=-updated":                {id(4), id(2), id(5), id(3), id(1), id(0)},
		"sort=updated":                 {id(0), id(1), id(3), id(5), id(2), id(4)},
		"sort=-updated&tag=big":        {id(2), id(5), id(3), id(0)},
		"sort=updated&tag=red&tag=big": {id(0), id(3), id(5)},
	} {
		for _, limit := range []int{1, 2, 4, 100} {
			if got := ids(listAll(t, s, a, query, limit)); !slices.Equal(got, want) {
				t.Errorf("%s in pages of %d: %v, want %v", query, limit, got, want)
			}
		}
	}
	// A link created while paging newest-changed first is ahead of the cursor: the walk goes on
	// as it was.
	first := answer[linkPage](t, s.do("GET", ws+"?sort=-updated&limit=2", a.Key, nil), http.StatusOK, "first page")
	late := s.createLink(a, map[string]any{"url": "https://example.com/shapes/late", "tags": []string{"red", "big"}})
	rest := answer[linkPage](t, s.do("GET", ws+"?sort=-updated&limit=100&cursor="+url.QueryEscape(first.NextCursor), a.Key, nil), http.StatusOK, "rest")
	if got := ids(rest.Links); !slices.Equal(got, []int64{id(5), id(3), id(1), id(0)}) {
		t.Errorf("after a create, the rest of the walk: %v", got)
	}

	// Expired: a link whose expiry passes.
	soon := time.Now().Add(2 * time.Second).UTC().Format(time.RFC3339Nano)
	if r := s.do("PATCH", fmt.Sprintf("%s/%d", ws, id(1)), a.Key, map[string]any{"expires_at": soon}); r.Status != http.StatusOK {
		t.Fatalf("expiry: %d %s", r.Status, r.Body)
	}
	eventually(t, 10*time.Second, "the link listed as expired", func() bool {
		return slices.Equal(ids(listAll(t, s, a, "status=expired", 1)), []int64{id(1)})
	})
	if got := ids(listAll(t, s, a, "status=expired&sort=-visits&tag=red", 2)); !slices.Equal(got, []int64{id(1)}) {
		t.Errorf("expired and tagged, by visits: %v", got)
	}
	if got := ids(listAll(t, s, b, "status=expired", 2)); len(got) != 0 {
		t.Errorf("the neighbour's expired links: %v", got)
	}
	_ = late

	byCreation := answer[linkPage](t, s.do("GET", ws+"?limit=1", a.Key, nil), http.StatusOK, "first page")
	byChange := answer[linkPage](t, s.do("GET", ws+"?limit=1&sort=updated", a.Key, nil), http.StatusOK, "first page by change")
	for _, c := range []struct{ query, field string }{
		{"sort=updated&cursor=" + url.QueryEscape(byCreation.NextCursor), "cursor"},
		{"sort=-visits&cursor=" + url.QueryEscape(byChange.NextCursor), "cursor"},
		{"sort=updated&cursor=u.5", "cursor"},
		{"sort=updated&cursor=uzz", "cursor"},
		{"status=gone", "status"},
		{strings.Repeat("tag=t&", 11), "tag"},
	} {
		r := s.do("GET", ws+"?"+c.query, a.Key, nil)
		var e struct {
			Error struct{ Code, Reason, Field string } `json:"error"`
		}
		_ = json.Unmarshal(r.Body, &e)
		if r.Status != http.StatusBadRequest || e.Error.Code != "invalid" || e.Error.Reason != "value_invalid" || e.Error.Field != c.field {
			t.Errorf("%s: %d %s, want 400 invalid value_invalid on %s", c.query, r.Status, r.Body, c.field)
		}
	}
}
