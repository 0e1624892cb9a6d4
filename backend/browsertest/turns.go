package browsertest

import (
	"sync"
	"testing"
)

// turns bounds how many tests of one test binary drive Chromium at once. Chromium takes most of
// a small machine's CPU while it renders, and tests whose pages slow each other down past
// their time limits fail for no fault of the code; the other tests run beside them meanwhile.
var turns = struct {
	slots chan struct{}
	held  sync.Map // the tests holding a turn
}{slots: make(chan struct{}, 3)}

// Turn waits until t may drive Chromium, and holds that turn until t ends. A test that already
// holds one gets it at once. New takes it; a test that drives a browser of its own (the
// moderation worker's) takes it itself. A test that calls t.Parallel must do so before: a
// parallel test is paused, holding its turn, until the serial ones end, and a serial one
// waiting for a turn would wait for ever.
func Turn(t testing.TB) {
	t.Helper()
	if _, held := turns.held.LoadOrStore(t, true); held {
		return
	}
	turns.slots <- struct{}{}
	t.Cleanup(func() {
		turns.held.Delete(t)
		<-turns.slots
	})
}
