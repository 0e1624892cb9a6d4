package postgres

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/shortlink/shortlink/backend/link"
)

// tagVisitsPage is a listing's page of a tag's links by visits (each checked against the other
// filters, where), and its order, in two ordered parts each stopping at the page's size: the
// tag's links with visits, walked in link_tags_visits (migration 00064) from the cursor, and
// those with none, walked by ID in link_tags' key; the second is read only when the first runs
// out (least visited first, the other way round). A page costs the links it passes, whatever the
// tag's size. The page's visits are the ones it is ordered by (link_tags.visits), so that the
// next cursor is where the page ended. keep, when not nil, is the condition that a link (its ID
// given) is in the listing's status, tested as the walks pass the tag's rows (statusMatching),
// before the links are looked up.
func tagVisitsPage(a *sqlArgs, where []string, tagID, limit, dir, cmp string, after *link.Cursor, keep func(id string) string) (page, order string) {
	visited := append(slices.Clone(where), "lt.tag_id = "+tagID, "lt.visits > 0")
	unvisited := append(slices.Clone(where), "lt.tag_id = "+tagID, "lt.visits = 0")
	from := `link_tags lt JOIN links l ON l.id = lt.link_id`
	if keep != nil {
		// The tag's rows alone, tested against the status's IDs, and each one kept looked up by
		// its key in a LATERAL subquery: joined, the planner read every link of the status and
		// sorted them with the tag's rows (125 ms for disabled links, 2% of 1,000,000).
		visited = []string{"lt.tag_id = " + tagID, "lt.visits > 0", keep("lt.link_id")}
		unvisited = []string{"lt.tag_id = " + tagID, "lt.visits = 0", keep("lt.link_id")}
		from = `link_tags lt CROSS JOIN LATERAL (SELECT 1 FROM links l WHERE l.id = lt.link_id AND ` + strings.Join(where, " AND ") + ` LIMIT 1) m`
	}
	// The parts in the order of the listing; a cursor in the second has left the first behind.
	useVisited, useUnvisited := true, true
	if after != nil {
		if after.Visits == 0 {
			// On both sides, so that whichever the join walks starts at the cursor.
			id := a.add(after.ID)
			unvisited = append(unvisited, "lt.link_id "+cmp+" "+id)
			if keep == nil {
				unvisited = append(unvisited, "l.id "+cmp+" "+id)
			}
			useVisited = dir == "ASC"
		} else {
			useUnvisited = dir == "DESC"
			visited = append(visited, "(lt.visits, lt.link_id) "+cmp+" ("+a.add(after.Visits)+"::bigint, "+a.add(after.ID)+"::bigint)")
		}
	}
	var parts []string
	if useVisited {
		parts = append(parts, `(SELECT lt.link_id AS id, lt.visits FROM `+from+` WHERE `+
			strings.Join(visited, " AND ")+` ORDER BY lt.visits `+dir+`, lt.link_id `+dir+` LIMIT `+limit+`)`)
	}
	if useUnvisited {
		parts = append(parts, `(SELECT lt.link_id AS id, lt.visits FROM `+from+` WHERE `+
			strings.Join(unvisited, " AND ")+` ORDER BY lt.link_id `+dir+` LIMIT `+limit+`)`)
	}
	if dir == "ASC" {
		slices.Reverse(parts)
	}
	return `SELECT id, visits FROM (` + strings.Join(parts, " UNION ALL ") + `) u LIMIT ` + limit,
		`p.visits ` + dir + `, l.id ` + dir
}

// queryList runs a listing's statement, calling each for every row, in a read-only transaction
// with JIT off, no parallel workers and a plan made for the statement's own arguments, all sent
// at once (one round trip, as the statement alone). A page walked in an index stops after a few
// rows, but the planner costs the whole walk: past jit_above_cost PostgreSQL compiled the
// statement first, 100 ms and more on a busy machine for a page read in 2; past
// parallel_setup_cost it started workers to walk an index with it (Gather Merge), 35 ms to
// launch them on a busy machine for a page of a domain by visits read in 10, and the workers
// share the cores the other requests need. And a statement run again and again
// with other cursors would get a generic plan, costed for no cursor in particular, which may
// read a whole filter's links where the cursor's plan walks a page
// (docs/benchmarks.md#workspaces-of-10-million-links). A statement that fails leaves the
// transaction aborted: the pool closes such a connection rather than reuse it.
func (s *LinkStore) queryList(ctx context.Context, query string, args []any, each func(pgx.Rows) error) error {
	b := &pgx.Batch{}
	b.Queue(`BEGIN READ ONLY`)
	b.Queue(`SET LOCAL jit = off`)
	b.Queue(`SET LOCAL plan_cache_mode = force_custom_plan`)
	b.Queue(`SET LOCAL max_parallel_workers_per_gather = 0`)
	b.Queue(query, args...).Query(func(rows pgx.Rows) error {
		defer rows.Close()
		for rows.Next() {
			if err := each(rows); err != nil {
				return err
			}
		}
		return rows.Err()
	})
	b.Queue(`COMMIT`)
	return s.db.Pool.SendBatch(ctx, b).Close()
}

// manyMatch is how many links of a workspace in a status other than active, or on a domain,
// make an order by visits under that filter walk the workspace's visit order, keeping the
// links that match, rather than read them all and sort them; a variable for tests.
var manyMatch = 5000

// hashMatch is how many links of a workspace in a status other than active an order by visits
// keeps by their IDs, read once from the status's partial index (statusMatching): fewer, and
// the walk tests each link it passes against that set; more, and it looks each one up by its
// key. A variable for tests.
var hashMatch = 50000

// matching is what List counted of the links a filter matches: many says an order by visits
// walks the visit order keeping them (manyMatching), hashed that the walk keeps those in f's
// status by their IDs (statusMatching).
type matching struct{ many, hashed bool }

// manyMatching is how an order by visits of f (a status other than active or a domain, and
// no narrower filter; or a tag and a status other than active) goes, from the links that
// match counted in the partial index links_workspace_inactive (migration 00048) or among the
// domain's links (links_workspace_domain, migration 00067): at least manyMatch of them make it
// walk the workspace's visit order keeping those that match (many), rather than read them all
// and sort them. Disabled links are a few in a hundred, a custom domain's a few in ten: the
// walk passes a few hundred or thousand links a page, where reading them all costs what they
// number. A status's links are fewer than hashMatch (hashed): the walk, the workspace's or the
// tag's, keeps them by their IDs, read once from the status's index, instead of looking up
// each link it passes (2,500 a page for disabled links, 2% of the workspace: 73 ms at
// 1,000,000 links, docs/benchmarks.md#workspaces-of-10-million-links).
func (s *LinkStore) manyMatching(ctx context.Context, workspaceID int64, f link.Filter) (matching, error) {
	if !f.Sort.ByVisits() || strings.TrimSpace(f.Query) != "" || f.Health != "" {
		return matching{}, nil
	}
	inactive := f.Status != "" && f.Status != link.StatusActive && f.Status != link.StatusExpired
	var query string
	var args []any
	var limit int
	switch {
	case f.TagID != nil && inactive && f.DomainID == nil:
		limit = hashMatch
		query, args = `SELECT 1 FROM links WHERE workspace_id = $1 AND status <> 'active' AND status = $2 LIMIT $3`, []any{workspaceID, f.Status, limit}
	case f.TagID != nil:
		return matching{}, nil
	case f.DomainID != nil && (f.Status == "" || f.Status == link.StatusActive):
		limit = manyMatch
		query, args = `SELECT 1 FROM links WHERE workspace_id = $1 AND domain_id = $2 LIMIT $3`, []any{workspaceID, *f.DomainID, limit}
		if *f.DomainID != link.DefaultDomain {
			// Written out, so that links_workspace_domain serves a generic plan too: without it
			// the count walked the workspace's links for the domain's, through the runs of its
			// other domains (0.5–1.3 s at 1,000,000 links).
			query = `SELECT 1 FROM links WHERE workspace_id = $1 AND domain_id = $2 AND domain_id <> 0 LIMIT $3`
		}
	case f.DomainID == nil && inactive:
		limit = hashMatch
		query, args = `SELECT 1 FROM links WHERE workspace_id = $1 AND status <> 'active' AND status = $2 LIMIT $3`, []any{workspaceID, f.Status, limit}
	default:
		return matching{}, nil
	}
	var n int
	if err := s.db.Pool.QueryRow(ctx, `SELECT count(*) FROM (`+query+`) s`, args...).Scan(&n); err != nil {
		return matching{}, fmt.Errorf("list links: count the links that match: %w", err)
	}
	if f.TagID != nil {
		return matching{hashed: n < hashMatch}, nil
	}
	many := n >= manyMatch
	return matching{many: many, hashed: many && inactive && n < hashMatch}, nil
}

// statusMatching is the condition that id is one of the workspace's links in the status (a
// status other than active, its placeholder given), for a walk that keeps them (manyMatching's hashed): a SubPlan
// whose IDs, read from links_workspace_inactive alone (migration 00048), are hashed once and
// tested as the walk passes each row, before any link is looked up. Written as "IS TRUE", not
// as IN alone, which the planner would make a join, looking up every link of the status in
// the visits instead of walking them in their order. The planner hashes it when it expects
// the status's links to fit in hash memory (about 250,000 with the default work_mem and
// hash_mem_multiplier); hashMatch keeps the listings that use it well below that.
func statusMatching(ws, status, id string) string {
	return "(" + id + " IN (SELECT i.id FROM links i WHERE i.workspace_id = " + ws +
		" AND i.status <> 'active' AND i.status = " + status + "::text)) IS TRUE"
}

// sortsAll reports whether an order by visits of f reads every link that matches with its
// visits and sorts them: a search of a text neither common nor of more links than the list
// sorts (manyText: searchedLinks' common or ordered, which walk the visit order), a domain
// or a status other than active with fewer than manyMatch links (many says they are more), or
// broken links, which are few. Walking the visit order instead could pass most of it before it
// finds a page.
func sortsAll(f link.Filter, many, manyText bool) bool {
	return (f.Query != "" && !manyText) || (f.DomainID != nil && !many) ||
		(f.Status != "" && f.Status != link.StatusActive && !many) || f.Health == "broken"
}

// walkStatus is where without the condition of the partial index of inactive links when the
// listing walks the visit order keeping a status's many links (manyMatching): with it, the
// planner would read every link of the status from that index and sort them, where the walk
// passes a few thousand.
func walkStatus(where []string, many bool) []string {
	if !many {
		return where
	}
	return slices.DeleteFunc(where, func(c string) bool { return c == inactiveCondition })
}
