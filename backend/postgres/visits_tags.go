package postgres

import (
	"context"
	"fmt"
	"slices"

	"github.com/jackc/pgx/v5"

	"github.com/shortlink/shortlink/backend/visit"
)

// setTagVisits copies the people's visits of the links a transaction of visits changed from
// visit_totals into their tags' rows (link_tags.visits, migration 00064), which the listing of
// a tag by visits walks. A statement of its own after addRollups: it holds the links' totals
// locked, and its snapshot sees a tag put on meanwhile (setLinkTags waits for those locks
// before it copies a count). Rows are locked in the order of (link, tag), as setLinkTags
// locks those it takes off, so that the two cannot deadlock. The count is set, not added to: a
// row that missed a change has it at the link's next visit.
const setTagVisits = `
WITH moved AS (
	SELECT lt.tag_id, lt.link_id, t.visits FROM link_tags lt JOIN visit_totals t ON t.link_id = lt.link_id
	WHERE t.link_id = ANY($1) AND lt.visits <> t.visits
	ORDER BY lt.link_id, lt.tag_id FOR NO KEY UPDATE OF lt
)
UPDATE link_tags lt SET visits = m.visits FROM moved m WHERE lt.tag_id = m.tag_id AND lt.link_id = m.link_id`

// visitedLinks are the links with people's visits in r, in the order of their IDs, each once.
func visitedLinks(r visit.Rollup) []int64 {
	ids := make([]int64, 0, len(r.Hours))
	for _, h := range r.Hours {
		if h.Visits > 0 {
			ids = append(ids, h.LinkID)
		}
	}
	slices.Sort(ids)
	return slices.Compact(ids)
}

// keepTagVisits runs setTagVisits for the links of r with people's visits.
func keepTagVisits(ctx context.Context, tx pgx.Tx, r visit.Rollup) error {
	ids := visitedLinks(r)
	if len(ids) == 0 {
		return nil
	}
	if _, err := tx.Exec(ctx, setTagVisits, ids); err != nil {
		return fmt.Errorf("set tags' visits: %w", err)
	}
	return nil
}

// lockTagVisits locks the totals of the workspace's links ids that have visits (in the order
// of their IDs, as the ingest locks them) before their tags change, so that a count copied
// into a tag's row (setLinkTags) is the latest: a transaction of visits changing one of them
// commits first, or waits until the tags are changed and then sets their rows. Both lock the
// totals before the tags' rows.
func lockTagVisits(ctx context.Context, tx pgx.Tx, workspaceID int64, ids []int64) error {
	if len(ids) == 0 {
		return nil
	}
	_, err := tx.Exec(ctx, `SELECT 1 FROM visit_totals WHERE link_id = ANY($2) AND workspace_id = $1 AND visits > 0
		ORDER BY link_id FOR SHARE`, workspaceID, ids)
	if err != nil {
		return fmt.Errorf("lock the links' visits: %w", err)
	}
	return nil
}

// lockTagRows is a statement locking, in the order of (link, tag), the rows of link_tags of the
// workspace's ($1) links ($2) that match cond, and answering their keys: the rows setLinkTags
// takes off, locked in the order the ingest locks those it sets (setTagVisits).
func lockTagRows(cond string) string {
	return `SELECT lt.tag_id, lt.link_id FROM link_tags lt JOIN links l ON l.id = lt.link_id
		WHERE l.workspace_id = $1 AND lt.link_id = ANY($2) AND ` + cond + `
		ORDER BY lt.link_id, lt.tag_id FOR UPDATE OF lt`
}
