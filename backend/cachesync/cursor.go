package cachesync

import (
	"slices"
	"time"
)

// gapWait is how long a missing sequence number is looked for. Numbers are taken when a row is
// written and become visible when its transaction commits, so a reader can see 7 before 6; a
// number that stays missing belongs to a transaction that rolled back.
const gapWait = 30 * time.Second

// maxGap bounds the numbers one jump may leave behind as gaps; a larger jump (a big rolled-back
// batch) is taken whole.
const maxGap = 10_000

// cursor is a position in a feed numbered by a sequence: everything up to after has been read,
// except the numbers in gaps, which are read as soon as they appear.
type cursor struct {
	after int64
	gaps  map[int64]time.Time // missing number → when it was first missed
}

func newCursor(after int64) cursor { return cursor{after: after, gaps: map[int64]time.Time{}} }

func (c *cursor) gapList() []int64 {
	if len(c.gaps) == 0 {
		return nil
	}
	out := make([]int64, 0, len(c.gaps))
	for n := range c.gaps {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

// advance records the numbers read (in increasing order), opening gaps for those skipped and
// closing gaps that were filled or waited on for too long; it answers how many numbers it gave
// up on (a transaction that rolled back, or one that took longer than gapWait to commit).
func (c *cursor) advance(seqs []int64, now time.Time) (dropped int) {
	for _, n := range seqs {
		if _, ok := c.gaps[n]; ok {
			delete(c.gaps, n)
			continue
		}
		if n <= c.after {
			continue
		}
		if n-c.after <= maxGap {
			for m := c.after + 1; m < n; m++ {
				c.gaps[m] = now
			}
		} else {
			dropped += int(n - c.after - 1)
		}
		c.after = n
	}
	for n, since := range c.gaps {
		if now.Sub(since) > gapWait {
			delete(c.gaps, n)
			dropped++
		}
	}
	return dropped
}
