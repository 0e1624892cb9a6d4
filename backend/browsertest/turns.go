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
}{slots: make(chan struct{}, 2)}

// Turn waits until t may drive Chromium, and holds that turn until t ends. A test that already
// holds one gets it at once. New takes it; a test that drives a browser of its own (the
// moderation worker's) takes it itself.
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
