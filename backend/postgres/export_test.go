package postgres

import (
	"github.com/shortlink/shortlink/backend/link"
	"github.com/shortlink/shortlink/backend/moderation"
)

// PendingQueueQuery is the statement, and its arguments, of a page of the queue of links
// waiting for their first review.
func PendingQueueQuery(after moderation.QueueCursor, limit int) (string, []any) {
	return pendingQueueQuery(after, limit)
}

// ListQuery is the statement, and its arguments, of a page of a workspace's links.
// manyTagged says the filter's tag has many links (List counts them); the search walks the
// links, as it does when its text is common.
func ListQuery(workspaceID int64, f link.Filter, manyTagged ...bool) (string, []any) {
	return listQuery(workspaceID, f, len(manyTagged) > 0 && manyTagged[0], nil, false)
}

// SetSearchCandidates sets how many links a search's index may find for s's list to sort
// them (more and it walks).
func (s *LinkStore) SetSearchCandidates(n int) { s.searchCandidates = n }

// SkipSearchSample has s's searches ask the search table (or walk) whatever the workspace's
// newest links hold, as in a workspace of many links none of the newest of which holds the text.
func (s *LinkStore) SkipSearchSample() { s.searchUnsampled = true }

// SetManyTagged sets how many links make a tag large (an order by visits walks the visit
// order rather than sorting the tag's links), until t ends.
func SetManyTagged(t interface{ Cleanup(func()) }, n int) {
	old := manyTagged
	manyTagged = n
	t.Cleanup(func() { manyTagged = old })
}

// AfterDueInsert has DueCreated call f between its insert of new due rows and its second look
// for reviews committed meanwhile.
func (s *Moderation) AfterDueInsert(f func()) { s.afterDueInsert = f }
