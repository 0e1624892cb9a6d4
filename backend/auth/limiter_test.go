package auth_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/auth"
	"github.com/shortlink/shortlink/backend/redis"
	"github.com/shortlink/shortlink/backend/testenv"
)

// attempts counts how many attempts pass before the first refusal, up to max.
func attempts(t *testing.T, l *auth.Limiter, email, ip string, max int) (int, *auth.RateLimitError) {
	t.Helper()
	for i := range max {
		err := l.Allow(context.Background(), email, ip)
		if err == nil {
			continue
		}
		var rl *auth.RateLimitError
		if !errors.As(err, &rl) || !apperr.Is(err, apperr.RateLimited) {
			t.Fatalf("Allow = %v, want a rate_limited *auth.RateLimitError", err)
		}
		return i, rl
	}
	return max, nil
}

func TestLimiterRedis(t *testing.T) {
	t.Parallel()
	rc, prefix := testenv.Redis(t)
	l := auth.NewLimiter(redis.NewBuckets(rc), slog.New(slog.DiscardHandler))
	testLimits(t, l)
	testIPv6(t, l)
	testDistributed(t, l)

	// Every key is in the namespace, and names neither the email nor the address.
	keys, err := testenv.RedisInspector(t, testenv.RedisURL(t)).Keys(context.Background(), "*"+prefix+"*")
	if err != nil {
		t.Fatal(err)
	}
	if len(keys) == 0 {
		t.Fatal("no limiter keys in Redis")
	}
	for _, k := range keys {
		if k[:len(prefix)] != prefix {
			t.Errorf("key %q is outside the prefix %q", k, prefix)
		}
		for _, secret := range []string{"alice", "example", "192.0.2"} {
			if strings.Contains(k, secret) {
				t.Errorf("key %q shows %q", k, secret)
			}
		}
	}
	// Another node sharing the Redis sees the same counts.
	other := auth.NewLimiter(redis.NewBuckets(rc), slog.New(slog.DiscardHandler))
	if err := other.Allow(context.Background(), "alice@example.com", "192.0.2.1"); !apperr.Is(err, apperr.RateLimited) {
		t.Errorf("another node does not share the per-pair count: %v", err)
	}
}

func TestLimiterWithoutRedis(t *testing.T) {
	t.Parallel()
	dead, _ := redis.Open(context.Background(), "redis://127.0.0.1:1", "x:") // refuses: no error here
	t.Cleanup(func() { _ = dead.Close() })
	for _, l := range []*auth.Limiter{
		auth.NewLimiter(redis.NewBuckets(dead), slog.New(slog.DiscardHandler)),
		auth.NewLimiter(nil, slog.New(slog.DiscardHandler)),
	} {
		testLimits(t, l)
		testIPv6(t, l)
		testDistributed(t, l)
	}
}

// The login budgets' bursts: per (email, address) pair, per address, per email.
const perPair, perAddress, perEmail = 5, 10, 100

func testLimits(t *testing.T, l *auth.Limiter) {
	t.Helper()
	ctx := context.Background()
	// One address guessing one account is stopped by the pair's budget.
	n, rl := attempts(t, l, "alice@example.com", "192.0.2.1", 20)
	if n != perPair || rl == nil {
		t.Fatalf("%d attempts for one email from one address passed, want %d", n, perPair)
	}
	if rl.RetryAfter <= 0 || rl.RetryAfter > time.Hour {
		t.Errorf("RetryAfter = %v", rl.RetryAfter)
	}
	if s := rl.RetrySeconds(); s == "0" || s == "" {
		t.Errorf("RetrySeconds = %q", s)
	}
	// The pair follows the email's case; the same email from elsewhere has a budget of its
	// own, and so has another email from the same address.
	if n, _ := attempts(t, l, " ALICE@example.com", "192.0.2.1", 1); n != 0 {
		t.Error("per-pair limit does not follow the email across case")
	}
	if n, _ := attempts(t, l, "alice@example.com", "192.0.2.2", 1); n != 1 {
		t.Error("the same email from another address was refused: anyone could lock alice out")
	}
	if n, _ := attempts(t, l, "bob@example.com", "192.0.2.1", 1); n != 1 {
		t.Error("another email from the same address was refused")
	}

	// One address spraying many emails runs into the per-address limit.
	passed := 0
	for i := range perAddress + 5 {
		if l.Allow(ctx, fmt.Sprintf("user%d@example.com", i), "198.51.100.7") == nil {
			passed++
		}
	}
	if passed != perAddress {
		t.Errorf("%d attempts from one address passed, want %d", passed, perAddress)
	}
	// Successes do not spend the budgets: a user signing in again and again from one
	// address is never refused.
	for i := range 3 * perAddress {
		if err := l.Allow(ctx, "carol@example.com", "203.0.113.9"); err != nil {
			t.Fatalf("successful login %d refused: %v", i+1, err)
		}
		l.Succeeded(ctx, "carol@example.com", "203.0.113.9")
	}
	// A success starts the pair afresh: four typos, a success, then four typos again.
	for round := range 2 {
		if n, _ := attempts(t, l, "dave@example.com", "203.0.113.10", perPair-1); n != perPair-1 {
			t.Fatalf("round %d: %d typos passed", round, n)
		}
		if err := l.Allow(ctx, "dave@example.com", "203.0.113.10"); err != nil {
			t.Fatalf("round %d: the right password was refused: %v", round, err)
		}
		l.Succeeded(ctx, "dave@example.com", "203.0.113.10")
	}
	// A login whose password was never checked gives its tokens back.
	for range 3 * perPair {
		if err := l.Allow(ctx, "erin@example.com", "203.0.113.11"); err != nil {
			t.Fatalf("unchecked logins spent the budget: %v", err)
		}
		l.Unchecked(ctx, "erin@example.com", "203.0.113.11")
	}
}

// testIPv6 checks that every address of one /64 counts as one address.
func testIPv6(t *testing.T, l *auth.Limiter) {
	t.Helper()
	passed := 0
	for i := range perAddress + 5 {
		ip := fmt.Sprintf("2001:db8:1:2:%x:%x::%x", i*7919%0x10000, i, i+1)
		if l.Allow(context.Background(), fmt.Sprintf("user%d@example.com", i), ip) == nil {
			passed++
		}
	}
	if passed != perAddress {
		t.Errorf("%d attempts from one /64 passed, want %d", passed, perAddress)
	}
	// The pair budget too: rotating the address within the /64 does not give fresh guesses.
	n := 0
	for i := range perPair + 5 {
		if l.Allow(context.Background(), "frank@example.com", fmt.Sprintf("2001:db8:9:9::%x", i+1)) == nil {
			n++
		}
	}
	if n != perPair {
		t.Errorf("%d guesses at one account from one /64 passed, want %d", n, perPair)
	}
	// The next /64 is another address.
	if err := l.Allow(context.Background(), "frank@example.com", "2001:db8:9:a::1"); err != nil {
		t.Errorf("another /64 was refused: %v", err)
	}
}

// testDistributed: many addresses guessing one account spend its per-email budget, but the
// owner still signs in from an address they signed in from before.
func testDistributed(t *testing.T, l *auth.Limiter) {
	t.Helper()
	ctx := context.Background()
	const victim = "victim@example.com"
	if err := l.Allow(ctx, victim, "192.0.2.200"); err != nil {
		t.Fatal(err)
	}
	l.Succeeded(ctx, victim, "192.0.2.200")

	passed := 0
	for i := range 2 * perEmail {
		ip := fmt.Sprintf("10.%d.%d.1", i/200, i%200)
		for range 2 {
			if l.Allow(ctx, victim, ip) == nil {
				passed++
			}
		}
	}
	if passed != perEmail {
		t.Errorf("%d guesses from many addresses passed, want the per-email budget %d", passed, perEmail)
	}
	if err := l.Allow(ctx, victim, "198.18.0.1"); !apperr.Is(err, apperr.RateLimited) {
		t.Errorf("a new address after the per-email budget ran out: %v, want rate_limited", err)
	}
	for i := range 3 {
		if err := l.Allow(ctx, victim, "192.0.2.200"); err != nil {
			t.Fatalf("the owner's own address was refused (try %d): %v", i+1, err)
		}
		l.Succeeded(ctx, victim, "192.0.2.200")
	}
	// The owner's address is still under its pair budget: it cannot be used to guess.
	if n, _ := attempts(t, l, victim, "192.0.2.200", 20); n != perPair {
		t.Errorf("%d failures from the known address passed, want %d", n, perPair)
	}
}

func TestAddressKey(t *testing.T) {
	for in, want := range map[string]string{
		"192.0.2.1":               "192.0.2.1",
		"::ffff:192.0.2.1":        "192.0.2.1",
		"2001:db8:1:2:3:4:5:6":    "2001:db8:1:2::/64",
		"2001:db8:1:2::1":         "2001:db8:1:2::/64",
		"2001:DB8:1:2:ffff::%eth": "2001:db8:1:2::/64",
		"2001:db8:1:3::1":         "2001:db8:1:3::/64",
		"not an address":          "not an address",
	} {
		if got := auth.AddressKey(in); got != want {
			t.Errorf("AddressKey(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestTake: a named budget of n per period, shared by the nodes of a Redis, apart from the
// login budgets and from other names.
func TestTake(t *testing.T) {
	t.Parallel()
	rc, _ := testenv.Redis(t)
	ctx := context.Background()
	node1 := auth.NewLimiter(redis.NewBuckets(rc), slog.New(slog.DiscardHandler))
	node2 := auth.NewLimiter(redis.NewBuckets(rc), slog.New(slog.DiscardHandler))
	for i, l := range []*auth.Limiter{node1, node2, node1} {
		if err := l.Take(ctx, "invite:ws:1", "invitations", 3, time.Hour); err != nil {
			t.Fatalf("attempt %d: %v", i+1, err)
		}
	}
	err := node2.Take(ctx, "invite:ws:1", "invitations", 3, time.Hour)
	var rl *auth.RateLimitError
	if !errors.As(err, &rl) || !apperr.Is(err, apperr.RateLimited) || !strings.HasPrefix(apperr.MessageOf(err), "too many invitations") {
		t.Fatalf("4th attempt: %v, want rate_limited naming invitations", err)
	}
	if rl.RetryAfter <= 0 || rl.RetryAfter > 20*time.Minute+time.Second {
		t.Errorf("RetryAfter = %v, want about 20m", rl.RetryAfter)
	}
	if err := node1.Take(ctx, "invite:ws:2", "invitations", 3, time.Hour); err != nil {
		t.Errorf("another budget: %v", err)
	}
	if err := node1.Allow(ctx, "alice@example.com", "192.0.2.1"); err != nil {
		t.Errorf("the login budget: %v", err)
	}
}

// slowBuckets answers from Redis, late.
type slowBuckets struct {
	auth.Buckets
	delay time.Duration
}

func (b slowBuckets) AllowAtMost(ctx context.Context, key string, limit auth.Limit, n int) (auth.Grant, error) {
	time.Sleep(b.delay)
	return b.Buckets.AllowAtMost(ctx, key, limit, n)
}

// TestTakeWaitsForSlowRedis: a budget that guards a secret stays one budget across the nodes
// when Redis answers slowly (on a busy machine), rather than one budget per node.
func TestTakeWaitsForSlowRedis(t *testing.T) {
	t.Parallel()
	rc, _ := testenv.Redis(t)
	ctx := context.Background()
	slow := slowBuckets{redis.NewBuckets(rc), 300 * time.Millisecond}
	node1 := auth.NewLimiter(slow, slog.New(slog.DiscardHandler))
	node2 := auth.NewLimiter(slow, slog.New(slog.DiscardHandler))
	for i := range 4 {
		if err := []*auth.Limiter{node1, node2}[i%2].Take(ctx, "linkpw:1:a", "password attempts", 4, time.Hour); err != nil {
			t.Fatalf("attempt %d: %v", i+1, err)
		}
	}
	for i, l := range []*auth.Limiter{node1, node2} {
		if err := l.Take(ctx, "linkpw:1:a", "password attempts", 4, time.Hour); !apperr.Is(err, apperr.RateLimited) {
			t.Errorf("node %d, 5th attempt: %v, want rate_limited", i+1, err)
		}
	}
}

// TestSpend: a budget that tells what is left of it, the same in Redis (shared by nodes)
// and in-process (no Redis).
func TestSpend(t *testing.T) {
	t.Parallel()
	rc, _ := testenv.Redis(t)
	ctx := context.Background()
	log := slog.New(slog.DiscardHandler)
	shared := []*auth.Limiter{auth.NewLimiter(redis.NewBuckets(rc), log), auth.NewLimiter(redis.NewBuckets(rc), log)}
	local := auth.NewLimiter(nil, log)
	for name, nodes := range map[string][]*auth.Limiter{"redis": shared, "in-process": {local, local}} {
		t.Run(name, func(t *testing.T) {
			for i := range 4 {
				b := nodes[i%2].Spend(ctx, "api:test", 4, time.Minute)
				if !b.Allowed || b.Limit != 4 || b.Remaining != 3-i || b.RetryAfter != 0 {
					t.Fatalf("request %d: %+v, want allowed with %d remaining", i+1, b, 3-i)
				}
				// Full again after one 15-second interval per request taken.
				want := time.Duration(i+1) * 15 * time.Second
				if b.Reset > want || b.Reset < want-time.Second {
					t.Errorf("request %d: Reset = %v, want about %v", i+1, b.Reset, want)
				}
			}
			b := nodes[1].Spend(ctx, "api:test", 4, time.Minute)
			if b.Allowed || b.Remaining != 0 || b.RetryAfter <= 14*time.Second || b.RetryAfter > 15*time.Second {
				t.Fatalf("past the budget: %+v, want refused, retry in about 15s", b)
			}
			if b.Reset < 59*time.Second || b.Reset > time.Minute {
				t.Errorf("past the budget: Reset = %v, want about 1m (a refusal takes nothing)", b.Reset)
			}
			if b := nodes[0].Spend(ctx, "api:other", 4, time.Minute); !b.Allowed || b.Remaining != 3 {
				t.Errorf("another budget: %+v", b)
			}
		})
	}
}

// TestSpendMore: a request that costs more than one takes the rest of its cost at once, or
// nothing when the budget lacks it; one worth more than the budget costs all of it. The same
// in Redis and in-process.
func TestSpendMore(t *testing.T) {
	t.Parallel()
	rc, _ := testenv.Redis(t)
	ctx := context.Background()
	log := slog.New(slog.DiscardHandler)
	for name, l := range map[string]*auth.Limiter{"redis": auth.NewLimiter(redis.NewBuckets(rc), log), "in-process": auth.NewLimiter(nil, log)} {
		t.Run(name, func(t *testing.T) {
			// A budget of 60 a minute: one token a second.
			if b := l.Spend(ctx, "api:more", 60, time.Minute); !b.Allowed || b.Remaining != 59 {
				t.Fatalf("first request: %+v", b)
			}
			if b := l.SpendMore(ctx, "api:more", 60, time.Minute, 39); !b.Allowed || b.Remaining != 20 {
				t.Fatalf("a cost of 40: %+v, want allowed with 20 remaining", b)
			}
			l.Spend(ctx, "api:more", 60, time.Minute)
			b := l.SpendMore(ctx, "api:more", 60, time.Minute, 39)
			if b.Allowed || b.RetryAfter < 19*time.Second || b.RetryAfter > 20*time.Second {
				t.Fatalf("a cost of 40 with 19 left: %+v, want refused, retry in about 20s", b)
			}
			if b := l.Spend(ctx, "api:more", 60, time.Minute); !b.Allowed || b.Remaining != 18 {
				t.Fatalf("after a refusal, which takes nothing: %+v, want 18 remaining", b)
			}
			// More than the whole budget is the whole budget: a full one lets it through.
			l.Spend(ctx, "api:all", 60, time.Minute)
			if b := l.SpendMore(ctx, "api:all", 60, time.Minute, 999); !b.Allowed || b.Remaining != 0 {
				t.Fatalf("a cost of 1,000 against a full budget of 60: %+v", b)
			}
		})
	}
}

// TestSpendAtOnce: many requests of one budget at once, on two nodes, are coalesced into few
// Redis calls per node, and exactly as many pass as the budget holds.
func TestSpendAtOnce(t *testing.T) {
	t.Parallel()
	rc, _ := testenv.Redis(t)
	log := slog.New(slog.DiscardHandler)
	nodes := []*auth.Limiter{auth.NewLimiter(redis.NewBuckets(rc), log), auth.NewLimiter(redis.NewBuckets(rc), log)}
	var allowed atomic.Int64
	var wg sync.WaitGroup
	for i := range 200 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if b := nodes[i%2].Spend(context.Background(), "api:burst", 50, time.Hour); b.Allowed {
				allowed.Add(1)
				if b.Remaining < 0 || b.Remaining > 49 {
					t.Errorf("remaining %d", b.Remaining)
				}
			}
		}()
	}
	wg.Wait()
	if allowed.Load() != 50 {
		t.Errorf("%d of 200 passed a budget of 50", allowed.Load())
	}
}

// TestSpendLease: a big budget is spent from leases taken ahead on each node. Two nodes under
// load together let through no more than the budget, and nearly all of it: at most the tokens
// each node still holds in its lease are missing.
func TestSpendLease(t *testing.T) {
	t.Parallel()
	rc, _ := testenv.Redis(t)
	log := slog.New(slog.DiscardHandler)
	var redisCalls atomic.Int64
	buckets := countTakes{redis.NewBuckets(rc), &redisCalls}
	nodes := []*auth.Limiter{auth.NewLimiter(buckets, log), auth.NewLimiter(buckets, log)}
	for _, n := range nodes {
		n.WaitForRedis(30 * time.Second) // exact counts: a slow Redis is not a failed one here
	}
	// 2,000 an hour: refills one token every 1.8 s, next to nothing during the test. A lease is
	// at most 2,000/100 = 20 tokens.
	const limit, perLease, workers = 2000, 20, 16
	ctx := context.Background()
	var allowed, refused atomic.Int64
	run := func(each int) {
		var wg sync.WaitGroup
		for w := range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for range each {
					b := nodes[w%2].Spend(ctx, "api:lease", limit, time.Hour)
					if b.Limit != limit || b.Remaining < 0 || b.Remaining >= limit {
						t.Errorf("answer %+v", b)
						return
					}
					if !b.Allowed {
						refused.Add(1)
						if b.RetryAfter <= 0 {
							t.Errorf("refused without RetryAfter: %+v", b)
						}
						continue
					}
					allowed.Add(1)
				}
			}()
		}
		wg.Wait()
	}
	// Within the budget: every request passes, most of them on a leased token.
	run(100)
	if got := allowed.Load(); got != workers*100 {
		t.Fatalf("%d of %d requests passed, within a budget of %d", got, workers*100, limit)
	}
	if n := redisCalls.Load(); n > workers*100/4 {
		t.Errorf("%d Redis calls for %d requests", n, workers*100)
	}
	// Past it: a lease's tokens go at most a second unspent, and the test is over well within
	// that, so the only slack is what the leases still hold (and a token or two of refill).
	run(50)
	if got := allowed.Load(); got > limit+2 || got < limit-2*perLease {
		t.Errorf("%d of %d requests passed a budget of %d on two nodes, want %d to %d",
			got, workers*150, limit, limit-2*perLease, limit+2)
	}
}

// countTakes counts the takes that go to Redis.
type countTakes struct {
	auth.Buckets
	n *atomic.Int64
}

func (c countTakes) AllowAtMost(ctx context.Context, key string, limit auth.Limit, n int) (auth.Grant, error) {
	c.n.Add(1)
	return c.Buckets.AllowAtMost(ctx, key, limit, n)
}

func (c countTakes) AllowN(ctx context.Context, key string, limit auth.Limit, n int) (auth.Grant, error) {
	c.n.Add(1)
	return c.Buckets.AllowN(ctx, key, limit, n)
}

// TestSpendLeaseQuiet: a big budget's first request takes no lease: another node sees it
// spent exactly one token.
func TestSpendLeaseQuiet(t *testing.T) {
	t.Parallel()
	rc, _ := testenv.Redis(t)
	log := slog.New(slog.DiscardHandler)
	ctx := context.Background()
	node1, node2 := auth.NewLimiter(redis.NewBuckets(rc), log), auth.NewLimiter(redis.NewBuckets(rc), log)
	if b := node1.Spend(ctx, "api:quiet", 6000, time.Hour); !b.Allowed || b.Remaining != 5999 {
		t.Fatalf("node 1: %+v, want allowed with 5999 remaining", b)
	}
	if b := node2.Spend(ctx, "api:quiet", 6000, time.Hour); !b.Allowed || b.Remaining != 5998 {
		t.Fatalf("node 2: %+v, want allowed with 5998 remaining", b)
	}
}
