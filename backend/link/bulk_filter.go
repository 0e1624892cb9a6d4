// What a bulk job (backend/bulkjob) asks of the link service: a listing's filter checked and
// resolved, and a bulk edit's change checked (docs/api.md#bulk-jobs).

package link

import "context"

// MatchFilter checks a listing's filter as List does (its order, page and cursor left aside)
// and resolves its domain and tags into IDs (ResolveFilter). none says the filter matches no
// link (it names a tag the workspace has not).
func (s *Service) MatchFilter(ctx context.Context, workspaceID int64, f Filter) (_ Filter, none bool, err error) {
	f.Sort, f.After, f.Days, f.Limit = SortNewest, nil, nil, 1
	f, match, err := s.ResolveFilter(ctx, workspaceID, f)
	return f, err == nil && !match, err
}

// CheckBulkSet checks a bulk edit's change as BulkUpdate does, making the tags it adds that the
// workspace lacks.
func (s *Service) CheckBulkSet(ctx context.Context, workspaceID int64, set BulkSet) (BulkEdit, error) {
	return s.bulkEdit(ctx, workspaceID, set)
}
