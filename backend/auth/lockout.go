package auth

import (
	"time"

	"github.com/shortlink/shortlink/backend/apperr"
)

// The bound on guessing a person's second factor (docs/security.md#two-factor-sign-in): per
// account, whatever the client's address, at most MaxWrongCodes codes in a row without a right
// one; then no code is checked for a lockout that grows with each one since the last right
// code (LockoutLength).
const (
	// MaxWrongCodes is how many codes in a row may be wrong before a lockout.
	MaxWrongCodes = 10
	// FirstLockout is the length of the first lockout; each next one is lockoutGrowth times
	// longer, up to MaxLockout.
	FirstLockout  = 15 * time.Minute
	lockoutGrowth = 4
	// MaxLockout caps a lockout's length.
	MaxLockout = 24 * time.Hour
)

// LockoutLength is how long the n-th lockout since the person's last right code lasts (n from
// 1): 15 minutes, 1 hour, 4 hours, 16 hours, then 24 hours each.
func LockoutLength(n int) time.Duration {
	d := FirstLockout
	for i := 1; i < n && d < MaxLockout; i++ {
		d *= lockoutGrowth
	}
	return min(d, MaxLockout)
}

// CodeGuard is what is kept of a person's second-factor codes between their right ones.
type CodeGuard struct {
	// Attempts counts the codes taken since the last right one or the start of the last
	// lockout: wrong ones, and any still being checked.
	Attempts int
	// Lockouts counts the lockouts since the last right code.
	Lockouts int
	// LockedUntil is when the current lockout ends (zero: none was ever started).
	LockedUntil time.Time
}

// CodeVerdict is what Take decides about one code.
type CodeVerdict struct {
	// Allowed: check the code. Otherwise refuse it unchecked until RetryAfter has passed.
	Allowed    bool
	RetryAfter time.Duration
	// Locks is set on the MaxWrongCodes-th code in a row: a lockout until LockedUntil starts
	// with it, which only that code being right lifts.
	Locks       bool
	LockedUntil time.Time
}

// Take counts one code of the person at now before it is checked, so that codes sent at once
// cannot all be checked before the count reaches the bound. A code during a lockout is refused
// unchecked; the MaxWrongCodes-th in a row starts the next lockout (and is still checked). A
// right code then clears the guard (CodeGuard{}), lifting a lockout it started.
func (g CodeGuard) Take(now time.Time) (CodeGuard, CodeVerdict) {
	if now.Before(g.LockedUntil) {
		return g, CodeVerdict{RetryAfter: g.LockedUntil.Sub(now), LockedUntil: g.LockedUntil}
	}
	if g.Attempts >= MaxWrongCodes {
		g.Attempts = 0 // the lockout that followed them is over
	}
	g.Attempts++
	v := CodeVerdict{Allowed: true}
	if g.Attempts == MaxWrongCodes {
		g.Lockouts++
		g.LockedUntil = now.Add(LockoutLength(g.Lockouts))
		v.Locks, v.LockedUntil = true, g.LockedUntil
	}
	return g, v
}

// LockoutError refuses a code during a lockout, without checking it: 429 second_factor_locked
// with Retry-After.
type LockoutError struct {
	RetryAfter time.Duration
}

func (e *LockoutError) Error() string { return "rate_limited: second factor locked" }

// Unwrap lets apperr see the code and message.
func (e *LockoutError) Unwrap() error {
	return apperr.Errorf(apperr.RateLimited, "too many wrong codes: no code is taken for this account for %s",
		retryText(e.RetryAfter)).For("second_factor_locked", "")
}

// RetrySeconds is the Retry-After header's value: whole seconds, at least 1.
func (e *LockoutError) RetrySeconds() string { return retrySeconds(e.RetryAfter) }
