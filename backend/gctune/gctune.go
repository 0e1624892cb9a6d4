// Package gctune sizes the garbage collector's goal to the live heap: a small heap may grow by a
// fixed headroom before it is collected, a large one by itself (Go's default). A server whose
// live heap is tens of megabytes spends a tenth of its CPU collecting at Go's default, which lets
// it grow by its own size only; with a headroom of 256 MiB it collects a few times less often,
// and a process whose link cache fills gigabytes still grows by no more than it holds
// (docs/configuration.md#memory, docs/benchmarks.md).
package gctune

import (
	"context"
	"runtime/debug"
	"runtime/metrics"
	"time"
)

// Percent is the GOGC that lets a heap of live bytes grow by headroom bytes before a
// collection: never below Go's default of 100 (a heap grows at least by its size) nor above
// max.
func Percent(live, headroom uint64, max int) int {
	if live == 0 {
		return max
	}
	p := headroom * 100 / live
	switch {
	case p < 100:
		return 100
	case p > uint64(max):
		return max
	}
	return int(p)
}

// Tuner sets the collector's percent from the live heap every so often.
type Tuner struct {
	// Headroom is how much a small heap may grow between collections; Max caps the percent
	// (the goal of a nearly empty heap); Every is how often the live heap is read.
	Headroom uint64
	Max      int
	Every    time.Duration
	sample   []metrics.Sample
	last     int
}

// New returns a tuner of 256 MiB of headroom, a percent of at most 1,000, read every second.
func New() *Tuner {
	return &Tuner{Headroom: 256 << 20, Max: 1000, Every: time.Second}
}

// Tune reads the live heap once and sets the percent it calls for; it returns that percent.
func (t *Tuner) Tune() int {
	if t.sample == nil {
		t.sample = []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	}
	metrics.Read(t.sample)
	var live uint64
	if t.sample[0].Value.Kind() == metrics.KindUint64 {
		live = t.sample[0].Value.Uint64()
	}
	p := Percent(live, t.Headroom, t.Max)
	if p != t.last {
		debug.SetGCPercent(p)
		t.last = p
	}
	return p
}

// Run tunes until ctx ends.
func (t *Tuner) Run(ctx context.Context) {
	tick := time.NewTicker(t.Every)
	defer tick.Stop()
	for {
		t.Tune()
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}
