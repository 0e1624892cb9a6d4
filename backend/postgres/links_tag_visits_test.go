package postgres_test

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/shortlink/shortlink/backend/link"
	"github.com/shortlink/shortlink/backend/postgres"
	"github.com/shortlink/shortlink/backend/testenv"
	"github.com/shortlink/shortlink/backend/visit"
)

// visitLinks stores, through the ingest's statement, n people's visits (and a crawler's when
// bots) of each link.
func visitLinks(t *testing.T, db *postgres.DB, ws int64, n map[int64]int, bots bool) {
	t.Helper()
	var evs visit.Batch
	for id, k := range n {
		for i := range k {
			evs = append(evs, visit.Event{ID: uuid.New(), At: time.Now(), LinkID: id, WorkspaceID: ws, Variant: -1,
				Visitor: []byte(fmt.Sprint(id, i))})
		}
		if bots {
			evs = append(evs, visit.Event{ID: uuid.New(), At: time.Now(), LinkID: id, WorkspaceID: ws, Variant: -1, Crawler: true})
		}
	}
	if _, err := postgres.NewVisits(db).Insert(context.Background(), []visit.Batch{evs}); err != nil {
		t.Fatal(err)
	}
}

// tagVisits are the visits kept in each row of a tag (link_tags.visits) and those of the links'
// totals (visit_totals), by link.
func tagVisits(t *testing.T, db *postgres.DB, tag int64) (kept, totals map[int64]int64) {
	t.Helper()
	kept, totals = map[int64]int64{}, map[int64]int64{}
	rows, err := db.Pool.Query(context.Background(), `SELECT lt.link_id, lt.visits, coalesce(t.visits, 0)
		FROM link_tags lt LEFT JOIN visit_totals t ON t.link_id = lt.link_id WHERE lt.tag_id = $1`, tag)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var id, k, v int64
		if err := rows.Scan(&id, &k, &v); err != nil {
			t.Fatal(err)
		}
		kept[id], totals[id] = k, v
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return kept, totals
}

func newTag(t *testing.T, db *postgres.DB, ws int64, name string) int64 {
	t.Helper()
	var id int64
	if err := db.Pool.QueryRow(context.Background(), `INSERT INTO tags (workspace_id, name, folded, color)
		VALUES ($1, $2, $2, '#000000') RETURNING id`, ws, name).Scan(&id); err != nil {
		t.Fatal(err)
	}
	return id
}

// TestTagVisitsKeptByIngest: the visits kept beside a link's tags follow its total after each
// transaction of visits, a crawler's visit leaves them as they are, and a tag put on a visited
// link starts at its total.
func TestTagVisitsKeptByIngest(t *testing.T) {
	t.Parallel()
	db := testenv.DB(t)
	ctx := context.Background()
	accounts, links := postgres.NewAccountStore(db), postgres.NewLinkStore(db)
	_, ws := newUser(t, accounts, "tag-visits@example.com")
	for id := int64(1); id <= 6; id++ {
		insertLink(t, links, ws.ID, id)
	}
	tag, other := newTag(t, db, ws.ID, "kept"), newTag(t, db, ws.ID, "other")
	if _, _, err := links.UpdateMany(ctx, ws.ID, []int64{1, 2, 3, 4}, link.BulkEdit{AddTags: []int64{tag}}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := links.UpdateMany(ctx, ws.ID, []int64{2}, link.BulkEdit{AddTags: []int64{other}}); err != nil {
		t.Fatal(err)
	}
	visitLinks(t, db, ws.ID, map[int64]int{1: 3, 2: 1, 5: 2}, false)
	visitLinks(t, db, ws.ID, map[int64]int{1: 1, 3: 0}, true) // link 3: a crawler only
	kept, totals := tagVisits(t, db, tag)
	if want := map[int64]int64{1: 4, 2: 1, 3: 0, 4: 0}; !maps.Equal(kept, want) || !maps.Equal(totals, want) {
		t.Errorf("kept %v, totals %v, want both %v", kept, totals, want)
	}
	if kept, _ := tagVisits(t, db, other); kept[2] != 1 {
		t.Errorf("the second tag of link 2 keeps %d visits, want 1", kept[2])
	}
	// A tag put on a link with visits, by a bulk edit and by an edit of the link's tags.
	if _, _, err := links.UpdateMany(ctx, ws.ID, []int64{5}, link.BulkEdit{AddTags: []int64{tag}}); err != nil {
		t.Fatal(err)
	}
	if _, err := links.Update(ctx, ws.ID, 1, link.Patch{TagIDs: []int64{tag, other}}); err != nil {
		t.Fatal(err)
	}
	visitLinks(t, db, ws.ID, map[int64]int{5: 1}, false)
	kept, totals = tagVisits(t, db, tag)
	if want := map[int64]int64{1: 4, 2: 1, 3: 0, 4: 0, 5: 3}; !maps.Equal(kept, want) || !maps.Equal(totals, want) {
		t.Errorf("kept %v, totals %v, want both %v", kept, totals, want)
	}
	if kept, _ := tagVisits(t, db, other); kept[1] != 4 {
		t.Errorf("the tag put on link 1 keeps %d visits, want 4", kept[1])
	}
}

// TestLinkListByVisitsCursor walks a workspace's links by visits, whole and under a tag, a
// status and a domain-less filter, in pages of 4, while links are created (some with visits)
// and others gain visits between the pages, all through the stores' own statements. Most
// visits first no link is answered twice; least visits first only a link that gained visits
// may come again; either way every link that was there from the start and did not gain
// visits is answered, in the order of (visits, ID) at the time of its page. Another
// workspace's links, tagged alike and visited, never come.
func TestLinkListByVisitsCursor(t *testing.T) {
	t.Parallel()
	db := testenv.DB(t)
	ctx := context.Background()
	accounts, links := postgres.NewAccountStore(db), postgres.NewLinkStore(db)
	_, ws := newUser(t, accounts, "cursor-visits@example.com")
	_, neighbour := newUser(t, accounts, "cursor-visits-other@example.com")
	tag, theirs := newTag(t, db, ws.ID, "walk"), newTag(t, db, neighbour.ID, "walk")
	// Links 1–30 (1–20 tagged), ties of visits among them and some with none; the neighbour's
	// 1001–1010, tagged and more visited than any.
	first := map[int64]int{}
	var ids []int64
	for id := int64(1); id <= 30; id++ {
		insertLink(t, links, ws.ID, id)
		ids = append(ids, id)
		if id%4 != 0 {
			first[id] = int(id % 5)
		}
	}
	if _, _, err := links.UpdateMany(ctx, ws.ID, ids[:20], link.BulkEdit{AddTags: []int64{tag}}); err != nil {
		t.Fatal(err)
	}
	theirLinks := map[int64]int{}
	for id := int64(1001); id <= 1010; id++ {
		insertLink(t, links, neighbour.ID, id)
		theirLinks[id] = 9
	}
	if _, _, err := links.UpdateMany(ctx, neighbour.ID, slices.Collect(maps.Keys(theirLinks)), link.BulkEdit{AddTags: []int64{theirs}}); err != nil {
		t.Fatal(err)
	}
	visitLinks(t, db, ws.ID, first, false)
	visitLinks(t, db, neighbour.ID, theirLinks, false)
	if page, _, err := links.List(ctx, ws.ID, link.Filter{TagID: &theirs, Sort: link.SortMostVisited, Limit: 50}); err != nil || len(page) != 0 {
		t.Fatalf("the neighbour's tag in this workspace: %d links, %v", len(page), err)
	}

	next := int64(100)
	for _, c := range []struct {
		name string
		f    link.Filter
	}{
		{"whole", link.Filter{}},
		{"tag", link.Filter{TagID: &tag}},
		{"active", link.Filter{Status: link.StatusActive}},
	} {
		for _, sort := range []link.Sort{link.SortMostVisited, link.SortLeastVisited} {
			t.Run(fmt.Sprintf("%s %s", c.name, sort), func(t *testing.T) {
				f := c.f
				f.Sort, f.Limit = sort, 4
				start := map[int64]bool{}
				all, _, err := links.List(ctx, ws.ID, link.Filter{TagID: f.TagID, Status: f.Status, Sort: sort, Limit: 100})
				if err != nil {
					t.Fatal(err)
				}
				for _, l := range all {
					start[l.ID] = true
				}
				moved, seen := map[int64]bool{}, map[int64]int{}
				for step := 0; step < 40; step++ {
					page, more, err := links.List(ctx, ws.ID, f)
					if err != nil {
						t.Fatal(err)
					}
					for i, l := range page {
						if l.WorkspaceID != ws.ID {
							t.Fatalf("link %d of workspace %d", l.ID, l.WorkspaceID)
						}
						if f.TagID != nil && !slices.Contains(l.Tags, "walk") {
							t.Fatalf("link %d without the tag: %v", l.ID, l.Tags)
						}
						seen[l.ID]++
						if i > 0 {
							a, b := page[i-1], l
							d := cmpVisits(a, b)
							if (sort == link.SortMostVisited && d <= 0) || (sort == link.SortLeastVisited && d >= 0) {
								t.Errorf("link %d (%d visits) before link %d (%d)", a.ID, a.Visits.Total, b.ID, b.Visits.Total)
							}
						}
					}
					if !more || len(page) == 0 {
						break
					}
					last := page[len(page)-1]
					f.After = &link.Cursor{ID: last.ID, Visits: last.Visits.Total}
					// Between pages: a new link (tagged, visited every other time), a link
					// not answered yet gains visits past the cursor, one answered gains one.
					next++
					insertLink(t, links, ws.ID, next)
					if _, _, err := links.UpdateMany(ctx, ws.ID, []int64{next}, link.BulkEdit{AddTags: []int64{tag}}); err != nil {
						t.Fatal(err)
					}
					gain := map[int64]int{}
					if step%2 == 0 {
						gain[next] = 2
					}
					for _, id := range ids {
						if seen[id] == 0 && !moved[id] && id%3 == int64(step%3) {
							gain[id], moved[id] = 6, true
							break
						}
					}
					gain[page[0].ID], moved[page[0].ID] = 1, true
					visitLinks(t, db, ws.ID, gain, step%3 == 0)
				}
				for id, n := range seen {
					if n > 1 && (sort == link.SortMostVisited || !moved[id]) {
						t.Errorf("link %d answered %d times (moved: %v)", id, n, moved[id])
					}
				}
				for id := range start {
					if seen[id] == 0 && !moved[id] {
						t.Errorf("link %d not answered, and it did not move", id)
					}
				}
			})
		}
	}
}

// cmpVisits compares two links by (visits, ID).
func cmpVisits(a, b *link.Link) int {
	if a.Visits.Total != b.Visits.Total {
		if a.Visits.Total < b.Visits.Total {
			return -1
		}
		return 1
	}
	switch {
	case a.ID < b.ID:
		return -1
	case a.ID > b.ID:
		return 1
	}
	return 0
}

// Migration 00064 copies every visited link's total into its tags' rows, a batch of links a
// transaction, and makes the index of them.
func TestMigrationBackfillsTagVisits(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, provider := migratedDB(t)
	if _, err := provider.DownTo(ctx, 63); err != nil {
		t.Fatal(err)
	}
	ws := newWorkspace(t, db)
	for _, q := range []string{
		`INSERT INTO links (id, workspace_id, key, url, url_hash) SELECT g, $1, 'k' || g, 'https://example.com/', g FROM generate_series(1, 45000) g`,
		`INSERT INTO tags (workspace_id, name, folded, color) VALUES ($1, 'a', 'a', '#000000'), ($1, 'b', 'b', '#000000')`,
		`INSERT INTO link_tags (tag_id, link_id) SELECT t.id, l.id FROM tags t, links l WHERE t.workspace_id = $1 AND (t.name = 'a' OR l.id % 2 = 0)`,
		`INSERT INTO visit_totals (link_id, workspace_id, visits) SELECT id, $1, id % 7 FROM links WHERE id % 3 <> 0`,
	} {
		if _, err := db.Pool.Exec(ctx, q, ws); err != nil {
			t.Fatalf("%.50s: %v", q, err)
		}
	}
	if _, err := provider.UpTo(ctx, 64); err != nil {
		t.Fatal(err)
	}
	var wrong, kept int64
	if err := db.Pool.QueryRow(ctx, `SELECT count(*) FILTER (WHERE lt.visits <> coalesce(t.visits, 0)), count(*) FILTER (WHERE lt.visits > 0)
		FROM link_tags lt LEFT JOIN visit_totals t ON t.link_id = lt.link_id`).Scan(&wrong, &kept); err != nil {
		t.Fatal(err)
	}
	if wrong != 0 || kept < 30000 { // more than one batch of 20,000 links
		t.Errorf("%d rows of link_tags differ from their link's total, %d keep visits", wrong, kept)
	}
	var index bool
	if err := db.Pool.QueryRow(ctx, `SELECT to_regclass('link_tags_visits') IS NOT NULL`).Scan(&index); err != nil || !index {
		t.Errorf("link_tags_visits: %v %v", index, err)
	}
}

// TestLinkListStatusByVisitsWalk pages through a workspace's disabled links, its links on a
// custom domain, and a tag's disabled links, by visits, both ways, when they are many (the
// workspace's or the tag's visit order walked, keeping them), the disabled links kept by their
// IDs (few enough to hash) and looked up one by one (too many): only they come, in the order of
// (visits, ID), each once; another workspace's never, though its disabled links carry a tag of
// the same name. Not parallel: it makes every status and domain many for its duration.
func TestLinkListStatusByVisitsWalk(t *testing.T) {
	postgres.SetManyMatch(t, 1)
	db := testenv.DB(t)
	ctx := context.Background()
	accounts, links := postgres.NewAccountStore(db), postgres.NewLinkStore(db)
	_, ws := newUser(t, accounts, "status-walk@example.com")
	_, neighbour := newUser(t, accounts, "status-walk-other@example.com")
	visits, theirs := map[int64]int{}, map[int64]int{}
	var disabled []int64
	for id := int64(1); id <= 40; id++ {
		insertLink(t, links, ws.ID, id)
		if id%3 == 0 {
			disabled = append(disabled, id)
		}
		if id%4 != 0 {
			visits[id] = int(id % 5)
		}
	}
	for id := int64(501); id <= 505; id++ {
		insertLink(t, links, neighbour.ID, id)
		theirs[id] = 7
	}
	// A tag on every other link, and on the neighbour's, before the visits (which the ingest
	// keeps beside the tag's rows).
	tag, theirTag := newTag(t, db, ws.ID, "half"), newTag(t, db, neighbour.ID, "half")
	var tagged []int64
	for id := int64(2); id <= 40; id += 2 {
		if id%3 == 0 {
			tagged = append(tagged, id)
		}
	}
	if _, err := db.Pool.Exec(ctx, `INSERT INTO link_tags (tag_id, link_id) SELECT $1, g FROM generate_series(2, 40, 2) g`, tag); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Pool.Exec(ctx, `INSERT INTO link_tags (tag_id, link_id) SELECT $1, g FROM generate_series(501, 505) g`, theirTag); err != nil {
		t.Fatal(err)
	}
	if _, _, err := links.UpdateMany(ctx, ws.ID, disabled, link.BulkEdit{Status: link.Opt[string]{Set: true, Value: link.StatusDisabled}}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := links.UpdateMany(ctx, neighbour.ID, slices.Collect(maps.Keys(theirs)), link.BulkEdit{Status: link.Opt[string]{Set: true, Value: link.StatusDisabled}}); err != nil {
		t.Fatal(err)
	}
	var domain int64
	if err := db.Pool.QueryRow(ctx, `INSERT INTO domains (workspace_id, hostname, token, verified_at)
		VALUES ($1, 'go.walk.example', 't', now()) RETURNING id`, ws.ID).Scan(&domain); err != nil {
		t.Fatal(err)
	}
	// Every fourth link and a disabled one on the domain, and a neighbour's link with its ID.
	var onDomain []int64
	for id := int64(2); id <= 40; id += 4 {
		onDomain = append(onDomain, id)
	}
	if _, err := db.Pool.Exec(ctx, `UPDATE links SET domain_id = $1 WHERE id = ANY($2) OR id = 501`, domain, onDomain); err != nil {
		t.Fatal(err)
	}
	visitLinks(t, db, ws.ID, visits, false)
	visitLinks(t, db, neighbour.ID, theirs, false)
	for _, hash := range []int{50000, 1} {
		postgres.SetHashMatch(t, hash)
		for _, c := range []struct {
			f     link.Filter
			links []int64
		}{
			{link.Filter{Status: link.StatusDisabled}, disabled},
			{link.Filter{DomainID: &domain}, onDomain},
			{link.Filter{TagID: &tag, Status: link.StatusDisabled}, tagged},
		} {
			checkWalk(t, links, ws.ID, c.f, c.links, visits)
		}
	}
}

// checkWalk pages through f by visits, both ways, in pages of 3 and 100, and fails unless the
// links come as want sorted by (visits, ID).
func checkWalk(t *testing.T, links *postgres.LinkStore, ws int64, f link.Filter, matching []int64, visits map[int64]int) {
	t.Helper()
	ctx := context.Background()
	for _, sort := range []link.Sort{link.SortMostVisited, link.SortLeastVisited} {
		want := slices.Clone(matching)
		slices.SortFunc(want, func(x, y int64) int {
			r := visits[x] - visits[y]
			if r == 0 {
				r = int(x - y)
			}
			if sort == link.SortMostVisited {
				return -r
			}
			return r
		})
		for _, size := range []int{3, 100} {
			f := f
			f.Sort, f.Limit = sort, size
			var got []int64
			for range 20 {
				page, more, err := links.List(ctx, ws, f)
				if err != nil {
					t.Fatal(err)
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
				t.Errorf("%+v %s, pages of %d:\n got %v\nwant %v", f, sort, size, got, want)
			}
		}
	}
}

// TestListSettings: a listing's statement runs without JIT or parallel workers and with a plan
// for its own arguments, in one transaction whose settings end with it; a statement that fails
// leaves no connection of the pool in its aborted transaction.
func TestListSettings(t *testing.T) {
	t.Parallel()
	db := testenv.DB(t)
	ctx := context.Background()
	links := postgres.NewLinkStore(db)
	for range 3 {
		jit, plans, workers, err := links.ListSettings(ctx)
		if err != nil || jit != "off" || plans != "force_custom_plan" || workers != "0" {
			t.Fatalf("jit %q, plan_cache_mode %q, max_parallel_workers_per_gather %q, %v", jit, plans, workers, err)
		}
	}
	var jit, plans, workers string
	if err := db.Pool.QueryRow(ctx, `SELECT current_setting('jit'), current_setting('plan_cache_mode'), current_setting('max_parallel_workers_per_gather')`).
		Scan(&jit, &plans, &workers); err != nil {
		t.Fatal(err)
	}
	if plans != "auto" || workers == "0" {
		t.Errorf("after a listing: jit %q, plan_cache_mode %q, max_parallel_workers_per_gather %q", jit, plans, workers)
	}
	// A statement that fails, then listings and other statements on the same pool.
	if err := links.RunListStatement(ctx, `SELECT 1 / 0`); err == nil {
		t.Fatal("a division by zero went through")
	}
	for range 10 {
		if _, _, _, err := links.ListSettings(ctx); err != nil {
			t.Fatalf("a listing after a failed one: %v", err)
		}
		if _, err := db.Pool.Exec(ctx, `SELECT 1`); err != nil {
			t.Fatalf("a statement after a failed listing: %v", err)
		}
	}
}

// TestTagVisitsUnderConcurrentTags stores visits of links that have some already while their
// tags are put on and taken off at once, by bulk edits (links 1–30) and edits of one link
// (31–40): no statement fails (no deadlock between the ingest's locks and the tags'), and
// afterwards every tag's row holds its link's total, with no visit after to set it again. (A
// bulk edit and an edit of one link changing the same link's tags at once can deadlock each
// other, the one locking the link's row before its tags, the other after: not tested here.)
func TestTagVisitsUnderConcurrentTags(t *testing.T) {
	t.Parallel()
	db := testenv.DB(t)
	ctx := context.Background()
	accounts, links := postgres.NewAccountStore(db), postgres.NewLinkStore(db)
	_, ws := newUser(t, accounts, "tag-visits-race@example.com")
	var ids []int64
	first := map[int64]int{}
	for id := int64(1); id <= 40; id++ {
		insertLink(t, links, ws.ID, id)
		ids = append(ids, id)
		first[id] = 1
	}
	tags := []int64{newTag(t, db, ws.ID, "a"), newTag(t, db, ws.ID, "b"), newTag(t, db, ws.ID, "c")}
	visitLinks(t, db, ws.ID, first, false)
	done := make(chan error, 3)
	go func() {
		for round := range 30 {
			n := map[int64]int{}
			for _, id := range ids {
				if (id+int64(round))%3 == 0 {
					n[id] = 1 + round%4
				}
			}
			if _, err := postgres.NewVisits(db).Insert(ctx, []visit.Batch{batchOf(ws.ID, n, round)}); err != nil {
				done <- fmt.Errorf("visits, round %d: %w", round, err)
				return
			}
		}
		done <- nil
	}()
	go func() {
		for round := range 30 {
			tag := tags[round%len(tags)]
			e := link.BulkEdit{AddTags: []int64{tag}}
			if round%2 == 1 {
				e = link.BulkEdit{RemoveTags: []int64{tag}}
			}
			if _, _, err := links.UpdateMany(ctx, ws.ID, ids[round%5:30], e); err != nil {
				done <- fmt.Errorf("bulk tags, round %d: %w", round, err)
				return
			}
		}
		done <- nil
	}()
	go func() {
		for round := range 30 {
			id := ids[30+(round*7)%10]
			if _, err := links.Update(ctx, ws.ID, id, link.Patch{TagIDs: tags[:1+round%len(tags)]}); err != nil {
				done <- fmt.Errorf("link %d's tags, round %d: %w", id, round, err)
				return
			}
		}
		done <- nil
	}()
	for range 3 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	rows := 0
	for _, tag := range tags {
		kept, totals := tagVisits(t, db, tag)
		if !maps.Equal(kept, totals) {
			t.Errorf("tag %d keeps %v, the totals are %v", tag, kept, totals)
		}
		rows += len(kept)
	}
	if rows == 0 {
		t.Error("no link tagged at the end")
	}
}

// batchOf is a batch of n[id] people's visits of each link, the visitors of round r.
func batchOf(ws int64, n map[int64]int, r int) visit.Batch {
	var evs visit.Batch
	for id, k := range n {
		for i := range k {
			evs = append(evs, visit.Event{ID: uuid.New(), At: time.Now(), LinkID: id, WorkspaceID: ws, Variant: -1,
				Visitor: []byte(fmt.Sprint(id, r, i))})
		}
	}
	return evs
}
