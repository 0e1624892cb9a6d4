// Package moderation reviews the destinations of links (SPEC §11). This file is the queue of
// due reviews: a Redis sorted set, key `<prefix>moderation:due`, whose members are link IDs in
// decimal and whose scores are the times the reviews fall due, in Unix milliseconds. What is
// due is recorded first in PostgreSQL (table moderation_due), in the transaction that made it
// due, so the set can be rebuilt from that table after Redis loses it.
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

// Queue adds links to the sorted set of due reviews.
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
