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
// next cursor is where the page ended.
func tagVisitsPage(a *sqlArgs, where []string, tagID, limit, dir, cmp string, after *link.Cursor) (page, order string) {
	visited := append(slices.Clone(where), "lt.tag_id = "+tagID, "lt.visits > 0")
	unvisited := append(slices.Clone(where), "lt.tag_id = "+tagID, "lt.visits = 0")
	// The parts in the order of the listing; a cursor in the second has left the first behind.
	useVisited, useUnvisited := true, true
	if after != nil {
		if after.Visits == 0 {
			// On both sides, so that whichever the join walks starts at the cursor.
			id := a.add(after.ID)
			unvisited = append(unvisited, "lt.link_id "+cmp+" "+id, "l.id "+cmp+" "+id)
			useVisited = dir == "ASC"
		} else {
			useUnvisited = dir == "DESC"
			visited = append(visited, "(lt.visits, lt.link_id) "+cmp+" ("+a.add(after.Visits)+"::bigint, "+a.add(after.ID)+"::bigint)")
		}
	}
	var parts []string
	if useVisited {
		parts = append(parts, `(SELECT lt.link_id AS id, lt.visits FROM link_tags lt JOIN links l ON l.id = lt.link_id WHERE `+
			strings.Join(visited, " AND ")+` ORDER BY lt.visits `+dir+`, lt.link_id `+dir+` LIMIT `+limit+`)`)
	}
	if useUnvisited {
		parts = append(parts, `(SELECT lt.link_id AS id, lt.visits FROM link_tags lt JOIN links l ON l.id = lt.link_id WHERE `+
			strings.Join(unvisited, " AND ")+` ORDER BY lt.link_id `+dir+` LIMIT `+limit+`)`)
	}
	if dir == "ASC" {
		slices.Reverse(parts)
	}
	return `SELECT id, visits FROM (` + strings.Join(parts, " UNION ALL ") + `) u LIMIT ` + limit,
		`p.visits ` + dir + `, l.id ` + dir
}

// queryList runs a listing's statement, calling each for every row, in a read-only transaction
// with JIT off and a plan made for the statement's own arguments, all sent at once (one round
// trip, as the statement alone). A page walked in an index stops after a few rows, but the
// planner costs the whole walk: past jit_above_cost PostgreSQL compiled the statement first,
// 100 ms and more on a busy machine for a page read in 2. And a statement run again and again
// with other cursors would get a generic plan, costed for no cursor in particular, which may
// read a whole filter's links where the cursor's plan walks a page
// (docs/benchmarks.md#workspaces-of-10-million-links). A statement that fails leaves the
// transaction aborted: the pool closes such a connection rather than reuse it.
func (s *LinkStore) queryList(ctx context.Context, query string, args []any, each func(pgx.Rows) error) error {
	b := &pgx.Batch{}
	b.Queue(`BEGIN READ ONLY`)
	b.Queue(`SET LOCAL jit = off`)
	b.Queue(`SET LOCAL plan_cache_mode = force_custom_plan`)
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

// manyMatching reports whether an order by visits of f (a status other than active or a
// domain, and no narrower filter) has at least manyMatch links to choose from, counted in the
// partial index links_workspace_inactive (migration 00048) or among the domain's links.
// Disabled links are a few in a hundred, a custom domain's a few in ten: the walk passes a few
// hundred or thousand links a page, where reading them all costs what they number.
func (s *LinkStore) manyMatching(ctx context.Context, workspaceID int64, f link.Filter) (bool, error) {
	if !f.Sort.ByVisits() || f.TagID != nil || strings.TrimSpace(f.Query) != "" || f.Health != "" {
		return false, nil
	}
	var query string
	var args []any
	switch {
	case f.DomainID != nil && (f.Status == "" || f.Status == link.StatusActive):
		query, args = `SELECT 1 FROM links WHERE workspace_id = $1 AND domain_id = $2 LIMIT $3`, []any{workspaceID, *f.DomainID, manyMatch}
	case f.DomainID == nil && f.Status != "" && f.Status != link.StatusActive && f.Status != link.StatusExpired:
		query, args = `SELECT 1 FROM links WHERE workspace_id = $1 AND status <> 'active' AND status = $2 LIMIT $3`, []any{workspaceID, f.Status, manyMatch}
	default:
		return false, nil
	}
	var n int
	if err := s.db.Pool.QueryRow(ctx, `SELECT count(*) FROM (`+query+`) s`, args...).Scan(&n); err != nil {
		return false, fmt.Errorf("list links: count the links that match: %w", err)
	}
	return n >= manyMatch, nil
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
