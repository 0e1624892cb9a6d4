package auth

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"log/slog"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/shortlink/shortlink/backend/apperr"
)

// Login budgets, GCRA: the full burst at once, then one attempt every Period/Rate. Every
// attempt takes a token from each budget before the password is checked, so concurrent
// guesses cannot slip past a count that is only written afterwards; a success gives its
// tokens back (Succeeded), so only failures are spent.
var (
	// perPair counts one address guessing one account's password: this is the budget that
	// stops guessing, about 240 guesses a day. A success starts it afresh.
	perPair = Limit{Rate: 10, Burst: 5, Period: time.Hour}
	// perAddress counts one address (an IPv6 /64) trying passwords on many accounts, and
	// its sign-ups. Its small burst also bounds how many password hashes one address can
	// have queued at once.
	perAddress = Limit{Rate: 60, Burst: 10, Period: time.Hour}
	// perEmail counts failed logins of one account from everywhere, against guessing from
	// many addresses: at most about 2,400 guesses a day. An attacker who spends it locks the
	// account out only for addresses it was never signed in from: an address that signed in
	// successfully in the last knownFor is let through this budget (still under the other
	// two), so the owner is not denied by someone else's guesses.
	perEmail = Limit{Rate: 100, Burst: 100, Period: time.Hour}
)

// knownFor is how long an address stays known for an account after a successful login.
const knownFor = 30 * 24 * time.Hour

// redisPause is how long the limiter stays in-process after Redis failed, so that a dead
// Redis costs one timeout now and then rather than one per login.
const redisPause = 10 * time.Second

// redisWait bounds how long a count waits for Redis: a Redis that hangs (paused, or
// unreachable without refusing) must not hold up an API request for the client's own read
// timeout (the client does not cut a read short at a context's deadline). Past it the limiter
// counts in-process for redisPause; the late answer, if any, is dropped.
const redisWait = 100 * time.Millisecond

// guardWait is redisWait for the budgets that guard a secret (password guesses at an account
// or a link, form answers), which Take counts: counted in-process, a budget is one per node,
// so an attacker spread over the nodes would get each node's. They are rare requests, and a
// busy machine's Redis may take longer than redisWait: they wait longer before counting
// in-process.
const guardWait = time.Second

// localMax bounds the in-process counters and known addresses. Starting every counter
// afresh is cheap for an attacker only after they have spent that many fresh keys.
const localMax = 100_000

// Limiter counts attempts (logins, and whatever else Take is given) in Redis, shared by every
// node. When Redis fails it counts in-process instead: per node, but never letting every
// attempt through.
type Limiter struct {
	buckets    Buckets // nil: count in-process only
	log        *slog.Logger
	redisAfter atomic.Int64 // unix nanoseconds before which Redis is not tried

	mu    sync.Mutex
	local map[string]*bucket
	known map[string]time.Time // pair key → until when the address is known for the email

	spends spends // concurrent spends of one budget, as one Redis call
	leases leases // tokens of the API budgets taken ahead from Redis (Spend)

	// redisWait is how long an API budget's count waits for Redis (the constant redisWait;
	// tests of exact counts on a loaded machine wait longer).
	redisWait time.Duration
}

// Limit is the size of a budget (GCRA): Burst attempts at once, then Rate every Period.
type Limit struct {
	Rate   int
	Burst  int
	Period time.Duration
}

// Grant is what the shared budgets answer to a take.
type Grant struct {
	// Allowed is how many of the tokens asked for were taken.
	Allowed int
	// Remaining is how many tokens the budget holds afterwards.
	Remaining int
	// RetryAfter is how long until one more token is there (<= 0 when one is).
	RetryAfter time.Duration
	// ResetAfter is how long until the budget is full (<= 0 when it is).
	ResetAfter time.Duration
}

// Buckets are the budgets every node shares (kept in Redis), and the flags of known addresses.
// Keys name no secret or personal data; the implementation puts them in the deployment's
// namespace.
type Buckets interface {
	// AllowAtMost takes up to n tokens of key's budget, as many as it holds.
	AllowAtMost(ctx context.Context, key string, limit Limit, n int) (Grant, error)
	// AllowN takes n tokens of key's budget if it holds them all; a negative n gives tokens
	// back.
	AllowN(ctx context.Context, key string, limit Limit, n int) (Grant, error)
	// Reset forgets key's budget: it is full again.
	Reset(ctx context.Context, key string) error
	// Mark sets the flag key for ttl.
	Mark(ctx context.Context, key string, ttl time.Duration) error
	// Marked reports whether the flag key is set.
	Marked(ctx context.Context, key string) (bool, error)
}

// NewLimiter returns a limiter keeping its counters in buckets; buckets may be nil, and the
// count then stays in-process.
func NewLimiter(buckets Buckets, log *slog.Logger) *Limiter {
	return &Limiter{buckets: buckets, log: log, local: map[string]*bucket{}, known: map[string]time.Time{}, redisWait: redisWait}
}

// check is one budget an attempt takes a token from.
type check struct {
	key   string
	limit Limit
}

// keys are the budgets of a login of email from ip: the pair, the address, the email.
func keys(email, ip string) (pair, address, mail check) {
	addr := AddressKey(ip)
	email = strings.ToLower(strings.TrimSpace(email))
	return check{"login:pair:" + digest(email+"\x00"+addr), perPair},
		check{"login:ip:" + digest(addr), perAddress},
		check{"login:email:" + digest(email), perEmail}
}

// Allow takes one login attempt of email from ip from the budgets of the pair, the address
// and the email, or answers a *RateLimitError and takes nothing. The email's budget does not
// stop an address the account signed in from before.
func (l *Limiter) Allow(ctx context.Context, email, ip string) error {
	pair, address, mail := keys(email, ip)
	// The pair first: a refused guess at one account spends none of the address's budget.
	taken := make([]check, 0, 3)
	for _, c := range []check{pair, address, mail} {
		wait, ok := l.take(ctx, c.key, c.limit)
		if !ok && c == mail && l.isKnown(ctx, pair.key) {
			continue
		}
		if !ok {
			for _, t := range taken {
				l.give(ctx, t.key, t.limit)
			}
			return &RateLimitError{RetryAfter: wait}
		}
		taken = append(taken, c)
	}
	return nil
}

// Succeeded tells the limiter that the attempt Allow let through signed in: the address and
// email get their tokens back, the pair starts afresh, and the address becomes known for the
// email.
func (l *Limiter) Succeeded(ctx context.Context, email, ip string) {
	pair, address, mail := keys(email, ip)
	l.give(ctx, address.key, address.limit)
	l.give(ctx, mail.key, mail.limit)
	l.reset(ctx, pair.key)
	l.remember(ctx, pair.key)
}

// Unchecked gives back the tokens of an attempt Allow let through whose password was never
// checked (the service was too busy): it was not a guess.
func (l *Limiter) Unchecked(ctx context.Context, email, ip string) {
	pair, address, mail := keys(email, ip)
	for _, c := range []check{pair, address, mail} {
		l.give(ctx, c.key, c.limit)
	}
}

// AllowSignup takes one attempt from the address's budget, or answers a *RateLimitError. A
// sign-up costs a password hash and tells whether an email is taken, and is never given back.
func (l *Limiter) AllowSignup(ctx context.Context, ip string) error {
	_, address, _ := keys("", ip)
	if wait, ok := l.take(ctx, address.key, address.limit); !ok {
		return &RateLimitError{RetryAfter: wait}
	}
	return nil
}

// Take takes one attempt from the budget named key, of n attempts per period (all n at once,
// then one every period/n), or answers a *RateLimitError saying "too many <what>". key must
// hold no secret or personal data: it is a Redis key name.
func (l *Limiter) Take(ctx context.Context, key, what string, n int, period time.Duration) error {
	if wait, ok := l.take(ctx, key, Limit{Rate: n, Burst: n, Period: period}); !ok {
		return &RateLimitError{RetryAfter: wait, What: what}
	}
	return nil
}

// Budget is what is left of a budget after Spend counted a request against it.
type Budget struct {
	// Limit is the budget's size: how many requests it lets through at once.
	Limit int
	// Remaining is how many more it lets through now.
	Remaining int
	// Reset is how long until the budget is full again.
	Reset time.Duration
	// RetryAfter is how long until the next request is let through when this one was not.
	RetryAfter time.Duration
	// Allowed says whether this request was let through (and counted).
	Allowed bool
}

// Spend takes one request from the budget named key, of n requests per period (all n at
// once, then one every period/n), and tells what is left of it: the API's rate limits, which
// announce their state on every answer. A refused request takes nothing. key must hold no
// secret or personal data (AddressName gives an address's).
//
// A budget of leaseMinLimit or more is counted in Redis a lease at a time (see leases): a
// node spends tokens it took ahead, so that a busy budget costs a Redis call every few dozen
// milliseconds rather than one per request.
func (l *Limiter) Spend(ctx context.Context, key string, n int, period time.Duration) Budget {
	return l.spend(ctx, key, Limit{Rate: n, Burst: n, Period: period}, true)
}

// SpendMore takes more tokens at once from the budget that Spend counts (key, of n requests per
// period), if it holds them all, and tells what is left of it: the rest of the cost of a
// request that makes the server do the work of several (docs/security.md, "Rate limits"). A
// request never costs more than the whole budget: more is cut to n-1, the tokens left once
// Spend took the request's first. Refused, it takes nothing; the tokens are taken from the
// shared budget itself, not from a node's lease.
func (l *Limiter) SpendMore(ctx context.Context, key string, n int, period time.Duration, more int) Budget {
	limit := Limit{Rate: n, Burst: n, Period: period}
	more = min(more, n-1)
	if more < 1 {
		return Budget{Limit: n, Allowed: true}
	}
	if l.useRedis() {
		res, err := l.allowRedis(ctx, key, limit, more, true, l.redisWait)
		if err == nil {
			b := Budget{Limit: n, Remaining: res.Remaining, Reset: max(res.ResetAfter, 0), Allowed: res.Allowed >= more}
			if !b.Allowed {
				b.RetryAfter = max(res.RetryAfter, time.Duration(float64(period)/float64(n)))
			}
			return b
		}
		l.redisFailed(ctx, err)
	}
	return l.spendLocalN(key, limit, more, time.Now())
}

// AddressName is how a client address appears in budget key names: its AddressKey, hashed.
func AddressName(ip string) string { return digest(AddressKey(ip)) }

// AddressKey is what the limits count a client address as: an IPv4 address itself, an IPv6
// address its /64 (one subscriber's network: rotating within it buys nothing). A value that
// is not an address counts as itself.
func AddressKey(ip string) string {
	a, err := netip.ParseAddr(ip)
	if err != nil {
		return ip
	}
	a = a.Unmap().WithZone("")
	if a.Is4() {
		return a.String()
	}
	return netip.PrefixFrom(a, 64).Masked().String()
}

// digest keeps addresses and emails out of Redis key names (and so out of its tooling).
func digest(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:12])
}

// useRedis reports whether Redis is to be tried now.
func (l *Limiter) useRedis() bool {
	return l.buckets != nil && time.Now().UnixNano() >= l.redisAfter.Load()
}

// redisFailed switches to in-process counting for a while, unless the caller (ctx) just gave
// up.
func (l *Limiter) redisFailed(ctx context.Context, err error) {
	if ctx.Err() == nil {
		l.redisAfter.Store(time.Now().Add(redisPause).UnixNano())
		l.log.Warn("rate limiter: redis failed, counting in-process", "err", err, "for", redisPause)
	}
}

// errRedisSlow is a count Redis did not answer in time.
var errRedisSlow = errors.New("no answer from redis in time")

// allowRedis counts in Redis, waiting for the answer at most wait: up to n tokens, or with
// all set n tokens or none.
func (l *Limiter) allowRedis(ctx context.Context, key string, limit Limit, n int, all bool, wait time.Duration) (Grant, error) {
	type answer struct {
		res Grant
		err error
	}
	ch := make(chan answer, 1)
	go func() {
		allow := l.buckets.AllowAtMost
		if all {
			allow = l.buckets.AllowN
		}
		res, err := allow(ctx, key, limit, n)
		ch <- answer{res, err}
	}()
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case a := <-ch:
		return a.res, a.err
	case <-t.C:
		return Grant{}, errRedisSlow
	}
}

func (l *Limiter) take(ctx context.Context, key string, limit Limit) (time.Duration, bool) {
	b := l.spend(ctx, key, limit, false)
	return b.RetryAfter, b.Allowed
}

// spend takes one token from a budget and tells what is left of it; leased lets a large budget
// be counted a lease at a time.
func (l *Limiter) spend(ctx context.Context, key string, limit Limit, leased bool) Budget {
	if l.useRedis() {
		b, err := l.spendShared(ctx, key, limit, leased)
		if err == nil {
			return b
		}
		l.redisFailed(ctx, err)
	}
	return l.spendLocal(key, limit, time.Now())
}

// give returns one token to a budget, never beyond its burst.
func (l *Limiter) give(ctx context.Context, key string, limit Limit) {
	if l.useRedis() {
		// A negative cost moves the GCRA's theoretical arrival time back by one interval,
		// never before now; the script leaves the key as it was when the result is a full
		// budget, so the key is then removed.
		res, err := l.buckets.AllowN(ctx, key, limit, -1)
		if err == nil && res.ResetAfter <= 0 {
			err = l.buckets.Reset(ctx, key)
		}
		if err == nil {
			return
		}
		l.redisFailed(ctx, err)
	}
	l.giveLocal(key, limit, time.Now())
}

func (l *Limiter) reset(ctx context.Context, key string) {
	if l.useRedis() {
		err := l.buckets.Reset(ctx, key)
		if err == nil {
			return
		}
		l.redisFailed(ctx, err)
	}
	l.mu.Lock()
	delete(l.local, key)
	l.mu.Unlock()
}

// remember marks the pair's address as known for its email, for knownFor.
func (l *Limiter) remember(ctx context.Context, pairKey string) {
	if l.useRedis() {
		err := l.buckets.Mark(ctx, "login:known:"+pairKey, knownFor)
		if err == nil {
			return
		}
		l.redisFailed(ctx, err)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.known) >= localMax {
		clear(l.known)
	}
	l.known[pairKey] = time.Now().Add(knownFor)
}

func (l *Limiter) isKnown(ctx context.Context, pairKey string) bool {
	if l.useRedis() {
		known, err := l.buckets.Marked(ctx, "login:known:"+pairKey)
		if err == nil {
			return known
		}
		l.redisFailed(ctx, err)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return time.Now().Before(l.known[pairKey])
}

// bucket is a token bucket: Burst attempts, refilled at Rate per Period.
type bucket struct {
	tokens float64
	at     time.Time
}

func (l *Limiter) spendLocal(key string, limit Limit, now time.Time) Budget {
	return l.spendLocalN(key, limit, 1, now)
}

// spendLocalN takes n tokens of an in-process budget, or none when it holds fewer.
func (l *Limiter) spendLocalN(key string, limit Limit, n int, now time.Time) Budget {
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.bucket(key, limit, now)
	perToken := float64(limit.Period / time.Duration(limit.Rate))
	out := Budget{Limit: limit.Burst, Allowed: b.tokens >= float64(n)}
	if out.Allowed {
		b.tokens -= float64(n)
	} else {
		out.RetryAfter = time.Duration((float64(n) - b.tokens) * perToken)
	}
	out.Remaining = int(b.tokens)
	out.Reset = time.Duration((float64(limit.Burst) - b.tokens) * perToken)
	return out
}

func (l *Limiter) giveLocal(key string, limit Limit, now time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.bucket(key, limit, now)
	b.tokens = min(float64(limit.Burst), b.tokens+1)
}

// bucket returns key's bucket refilled up to now; l.mu is held.
func (l *Limiter) bucket(key string, limit Limit, now time.Time) *bucket {
	b, ok := l.local[key]
	if !ok {
		if len(l.local) >= localMax {
			clear(l.local)
		}
		b = &bucket{tokens: float64(limit.Burst), at: now}
		l.local[key] = b
	}
	perToken := limit.Period / time.Duration(limit.Rate)
	b.tokens = min(float64(limit.Burst), b.tokens+float64(now.Sub(b.at))/float64(perToken))
	b.at = now
	return b
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
	return apperr.Errorf(apperr.RateLimited, "too many %s: try again in %s", e.what(), retryText(e.RetryAfter)).For("rate_limited", "")
}

// RetrySeconds is the Retry-After header's value: whole seconds, at least 1.
func (e *RateLimitError) RetrySeconds() string { return retrySeconds(e.RetryAfter) }

func retryText(d time.Duration) string {
	if d <= time.Second {
		return "a second"
	}
	return d.Round(time.Second).String()
}
