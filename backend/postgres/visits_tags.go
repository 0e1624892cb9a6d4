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
// before it copies a count). The count is set, not added to: a row that missed a change has
// it at the link's next visit.
const setTagVisits = `
UPDATE link_tags lt SET visits = t.visits FROM visit_totals t
WHERE t.link_id = ANY($1) AND lt.link_id = t.link_id AND lt.visits <> t.visits`

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
// commits first, or waits until the tags are on and then sets their rows.
func lockTagVisits(ctx context.Context, tx pgx.Tx, workspaceID int64, ids, add []int64) error {
	if len(add) == 0 || len(ids) == 0 {
		return nil
	}
	_, err := tx.Exec(ctx, `SELECT 1 FROM visit_totals WHERE link_id = ANY($2) AND workspace_id = $1 AND visits > 0
		ORDER BY link_id FOR SHARE`, workspaceID, ids)
	if err != nil {
		return fmt.Errorf("lock the links' visits: %w", err)
	}
	return nil
}
