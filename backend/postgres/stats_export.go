package postgres

import (
	"fmt"
	"strings"
	"time"

	"github.com/shortlink/shortlink/backend/link"
	"github.com/shortlink/shortlink/backend/stats"
)

// exportLinksQuery is a page of the links export after the link ID after: the workspace's links
// that the listing's filter f matches, with the conditions the list's statement has
// (listQuery), by ID.
func exportLinksQuery(workspaceID int64, f link.Filter, after int64) (string, []any) {
	var a sqlArgs
	ws := a.add(workspaceID)
	where := []string{"l.workspace_id = " + ws, "l.id > " + a.add(after)}
	where = append(where, searchConditions(&a, f.Query)...)
	where = append(where, statusConditions(&a, f)...)
	if f.DomainID != nil {
		where = append(where, "l.domain_id = "+a.add(*f.DomainID))
	}
	if f.TagID != nil {
		where = append(where, "EXISTS (SELECT 1 FROM link_tags lt WHERE lt.tag_id = "+a.add(*f.TagID)+" AND lt.link_id = l.id)")
	}
	if f.Health != "" {
		// A page walks the workspace's links by ID, so the health state is checked on each.
		where = append(where, "EXISTS (SELECT 1 FROM link_health h WHERE h.link_id = l.id AND h.state = "+a.add(f.Health)+" AND h.url = l.url)")
	}
	return `SELECT l.id, l.domain_id, l.key, l.url, l.title, l.status, l.created_at,
			coalesce(t.visits, 0), coalesce(t.uniques, 0), coalesce(t.bots, 0), ` + linkTagsColumn + `
		FROM links l LEFT JOIN visit_totals t ON t.link_id = l.id AND t.workspace_id = l.workspace_id
		WHERE ` + strings.Join(where, " AND ") + `
		ORDER BY l.id LIMIT ` + a.add(exportPage), a
}

// exportVisitsQuery is a page of the visits export after the visit last (nil for the first):
// the workspace's visits of [from, to), of the link linkID only unless it is 0, of the links
// carrying the tag tagID only unless it is 0, and with every value of the filter f.
func exportVisitsQuery(workspaceID, linkID, tagID int64, f stats.Filter, from, to time.Time, last *stats.Visit) (string, []any, error) {
	var a sqlArgs
	where := []string{"v.workspace_id = " + a.add(workspaceID)}
	if last == nil {
		where = append(where, "v.at >= "+a.add(from))
	} else {
		at := a.add(last.At)
		where = append(where, "v.at >= "+at, "(v.at, v.event_id) > ("+at+", "+a.add(last.EventID)+"::uuid)")
	}
	where = append(where, "v.at < "+a.add(to))
	if linkID != 0 {
		where = append(where, "v.link_id = "+a.add(linkID))
	}
	if tagID != 0 {
		where = append(where, "v.link_id IN (SELECT link_id FROM link_tags WHERE tag_id = "+a.add(tagID)+")")
	}
	n := 0
	for _, c := range visitColumnOf {
		if v, ok := f[c.dim]; ok {
			where = append(where, "v."+c.column+" = "+a.add(v))
			n++
		}
	}
	if n != len(f) {
		return "", nil, fmt.Errorf("export visits: a filter of a dimension visits do not hold")
	}
	return `SELECT ` + visitColumns + `
		FROM visits v LEFT JOIN links l ON l.id = v.link_id AND l.workspace_id = v.workspace_id
		WHERE ` + strings.Join(where, " AND ") + `
		ORDER BY v.at, v.event_id LIMIT ` + a.add(exportPage), a, nil
}
