package postgres_test

import (
	"cmp"
	"context"
	"slices"
	"testing"

	"github.com/shortlink/shortlink/backend/link"
	"github.com/shortlink/shortlink/backend/postgres"
	"github.com/shortlink/shortlink/backend/testenv"
)

// TestLinkListTagByVisits pages through a tag's links by visits, both ways (the tag's rows
// walked by the visits kept beside them, then its links without visits): the pages hold the
// tag's links, and only them, in the order of their visits; other filters and another
// workspace's links stay out.
func TestLinkListTagByVisits(t *testing.T) {
	t.Parallel()
	db := testenv.DB(t)
	ctx := context.Background()
	accounts := postgres.NewAccountStore(db)
	_, ws := newUser(t, accounts, "tag-order@example.com")
	_, other := newUser(t, accounts, "tag-order-other@example.com")
	exec := func(sql string, args ...any) {
		t.Helper()
		if _, err := db.Pool.Exec(ctx, sql, args...); err != nil {
			t.Fatalf("%.60s: %v", sql, err)
		}
	}
	// 60 links of ws and 20 of other; the most visited are untagged; every third link is
	// disabled.
	exec(`INSERT INTO links (id, workspace_id, key, url, url_hash, status)
		SELECT g, CASE WHEN g > 60 THEN $2::bigint ELSE $1::bigint END, 'k' || g, 'https://example.com/' || g, g,
			CASE WHEN g % 3 = 0 THEN 'disabled' ELSE 'active' END FROM generate_series(1, 80) g`, ws.ID, other.ID)
	var tag, theirs int64
	if err := db.Pool.QueryRow(ctx, `INSERT INTO tags (workspace_id, name, folded, color) VALUES ($1, 'big', 'big', '#000000') RETURNING id`, ws.ID).Scan(&tag); err != nil {
		t.Fatal(err)
	}
	if err := db.Pool.QueryRow(ctx, `INSERT INTO tags (workspace_id, name, folded, color) VALUES ($1, 'big', 'big', '#000000') RETURNING id`, other.ID).Scan(&theirs); err != nil {
		t.Fatal(err)
	}
	exec(`INSERT INTO link_tags (tag_id, link_id) SELECT CASE WHEN id > 60 THEN $2::bigint ELSE $1::bigint END, id FROM links WHERE id % 2 = 1 OR id > 60`, tag, theirs)
	// Visits: links 1–10 most (untagged even ones first), ties among the others, none on some.
	visits := map[int64]int64{}
	for id := int64(1); id <= 80; id++ {
		switch {
		case id <= 10 && id%2 == 0:
			visits[id] = 1000 + id
		case id%5 == 4:
			// none
		default:
			visits[id] = id % 7 * 10
		}
	}
	for id, v := range visits {
		if v == 0 {
			continue
		}
		ws := ws.ID
		if id > 60 {
			ws = other.ID
		}
		exec(`INSERT INTO visit_totals (link_id, workspace_id, visits) VALUES ($1, $2, $3)`, id, ws, v)
	}
	// As the ingest keeps them (migration 00064).
	exec(`UPDATE link_tags lt SET visits = t.visits FROM visit_totals t WHERE t.link_id = lt.link_id`)
	store := postgres.NewLinkStore(db)
	for _, c := range []struct {
		name   string
		sort   link.Sort
		status string
	}{
		{"most visited", link.SortMostVisited, ""},
		{"least visited", link.SortLeastVisited, ""},
		{"most visited, active", link.SortMostVisited, link.StatusActive},
		{"least visited, active", link.SortLeastVisited, link.StatusActive},
	} {
		var want []int64
		for id := int64(1); id <= 60; id++ {
			if id%2 == 1 && (c.status == "" || id%3 != 0) {
				want = append(want, id)
			}
		}
		slices.SortFunc(want, func(x, y int64) int {
			r := cmp.Or(cmp.Compare(visits[x], visits[y]), cmp.Compare(x, y))
			if c.sort == link.SortMostVisited {
				return -r
			}
			return r
		})
		for _, size := range []int{3, 7, 100} {
			var got []int64
			f := link.Filter{TagID: &tag, Sort: c.sort, Status: c.status, Limit: size}
			for range 50 {
				page, more, err := store.List(ctx, ws.ID, f)
				if err != nil {
					t.Fatalf("%s: %v", c.name, err)
				}
				for _, l := range page {
					got = append(got, l.ID)
				}
				if !more || len(page) == 0 {
					break
				}
				last := page[len(page)-1]
				f.After = &link.Cursor{ID: last.ID, Visits: last.Visits.Total}
			}
			if !slices.Equal(got, want) {
				t.Errorf("%s, pages of %d:\n got %v\nwant %v", c.name, size, got, want)
			}
		}
	}
}
