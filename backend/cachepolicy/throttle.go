// Throttle: a count logged at most once per period.

package cachepolicy

import (
	"sync/atomic"
	"time"
)

// Throttle adds up a count and says when it is time to log it: at most once every period, so
// that a failure that repeats on every call writes one line per period, with the total since
// the last.
type Throttle struct {
	every    time.Duration
	now      func() time.Time
	unlogged atomic.Int64
	last     atomic.Int64 // UnixNano of the last line
}

// NewThrottle returns a Throttle that logs at most once every period of the clock now.
func NewThrottle(every time.Duration, now func() time.Time) *Throttle {
	return &Throttle{every: every, now: now}
}

// Add counts n more and reports whether to log now, with the total counted since the last time
// it did. Of calls at once, one logs.
func (t *Throttle) Add(n int64) (total int64, log bool) {
	total = t.unlogged.Add(n)
	now, last := t.now().UnixNano(), t.last.Load()
	if now-last < int64(t.every) || !t.last.CompareAndSwap(last, now) {
		return total, false
	}
	t.unlogged.Add(-total)
	return total, true
}
