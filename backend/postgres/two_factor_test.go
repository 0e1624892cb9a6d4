package postgres_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/auth"
	"github.com/shortlink/shortlink/backend/postgres"
	"github.com/shortlink/shortlink/backend/testenv"
)

// TestCodeGuardCountsAtOnce: codes sent at once, through stores on separate pools (as separate
// server processes would), are counted one after the other: exactly MaxWrongCodes are let
// through, one of them starts the lockout, and the others are refused. Another person's count
// is their own, and clearing it starts afresh with the lockouts forgotten.
func TestCodeGuardCountsAtOnce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	url := testenv.DatabaseURL(t)
	var stores []*postgres.TwoFactorStore
	var db *postgres.DB
	for range 2 {
		pool, err := postgres.Open(ctx, url)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(pool.Close)
		db = pool
		stores = append(stores, postgres.NewTwoFactorStore(pool))
	}
	accounts := postgres.NewAccountStore(db)
	a, _ := newUser(t, accounts, "a@example.com")
	b, _ := newUser(t, accounts, "b@example.com")
	now := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)

	take := func(s *postgres.TwoFactorStore, user int64, at time.Time) auth.CodeVerdict {
		var v auth.CodeVerdict
		if err := s.GuardCodes(ctx, user, func(g auth.CodeGuard) auth.CodeGuard {
			g, v = g.Take(at)
			return g
		}); err != nil {
			t.Error(err)
		}
		return v
	}

	const sent = 3 * auth.MaxWrongCodes
	verdicts := make([]auth.CodeVerdict, sent)
	var wg sync.WaitGroup
	for i := range sent {
		wg.Go(func() { verdicts[i] = take(stores[i%2], a.ID, now) })
	}
	wg.Wait()
	allowed, locks := 0, 0
	for _, v := range verdicts {
		if v.Allowed {
			allowed++
		}
		if v.Locks {
			locks++
			if !v.LockedUntil.Equal(now.Add(auth.FirstLockout)) {
				t.Errorf("locked until %s", v.LockedUntil)
			}
		}
	}
	if allowed != auth.MaxWrongCodes || locks != 1 {
		t.Fatalf("%d codes sent at once: %d checked, %d lockouts; want %d and 1", sent, allowed, locks, auth.MaxWrongCodes)
	}
	if v := take(stores[1], a.ID, now.Add(time.Minute)); v.Allowed || v.RetryAfter != auth.FirstLockout-time.Minute {
		t.Fatalf("a code during the lockout: %+v", v)
	}
	if v := take(stores[0], b.ID, now); !v.Allowed || v.Locks {
		t.Fatalf("another person's code: %+v", v)
	}

	// The next lockout is longer; a right code clears the count and the lockouts.
	later := now.Add(auth.FirstLockout)
	for i := range auth.MaxWrongCodes {
		if v := take(stores[i%2], a.ID, later); !v.Allowed || v.Locks != (i == auth.MaxWrongCodes-1) ||
			(v.Locks && !v.LockedUntil.Equal(later.Add(auth.LockoutLength(2)))) {
			t.Fatalf("code %d after the first lockout: %+v", i+1, v)
		}
	}
	if err := stores[1].ClearCodeGuard(ctx, a.ID); err != nil {
		t.Fatal(err)
	}
	var attempts, lockouts int
	var until *time.Time
	if err := db.Pool.QueryRow(ctx, `SELECT attempts, lockouts, locked_until FROM second_factor_guards WHERE user_id = $1`,
		a.ID).Scan(&attempts, &lockouts, &until); err != nil || attempts != 0 || lockouts != 0 || until != nil {
		t.Fatalf("after clearing: %d %d %v %v", attempts, lockouts, until, err)
	}
}
