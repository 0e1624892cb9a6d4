package redis

import (
	"context"
	"strconv"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/shortlink/shortlink/backend/moderation"
)

// ReviewQueue implements moderation.DueSet: a sorted set, key moderation.DueKey, whose scores
// are due times in Unix milliseconds.
type ReviewQueue struct {
	c   *Client
	key string
}

// NewReviewQueue returns the set of due reviews kept in c.
func NewReviewQueue(c *Client) *ReviewQueue {
	return &ReviewQueue{c: c, key: moderation.DueKey(c.prefix)}
}

// Add implements moderation.DueSet (ZADD, ZADD NX with keep).
func (q *ReviewQueue) Add(ctx context.Context, due []moderation.Due, keep bool) error {
	members := make([]goredis.Z, len(due))
	for i, d := range due {
		members[i] = goredis.Z{Score: float64(d.At.UnixMilli()), Member: strconv.FormatInt(d.LinkID, 10)}
	}
	if keep {
		return q.c.rdb.ZAddNX(ctx, q.key, members...).Err()
	}
	return q.c.rdb.ZAdd(ctx, q.key, members...).Err()
}

// claimScript takes up to ARGV[3] members due by ARGV[1] (ms) and moves each to ARGV[2] (ms):
// one step, so that two workers never take the same member.
var claimScript = goredis.NewScript(`
local due = redis.call('ZRANGE', KEYS[1], '-inf', ARGV[1], 'BYSCORE', 'LIMIT', 0, tonumber(ARGV[3]))
for _, m in ipairs(due) do
	redis.call('ZADD', KEYS[1], 'XX', ARGV[2], m)
end
return due`)

// Claim implements moderation.DueSet.
func (q *ReviewQueue) Claim(ctx context.Context, by, until time.Time, n int) ([]string, error) {
	return claimScript.Run(ctx, q.c.rdb, []string{q.key}, by.UnixMilli(), until.UnixMilli(), n).StringSlice()
}

// Remove implements moderation.DueSet.
func (q *ReviewQueue) Remove(ctx context.Context, member string) error {
	return q.c.rdb.ZRem(ctx, q.key, member).Err()
}

// Len implements moderation.DueSet.
func (q *ReviewQueue) Len(ctx context.Context) (int64, error) {
	return q.c.rdb.ZCard(ctx, q.key).Result()
}

// CountDue implements moderation.DueSet.
func (q *ReviewQueue) CountDue(ctx context.Context, by time.Time) (int64, error) {
	return q.c.rdb.ZCount(ctx, q.key, "-inf", strconv.FormatInt(by.UnixMilli(), 10)).Result()
}
