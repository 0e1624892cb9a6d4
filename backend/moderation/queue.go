// Package moderation reviews the destinations of links (SPEC §11). This file is the queue of
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

	goredis "github.com/redis/go-redis/v9"
)

// DueKey is the key of the sorted set of due reviews under the deployment's Redis prefix.
func DueKey(prefix string) string { return prefix + "moderation:due" }

// Queue is the sorted set of due reviews.
type Queue struct {
	rdb *goredis.Client
	key string
}

// NewQueue returns the queue under prefix in rdb.
func NewQueue(rdb *goredis.Client, prefix string) *Queue {
	return &Queue{rdb: rdb, key: DueKey(prefix)}
}

// Enqueue makes the links' reviews due at the given time. A link already queued keeps its
// earlier due time (ZADD NX): queueing twice is queueing once.
func (q *Queue) Enqueue(ctx context.Context, at time.Time, linkIDs ...int64) error {
	if len(linkIDs) == 0 {
		return nil
	}
	members := make([]goredis.Z, len(linkIDs))
	for i, id := range linkIDs {
		members[i] = goredis.Z{Score: float64(at.UnixMilli()), Member: strconv.FormatInt(id, 10)}
	}
	if err := q.rdb.ZAddNX(ctx, q.key, members...).Err(); err != nil {
		return fmt.Errorf("queue reviews: %w", err)
	}
	return nil
}

// claimScript takes up to ARGV[3] members due by ARGV[1] (ms) and moves each to ARGV[2] (ms):
// one step, so that two workers never take the same member.
var claimScript = goredis.NewScript(`
local due = redis.call('ZRANGE', KEYS[1], '-inf', ARGV[1], 'BYSCORE', 'LIMIT', 0, tonumber(ARGV[3]))
for _, m in ipairs(due) do
	redis.call('ZADD', KEYS[1], 'XX', ARGV[2], m)
end
return due`)

// Claim takes up to n links whose reviews are due at now, for visibility: until then no other
// worker gets them, and after it they are due again unless Forget or Later was called.
func (q *Queue) Claim(ctx context.Context, now time.Time, visibility time.Duration, n int) ([]int64, error) {
	res, err := claimScript.Run(ctx, q.rdb, []string{q.key},
		now.UnixMilli(), now.Add(visibility).UnixMilli(), n).StringSlice()
	if err != nil {
		return nil, fmt.Errorf("claim reviews: %w", err)
	}
	ids := make([]int64, 0, len(res))
	for _, m := range res {
		id, err := strconv.ParseInt(m, 10, 64)
		if err != nil {
			// Not a link: drop it, it would be claimed forever.
			q.rdb.ZRem(ctx, q.key, m)
			continue
		}
		ids = append(ids, id)
	}
	return ids, nil
}

// Forget removes a link from the set: its review is done.
func (q *Queue) Forget(ctx context.Context, linkID int64) error {
	if err := q.rdb.ZRem(ctx, q.key, strconv.FormatInt(linkID, 10)).Err(); err != nil {
		return fmt.Errorf("forget review: %w", err)
	}
	return nil
}

// Later makes a link due again at the given time, whether or not it is in the set.
func (q *Queue) Later(ctx context.Context, linkID int64, at time.Time) error {
	err := q.rdb.ZAdd(ctx, q.key, goredis.Z{Score: float64(at.UnixMilli()), Member: strconv.FormatInt(linkID, 10)}).Err()
	if err != nil {
		return fmt.Errorf("postpone review: %w", err)
	}
	return nil
}

// Len is how many links the set holds, claimed or not.
func (q *Queue) Len(ctx context.Context) (int64, error) {
	n, err := q.rdb.ZCard(ctx, q.key).Result()
	if err != nil {
		return 0, fmt.Errorf("count reviews: %w", err)
	}
	return n, nil
}

// DueNow is how many links are due at now and not claimed.
func (q *Queue) DueNow(ctx context.Context, now time.Time) (int64, error) {
	n, err := q.rdb.ZCount(ctx, q.key, "-inf", strconv.FormatInt(now.UnixMilli(), 10)).Result()
	if err != nil {
		return 0, fmt.Errorf("count due reviews: %w", err)
	}
	return n, nil
}

// Due is a link recorded as due in PostgreSQL.
type Due struct {
	LinkID int64
	At     time.Time
}

// Rebuild adds to the set every link due in PostgreSQL that it lacks (a Redis that lost the
// set, a queueing that failed after its commit); links it holds keep their scores, so claimed
// ones stay claimed.
func (q *Queue) Rebuild(ctx context.Context, due []Due) error {
	for len(due) > 0 {
		n := min(len(due), 1000)
		members := make([]goredis.Z, n)
		for i, d := range due[:n] {
			members[i] = goredis.Z{Score: float64(d.At.UnixMilli()), Member: strconv.FormatInt(d.LinkID, 10)}
		}
		if err := q.rdb.ZAddNX(ctx, q.key, members...).Err(); err != nil {
			return fmt.Errorf("rebuild review queue: %w", err)
		}
		due = due[n:]
	}
	return nil
}
