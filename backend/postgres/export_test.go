package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/shortlink/shortlink/backend/link"
	"github.com/shortlink/shortlink/backend/moderation"
)

// PendingQueueQuery is the statement, and its arguments, of a page of the queue of links
// waiting for their first review.
func PendingQueueQuery(after moderation.QueueCursor, limit int) (string, []any) {
	return pendingQueueQuery(after, limit)
}

// ListQuery is the statement, and its arguments, of a page of a workspace's links; the search
// walks the links, as it does when its text is common.
func ListQuery(workspaceID int64, f link.Filter) (string, []any) {
	return listQuery(workspaceID, f, matching{}, nil, searchWay{})
}

// SetSearchCandidates sets how many links a search's index may find for s's list to sort
// them (more and it walks).
func (s *LinkStore) SetSearchCandidates(n int) { s.searchCandidates = n }

// FindSearches has s's searches by ID ask link_search_gin for their links rather than walk
// link_search_order (migration 00066), as where that index is missing.
func (s *LinkStore) FindSearches() { s.searchUnordered = true }

// IndexTagSearches has s's searches under a tag ask the search table however few links the tag
// has, as under a tag of many.
func (s *LinkStore) IndexTagSearches() { s.searchTagsIndexed = true }

// SkipSearchSample has s's searches ask the search table (or walk) whatever the workspace's
// newest links hold, as in a workspace of many links none of the newest of which holds the text.
func (s *LinkStore) SkipSearchSample() { s.searchUnsampled = true }

// SetManyTagged sets how many links of a tag are counted at most when a listing picks the
// tag of fewest links among several, until t ends.
func SetManyTagged(t interface{ Cleanup(func()) }, n int) {
	old := manyTagged
	manyTagged = n
	t.Cleanup(func() { manyTagged = old })
}

// AfterDueInsert has DueCreated call f between its insert of new due rows and its second look
// for reviews committed meanwhile.
func (s *Moderation) AfterDueInsert(f func()) { s.afterDueInsert = f }

// SetManyMatch sets how many links in a status other than active, or on a domain, make an order
// by visits under that filter walk the workspace's visit order, until t ends.
func SetManyMatch(t interface{ Cleanup(func()) }, n int) {
	old := manyMatch
	manyMatch = n
	t.Cleanup(func() { manyMatch = old })
}

// SetHashMatch sets how many links in a status other than active an order by visits keeps by
// their IDs at most, until t ends.
func SetHashMatch(t interface{ Cleanup(func()) }, n int) {
	old := hashMatch
	hashMatch = n
	t.Cleanup(func() { hashMatch = old })
}

// ListSettings are the settings jit, plan_cache_mode and max_parallel_workers_per_gather as a
// listing's statement runs under them (queryList).
func (s *LinkStore) ListSettings(ctx context.Context) (jit, planCache, workers string, err error) {
	err = s.queryList(ctx, `SELECT current_setting('jit'), current_setting('plan_cache_mode'), current_setting('max_parallel_workers_per_gather')`, nil, func(rows pgx.Rows) error {
		return rows.Scan(&jit, &planCache, &workers)
	})
	return jit, planCache, workers, err
}

// RunListStatement runs query as a listing's statement runs (queryList), its rows read and
// dropped.
func (s *LinkStore) RunListStatement(ctx context.Context, query string) error {
	return s.queryList(ctx, query, nil, func(pgx.Rows) error { return nil })
}
