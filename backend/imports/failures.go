package imports

import (
	"context"

	"github.com/shortlink/shortlink/backend/apperr"
)

// Failures returns a page of the import's failed rows, in row order, after row after (0: from
// the first), and the row to ask after for the next page (0 when there is none). The rows are
// there as soon as they are recorded, while the job runs too (docs/domains-and-imports.md#csv-imports);
// another workspace's import is not_found.
func (s *Service) Failures(ctx context.Context, workspaceID, id int64, after int64, limit int) ([]Result, int64, error) {
	if limit < 1 || limit > MaxPage {
		return nil, 0, apperr.Errorf(apperr.Invalid, "limit must be between 1 and %d", MaxPage).For("value_invalid", "limit")
	}
	if _, err := s.store.Get(ctx, workspaceID, id); err != nil {
		return nil, 0, err
	}
	rows, more, err := s.store.Failures(ctx, workspaceID, id, after, limit)
	if err != nil {
		return nil, 0, err
	}
	var next int64
	if more && len(rows) > 0 {
		next = int64(rows[len(rows)-1].Row)
	}
	return rows, next, nil
}
