// What a bulk job (backend/bulkjob) asks of the link service: a listing's filter checked and
// resolved, and a bulk edit's change checked (docs/api.md#bulk-jobs).

package link

import "context"

// MatchFilter checks a listing's filter as List does (its order, page and cursor left aside)
// and resolves its domain and tags into IDs. none says the filter matches no link (it names a
// tag the workspace has not).
func (s *Service) MatchFilter(ctx context.Context, workspaceID int64, f Filter) (_ Filter, none bool, err error) {
	f.Sort, f.After, f.Days, f.Limit = SortNewest, nil, nil, 1
	if err := checkFilter(f); err != nil {
		return f, false, err
	}
	f.DomainID = nil
	if f.Domain != "" {
		id, err := s.domainID(ctx, workspaceID, f.Domain)
		if err != nil {
			return f, false, err
		}
		f.DomainID = &id
	}
	f.TagID, f.AlsoTagIDs = nil, nil
	if f.Tag == "" && len(f.AlsoTags) > 0 {
		f.Tag, f.AlsoTags = f.AlsoTags[0], f.AlsoTags[1:]
	}
	if f.Tag != "" {
		ids, err := s.tagIDs(ctx, workspaceID, append([]string{f.Tag}, f.AlsoTags...))
		if err != nil {
			return f, false, err
		}
		if ids == nil {
			return f, true, nil
		}
		f.TagID, f.AlsoTagIDs = &ids[0], ids[1:]
	}
	return f, false, nil
}

// CheckBulkSet checks a bulk edit's change as BulkUpdate does, making the tags it adds that the
// workspace lacks.
func (s *Service) CheckBulkSet(ctx context.Context, workspaceID int64, set BulkSet) (BulkEdit, error) {
	return s.bulkEdit(ctx, workspaceID, set)
}
