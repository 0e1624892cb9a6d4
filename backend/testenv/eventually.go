package testenv

import (
	"testing"
	"time"
)

// Eventually calls check every 10 ms until it reports true, and fails t when it has not within
// the given time; what names the awaited condition in that failure.
func Eventually(t testing.TB, within time.Duration, what string, check func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !check() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %v", what, within)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
