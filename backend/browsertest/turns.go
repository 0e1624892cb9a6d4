package browsertest

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/testenv"
)

// Turns bound how many tests drive Chromium at once on the whole machine, across the test
// binaries `go test ./...` runs side by side (the end-to-end suite's walks and moderation
// workers, the moderation browser's own tests). Chromium takes most of a small machine's CPU
// while it renders, and tests whose pages slow each other down past their time limits fail for
// no fault of the code; the other tests run beside them meanwhile.
//
// A turn is an exclusive lock (flock) on one of BROWSER_TURNS files in BROWSER_TURNS_DIR; the
// kernel lets go of it when the test ends or its process dies, so no turn is ever left taken.
const (
	// DefaultTurns is how many tests drive a browser at once when BROWSER_TURNS is unset.
	DefaultTurns = 3
	turnPoll     = 20 * time.Millisecond
)

var (
	held sync.Map // testing.TB → true: the tests holding a turn
	// missed counts the rounds in which every turn was taken (for the tests of turns).
	missed atomic.Int64
)

// Turn waits until t may drive Chromium, and holds that turn until t ends. A test that already
// holds one gets it at once. New takes it; a test that drives a browser of its own (the
// moderation worker's) takes it itself. A test that calls t.Parallel must do so before: a
// parallel test is paused, holding its turn, until the serial ones end, and a serial one
// waiting for a turn would wait for ever.
func Turn(t testing.TB) {
	t.Helper()
	if os.Getenv("PLAYWRIGHT_DRIVER_PATH") == "" {
		// Without the driver `make test` installs, a run of pure logic (make test-unit) skips;
		// under make test the driver is always there.
		testenv.Need(t, testenv.ServicesRequired(), "a browser (PLAYWRIGHT_DRIVER_PATH)",
			"`make test` installs Chromium and the Playwright driver (deploy/local/browser.sh)")
	}
	if _, ok := held.LoadOrStore(t, true); ok {
		return
	}
	f, err := takeTurn()
	if err != nil {
		held.Delete(t)
		t.Fatalf("browser turn: %v", err)
	}
	t.Cleanup(func() {
		_ = f.Close() // closing the file lets go of its lock
		held.Delete(t)
	})
}

// takeTurn locks one of the turn files, waiting until one is free.
func takeTurn() (*os.File, error) {
	dir, n := turnsDir(), turns()
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return nil, fmt.Errorf("turns folder: %w", err)
	}
	files := make([]*os.File, n)
	for i := range files {
		f, err := os.OpenFile(filepath.Join(dir, "turn-"+strconv.Itoa(i)), os.O_CREATE|os.O_RDWR, 0o666)
		if err != nil {
			for _, g := range files[:i] {
				_ = g.Close()
			}
			return nil, fmt.Errorf("turn file: %w", err)
		}
		files[i] = f
	}
	for {
		// From a place of its own each time, so that no file is everyone's first choice.
		start := rand.IntN(n)
		for k := range n {
			i := (start + k) % n
			if syscall.Flock(int(files[i].Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil {
				for j, g := range files {
					if j != i {
						_ = g.Close()
					}
				}
				return files[i], nil
			}
		}
		missed.Add(1)
		time.Sleep(turnPoll)
	}
}

// turnsDir is BROWSER_TURNS_DIR, else a folder of the machine's temporary one.
func turnsDir() string {
	if d := os.Getenv("BROWSER_TURNS_DIR"); d != "" {
		return d
	}
	return filepath.Join(os.TempDir(), "shortlink-browser-turns")
}

// turns is BROWSER_TURNS, else DefaultTurns.
func turns() int {
	if n, err := strconv.Atoi(os.Getenv("BROWSER_TURNS")); err == nil && n > 0 {
		return n
	}
	return DefaultTurns
}
