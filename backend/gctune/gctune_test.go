package gctune

import (
	"runtime"
	"runtime/debug"
	"testing"
)

func TestPercent(t *testing.T) {
	const mib = 1 << 20
	for _, c := range []struct {
		live uint64
		want int
	}{
		{0, 1000},         // nothing live yet: the cap
		{10 * mib, 1000},  // 2,560% called for, capped
		{64 * mib, 400},   // grows by the headroom
		{256 * mib, 100},  // the headroom is the heap's size: Go's default
		{2048 * mib, 100}, // a big cache grows by itself, never less
		{100 * mib, 256},  // rounded down
	} {
		if got := Percent(c.live, 256*mib, 1000); got != c.want {
			t.Errorf("Percent(%d MiB) = %d, want %d", c.live/mib, got, c.want)
		}
	}
}

func TestTuneSetsThePercent(t *testing.T) {
	before := debug.SetGCPercent(100)
	defer debug.SetGCPercent(before)
	runtime.GC() // the live heap is known once a collection has run
	// A headroom far below any heap calls for Go's default, one far above for the cap.
	low := &Tuner{Headroom: 1, Max: 700}
	if p := low.Tune(); p != 100 || debug.SetGCPercent(100) != 100 {
		t.Fatalf("Tune with no headroom = %d, want 100 set", p)
	}
	high := &Tuner{Headroom: 1 << 50, Max: 700}
	if p := high.Tune(); p != 700 {
		t.Fatalf("Tune with a vast headroom = %d, want 700", p)
	}
	if got := debug.SetGCPercent(100); got != 700 {
		t.Fatalf("the collector's percent is %d, want 700", got)
	}
}
