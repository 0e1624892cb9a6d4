package redis

import (
	"context"
	"time"

	"github.com/go-redis/redis_rate/v10"
	goredis "github.com/redis/go-redis/v9"

	"github.com/shortlink/shortlink/backend/auth"
)

// Buckets implements auth.Buckets: GCRA budgets (redis_rate's scripts) and flags, under the
// deployment's prefix.
type Buckets struct {
	c    *Client
	rate *redis_rate.Limiter
}

// NewBuckets returns the rate-limit budgets kept in c.
func NewBuckets(c *Client) *Buckets {
	return &Buckets{c: c, rate: redis_rate.NewLimiter(prefixed{c.rdb, c.prefix})}
}

func rateLimit(l auth.Limit) redis_rate.Limit {
	return redis_rate.Limit{Rate: l.Rate, Burst: l.Burst, Period: l.Period}
}

func grant(r *redis_rate.Result) auth.Grant {
	return auth.Grant{Allowed: r.Allowed, Remaining: r.Remaining, RetryAfter: r.RetryAfter, ResetAfter: r.ResetAfter}
}

// AllowAtMost implements auth.Buckets.
func (b *Buckets) AllowAtMost(ctx context.Context, key string, limit auth.Limit, n int) (auth.Grant, error) {
	res, err := b.rate.AllowAtMost(ctx, key, rateLimit(limit), n)
	if err != nil {
		return auth.Grant{}, err
	}
	return grant(res), nil
}

// AllowN implements auth.Buckets.
func (b *Buckets) AllowN(ctx context.Context, key string, limit auth.Limit, n int) (auth.Grant, error) {
	res, err := b.rate.AllowN(ctx, key, rateLimit(limit), n)
	if err != nil {
		return auth.Grant{}, err
	}
	return grant(res), nil
}

// Reset implements auth.Buckets.
func (b *Buckets) Reset(ctx context.Context, key string) error { return b.rate.Reset(ctx, key) }

// Mark implements auth.Buckets.
func (b *Buckets) Mark(ctx context.Context, key string, ttl time.Duration) error {
	return b.c.rdb.Set(ctx, b.c.Key(key), "1", ttl).Err()
}

// Marked implements auth.Buckets.
func (b *Buckets) Marked(ctx context.Context, key string) (bool, error) {
	n, err := b.c.rdb.Exists(ctx, b.c.Key(key)).Result()
	return n > 0, err
}

// prefixed puts the budgets' keys inside the deployment's namespace: redis_rate starts every
// key with "rate:", so the prefix is put in front of that.
type prefixed struct {
	*goredis.Client
	prefix string
}

func (p prefixed) keys(keys []string) []string {
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = p.prefix + k
	}
	return out
}

func (p prefixed) Eval(ctx context.Context, script string, keys []string, args ...any) *goredis.Cmd {
	return p.Client.Eval(ctx, script, p.keys(keys), args...)
}

func (p prefixed) EvalSha(ctx context.Context, sha1 string, keys []string, args ...any) *goredis.Cmd {
	return p.Client.EvalSha(ctx, sha1, p.keys(keys), args...)
}

func (p prefixed) EvalRO(ctx context.Context, script string, keys []string, args ...any) *goredis.Cmd {
	return p.Client.EvalRO(ctx, script, p.keys(keys), args...)
}

func (p prefixed) EvalShaRO(ctx context.Context, sha1 string, keys []string, args ...any) *goredis.Cmd {
	return p.Client.EvalShaRO(ctx, sha1, p.keys(keys), args...)
}

func (p prefixed) Del(ctx context.Context, keys ...string) *goredis.IntCmd {
	return p.Client.Del(ctx, p.keys(keys)...)
}
