package postgres

import (
	"slices"
	"strings"

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
