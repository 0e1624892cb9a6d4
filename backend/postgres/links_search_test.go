package postgres_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/link"
	"github.com/shortlink/shortlink/backend/postgres"
	"github.com/shortlink/shortlink/backend/testenv"
)

// indexSearch runs the search indexer until its queue is empty: every link written before the
// call is in the search table after it.
func indexSearch(t testing.TB, db *postgres.DB) {
	t.Helper()
	ls := postgres.NewLinkSearch(db)
	for {
		b, err := ls.Index(context.Background(), 10000)
		if err != nil {
			t.Fatal(err)
		}
		if b.Busy {
			time.Sleep(10 * time.Millisecond) // another test's indexer holds the lock: try again
			continue
		}
		if b.Rows == 0 {
			return
		}
	}
}

// searchStores are the list's five ways of searching: the search table's links found and
// sorted (few of them), the walk of the search table's links in link_search_order (by ID
// without a tag; the other orders find or walk), the walk of the workspace's links testing each (as
// where that index is missing), these three under a tag of any size, the walk of a small tag's
// links testing each, and the walk of a text common among the newest links (the workspaces of
// these tests are small enough to be walked whole).
func searchStores(db *postgres.DB) map[string]*postgres.LinkStore {
	found, ordered, walked, tagWalked := postgres.NewLinkStore(db), postgres.NewLinkStore(db), postgres.NewLinkStore(db), postgres.NewLinkStore(db)
	found.SkipSearchSample()
	found.FindSearches()
	ordered.SkipSearchSample()
	walked.SkipSearchSample()
	walked.SetSearchCandidates(-1)
	for _, s := range []*postgres.LinkStore{found, ordered, walked} {
		s.IndexTagSearches()
	}
	// A small tag's links walked, testing each one's text.
	tagWalked.SkipSearchSample()
	return map[string]*postgres.LinkStore{"found": found, "ordered": ordered, "walked": walked, "tag walked": tagWalked,
		"common": postgres.NewLinkStore(db)}
}

func insertLinks(t *testing.T, db *postgres.DB, links ...*link.Link) {
	t.Helper()
	errs, err := postgres.NewLinkStore(db).Insert(context.Background(), links)
	if err != nil || slices.ContainsFunc(errs, func(e error) bool { return e != nil }) {
		t.Fatalf("insert: %v %v", err, errs)
	}
}

func ids(page []*link.Link) []int64 {
	var got []int64
	for _, l := range page {
		got = append(got, l.ID)
	}
	return got
}

// TestLinkSearch: the links list's text search finds a part of the URL, the key or the title in
// any case, takes % and _ literally, finds texts of one or two characters and Chinese ones,
// never another workspace's links even with the same text, and answers the same whether it
// reads the links the search table (or its indexer's queue) found or walks the workspace's
// links.
func TestLinkSearch(t *testing.T) {
	t.Parallel()
	db := testenv.DB(t)
	ctx := context.Background()
	accounts := postgres.NewAccountStore(db)
	_, ws := newUser(t, accounts, "search@example.com")
	_, other := newUser(t, accounts, "search-other@example.com")
	now := time.Now().UTC()
	var all []*link.Link
	for i, l := range []struct {
		ws              int64
		key, url, title string
	}{
		{ws.ID, "Spring26", "https://shop.example.com/sale?ref=home", "春季促销 Spring sale"},
		{ws.ID, "k2", "https://example.org/100%25-off_now", ""},
		{ws.ID, "docs", "https://docs.example.net/Guide/Install", "Install guide"},
		{ws.ID, "x9", "https://a.example/zz", "Ünïcode Café"},
		{other.ID, "Spring27", "https://shop.example.com/sale?ref=other", "Spring sale"},
		{other.ID, "o2", "https://docs.example.net/Guide/Install", "春季促销 Install guide Ünïcode Café zz"},
	} {
		all = append(all, &link.Link{ID: int64(900 + i), WorkspaceID: l.ws, Key: l.key, URL: l.url, Title: l.title,
			RedirectStatus: 302, Status: link.StatusActive, CreatedAt: now, UpdatedAt: now})
	}
	insertLinks(t, db, all...)
	var indexed bool
	if err := db.Pool.QueryRow(ctx, `SELECT to_regclass('link_search_gin') IS NOT NULL`).Scan(&indexed); err != nil || !indexed {
		t.Fatalf("the search table's index is missing (are pg_trgm and btree_gin installed?): %v", err)
	}
	cases := []struct {
		q    string
		want []int64
	}{
		{"shop.EXAMPLE", []int64{900}},
		{"spring2", []int64{900}},
		{"促销", []int64{900}},
		{"春季促", []int64{900}},
		{"春", []int64{900}},
		{"春季促销 spring", []int64{900}},
		{"100%25", []int64{901}},
		{"%", []int64{901}},
		{"_now", []int64{901}},
		{"off_now", []int64{901}},
		{"f-n", nil},
		{"guide/install", []int64{902}},
		{"INSTALL GUIDE", []int64{902}},
		{"café", []int64{903}},
		{"Ünï", []int64{903}}, // folding other letters than ASCII's follows the database's locale
		{"zz", []int64{903}},
		{"example", []int64{903, 902, 901, 900}},
		{"sale?ref=other", nil},
		{"nothing-like-it", nil},
		{"销春", nil},
	}
	// Before the indexer has run, the links are found from its queue; after, from the table.
	for _, when := range []string{"queued", "indexed"} {
		if when == "indexed" {
			indexSearch(t, db)
		}
		for way, store := range searchStores(db) {
			for _, c := range cases {
				page, more, err := store.List(ctx, ws.ID, link.Filter{Query: c.q, Limit: 10})
				if err != nil {
					t.Fatalf("%s, %s %q: %v", when, way, c.q, err)
				}
				if got := ids(page); !slices.Equal(got, c.want) || more {
					t.Errorf("%s, %s: %q finds %v (more %v), want %v", when, way, c.q, got, more, c.want)
				}
			}
		}
	}
}

// TestLinkSearchPages: a search's pages in every order, with a tag, a status and a domain
// besides, answer the links a walk answers, page after page by the cursor; links created
// between two pages do not move the pages after them.
func TestLinkSearchPages(t *testing.T) {
	t.Parallel()
	db := testenv.DB(t)
	ctx := context.Background()
	accounts := postgres.NewAccountStore(db)
	_, ws := newUser(t, accounts, "search-pages@example.com")
	_, other := newUser(t, accounts, "search-pages-other@example.com")
	var tagID int64
	if err := db.Pool.QueryRow(ctx, `INSERT INTO tags (workspace_id, name, folded, color) VALUES ($1, 'sms', 'sms', '#000000') RETURNING id`,
		ws.ID).Scan(&tagID); err != nil {
		t.Fatal(err)
	}
	now := time.Now().UTC().Truncate(time.Microsecond)
	var links []*link.Link
	for i := range 40 {
		l := &link.Link{ID: int64(1000 + i*3), WorkspaceID: ws.ID, Key: fmt.Sprintf("p%d", i),
			URL: fmt.Sprintf("https://shop.example.com/parcel/%d", i), Title: "包裹 parcel", RedirectStatus: 302,
			Status: link.StatusActive, CreatedAt: now, UpdatedAt: now}
		if i%4 == 0 {
			l.URL, l.Title = fmt.Sprintf("https://other.example.com/%d", i), "nothing"
		}
		if i%3 == 0 {
			l.Tags = []string{"sms"}
		}
		if i%5 == 0 {
			l.Status = link.StatusDisabled
		}
		links = append(links, l)
		// The same text in another workspace, between the workspace's IDs.
		links = append(links, &link.Link{ID: int64(1001 + i*3), WorkspaceID: other.ID, Key: fmt.Sprintf("o%d", i),
			URL: l.URL, Title: l.Title, RedirectStatus: 302, Status: link.StatusActive, CreatedAt: now, UpdatedAt: now})
	}
	insertLinks(t, db, links...)
	// Visits and changes in an order of their own.
	if _, err := db.Pool.Exec(ctx, `INSERT INTO visit_totals (link_id, workspace_id, visits)
		SELECT id, workspace_id, (id * 7) % 11 FROM links WHERE (id * 7) % 11 > 0`); err != nil {
		t.Fatal(err)
	}
	// As the ingest keeps them beside the tags (migration 00064).
	if _, err := db.Pool.Exec(ctx, `UPDATE link_tags lt SET visits = t.visits FROM visit_totals t WHERE t.link_id = lt.link_id`); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Pool.Exec(ctx, `UPDATE links SET updated_at = updated_at + ((id * 5) % 13) * interval '1 second'`); err != nil {
		t.Fatal(err)
	}
	// Every other link of ws on a custom domain, and one of other's with that domain's ID; some
	// of the domain's links are copied to the search table before they move there, so that the
	// indexer must follow the move.
	var domain int64
	if err := db.Pool.QueryRow(ctx, `INSERT INTO domains (workspace_id, hostname, token, verified_at)
		VALUES ($1, 'go.search-pages.example', 't', now()) RETURNING id`, ws.ID).Scan(&domain); err != nil {
		t.Fatal(err)
	}
	indexSearch(t, db)
	if _, err := db.Pool.Exec(ctx, `UPDATE links SET domain_id = $1 WHERE (workspace_id = $2 AND id % 2 = 0) OR id = 1001`, domain, ws.ID); err != nil {
		t.Fatal(err)
	}
	indexSearch(t, db)
	stores := searchStores(db)
	next := 2000
	for _, c := range []struct {
		name string
		f    link.Filter
	}{
		{"newest", link.Filter{Query: "parcel"}},
		{"oldest", link.Filter{Query: "PARCEL", Sort: link.SortOldest}},
		// No trigram: walked in link_search_grams_order (migration 00068) by the ordered way.
		{"Chinese, newest", link.Filter{Query: "包裹"}},
		{"Chinese, oldest", link.Filter{Query: "包裹", Sort: link.SortOldest}},
		{"Chinese, disabled", link.Filter{Query: "裹", Status: link.StatusDisabled}},
		{"most visits", link.Filter{Query: "parcel", Sort: link.SortMostVisited}},
		{"least visits", link.Filter{Query: "包裹", Sort: link.SortLeastVisited}},
		{"changed", link.Filter{Query: "parcel", Sort: link.SortRecentlyUpdated}},
		{"tag", link.Filter{Query: "parcel", TagID: &tagID}},
		{"tag, most visits", link.Filter{Query: "包裹", TagID: &tagID, Sort: link.SortMostVisited}},
		{"disabled", link.Filter{Query: "parcel", Status: link.StatusDisabled}},
		{"active, short text", link.Filter{Query: "/1", Status: link.StatusActive}},
		{"domain", link.Filter{Query: "parcel", DomainID: new(int64)}},
		{"custom domain", link.Filter{Query: "parcel", DomainID: &domain}},
		{"custom domain, oldest", link.Filter{Query: "parcel", DomainID: &domain, Sort: link.SortOldest}},
		{"custom domain, disabled", link.Filter{Query: "parcel", DomainID: &domain, Status: link.StatusDisabled}},
	} {
		var want []int64
		for way, store := range stores {
			var got []int64
			f := c.f
			f.Limit = 4
			for range 20 {
				page, more, err := store.List(ctx, ws.ID, f)
				if err != nil {
					t.Fatalf("%s, %s: %v", c.name, way, err)
				}
				got = append(got, ids(page)...)
				if !more {
					break
				}
				last := page[len(page)-1]
				f.After = &link.Cursor{ID: last.ID, Visits: last.Visits.Total, Updated: last.UpdatedAt}
				if c.f.Sort == "" || c.f.Sort == link.SortNewest {
					// A link created between two pages, newer than the cursor: the next pages
					// are those they would have been.
					next++
					insertLinks(t, db, &link.Link{ID: int64(next), WorkspaceID: ws.ID, Key: fmt.Sprintf("n%d", next),
						URL: "https://shop.example.com/parcel/new", Title: "包裹 parcel", RedirectStatus: 302,
						Status: link.StatusActive, CreatedAt: now, UpdatedAt: now})
					indexSearch(t, db)
				}
			}
			if _, err := db.Pool.Exec(ctx, `DELETE FROM links WHERE id >= 2000`); err != nil {
				t.Fatal(err)
			}
			indexSearch(t, db)
			for _, id := range got {
				if id >= 2000 || id%3 != 1 {
					t.Fatalf("%s, %s: link %d is new or another workspace's: %v", c.name, way, id, got)
				}
			}
			if want == nil {
				want = got
			} else if !slices.Equal(got, want) {
				t.Errorf("%s: pages %s %v, others %v", c.name, way, got, want)
			}
			if len(got) == 0 {
				t.Errorf("%s, %s: no link", c.name, way)
			}
			if len(slices.Compact(slices.Clone(got))) != len(got) {
				t.Errorf("%s, %s: a link twice: %v", c.name, way, got)
			}
		}
	}
}

// TestLinkSearchFollowsEdits: a created, edited and deleted link is found by its text, and by
// its new text only, at once (from the indexer's queue) and once the indexer has run (from the
// search table, which it reaches and leaves), whether the table's links are found or walked in
// link_search_order; a status edit queues nothing.
func TestLinkSearchFollowsEdits(t *testing.T) {
	t.Parallel()
	db := testenv.DB(t)
	ctx := context.Background()
	_, ws := newUser(t, postgres.NewAccountStore(db), "search-edits@example.com")
	_, other := newUser(t, postgres.NewAccountStore(db), "search-edits-other@example.com")
	store, ordered := postgres.NewLinkStore(db), postgres.NewLinkStore(db)
	store.SkipSearchSample()
	store.FindSearches()
	ordered.SkipSearchSample()
	ls := postgres.NewLinkSearch(db)
	now := time.Now().UTC()
	insertLinks(t, db, &link.Link{ID: 700, WorkspaceID: ws.ID, Key: "ed1", URL: "https://example.com/zebra",
		Title: "斑马 stripes", RedirectStatus: 302, Status: link.StatusActive, CreatedAt: now, UpdatedAt: now})
	find := func(q string, want ...int64) {
		t.Helper()
		for _, s := range []*postgres.LinkStore{store, ordered} {
			want := want
			for _, w := range []int64{ws.ID, other.ID} {
				page, _, err := s.List(ctx, w, link.Filter{Query: q, Limit: 10})
				if err != nil {
					t.Fatal(err)
				}
				if w == other.ID {
					want = nil
				}
				if got := ids(page); !slices.Equal(got, want) {
					t.Errorf("%q finds %v in workspace %d, want %v", q, got, w, want)
				}
			}
		}
	}
	row := func() (doc string, n int) {
		t.Helper()
		err := db.Pool.QueryRow(ctx, `SELECT coalesce(max(doc), ''), count(*) FROM link_search WHERE link_id = 700`).Scan(&doc, &n)
		if err != nil {
			t.Fatal(err)
		}
		return doc, n
	}
	backlog := func(links int64) {
		t.Helper()
		b, err := ls.Backlog(ctx)
		if err != nil || b.Links != links || b.Oldest.IsZero() != (links == 0) {
			t.Errorf("backlog %+v %v, want %d links", b, err, links)
		}
	}

	backlog(1)
	if _, n := row(); n != 0 {
		t.Fatal("the link is in the search table before the indexer ran")
	}
	find("zebra", 700)
	find("斑马", 700)
	indexSearch(t, db)
	backlog(0)
	if doc, _ := row(); doc != "https://example.com/zebra ed1 斑马 stripes" {
		t.Errorf("the search table holds %q", doc)
	}
	find("zebra", 700)
	find("斑马", 700)

	if _, err := store.Update(ctx, ws.ID, 700, link.Patch{Title: link.Some("长颈鹿 giraffe")}); err != nil {
		t.Fatal(err)
	}
	backlog(1)
	find("斑马")
	find("giraffe", 700)
	find("长颈", 700)
	indexSearch(t, db)
	if doc, _ := row(); doc != "https://example.com/zebra ed1 长颈鹿 giraffe" {
		t.Errorf("the search table holds %q after the edit", doc)
	}
	find("斑马")
	find("giraffe", 700)
	find("长颈", 700)

	if _, err := store.Update(ctx, ws.ID, 700, link.Patch{Status: link.Some(link.StatusDisabled)}); err != nil {
		t.Fatal(err)
	}
	backlog(0)
	if _, err := store.Delete(ctx, ws.ID, 700); err != nil {
		t.Fatal(err)
	}
	backlog(1)
	find("giraffe")
	indexSearch(t, db)
	backlog(0)
	if _, n := row(); n != 0 {
		t.Errorf("the deleted link's row is still in the search table")
	}
	find("giraffe")
}
