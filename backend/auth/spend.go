package auth

import (
	"context"
	"sync"
	"time"

	"github.com/go-redis/redis_rate/v10"
)

// spends coalesces the Spend calls of one budget made on this node while a call of it is in
// Redis: they go as one AllowAtMost call of as many tokens, which lets through exactly as many
// as one call each would have (the first ones asked). A busy workspace's API requests then cost
// a Redis round trip per round rather than per request.
type spends struct {
	mu   sync.Mutex
	keys map[string]*spendKey
}

// spendKey is one budget's state: whether a call is in Redis, and the next round forming.
type spendKey struct {
	busy bool
	next *spendRound
}

// spendRound is one AllowAtMost call for n requests; waiters read res once done is closed.
type spendRound struct {
	n    int
	done chan struct{}
	res  *redis_rate.Result
	err  error
}

// spendShared takes one token of key's budget through Redis, coalesced with the other callers
// of that budget on this node; an error says Redis failed (the caller counts in-process).
func (l *Limiter) spendShared(ctx context.Context, key string, limit redis_rate.Limit) (Budget, error) {
	l.spends.mu.Lock()
	if l.spends.keys == nil {
		l.spends.keys = map[string]*spendKey{}
	}
	k := l.spends.keys[key]
	if k == nil {
		k = &spendKey{}
		l.spends.keys[key] = k
	}
	if !k.busy {
		// Nobody is in Redis for this budget: go alone, now.
		k.busy = true
		l.spends.mu.Unlock()
		r := &spendRound{n: 1, done: make(chan struct{})}
		l.runRound(ctx, key, limit, r)
		return budgetOf(r, 0, limit)
	}
	r := k.next
	if r == nil {
		r = &spendRound{done: make(chan struct{})}
		k.next = r
	}
	i := r.n
	r.n++
	l.spends.mu.Unlock()
	select {
	case <-r.done:
		return budgetOf(r, i, limit)
	case <-ctx.Done():
		return Budget{}, ctx.Err()
	}
}

// runRound makes r's call, then starts the round that formed meanwhile, if any, or marks the
// budget idle.
func (l *Limiter) runRound(ctx context.Context, key string, limit redis_rate.Limit, r *spendRound) {
	r.res, r.err = l.allowRedis(ctx, key, limit, r.n)
	close(r.done)
	l.spends.mu.Lock()
	k := l.spends.keys[key]
	next := k.next
	k.next = nil
	if next == nil {
		k.busy = false
		delete(l.spends.keys, key)
	}
	l.spends.mu.Unlock()
	if next != nil {
		// Its callers wait on it, not on this one's caller, who goes on at once.
		go l.runRound(context.WithoutCancel(ctx), key, limit, next)
	}
}

// budgetOf is what the i-th caller of round r learns: the first Allowed callers pass.
func budgetOf(r *spendRound, i int, limit redis_rate.Limit) (Budget, error) {
	if r.err != nil {
		return Budget{}, r.err
	}
	b := Budget{Limit: limit.Burst, Remaining: r.res.Remaining, Reset: max(r.res.ResetAfter, 0),
		RetryAfter: max(r.res.RetryAfter, 0), Allowed: i < r.res.Allowed}
	if b.Allowed {
		// As if the callers had gone one by one: the later ones left less.
		b.Remaining += r.res.Allowed - 1 - i
		b.RetryAfter = 0
	} else if b.RetryAfter == 0 {
		b.RetryAfter = time.Duration(float64(limit.Period) / float64(limit.Rate))
	}
	return b, nil
}
