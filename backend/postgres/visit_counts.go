package postgres

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/jackc/pgx/v5"

	"github.com/shortlink/shortlink/backend/visitcap"
)

// VisitCounts implements visitcap.Store: the visits of capped links, durably.
type VisitCounts struct{ db *DB }

// NewVisitCounts returns the PostgreSQL visit-count store.
func NewVisitCounts(db *DB) *VisitCounts { return &VisitCounts{db: db} }

var _ visitcap.Store = (*VisitCounts)(nil)

// Visits implements visitcap.Store.
func (s *VisitCounts) Visits(ctx context.Context, linkID int64) (int64, error) {
	var n int64
	err := s.db.Pool.QueryRow(ctx, `SELECT visits FROM visit_counts WHERE link_id = $1`, linkID).Scan(&n)
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return 0, fmt.Errorf("read visit count: %w", err)
	}
	return n, nil
}

// Take implements visitcap.Store: the check and the count are one statement on the locked row,
// so nodes counting at once never pass max between them; the count starts from at least seen.
func (s *VisitCounts) Take(ctx context.Context, linkID, max, seen int64) (bool, int64, error) {
	var n int64
	err := s.db.Pool.QueryRow(ctx, `
		INSERT INTO visit_counts AS c (link_id, visits) SELECT $1, GREATEST($3::bigint, 0) + 1 WHERE GREATEST($3::bigint, 0) < $2::bigint
		ON CONFLICT (link_id) DO UPDATE SET visits = GREATEST(c.visits, $3) + 1 WHERE GREATEST(c.visits, $3) < $2
		RETURNING visits`, linkID, max, seen).Scan(&n)
	if errors.Is(err, pgx.ErrNoRows) {
		return false, 0, nil
	}
	if err != nil {
		return false, 0, fmt.Errorf("count visit: %w", err)
	}
	return true, n, nil
}

// Raise implements visitcap.Store; each link appears in counts at most once. Rows are written in the order of their IDs, so that nodes
// writing overlapping batches at once cannot deadlock.
func (s *VisitCounts) Raise(ctx context.Context, counts []visitcap.Count) ([]visitcap.Count, error) {
	counts = slices.Clone(counts)
	slices.SortFunc(counts, func(a, b visitcap.Count) int { return cmp.Compare(a.LinkID, b.LinkID) })
	ids := make([]int64, len(counts))
	visits := make([]int64, len(counts))
	for i, c := range counts {
		ids[i], visits[i] = c.LinkID, c.Visits
	}
	rows, err := s.db.Pool.Query(ctx, `
		INSERT INTO visit_counts AS c (link_id, visits)
		SELECT * FROM unnest($1::bigint[], $2::bigint[]) ORDER BY 1
		ON CONFLICT (link_id) DO UPDATE SET visits = GREATEST(c.visits, EXCLUDED.visits)
		RETURNING link_id, visits`, ids, visits)
	if err != nil {
		return nil, fmt.Errorf("store visit counts: %w", err)
	}
	stored, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (visitcap.Count, error) {
		var c visitcap.Count
		return c, r.Scan(&c.LinkID, &c.Visits)
	})
	if err != nil {
		return nil, fmt.Errorf("store visit counts: %w", err)
	}
	return stored, nil
}
