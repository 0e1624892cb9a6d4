package auth

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-redis/redis_rate/v10"
	goredis "github.com/redis/go-redis/v9"

	"github.com/shortlink/shortlink/backend/apperr"
)

// Login budgets: per email against guessing one account's password, per client address
// against trying one password on many accounts. GCRA: the full burst at once, then one
// attempt every Period/Rate.
var (
	perEmail = redis_rate.Limit{Rate: 10, Burst: 10, Period: 15 * time.Minute}
	perIP    = redis_rate.Limit{Rate: 50, Burst: 50, Period: 15 * time.Minute}
)

// redisPause is how long the limiter stays in-process after Redis failed, so that a dead
// Redis costs one timeout now and then rather than one per login.
const redisPause = 10 * time.Second

// Limiter counts attempts (logins, and whatever else Take is given) in Redis, shared by every
// node. When Redis fails it counts in-process instead: per node, but never letting every
// attempt through.
type Limiter struct {
	redis      *redis_rate.Limiter
	prefix     string
	log        *slog.Logger
	redisAfter atomic.Int64 // unix nanoseconds before which Redis is not tried

	mu    sync.Mutex
	local map[string]*bucket
}

// NewLimiter returns a limiter keeping its counters under prefix in rdb; rdb may be nil.
func NewLimiter(rdb *goredis.Client, prefix string, log *slog.Logger) *Limiter {
	l := &Limiter{prefix: prefix, log: log, local: map[string]*bucket{}}
	if rdb != nil {
		l.redis = redis_rate.NewLimiter(prefixed{rdb, prefix})
	}
	return l
}

// Allow takes one attempt for the email and one for the address, or answers a
// *RateLimitError. An empty email counts against the address only.
func (l *Limiter) Allow(ctx context.Context, email, ip string) error {
	type check struct {
		key   string
		limit redis_rate.Limit
	}
	checks := []check{{"login:ip:" + digest(ip), perIP}}
	if email = strings.ToLower(strings.TrimSpace(email)); email != "" {
		// The email first: a refused guess at one account spends none of the address's budget.
		checks = append([]check{{"login:email:" + digest(email), perEmail}}, checks...)
	}
	for _, c := range checks {
		if wait, ok := l.allow(ctx, c.key, c.limit); !ok {
			return &RateLimitError{RetryAfter: wait}
		}
	}
	return nil
}

// Take takes one attempt from the budget named key, of n attempts per period (all n at once,
// then one every period/n), or answers a *RateLimitError saying "too many <what>". key must
// hold no secret or personal data: it is a Redis key name.
func (l *Limiter) Take(ctx context.Context, key, what string, n int, period time.Duration) error {
	if wait, ok := l.allow(ctx, key, redis_rate.Limit{Rate: n, Burst: n, Period: period}); !ok {
		return &RateLimitError{RetryAfter: wait, What: what}
	}
	return nil
}

// digest keeps addresses and emails out of Redis key names (and so out of its tooling).
func digest(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:12])
}

func (l *Limiter) allow(ctx context.Context, key string, limit redis_rate.Limit) (time.Duration, bool) {
	if l.redis != nil && time.Now().UnixNano() >= l.redisAfter.Load() {
		res, err := l.redis.Allow(ctx, key, limit)
		if err == nil {
			return res.RetryAfter, res.Allowed > 0
		}
		if ctx.Err() == nil {
			l.redisAfter.Store(time.Now().Add(redisPause).UnixNano())
			l.log.Warn("rate limiter: redis failed, counting in-process", "err", err, "for", redisPause)
		}
	}
	return l.allowLocal(key, limit, time.Now())
}

// bucket is a token bucket: Burst attempts, refilled at Rate per Period.
type bucket struct {
	tokens float64
	at     time.Time
}

func (l *Limiter) allowLocal(key string, limit redis_rate.Limit, now time.Time) (time.Duration, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	b, ok := l.local[key]
	if !ok {
		if len(l.local) >= 100_000 {
			// Bound memory. Starting every counter afresh is cheap for an attacker only after
			// they have spent 100,000 fresh keys.
			clear(l.local)
		}
		b = &bucket{tokens: float64(limit.Burst), at: now}
		l.local[key] = b
	}
	perToken := limit.Period / time.Duration(limit.Rate)
	b.tokens = min(float64(limit.Burst), b.tokens+float64(now.Sub(b.at))/float64(perToken))
	b.at = now
	if b.tokens < 1 {
		return time.Duration((1 - b.tokens) * float64(perToken)), false
	}
	b.tokens--
	return 0, true
}

// prefixed puts the limiter's keys inside the deployment's namespace: redis_rate starts
// every key with "rate:", so the prefix is put in front of that.
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

// RateLimitError is a rate_limited error that says when to come back.
type RateLimitError struct {
	RetryAfter time.Duration
	// What there were too many of; "" is login attempts.
	What string
}

func (e *RateLimitError) what() string {
	if e.What == "" {
		return "login attempts"
	}
	return e.What
}

func (e *RateLimitError) Error() string { return "rate_limited: too many " + e.what() }

// Unwrap lets apperr see the code and message.
func (e *RateLimitError) Unwrap() error {
	return apperr.Errorf(apperr.RateLimited, "too many %s: try again in %s", e.what(), retryText(e.RetryAfter))
}

// RetrySeconds is the Retry-After header's value: whole seconds, at least 1.
func (e *RateLimitError) RetrySeconds() string {
	return strconv.Itoa(max(1, int((e.RetryAfter+time.Second-1)/time.Second)))
}

func retryText(d time.Duration) string {
	if d <= time.Second {
		return "a second"
	}
	return d.Round(time.Second).String()
}
