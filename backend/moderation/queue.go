// Package moderation reviews the destinations of links (docs/moderation.md). This file is the queue of
// due reviews: a Redis sorted set, key `<prefix>moderation:due`, whose members are link IDs in
// decimal and whose scores are the times the reviews fall due, in Unix milliseconds. What is
// due is recorded first in PostgreSQL (table moderation_due), in the transaction that made it
// due, so the set can be rebuilt from that table after Redis loses it (Rebuild).
//
// Workers Claim due links atomically: a claimed member stays in the set with its score moved
// past the visibility timeout, so a worker that dies holding it gives it back when that time
// comes, and no two workers hold one link at once. A finished review removes the member
// (Forget); a failed one moves it to a later time (Later).
package moderation

import (
	"context"
	"fmt"
	"strconv"
	"time"
)

// DueKey is the key of the sorted set of due reviews under the deployment's Redis prefix.
func DueKey(prefix string) string { return prefix + "moderation:due" }

// DueSet is the sorted set of due reviews as Redis keeps it: link IDs in decimal, scored by
// the times they fall due.
type DueSet interface {
	// Add puts the reviews in the set; with keep set, a link already there keeps its time.
	Add(ctx context.Context, due []Due, keep bool) error
	// Claim takes up to n members due at by and moves them to until, in one step, so that no
	// two callers take the same member.
	Claim(ctx context.Context, by, until time.Time, n int) ([]string, error)
	// Remove takes a member out of the set.
	Remove(ctx context.Context, member string) error
	// Len is how many members the set holds.
	Len(ctx context.Context) (int64, error)
	// CountDue is how many members are due at by.
	CountDue(ctx context.Context, by time.Time) (int64, error)
}

// Queue is the queue of due reviews.
type Queue struct {
	set DueSet
}

// NewQueue returns the queue kept in set.
func NewQueue(set DueSet) *Queue { return &Queue{set: set} }

// Enqueue makes the links' reviews due at the given time, for their visits (a milestone): they
// go ahead of new links (Lead). A link already queued keeps its earlier due time: queueing
// twice is queueing once.
func (q *Queue) Enqueue(ctx context.Context, at time.Time, linkIDs ...int64) error {
	return q.enqueue(ctx, at, "visits", linkIDs)
}

// Request is Enqueue for a moderator's request or an appeal, which go first.
func (q *Queue) Request(ctx context.Context, at time.Time, linkIDs ...int64) error {
	return q.enqueue(ctx, at, "requested", linkIDs)
}

func (q *Queue) enqueue(ctx context.Context, at time.Time, reason string, linkIDs []int64) error {
	if len(linkIDs) == 0 {
		return nil
	}
	due := make([]Due, len(linkIDs))
	for i, id := range linkIDs {
		due[i] = Due{LinkID: id, At: at.Add(-Lead(reason))}
	}
	if err := q.set.Add(ctx, due, true); err != nil {
		return fmt.Errorf("queue reviews: %w", err)
	}
	return nil
}

// Claim takes up to n links whose reviews are due at now, for visibility: until then no other
// worker gets them, and after it they are due again unless Forget or Later was called.
func (q *Queue) Claim(ctx context.Context, now time.Time, visibility time.Duration, n int) ([]int64, error) {
	res, err := q.set.Claim(ctx, now, now.Add(visibility), n)
	if err != nil {
		return nil, fmt.Errorf("claim reviews: %w", err)
	}
	ids := make([]int64, 0, len(res))
	for _, m := range res {
		id, err := strconv.ParseInt(m, 10, 64)
		if err != nil {
			// Not a link: drop it, it would be claimed forever.
			_ = q.set.Remove(ctx, m)
			continue
		}
		ids = append(ids, id)
	}
	return ids, nil
}

// Forget removes a link from the set: its review is done.
func (q *Queue) Forget(ctx context.Context, linkID int64) error {
	if err := q.set.Remove(ctx, strconv.FormatInt(linkID, 10)); err != nil {
		return fmt.Errorf("forget review: %w", err)
	}
	return nil
}

// Later makes a link due again at the given time, whether or not it is in the set.
func (q *Queue) Later(ctx context.Context, linkID int64, at time.Time) error {
	if err := q.set.Add(ctx, []Due{{LinkID: linkID, At: at}}, false); err != nil {
		return fmt.Errorf("postpone review: %w", err)
	}
	return nil
}

// Len is how many links the set holds, claimed or not.
func (q *Queue) Len(ctx context.Context) (int64, error) {
	n, err := q.set.Len(ctx)
	if err != nil {
		return 0, fmt.Errorf("count reviews: %w", err)
	}
	return n, nil
}

// DueNow is how many links are due at now and not claimed.
func (q *Queue) DueNow(ctx context.Context, now time.Time) (int64, error) {
	n, err := q.set.CountDue(ctx, now)
	if err != nil {
		return 0, fmt.Errorf("count due reviews: %w", err)
	}
	return n, nil
}

// Due is a link recorded as due in PostgreSQL.
type Due struct {
	LinkID int64
	At     time.Time
	// Reason and WorkspaceID place it in the queue (Prioritise); "" and 0 when unknown.
	Reason      string
	WorkspaceID int64
}

// Rebuild adds to the set every link due in PostgreSQL that it lacks (a Redis that lost the
// set, a queueing that failed after its commit); links it holds keep their scores, so claimed
// ones stay claimed.
func (q *Queue) Rebuild(ctx context.Context, due []Due) error {
	due = Prioritise(due)
	for len(due) > 0 {
		n := min(len(due), 1000)
		if err := q.set.Add(ctx, due[:n], true); err != nil {
			return fmt.Errorf("rebuild review queue: %w", err)
		}
		due = due[n:]
	}
	return nil
}
