package auth

import (
	"context"
	"sync"
	"time"
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

// spendRound is one AllowAtMost call for n requests, and with lease set for a lease of tokens
// ahead too; waiters read res once done is closed.
type spendRound struct {
	n     int
	lease bool
	wait  time.Duration // for Redis's answer: redisWait, or guardWait for a Take
	done  chan struct{}
	res   Grant
	err   error
}

// spendShared takes one token of key's budget through Redis, coalesced with the other callers
// of that budget on this node; an error says Redis failed (the caller counts in-process). With
// leased set and a budget of leaseMinLimit or more, a token of this node's lease is spent
// instead when there is one, and the Redis calls take a lease.
func (l *Limiter) spendShared(ctx context.Context, key string, limit Limit, leased bool) (Budget, error) {
	wait := l.redisWait
	if !leased {
		wait = guardWait
	}
	leased = leased && limit.Burst >= leaseMinLimit
	if leased {
		if b, ok := l.leases.spend(key, limit, time.Now()); ok {
			return b, nil
		}
	}
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
		r := &spendRound{n: 1, lease: leased, wait: wait, done: make(chan struct{})}
		l.runRound(ctx, key, limit, r)
		return budgetOf(r, 0, limit)
	}
	r := k.next
	if r == nil {
		r = &spendRound{lease: leased, wait: wait, done: make(chan struct{})}
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
func (l *Limiter) runRound(ctx context.Context, key string, limit Limit, r *spendRound) {
	ahead := 0
	if r.lease {
		ahead = l.leases.size(key, limit, time.Now())
	}
	r.res, r.err = l.allowRedis(ctx, key, limit, r.n+ahead, false, r.wait)
	if r.err == nil && r.lease && r.res.Allowed > r.n {
		l.leases.fill(key, r.res.Allowed-r.n, r.res, time.Now())
	}
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

// budgetOf is what the i-th caller of round r learns: the first Allowed callers pass. The
// tokens of a lease taken with them come after them, so Remaining counts those as left.
// (Callers are 0 to r.n-1; Allowed may be larger when a lease was taken.)
func budgetOf(r *spendRound, i int, limit Limit) (Budget, error) {
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

// Leases of the API budgets (Spend). A budget of leaseMinLimit requests a period or more is
// counted in Redis ahead of its requests: a Redis call for the requests waiting on a node
// also takes a lease of tokens for that node's next requests, which spend them without a Redis
// call. A lease is sized to about 2*leaseSpan of the node's requests of that budget in the
// recent past, at most limit/leaseShare and leaseMax tokens, so a steady load calls Redis
// about every 2*leaseSpan per node and a quiet budget takes no lease at all. Tokens not spent
// within leaseAge of being taken are dropped.
//
// The slack this gives, across any number of nodes:
//   - leased tokens are taken from the shared budget when leased, so the nodes together never
//     let through more requests than Redis granted tokens;
//   - a request may pass up to leaseAge after its token was taken, so over any span of time
//     at most limit*leaseAge/period requests more pass than the budget alone allows in it
//     (for a minute's budget: a sixtieth of it);
//   - a node may refuse while other nodes still hold up to limit/leaseShare unspent tokens
//     each, until they spend them or drop them (leaseAge), and a dropped token is lost to the
//     budget until it refills;
//   - RateLimit-Remaining on one node does not see the other nodes' requests of the last
//     leaseAge at most.
const (
	leaseMinLimit = 200
	leaseShare    = 100
	leaseMax      = 1000
	leaseSpan     = 25 * time.Millisecond
	leaseAge      = time.Second
)

// leases are this node's leases and recent demand, by budget key.
type leases struct {
	mu   sync.Mutex
	keys map[string]*lease
}

// lease is one budget's tokens taken ahead and its demand on this node.
type lease struct {
	left      int           // tokens taken ahead and not spent yet
	remaining int           // the budget's Remaining in Redis once they were taken
	reset     time.Duration // its ResetAfter then
	taken     time.Time     // when the oldest unspent tokens were taken
	count     int           // requests of the budget on this node since the last Redis call
	since     time.Time     // when that call was made
}

// get returns key's lease, made when missing; ls.mu is held.
func (ls *leases) get(key string, now time.Time) *lease {
	if ls.keys == nil {
		ls.keys = map[string]*lease{}
	}
	le := ls.keys[key]
	if le == nil {
		if len(ls.keys) >= localMax {
			clear(ls.keys)
		}
		// As if the last call were leaseAge ago: one request is no demand worth a lease.
		le = &lease{since: now.Add(-leaseAge)}
		ls.keys[key] = le
	}
	return le
}

// spend takes a token of key's lease, if it holds one young enough, and tells what is left of
// the budget as this node knows it; it counts the request as demand either way.
func (ls *leases) spend(key string, limit Limit, now time.Time) (Budget, bool) {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	le := ls.get(key, now)
	le.count++
	if le.left == 0 {
		return Budget{}, false
	}
	age := now.Sub(le.taken)
	if age >= leaseAge {
		le.left = 0
		return Budget{}, false
	}
	le.left--
	perToken := limit.Period / time.Duration(limit.Rate)
	// Not full again before this request's token is back: never "now" (0) with one spent.
	reset := max(le.reset-age-time.Duration(le.left)*perToken, time.Nanosecond)
	return Budget{Limit: limit.Burst, Remaining: le.remaining + le.left, Reset: reset, Allowed: true}, true
}

// size is the lease the next Redis call of key's budget takes: about 2*leaseSpan of the
// demand since the last call. It starts the demand count afresh.
func (ls *leases) size(key string, limit Limit, now time.Time) int {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	le := ls.get(key, now)
	n := 2 * time.Duration(le.count) * leaseSpan / max(now.Sub(le.since), leaseSpan)
	le.count, le.since = 0, now
	return min(int(n), limit.Burst/leaseShare, leaseMax)
}

// fill adds n tokens taken ahead by the call that answered res.
func (ls *leases) fill(key string, n int, res Grant, now time.Time) {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	le := ls.get(key, now)
	if le.left == 0 || now.Sub(le.taken) >= leaseAge {
		le.left, le.taken = 0, now
	}
	le.left += n
	le.remaining = res.Remaining
	le.reset = max(res.ResetAfter, 0)
}
