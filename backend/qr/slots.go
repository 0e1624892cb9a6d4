package qr

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"golang.org/x/sync/semaphore"

	"github.com/shortlink/shortlink/backend/apperr"
)

// Slots bound the image work running at once on a node: drawing a PNG code (a 2048-pixel code
// is 16 MiB of pixels while it is drawn) and decoding a logo (a 2048×2048 16-bit PNG is
// 32 MiB). Callers queue for a slot (first come, first served) for at most the wait bound,
// then are answered unavailable with a *BusyError; work that holds a slot stops when its
// request's context ends, so no slot is held for a client that went away (docs/api.md,
// What a code costs).
type Slots struct {
	sem  *semaphore.Weighted
	wait time.Duration
}

// NewSlots returns n slots (at least 1) whose callers wait at most wait for one; a wait of 0
// refuses at once when every slot is busy.
func NewSlots(n int, wait time.Duration) *Slots {
	return &Slots{sem: semaphore.NewWeighted(int64(max(1, n))), wait: max(0, wait)}
}

// Acquire takes a slot, waiting at most the wait bound and never past ctx, and returns the
// function that gives it back. Returns a *BusyError (unavailable) when no slot freed up in
// time, or ctx's error when the caller gave up first.
func (s *Slots) Acquire(ctx context.Context) (release func(), err error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("wait for an image slot: %w", err)
	}
	if s.sem.TryAcquire(1) {
		return func() { s.sem.Release(1) }, nil
	}
	if s.wait > 0 {
		wctx, cancel := context.WithTimeout(ctx, s.wait)
		err := s.sem.Acquire(wctx, 1)
		cancel()
		if err == nil {
			return func() { s.sem.Release(1) }, nil
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("wait for an image slot: %w", err)
	}
	codesBusy.Inc()
	return nil, &BusyError{RetryAfter: max(time.Second, s.wait)}
}

// BusyError is an unavailable error: every image slot stayed busy for the wait bound. It says
// when to come back.
type BusyError struct{ RetryAfter time.Duration }

func (e *BusyError) Error() string { return "unavailable: every image slot is busy" }

// Unwrap lets apperr see the code and message.
func (e *BusyError) Unwrap() error {
	return apperr.Errorf(apperr.Unavailable, "too many images are being drawn at once: try again in %s", e.RetrySeconds()+"s").For("qr_busy", "")
}

// RetrySeconds is the Retry-After header's value: whole seconds, at least 1.
func (e *BusyError) RetrySeconds() string {
	return strconv.Itoa(max(1, int((e.RetryAfter+time.Second-1)/time.Second)))
}
