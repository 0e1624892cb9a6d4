package auth_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/auth"
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
	rdb, prefix := testenv.Redis(t)
	l := auth.NewLimiter(rdb, prefix, slog.New(slog.DiscardHandler))
	testLimits(t, l)

	// Every key is in the namespace, and names neither the email nor the address.
	keys, err := rdb.Keys(context.Background(), "*"+prefix+"*").Result()
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
	other := auth.NewLimiter(rdb, prefix, slog.New(slog.DiscardHandler))
	if err := other.Allow(context.Background(), "alice@example.com", "192.0.2.99"); !apperr.Is(err, apperr.RateLimited) {
		t.Errorf("another node does not share the per-email count: %v", err)
	}
}

func TestLimiterWithoutRedis(t *testing.T) {
	t.Parallel()
	dead := goredis.NewClient(&goredis.Options{Addr: "127.0.0.1:1", DialTimeout: 100 * time.Millisecond, MaxRetries: -1})
	t.Cleanup(func() { dead.Close() })
	testLimits(t, auth.NewLimiter(dead, "x:", slog.New(slog.DiscardHandler)))
	testLimits(t, auth.NewLimiter(nil, "", slog.New(slog.DiscardHandler)))
}

// The login budgets: 10 per email and 50 per address, each per 15 minutes.
const perEmail, perIP = 10, 50

func testLimits(t *testing.T, l *auth.Limiter) {
	t.Helper()
	n, rl := attempts(t, l, "alice@example.com", "192.0.2.1", 20)
	if n != perEmail || rl == nil {
		t.Fatalf("%d attempts for one email passed, want %d", n, perEmail)
	}
	if rl.RetryAfter <= 0 || rl.RetryAfter > 15*time.Minute {
		t.Errorf("RetryAfter = %v", rl.RetryAfter)
	}
	if s := rl.RetrySeconds(); s == "0" || s == "" {
		t.Errorf("RetrySeconds = %q", s)
	}
	// The same email from elsewhere is still refused; the address may try other emails.
	if n, _ := attempts(t, l, " ALICE@example.com", "192.0.2.2", 1); n != 0 {
		t.Error("per-email limit does not follow the email across addresses and case")
	}
	if n, _ := attempts(t, l, "bob@example.com", "192.0.2.1", 1); n != 1 {
		t.Error("another email from the same address was refused")
	}

	// One address spraying many emails runs into the per-address limit.
	passed := 0
	for i := range perIP + 5 {
		if l.Allow(context.Background(), fmt.Sprintf("user%d@example.com", i), "198.51.100.7") == nil {
			passed++
		}
	}
	if passed != perIP {
		t.Errorf("%d attempts from one address passed, want %d", passed, perIP)
	}
}

// TestTake: a named budget of n per period, shared by the nodes of a Redis, apart from the
// login budgets and from other names.
func TestTake(t *testing.T) {
	t.Parallel()
	rdb, prefix := testenv.Redis(t)
	ctx := context.Background()
	node1 := auth.NewLimiter(rdb, prefix, slog.New(slog.DiscardHandler))
	node2 := auth.NewLimiter(rdb, prefix, slog.New(slog.DiscardHandler))
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
