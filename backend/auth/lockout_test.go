package auth

import (
	"errors"
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/apperr"
)

func TestLockoutLength(t *testing.T) {
	for _, c := range []struct {
		n    int
		want time.Duration
	}{
		{0, 15 * time.Minute}, // never asked for; no shorter than the first
		{1, 15 * time.Minute},
		{2, time.Hour},
		{3, 4 * time.Hour},
		{4, 16 * time.Hour},
		{5, 24 * time.Hour},
		{6, 24 * time.Hour},
		{1_000, 24 * time.Hour},
		{1 << 40, 24 * time.Hour},
	} {
		if got := LockoutLength(c.n); got != c.want {
			t.Errorf("LockoutLength(%d) = %s, want %s", c.n, got, c.want)
		}
	}
}

// TestCodeGuardTake walks the guard through wrong codes with a clock that moves: ten are
// checked, the tenth starts the lockout, nothing is checked during it, each next lockout is
// longer up to the cap, and a right code starts everything afresh.
func TestCodeGuardTake(t *testing.T) {
	now := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	var g CodeGuard
	var v CodeVerdict
	// wrongRun sends MaxWrongCodes wrong codes at now and checks that the last starts a lockout
	// of want.
	wrongRun := func(want time.Duration) {
		t.Helper()
		for i := 1; i <= MaxWrongCodes; i++ {
			g, v = g.Take(now)
			if !v.Allowed {
				t.Fatalf("code %d refused: %+v %+v", i, g, v)
			}
			if v.Locks != (i == MaxWrongCodes) {
				t.Fatalf("code %d: locks %v", i, v.Locks)
			}
			now = now.Add(time.Second)
		}
		if got := v.LockedUntil.Sub(now.Add(-time.Second)); got != want {
			t.Fatalf("lockout %d lasts %s, want %s", g.Lockouts, got, want)
		}
	}
	// refused checks that a code at now is refused unchecked, for retry.
	refused := func(retry time.Duration) {
		t.Helper()
		before := g
		g, v = g.Take(now)
		if v.Allowed || v.Locks || v.RetryAfter != retry || g != before {
			t.Fatalf("code during the lockout: %+v, guard %+v, want refused for %s and nothing counted", v, g, retry)
		}
	}

	wrongRun(15 * time.Minute)
	refused(15*time.Minute - time.Second)
	now = now.Add(15*time.Minute - 2*time.Second)
	refused(time.Second)
	now = now.Add(time.Second) // the lockout is over
	wrongRun(time.Hour)
	now = now.Add(59 * time.Minute)
	refused(time.Minute - time.Second)
	now = now.Add(time.Minute)
	wrongRun(4 * time.Hour)
	now = now.Add(4 * time.Hour)
	wrongRun(16 * time.Hour)
	now = now.Add(16 * time.Hour)
	wrongRun(24 * time.Hour)
	now = now.Add(24 * time.Hour)
	wrongRun(24 * time.Hour)
	if g.Lockouts != 6 {
		t.Fatalf("lockouts %d, want 6", g.Lockouts)
	}

	// After the lockout a code is checked again; a right one clears the guard (what
	// UseCode stores), and the next run of wrong codes locks for 15 minutes again.
	now = now.Add(24 * time.Hour)
	g, v = g.Take(now)
	if !v.Allowed || v.Locks || g.Attempts != 1 {
		t.Fatalf("first code after the lockout: %+v %+v", g, v)
	}
	g = CodeGuard{}
	wrongRun(15 * time.Minute)
}

// TestCodeGuardRightTenth: the tenth code in a row starts the lockout when it is counted, and
// is still checked; only that code being right lifts it (the guard is cleared).
func TestCodeGuardRightTenth(t *testing.T) {
	now := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	g := CodeGuard{Attempts: MaxWrongCodes - 1}
	g, v := g.Take(now)
	if !v.Allowed || !v.Locks || !g.LockedUntil.Equal(now.Add(15*time.Minute)) {
		t.Fatalf("tenth code: %+v %+v", g, v)
	}
	// An eleventh sent at once is refused, unchecked, while the tenth is being checked.
	if _, v := g.Take(now); v.Allowed {
		t.Fatal("a code beside the tenth was checked")
	}
}

func TestLockoutError(t *testing.T) {
	var err error = &LockoutError{RetryAfter: 15*time.Minute - 300*time.Millisecond}
	var e *apperr.Error
	if !errors.As(err, &e) || e.Code != apperr.RateLimited || e.Reason != "second_factor_locked" {
		t.Fatalf("%v: %+v", err, e)
	}
	if got := err.(*LockoutError).RetrySeconds(); got != "900" {
		t.Fatalf("Retry-After %s, want 900", got)
	}
}
