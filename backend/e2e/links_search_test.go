package e2e

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/testenv"
)

// TestLinkSearchThroughTheAPI: the links list's search (q) finds a link created, edited and
// deleted through the API by its text at once, and still once the server's search indexer has
// copied it into the search table (which it reaches and leaves); it pages by the cursor newest
// first and most visited first, and never shows another workspace's links with the same text;
// Chinese texts and texts of fewer than three characters are found.
func TestLinkSearchThroughTheAPI(t *testing.T) {
	d := newDeployment(t)
	s := d.start(t)
	db := d.db(t)
	a := s.signup("searcher@example.com")
	b := s.signup("search-neighbour@example.com")
	wsA := fmt.Sprintf("/api/v1/workspaces/%d", a.WorkspaceID)

	search := func(tn tenant, q string) []int64 {
		t.Helper()
		return ids(listAll(t, s, tn, "q="+url.QueryEscape(q), 2))
	}
	// caughtUp waits for the indexer's marker: its queue empty, every link written so far
	// copied into the search table.
	caughtUp := func() {
		t.Helper()
		testenv.Eventually(t, 30*time.Second, "the search indexer's queue emptied", func() bool {
			var n int
			if err := db.Pool.QueryRow(context.Background(), `SELECT count(*) FROM link_search_queue`).Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n == 0
		})
	}
	indexed := func(id int64) string {
		t.Helper()
		var doc string
		if err := db.Pool.QueryRow(context.Background(), `SELECT coalesce(max(doc), '') FROM link_search WHERE link_id = $1`, id).Scan(&doc); err != nil {
			t.Fatal(err)
		}
		return doc
	}
	expect := func(when, q string, tn tenant, want ...int64) {
		t.Helper()
		if got := search(tn, q); !slices.Equal(got, want) {
			t.Errorf("%s: %q finds %v, want %v", when, q, got, want)
		}
	}

	var made []int64
	for i := range 5 {
		l := s.createLink(a, map[string]any{"url": fmt.Sprintf("https://shop.example.com/parcel/%d", i), "title": "包裹 parcel"})
		made = append(made, l.ID)
		s.createLink(b, map[string]any{"url": fmt.Sprintf("https://shop.example.com/parcel/%d", i), "title": "包裹 parcel"})
	}
	zebra := s.createLink(a, map[string]any{"url": "https://example.com/zebra", "title": "斑马 stripes"})
	newest := append([]int64{zebra.ID}, made...)
	slices.Reverse(newest[1:])

	for _, when := range []string{"at once", "indexed"} {
		if when == "indexed" {
			caughtUp()
			if doc := indexed(zebra.ID); doc != "https://example.com/zebra "+zebra.Code+" 斑马 stripes" {
				t.Errorf("the search table holds %q for the link", doc)
			}
		}
		expect(when, "zebra", a, zebra.ID)
		expect(when, "斑马", a, zebra.ID)
		expect(when, "zebra", b)
		expect(when, "PARCEL", a, newest[1:]...)
		expect(when, "包裹", a, newest[1:]...)
		expect(when, "/3", a, made[3])
		expect(when, "example.com", a, newest...)
		if got := ids(listAll(t, s, a, "q=parcel&sort=-visits", 2)); len(got) != 5 || slices.ContainsFunc(got, func(id int64) bool { return !slices.Contains(made, id) }) {
			t.Errorf("%s: most visited first finds %v, want %v in any order", when, got, made)
		}
	}

	if r := s.do("PATCH", fmt.Sprintf("%s/links/%d", wsA, zebra.ID), a.Key, map[string]any{"title": "长颈鹿 giraffe"}); r.Status != http.StatusOK {
		t.Fatalf("edit: %d %s", r.Status, r.Body)
	}
	for _, when := range []string{"edited, at once", "edited, indexed"} {
		if when == "edited, indexed" {
			caughtUp()
			if doc := indexed(zebra.ID); doc != "https://example.com/zebra "+zebra.Code+" 长颈鹿 giraffe" {
				t.Errorf("the search table holds %q after the edit", doc)
			}
		}
		expect(when, "斑马", a)
		expect(when, "stripes", a)
		expect(when, "giraffe", a, zebra.ID)
		expect(when, "长颈", a, zebra.ID)
	}

	if r := s.do("DELETE", fmt.Sprintf("%s/links/%d", wsA, zebra.ID), a.Key, nil); r.Status != http.StatusNoContent {
		t.Fatalf("delete: %d %s", r.Status, r.Body)
	}
	expect("deleted, at once", "giraffe", a)
	caughtUp()
	if doc := indexed(zebra.ID); doc != "" {
		t.Errorf("the deleted link is still in the search table: %q", doc)
	}
	expect("deleted, indexed", "giraffe", a)
	expect("deleted, indexed", "example.com", a, newest[1:]...)
}
