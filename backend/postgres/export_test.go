package postgres

import "github.com/shortlink/shortlink/backend/moderation"

// PendingQueueQuery is the statement, and its arguments, of a page of the queue of links
// waiting for their first review.
func PendingQueueQuery(after moderation.QueueCursor, limit int) (string, []any) {
	return pendingQueueQuery(after, limit)
}
