package cachepolicy_test

import (
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/cachepolicy"
)

// A count is logged on its first add, then at most once a period, with the total since the
// last line.
func TestThrottle(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	now := start
	th := cachepolicy.NewThrottle(10*time.Second, func() time.Time { return now })
	for i, step := range []struct {
		at    time.Duration
		add   int64
		total int64
		log   bool
	}{
		{at: 0, add: 3, total: 3, log: true},
		{at: time.Second, add: 2, total: 2},
		{at: 9 * time.Second, add: 4, total: 6},
		{at: 10 * time.Second, add: 1, total: 7, log: true},
		{at: 10 * time.Second, add: 1, total: 1},
		{at: 19 * time.Second, add: 1, total: 2},
		{at: time.Minute, add: 5, total: 7, log: true},
	} {
		now = start.Add(step.at)
		total, log := th.Add(step.add)
		if total != step.total || log != step.log {
			t.Errorf("step %d at %v: Add(%d) = %d, %v; want %d, %v", i, step.at, step.add, total, log, step.total, step.log)
		}
	}
}
