package link

import "context"

// ResolveFilter checks a listing's filter (as List does, f.Sort "" being SortNewest) and
// resolves its domain and tag names into DomainID, TagID and AlsoTagIDs. match is false when
// no link can match it: a tag the workspace has not. The links export reads the same filter
// (docs/architecture.md#statistics).
func (s *Service) ResolveFilter(ctx context.Context, workspaceID int64, f Filter) (_ Filter, match bool, err error) {
	if f.Sort == "" {
		f.Sort = SortNewest
	}
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
			return f, false, nil // a tag the workspace has not: no link carries it
		}
		f.TagID, f.AlsoTagIDs = &ids[0], ids[1:]
	}
	return f, true, nil
}
