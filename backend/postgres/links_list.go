package postgres

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/shortlink/shortlink/backend/link"
)

// manyTagged is how many links of a tag fewestTagged counts at most; a variable for tests.
var manyTagged = 5000

// List implements link.Store, in one statement: the page's IDs in the order asked, then their
// links with the moderation state, the visits since made (visit_totals) and, when days are
// asked, people's visits per day (visit_hours). In an order by visits of the whole workspace (or
// of its active links, most of them) the page comes from two ordered parts, each stopping at
// the page's size: the links with visits, walked in visit_totals' index of them, and those with
// none, walked by ID; the second is read only when the first runs out (or, least visited first,
// the other way round). A narrower filter could make that walk pass most of the index before it
// finds a page (the few disabled links may be the least visited): such a listing reads the
// links it matches with their visits and sorts them.
//
// An order by visits of a tag walks the same two parts in the tag's own rows (tagVisitsPage),
// which keep their links' visits beside them (migration 00064).
//
// A text search (q) first tests the workspace's newest links: a text common among them is
// found by a walk in any order, testing each link's text. Otherwise it asks the search table's
// index for the workspace's links holding the text, up to searchCandidates (searchedLinks): when
// they are that few, the listing reads them with the other filters and sorts them, whatever the
// order; when they are more, or the text too short for the index, the listing walks as it would
// without a search, testing each link (searchConditions).
func (s *LinkStore) List(ctx context.Context, workspaceID int64, f link.Filter) ([]*link.Link, bool, error) {
	if len(f.AlsoTagIDs) > 0 {
		var err error
		if f, err = s.fewestTagged(ctx, f); err != nil {
			return nil, false, err
		}
	}
	match, err := s.manyMatching(ctx, workspaceID, f)
	if err != nil {
		return nil, false, err
	}
	var found []int64
	var search searchWay
	if q := strings.TrimSpace(f.Query); q != "" {
		ids, few, way, err := s.searchedLinks(ctx, workspaceID, q, f)
		if err != nil {
			return nil, false, err
		}
		if few {
			if len(ids) == 0 {
				return nil, false, nil
			}
			found = ids
		}
		search = way
	}
	query, args := listQuery(workspaceID, f, match, found, search)
	var links []*link.Link
	err = s.queryList(ctx, query, args, func(rows pgx.Rows) error {
		v := &link.Visits{}
		l, err := scanTagged(rows, &v.Total, &v.Days)
		if err != nil {
			return err
		}
		l.Visits = v
		links = append(links, l)
		return nil
	})
	if err != nil {
		return nil, false, fmt.Errorf("list links: %w", err)
	}
	links, more := trimPage(links, f.Limit)
	return links, more, nil
}

// fewestTagged is f with the tag of fewest links among f.TagID and f.AlsoTagIDs as its TagID,
// the one whose links the listing walks or reads; the others are checked on each link. Tags are
// counted up to manyTagged links each.
func (s *LinkStore) fewestTagged(ctx context.Context, f link.Filter) (link.Filter, error) {
	ids := append([]int64{*f.TagID}, f.AlsoTagIDs...)
	var fewest int64
	err := s.db.Pool.QueryRow(ctx, `SELECT t.id FROM unnest($1::bigint[]) WITH ORDINALITY AS t (id, i)
		CROSS JOIN LATERAL (SELECT count(*) AS n FROM (SELECT 1 FROM link_tags lt WHERE lt.tag_id = t.id LIMIT $2) s) c
		ORDER BY c.n, t.i LIMIT 1`, ids, manyTagged).Scan(&fewest)
	if err != nil {
		return f, fmt.Errorf("list links: count the tags' links: %w", err)
	}
	f.TagID, f.AlsoTagIDs = &fewest, slices.DeleteFunc(ids, func(id int64) bool { return id == fewest })
	return f, nil
}

// searchWay is how a listing's search goes when its links were not found few
// (searchedLinks): common says many of the workspace's newest links hold the text, and many
// that more links hold it than the list sorts, so an order by visits walks the visit order
// rather than sorting the text's links; ordered says link_search_order walks them by ID.
type searchWay struct{ common, many, ordered bool }

// listQuery is List's statement and its arguments; match is what manyMatching counted of the
// links in f's status or on its domain; found, when not nil, is every link whose text may hold
// f.Query, and search how a search of more links goes.
func listQuery(workspaceID int64, f link.Filter, match matching, found []int64, search searchWay) (string, []any) {
	many := match.many
	var a sqlArgs
	ws := a.add(workspaceID)
	where := append([]string{"l.workspace_id = " + ws}, searchConditions(&a, f.Query)...)
	where = walkStatus(append(where, statusConditions(&a, f)...), many)
	if f.DomainID != nil {
		where = append(where, "l.domain_id = "+a.add(*f.DomainID))
		if *f.DomainID != link.DefaultDomain {
			// The condition of links_workspace_domain (migration 00067), written out so that it
			// serves whatever the plan.
			where = append(where, "l.domain_id <> 0")
		}
	}
	// A search walked in link_search_order: by ID, no tag, a text of many links
	// (searchedLinks).
	ordered := search.ordered && f.TagID == nil && !f.Sort.ByVisits() && !f.Sort.ByUpdate()
	where, healthState, healthWalk := healthFilter(f, where, found != nil || ordered)
	var tagID string
	if f.TagID != nil {
		tagID = a.add(*f.TagID)
		if f.Sort.ByUpdate() || found != nil {
			where = append(where, "EXISTS (SELECT 1 FROM link_tags lt WHERE lt.tag_id = "+tagID+" AND lt.link_id = l.id)")
		}
	}
	limit := a.add(f.Limit + 1)
	dir, cmp := "DESC", "<"
	if !f.Sort.Descending() && f.Sort != "" {
		dir, cmp = "ASC", ">"
	}
	var page, order string
	visits := "coalesce(t.visits, 0)"
	switch {
	case found != nil:
		page, order = foundPage(&a, f, where, found, ws, limit, dir, cmp)
	case ordered:
		page, order = searchOrderPage(&a, f, where, ws, limit, dir, cmp)
	case f.Sort.ByUpdate():
		// links_workspace_updated (migration 00048) walks the workspace's links by their last
		// change, each checked against the other filters.
		if c := f.After; c != nil {
			where = append(where, "(l.updated_at, l.id) "+cmp+" ("+a.add(c.Updated)+"::timestamptz, "+a.add(c.ID)+"::bigint)")
		}
		page = `SELECT l.id FROM links l WHERE ` + strings.Join(where, " AND ") +
			` ORDER BY l.updated_at ` + dir + `, l.id ` + dir + ` LIMIT ` + limit
		order = `l.updated_at ` + dir + `, l.id ` + dir
	case tagID != "" && f.Sort.ByVisits():
		var keep func(id string) string
		if match.hashed {
			status := a.add(f.Status)
			keep = func(id string) string { return statusMatching(ws, status, id) }
		}
		page, order = tagVisitsPage(&a, where, tagID, limit, dir, cmp, f.After, keep)
		visits = "p.visits"
	case healthWalk:
		page, order = healthPage(&a, where, ws, healthState, limit, dir, cmp, f.After, f.Sort.ByVisits())
	case f.Sort.ByVisits() && sortsAll(f, many, search.common || search.many):
		if c := f.After; c != nil {
			where = append(where, "(coalesce(t.visits, 0), l.id) "+cmp+" ("+a.add(c.Visits)+"::bigint, "+a.add(c.ID)+"::bigint)")
		}
		page = `SELECT l.id FROM links l LEFT JOIN (
				SELECT link_id, visits FROM visit_totals WHERE workspace_id = ` + ws + ` AND visits > 0
			) t ON t.link_id = l.id
			WHERE ` + strings.Join(where, " AND ") + `
			ORDER BY coalesce(t.visits, 0) ` + dir + `, l.id ` + dir + ` LIMIT ` + limit
		order = `coalesce(t.visits, 0) ` + dir + `, l.id ` + dir
	case f.Sort.ByVisits():
		page, order = visitsWalk(&a, f, where, ws, limit, dir, cmp, match.hashed)
	case tagID != "":
		page, order = tagPage(&a, f, where, tagID, limit, dir, cmp)
	default:
		if f.After != nil {
			where = append(where, "l.id "+cmp+" "+a.add(f.After.ID))
		}
		walk, by := workspaceWalk(f, where, ws, dir)
		page = `SELECT l.id FROM links l WHERE ` + strings.Join(walk, " AND ") + ` ORDER BY ` + by + ` LIMIT ` + limit
		order = `l.id ` + dir
	}
	days := "NULL::bigint[]"
	if n := len(f.Days) - 1; n > 0 {
		// A UTC hour counts in the day it begins in; an hour begun before the first day (in a zone
		// whose offset is not whole hours) counts in the first, as the statistics count it.
		days = `ARRAY(SELECT coalesce(d.n, 0) FROM generate_series(1, ` + strconv.Itoa(n) + `) g (i) LEFT JOIN (
			SELECT greatest(width_bucket(h.hour, ` + a.add(f.Days) + `::timestamptz[]), 1) AS i, sum(h.visits)::bigint AS n
			FROM visit_hours h WHERE h.link_id = l.id AND h.hour >= ` + a.add(f.Days[0].Truncate(time.Hour)) + `
				AND h.hour < ` + a.add(f.Days[n]) + ` GROUP BY 1) d ON d.i = g.i ORDER BY g.i)`
	}
	return `SELECT ` + taggedColumns + `, ` + visits + `, ` + days + `
		FROM (` + page + `) p
		JOIN links l ON l.id = p.id AND l.workspace_id = ` + ws + `
		LEFT JOIN link_moderation lm ON lm.link_id = l.id
		LEFT JOIN visit_totals t ON t.link_id = l.id
		ORDER BY ` + order, a
}

// inactiveCondition is the condition of links_workspace_inactive (migration 00048).
const inactiveCondition = "l.status <> 'active'"

// visitsWalk is a listing's page by visits of the whole workspace (or of its active links, or
// under a common text): two ordered parts, each stopping at the page's size, the links with
// visits walked in visit_totals' index of them, and those with none walked by ID; the second is
// read only when the first runs out (or, least visited first, the other way round).
//
// With hashed (manyMatching), the links in f's status are kept by their IDs as the walk of the
// visits passes them (statusMatching), and only those are looked up by their keys, in a LATERAL
// subquery, so that the walk stays the visit order's.
func visitsWalk(a *sqlArgs, f link.Filter, where []string, ws, limit, dir, cmp string, hashed bool) (page, order string) {
	byVisits := []string{"t.workspace_id = " + ws, "t.visits > 0"}
	unvisited := append(slices.Clone(where),
		"NOT EXISTS (SELECT 1 FROM visit_totals t WHERE t.link_id = l.id AND t.visits > 0)")
	// The parts in the order of the listing; a cursor in the second has left the first behind.
	useVisited, useUnvisited := true, true
	if c := f.After; c != nil {
		if c.Visits == 0 {
			unvisited = append(unvisited, "l.id "+cmp+" "+a.add(c.ID))
			useVisited = dir == "ASC"
		} else {
			useUnvisited = dir == "DESC"
		}
		if useVisited {
			byVisits = append(byVisits, "(t.visits, t.link_id) "+cmp+" ("+a.add(c.Visits)+"::bigint, "+a.add(c.ID)+"::bigint)")
		}
	}
	var parts []string
	switch {
	case useVisited && hashed:
		byVisits = append(byVisits, statusMatching(ws, a.add(f.Status), "t.link_id"))
		parts = append(parts, `(SELECT t.link_id AS id FROM visit_totals t
			CROSS JOIN LATERAL (SELECT 1 FROM links l WHERE l.id = t.link_id AND `+strings.Join(where, " AND ")+` LIMIT 1) m
			WHERE `+strings.Join(byVisits, " AND ")+` ORDER BY t.visits `+dir+`, t.link_id `+dir+` LIMIT `+limit+`)`)
	case useVisited && f.Query != "":
		// A text common or of many links (searchedLinks), which the planner cannot count:
		// each visited link looked up by its key in a LATERAL subquery, so that the walk is
		// the visit order's.
		parts = append(parts, `(SELECT t.link_id AS id FROM visit_totals t
			CROSS JOIN LATERAL (SELECT 1 FROM links l WHERE l.id = t.link_id AND `+strings.Join(where, " AND ")+` LIMIT 1) m
			WHERE `+strings.Join(byVisits, " AND ")+` ORDER BY t.visits `+dir+`, t.link_id `+dir+` LIMIT `+limit+`)`)
	case useVisited:
		parts = append(parts, `(SELECT t.link_id AS id FROM visit_totals t JOIN links l ON l.id = t.link_id WHERE `+
			strings.Join(append(slices.Clone(where), byVisits...), " AND ")+` ORDER BY t.visits `+dir+`, t.link_id `+dir+` LIMIT `+limit+`)`)
	}
	if useUnvisited {
		walk, by := workspaceWalk(f, unvisited, ws, dir)
		parts = append(parts, `(SELECT l.id FROM links l WHERE `+strings.Join(walk, " AND ")+
			` ORDER BY `+by+` LIMIT `+limit+`)`)
	}
	if dir == "ASC" {
		slices.Reverse(parts)
	}
	return `SELECT id FROM (` + strings.Join(parts, " UNION ALL ") + `) u LIMIT ` + limit,
		`coalesce(t.visits, 0) ` + dir + `, l.id ` + dir
}

// tagPage is a listing's page of a tag's links by ID from link_tags' key, each checked against
// the other filters (where): a page costs the links it passes, whether the tag is on few links
// or most. Under a search (a text the links' columns decide, its links too many to sort:
// searchedLinks), which the planner cannot count, each link is looked up by its key in a
// LATERAL subquery, so that the walk is the tag's and never the workspace's. So is a tag's page
// whose other filters keep most links (plainTagWalk): the planner, counting the workspace's
// links as most of the table, joined a tag on half of them to links_pkey walked backwards,
// passing every newer link of the other workspaces (100 ms for a first page with 300,000 newer
// links beside it; with the workspace hidden from it, a tag on older links passed the
// workspace's newer ones instead). Filters that keep few links (a status but active, a custom
// domain, a second tag, health) are left to the planner, which sees their indexes.
func tagPage(a *sqlArgs, f link.Filter, where []string, tagID, limit, dir, cmp string) (page, order string) {
	if f.Query != "" || plainTagWalk(f) {
		cond := ""
		if f.After != nil {
			cond = " AND lt.link_id " + cmp + " " + a.add(f.After.ID)
		}
		return `SELECT lt.link_id AS id FROM link_tags lt
			CROSS JOIN LATERAL (SELECT 1 FROM links l WHERE l.id = lt.link_id AND ` + strings.Join(where, " AND ") + ` LIMIT 1) m
			WHERE lt.tag_id = ` + tagID + cond + `
			ORDER BY lt.link_id ` + dir + ` LIMIT ` + limit, `l.id ` + dir
	}
	if f.After != nil {
		// On both sides, so that whichever the join walks starts at the cursor.
		after := a.add(f.After.ID)
		where = append(where, "lt.link_id "+cmp+" "+after, "l.id "+cmp+" "+after)
	}
	return `SELECT lt.link_id AS id FROM link_tags lt JOIN links l ON l.id = lt.link_id
			WHERE lt.tag_id = ` + tagID + ` AND ` + strings.Join(where, " AND ") + `
			ORDER BY lt.link_id ` + dir + ` LIMIT ` + limit, `l.id ` + dir
}

// workspaceWalk is where and the order of a page walking the workspace's links by ID. In
// links_workspace_idx (workspace_id, id DESC) with the workspace as a value the planner cannot
// see (an InitPlan): with the workspace a constant, the order by ID alone is the primary key's
// too, and the planner, counting the workspace's links as most of the table, may walk the key of
// every workspace's links, passing all the newer links of the others before the first of this
// one (317 ms for a page of a workspace of 1,000,000 links with 200,000 newer ones beside it,
// docs/benchmarks.md#workspaces-of-10-million-links). A status other than active or expiry
// walks its partial index (migration 00048) instead, ordered by ID upwards, where the constant
// serves: the workspace's condition stays as it is. So does a custom domain, whose links
// links_workspace_domain (migration 00067) holds by ID: walked in links_workspace_idx, a page
// of a domain passed every newer link of the workspace's other domains (its campaigns are runs
// of IDs).
func workspaceWalk(f link.Filter, where []string, ws, dir string) ([]string, string) {
	if f.Status != "" && f.Status != link.StatusActive || f.DomainID != nil && *f.DomainID != link.DefaultDomain {
		return where, "l.id " + dir
	}
	where = hiddenWorkspace(where, ws)
	if dir == "DESC" {
		return where, "l.workspace_id, l.id DESC"
	}
	return where, "l.workspace_id DESC, l.id"
}

// plainTagWalk says whether a tag's page has no filter but an active status and the archived
// links left out or shown with the rest:
// most of the tag's links pass, and walking the tag's own links finds a page in about a page's
// lookups.
func plainTagWalk(f link.Filter) bool {
	return (f.Status == "" || f.Status == link.StatusActive) && f.Archived != link.ArchivedOnly && f.DomainID == nil &&
		len(f.AlsoTagIDs) == 0 && f.Health == ""
}

// hiddenWorkspace is where with its condition on the workspace (l.workspace_id = ws) written
// as an InitPlan, a value the planner cannot see: counting the workspace's links as most of the
// table, it would walk links_pkey past every newer link of the other workspaces.
func hiddenWorkspace(where []string, ws string) []string {
	where = slices.Clone(where)
	for i, c := range where {
		if c == "l.workspace_id = "+ws {
			where[i] = "l.workspace_id = (SELECT " + ws + "::bigint)"
		}
	}
	return where
}

// statusConditions are the conditions of List's status and archive filters and of its tags
// past the first.
func statusConditions(a *sqlArgs, f link.Filter) []string {
	var where []string
	switch f.Archived {
	case link.ArchivedAll:
	case link.ArchivedOnly:
		where = append(where, "l.archived_at IS NOT NULL")
	default:
		where = append(where, "l.archived_at IS NULL")
	}
	switch f.Status {
	case "":
	case link.StatusExpired:
		// The first condition lets the partial index links_workspace_expiring serve it.
		where = append(where, "l.expires_at IS NOT NULL", "l.expires_at <= now()")
	case link.StatusActive:
		where = append(where, "l.status = "+a.add(f.Status))
	default:
		// The first condition lets the partial index links_workspace_inactive (migration 00048)
		// serve it whatever the plan.
		where = append(where, inactiveCondition, "l.status = "+a.add(f.Status))
	}
	for _, id := range f.AlsoTagIDs {
		where = append(where, "EXISTS (SELECT 1 FROM link_tags lt WHERE lt.tag_id = "+a.add(id)+" AND lt.link_id = l.id)")
	}
	return where
}

// searchConditions are the conditions of List's text search q (none when it is blank): the
// links' own columns decide, whatever the search table found.
func searchConditions(a *sqlArgs, q string) []string {
	q = strings.TrimSpace(q)
	if q == "" {
		return nil
	}
	p := a.add("%" + escapeLike(q) + "%")
	return []string{"(l.url ILIKE " + p + " OR l.key ILIKE " + p + " OR l.title ILIKE " + p + ")"}
}

// healthFilter is the state of f's health filter written out ("" for none; one of two, so
// that the partial index of that state serves it), and whether the listing's page walks that
// index (healthPage: no tag to walk, and an order by ID, or by visits among the few broken
// links; never a search's links found, which says noWalk); a page that does not checks each
// link's state in where.
func healthFilter(f link.Filter, where []string, noWalk bool) (_ []string, state string, walk bool) {
	switch f.Health {
	case "ok":
		state = "'ok'"
	case "broken":
		state = "'broken'"
	default:
		return where, "", false
	}
	walk = !noWalk && f.TagID == nil && !f.Sort.ByUpdate() && (!f.Sort.ByVisits() || f.Health == "broken")
	if !walk {
		// A value read per link, not an EXISTS: the planner would make that a join on (link,
		// URL), which it expects to match almost nothing, and read every link of the workspace
		// and of the state to find a page that a walk finds in a few hundred.
		where = append(where, "(SELECT h.state FROM link_health h WHERE h.link_id = l.id AND h.url = l.url) = "+state)
	}
	return where, state, walk
}

// foundPage is a listing's page among a search's links found: each read by its key, checked
// against the other filters (where, a tag's included) and sorted in the order asked.
func foundPage(a *sqlArgs, f link.Filter, where []string, found []int64, ws, limit, dir, cmp string) (page, order string) {
	from := `unnest(` + a.add(found) + `::bigint[]) c (id) JOIN links l ON l.id = c.id`
	switch {
	case f.Sort.ByUpdate():
		if c := f.After; c != nil {
			where = append(where, "(l.updated_at, l.id) "+cmp+" ("+a.add(c.Updated)+"::timestamptz, "+a.add(c.ID)+"::bigint)")
		}
		order = `l.updated_at ` + dir + `, l.id ` + dir
	case f.Sort.ByVisits():
		from += ` LEFT JOIN visit_totals t ON t.link_id = l.id AND t.workspace_id = ` + ws + ` AND t.visits > 0`
		if c := f.After; c != nil {
			where = append(where, "(coalesce(t.visits, 0), l.id) "+cmp+" ("+a.add(c.Visits)+"::bigint, "+a.add(c.ID)+"::bigint)")
		}
		order = `coalesce(t.visits, 0) ` + dir + `, l.id ` + dir
	default:
		if c := f.After; c != nil {
			where = append(where, "l.id "+cmp+" "+a.add(c.ID))
		}
		order = `l.id ` + dir
	}
	return `SELECT l.id FROM ` + from + ` WHERE ` + strings.Join(where, " AND ") + ` ORDER BY ` + order + ` LIMIT ` + limit, order
}

// healthPage is a listing's page of links in a health state from link_health's partial index
// of it, each link looked up by its key and checked against the other filters (where): by ID,
// a page costs the rows it passes (broken links are few, ok ones most); by visits, it reads
// every link in the state (broken ones only) with its visits and sorts them. The lookup is a
// LATERAL subquery with a LIMIT, which the planner cannot turn into a join that reads every
// link of the workspace.
func healthPage(a *sqlArgs, where []string, ws, state, limit, dir, cmp string, after *link.Cursor, byVisits bool) (page, order string) {
	from := `link_health h
			CROSS JOIN LATERAL (SELECT 1 FROM links l WHERE l.id = h.link_id AND l.url = h.url AND ` + strings.Join(where, " AND ") + ` LIMIT 1) m`
	cond := ""
	if byVisits {
		if after != nil {
			cond = " AND (coalesce(t.visits, 0), h.link_id) " + cmp + " (" + a.add(after.Visits) + "::bigint, " + a.add(after.ID) + "::bigint)"
		}
		return `SELECT h.link_id AS id FROM ` + from + `
			LEFT JOIN visit_totals t ON t.link_id = h.link_id AND t.visits > 0
			WHERE h.workspace_id = ` + ws + ` AND h.state = ` + state + cond + `
			ORDER BY coalesce(t.visits, 0) ` + dir + `, h.link_id ` + dir + ` LIMIT ` + limit,
			`coalesce(t.visits, 0) ` + dir + `, l.id ` + dir
	}
	if after != nil {
		cond = " AND h.link_id " + cmp + " " + a.add(after.ID)
	}
	return `SELECT h.link_id AS id FROM ` + from + `
			WHERE h.workspace_id = ` + ws + ` AND h.state = ` + state + cond + `
			ORDER BY h.link_id ` + dir + ` LIMIT ` + limit,
		`l.id ` + dir
}

// sqlArgs are a statement's arguments as its conditions are built.
type sqlArgs []any

// add appends v and answers its placeholder.
func (a *sqlArgs) add(v any) string {
	*a = append(*a, v)
	return "$" + strconv.Itoa(len(*a))
}

func escapeLike(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}
