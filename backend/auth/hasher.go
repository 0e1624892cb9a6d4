package auth

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promauto"
	"golang.org/x/crypto/argon2"
	"golang.org/x/sync/semaphore"

	"github.com/shortlink/shortlink/backend/apperr"
)

// hashes counts the argon2id derivations run, by what they were for: each costs about a CPU
// core for tens of milliseconds and 19 MiB, so their rate is the hasher's load.
var hashes = promauto.NewCounterVec(prometheus.CounterOpts{
	Name: "shortlink_password_hashes_total",
	Help: "Argon2id password derivations run, by operation (hash, verify).",
}, []string{"op"})

var (
	hashesHash   = hashes.WithLabelValues("hash")
	hashesVerify = hashes.WithLabelValues("verify")
)

// Hasher hashes and checks passwords, never more than its concurrency at once: each argon2id
// hash holds 19 MiB while it runs, so unbounded logins would spend memory without limit.
// Callers queue for a slot (first come, first served) for at most the wait bound, then are
// answered unavailable with a *BusyError. Every password hash and check of the service goes
// through one Hasher: sign-up, login, the operator at start-up, and any later password change
// or reset.
type Hasher struct {
	slots  *semaphore.Weighted
	wait   time.Duration
	derive keyFunc
	cost   Cost
	// dummy is a hash of a random password at cost, checked for a login that names no user.
	dummy string
}

// NewHasher returns a Hasher running at most concurrency hashes at once (at least 1), whose
// callers wait at most wait for a slot; a wait of 0 refuses at once when every slot is busy.
func NewHasher(concurrency int, wait time.Duration) *Hasher {
	return NewHasherAt(DefaultCost, concurrency, wait)
}

// NewHasherAt is NewHasher making its hashes at cost (DefaultCost in every deployment).
func NewHasherAt(cost Cost, concurrency int, wait time.Duration) *Hasher {
	h := &Hasher{slots: semaphore.NewWeighted(int64(max(1, concurrency))), wait: max(0, wait), derive: argon2.IDKey, cost: cost, dummy: dummyHash}
	if cost != DefaultCost {
		// A check of nobody costs what a check of a user costs at this hasher's cost.
		if hash, err := hashWith(h.derive, cost, rand.Text()); err == nil {
			h.dummy = hash
		}
	}
	return h
}

// Hash returns a PHC-style argon2id hash of password with a random salt. Returns unavailable
// (a *BusyError) when no slot freed up within the wait bound.
func (h *Hasher) Hash(ctx context.Context, password string) (string, error) {
	release, err := h.acquire(ctx)
	if err != nil {
		return "", err
	}
	defer release()
	hashesHash.Inc()
	return hashWith(h.derive, h.cost, password)
}

// Verify reports whether password matches hash, comparing in constant time; a malformed hash
// matches nothing. Returns unavailable (a *BusyError) when no slot freed up within the wait
// bound.
func (h *Hasher) Verify(ctx context.Context, hash, password string) (bool, error) {
	release, err := h.acquire(ctx)
	if err != nil {
		return false, err
	}
	defer release()
	hashesVerify.Inc()
	return verifyWith(h.derive, hash, password), nil
}

// SpendCheck costs what Verify costs, queue included; use it when there is no user to check,
// so that a login of an unknown email takes as long as a wrong password.
func (h *Hasher) SpendCheck(ctx context.Context, password string) error {
	_, err := h.Verify(ctx, h.dummy, password)
	return err
}

// acquire waits for a slot, at most the wait bound, and returns the function that frees it.
func (h *Hasher) acquire(ctx context.Context) (func(), error) {
	if h.slots.TryAcquire(1) {
		return func() { h.slots.Release(1) }, nil
	}
	if h.wait > 0 {
		wctx, cancel := context.WithTimeout(ctx, h.wait)
		err := h.slots.Acquire(wctx, 1)
		cancel()
		if err == nil {
			return func() { h.slots.Release(1) }, nil
		}
	}
	if err := ctx.Err(); err != nil {
		// The caller gave up (the client went away); nobody reads the answer.
		return nil, fmt.Errorf("wait for a password hash: %w", err)
	}
	return nil, &BusyError{RetryAfter: max(time.Second, h.wait)}
}

// BusyError is an unavailable error: every password-hashing slot stayed busy for the wait
// bound. It says when to come back.
type BusyError struct{ RetryAfter time.Duration }

func (e *BusyError) Error() string { return "unavailable: password hashing is busy" }

// Unwrap lets apperr see the code and message.
func (e *BusyError) Unwrap() error {
	return apperr.Errorf(apperr.Unavailable, "too many sign-ins at once: try again in %s", retryText(e.RetryAfter)).For("unavailable", "")
}

// RetrySeconds is the Retry-After header's value: whole seconds, at least 1.
func (e *BusyError) RetrySeconds() string { return retrySeconds(e.RetryAfter) }

// IsBusy reports whether err is a *BusyError: the password was not checked at all.
func IsBusy(err error) bool {
	var b *BusyError
	return errors.As(err, &b)
}

func retrySeconds(d time.Duration) string {
	return strconv.Itoa(max(1, int((d+time.Second-1)/time.Second)))
}
