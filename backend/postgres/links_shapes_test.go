package postgres_test

import (
	"cmp"
	"context"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/link"
	"github.com/shortlink/shortlink/backend/postgres"
	"github.com/shortlink/shortlink/backend/testenv"
)

// TestLinkListShapes pages through the list's shapes of large workspaces (docs/api.md#listing-links)
// two links a page: by ID both ways (alone, active, searched, on a custom domain, and the links
// without visits of an order by visits) in a workspace whose links are all older than another's,
// by last change both ways, several tags at once, expired links, each with
// links added and edited between pages. Every page is in the order asked; a walk answers each
// link it should once, however many are added meanwhile (those that belong ahead of the cursor
// stay out, those behind it come last); another workspace's links, carrying tags of the same
// names, never appear.
func TestLinkListShapes(t *testing.T) {
	t.Parallel()
	db := testenv.DB(t)
	ctx := context.Background()
	accounts := postgres.NewAccountStore(db)
	_, ws := newUser(t, accounts, "shapes@example.com")
	_, other := newUser(t, accounts, "shapes-other@example.com")
	exec := func(t testing.TB, sql string, args ...any) {
		t.Helper()
		if _, err := db.Pool.Exec(ctx, sql, args...); err != nil {
			t.Fatalf("%.60s: %v", sql, err)
		}
	}
	// Links 1–30 are ws's, 31–45 other's; changed at times out of their ID order, some at the
	// same time; every fifth expired.
	exec(t, `INSERT INTO links (id, workspace_id, key, url, url_hash, updated_at, expires_at)
		SELECT g, CASE WHEN g > 30 THEN $2::bigint ELSE $1::bigint END, 'k' || g, 'https://example.com/' || g, g,
			now() - interval '1 hour' * ((g * 7) % 11),
			CASE WHEN g % 5 = 0 THEN now() - interval '1 day' END
		FROM generate_series(1, 45) g`, ws.ID, other.ID)
	tag := func(ws int64, name string, where string) int64 {
		t.Helper()
		var id int64
		if err := db.Pool.QueryRow(ctx, `INSERT INTO tags (workspace_id, name, folded, color) VALUES ($1, $2, $2, '#000000') RETURNING id`,
			ws, name).Scan(&id); err != nil {
			t.Fatal(err)
		}
		exec(t, `INSERT INTO link_tags (tag_id, link_id) SELECT $1, id FROM links WHERE workspace_id = $2 AND `+where, id, ws)
		return id
	}
	even, third := tag(ws.ID, "even", "id % 2 = 0"), tag(ws.ID, "third", "id % 3 = 0")
	tag(other.ID, "even", "true")
	tag(other.ID, "third", "true")
	// Every third link of ws on its custom domain, and one of other's with that domain's ID.
	var domain int64
	if err := db.Pool.QueryRow(ctx, `INSERT INTO domains (workspace_id, hostname, token, verified_at)
		VALUES ($1, 'go.shapes.example', 't', now()) RETURNING id`, ws.ID).Scan(&domain); err != nil {
		t.Fatal(err)
	}
	exec(t, `UPDATE links SET domain_id = $1 WHERE id % 3 = 1 AND (workspace_id = $2 OR id = 31)`, domain, ws.ID)
	exec(t, `INSERT INTO visit_totals (link_id, workspace_id, visits) SELECT id, workspace_id, id % 4 FROM links WHERE id % 4 > 0`)
	exec(t, `UPDATE link_tags lt SET visits = t.visits FROM visit_totals t WHERE t.link_id = lt.link_id`) // as the ingest keeps them
	store := postgres.NewLinkStore(db)
	next := int64(100)

	type row struct {
		id, visits int64
		updated    time.Time
		expired    bool
		onDomain   bool
		tags       map[int64]bool
	}
	// state is every link of ws as the database has it now.
	state := func(t testing.TB) map[int64]row {
		t.Helper()
		rows, err := db.Pool.Query(ctx, `SELECT l.id, coalesce(v.visits, 0), l.updated_at, coalesce(l.expires_at <= now(), false),
				l.domain_id = $2, ARRAY(SELECT tag_id FROM link_tags lt WHERE lt.link_id = l.id)
			FROM links l LEFT JOIN visit_totals v ON v.link_id = l.id WHERE l.workspace_id = $1`, ws.ID, domain)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		out := map[int64]row{}
		for rows.Next() {
			var r row
			var tags []int64
			if err := rows.Scan(&r.id, &r.visits, &r.updated, &r.expired, &r.onDomain, &tags); err != nil {
				t.Fatal(err)
			}
			r.tags = map[int64]bool{}
			for _, id := range tags {
				r.tags[id] = true
			}
			out[r.id] = r
		}
		return out
	}
	// searched: the links whose URL holds example.com/1 (those added between pages hold
	// example.com/n).
	searched := func(r row) bool { return r.id <= 30 && strings.HasPrefix(strconv.FormatInt(r.id, 10), "1") }
	for _, c := range []struct {
		name   string
		f      link.Filter
		keep   func(row) bool
		before func(a, b row) int // the listing's order
	}{
		{"least recently updated", link.Filter{Sort: link.SortUpdated}, func(row) bool { return true },
			func(a, b row) int { return cmp.Or(a.updated.Compare(b.updated), cmp.Compare(a.id, b.id)) }},
		{"most recently updated", link.Filter{Sort: link.SortRecentlyUpdated}, func(row) bool { return true },
			func(a, b row) int { return cmp.Or(b.updated.Compare(a.updated), cmp.Compare(b.id, a.id)) }},
		{"recently updated, tagged", link.Filter{Sort: link.SortRecentlyUpdated, TagID: &even}, func(r row) bool { return r.tags[even] },
			func(a, b row) int { return cmp.Or(b.updated.Compare(a.updated), cmp.Compare(b.id, a.id)) }},
		{"two tags, newest", link.Filter{TagID: &even, AlsoTagIDs: []int64{third}}, func(r row) bool { return r.tags[even] && r.tags[third] },
			func(a, b row) int { return cmp.Compare(b.id, a.id) }},
		{"two tags, oldest", link.Filter{Sort: link.SortOldest, TagID: &third, AlsoTagIDs: []int64{even}}, func(r row) bool { return r.tags[even] && r.tags[third] },
			func(a, b row) int { return cmp.Compare(a.id, b.id) }},
		{"two tags, most visited", link.Filter{Sort: link.SortMostVisited, TagID: &even, AlsoTagIDs: []int64{third}}, func(r row) bool { return r.tags[even] && r.tags[third] },
			func(a, b row) int { return cmp.Or(cmp.Compare(b.visits, a.visits), cmp.Compare(b.id, a.id)) }},
		// The walks by ID go through the workspace's own index (workspaceWalk): other's links,
		// all newer than ws's, never come into them.
		{"newest", link.Filter{}, func(row) bool { return true },
			func(a, b row) int { return cmp.Compare(b.id, a.id) }},
		{"oldest", link.Filter{Sort: link.SortOldest}, func(row) bool { return true },
			func(a, b row) int { return cmp.Compare(a.id, b.id) }},
		{"active, oldest", link.Filter{Status: link.StatusActive, Sort: link.SortOldest}, func(row) bool { return true },
			func(a, b row) int { return cmp.Compare(a.id, b.id) }},
		{"least visited", link.Filter{Sort: link.SortLeastVisited}, func(row) bool { return true },
			func(a, b row) int { return cmp.Or(cmp.Compare(a.visits, b.visits), cmp.Compare(a.id, b.id)) }},
		{"most visited", link.Filter{Sort: link.SortMostVisited}, func(row) bool { return true },
			func(a, b row) int { return cmp.Or(cmp.Compare(b.visits, a.visits), cmp.Compare(b.id, a.id)) }},
		// A custom domain's links walk links_workspace_domain (migration 00067).
		{"domain, newest", link.Filter{DomainID: &domain}, func(r row) bool { return r.onDomain },
			func(a, b row) int { return cmp.Compare(b.id, a.id) }},
		{"domain, oldest", link.Filter{DomainID: &domain, Sort: link.SortOldest}, func(r row) bool { return r.onDomain },
			func(a, b row) int { return cmp.Compare(a.id, b.id) }},
		{"domain, least visited", link.Filter{DomainID: &domain, Sort: link.SortLeastVisited}, func(r row) bool { return r.onDomain },
			func(a, b row) int { return cmp.Or(cmp.Compare(a.visits, b.visits), cmp.Compare(a.id, b.id)) }},
		{"domain, most visited", link.Filter{DomainID: &domain, Sort: link.SortMostVisited}, func(r row) bool { return r.onDomain },
			func(a, b row) int { return cmp.Or(cmp.Compare(b.visits, a.visits), cmp.Compare(b.id, a.id)) }},
		{"search, newest", link.Filter{Query: "example.com/1"}, searched,
			func(a, b row) int { return cmp.Compare(b.id, a.id) }},
		{"search, oldest", link.Filter{Query: "EXAMPLE.com/1", Sort: link.SortOldest}, searched,
			func(a, b row) int { return cmp.Compare(a.id, b.id) }},
		{"expired", link.Filter{Status: link.StatusExpired}, func(r row) bool { return r.expired },
			func(a, b row) int { return cmp.Compare(b.id, a.id) }},
		{"expired, least visited", link.Filter{Status: link.StatusExpired, Sort: link.SortLeastVisited}, func(r row) bool { return r.expired },
			func(a, b row) int { return cmp.Or(cmp.Compare(a.visits, b.visits), cmp.Compare(a.id, b.id)) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			before := state(t)
			var want []row
			for _, r := range before {
				if c.keep(r) {
					want = append(want, r)
				}
			}
			slices.SortFunc(want, c.before)
			f := c.f
			f.Limit = 2
			var seen []int64
			var last *row
			for page := 0; ; page++ {
				got, more, err := store.List(ctx, ws.ID, f)
				if err != nil {
					t.Fatal(err)
				}
				now := state(t)
				for _, l := range got {
					r, ok := now[l.ID]
					if !ok {
						t.Fatalf("page %d: link %d is not the workspace's", page, l.ID)
					}
					if !c.keep(r) {
						t.Errorf("page %d: link %d does not match", page, l.ID)
					}
					if last != nil && c.before(*last, r) >= 0 {
						t.Errorf("page %d: link %d after %d out of order", page, l.ID, last.id)
					}
					last = &r
					seen = append(seen, l.ID)
				}
				if !more {
					break
				}
				if page >= 4 {
					// Changes behind the cursor would keep an order by change going forever.
					f.After = cursorOf(got[len(got)-1], c.f.Sort)
					continue
				}
				// Between the first pages: a new link matching every filter, expired, on the
				// domain and tagged with both tags, and the first link of the page changed again.
				next++
				exec(t, `INSERT INTO links (id, workspace_id, domain_id, key, url, url_hash, expires_at) VALUES ($1::bigint, $2, $3, 'n' || $1::bigint, 'https://example.com/n', $1::bigint, now() - interval '1 minute')`, next, ws.ID, domain)
				exec(t, `INSERT INTO link_tags (tag_id, link_id) VALUES ($1, $3), ($2, $3)`, even, third, next)
				if _, err := store.Update(ctx, ws.ID, got[0].ID, link.Patch{Title: link.Some("changed")}); err != nil {
					t.Fatal(err)
				}
				f.After = cursorOf(got[len(got)-1], c.f.Sort)
			}
			// Each link that matched before the walk is answered once, unless it was changed
			// during the walk in an order by change (it moved: behind the cursor it comes again,
			// ahead of it not at all).
			counts := map[int64]int{}
			for _, id := range seen {
				counts[id]++
			}
			for _, r := range want {
				if c.f.Sort.ByUpdate() {
					if counts[r.id] > 2 {
						t.Errorf("link %d answered %d times", r.id, counts[r.id])
					}
					continue
				}
				if counts[r.id] != 1 {
					t.Errorf("link %d answered %d times, want once", r.id, counts[r.id])
				}
			}
			if len(want) == 0 || len(seen) < len(want)/2 {
				t.Fatalf("walked %d links of %d", len(seen), len(want))
			}
		})
	}
}

// cursorOf is the cursor after l in the order sort, as link.Service.List makes it.
func cursorOf(l *link.Link, sort link.Sort) *link.Cursor {
	c := &link.Cursor{ID: l.ID}
	if sort.ByVisits() {
		c.Visits = l.Visits.Total
	}
	if sort.ByUpdate() {
		c.Updated = l.UpdatedAt
	}
	return c
}
