package browse

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/testenv"
)

// chromiumBrowserPIDs are the Chromium browser processes (not their renderers and helpers)
// descended from this test binary. A browser's child caught between its fork and its exec
// still carries the browser's arguments: one whose parent is a browser is not counted.
func chromiumBrowserPIDs(t *testing.T) []int {
	pids := descendants(t, func(args []string) bool {
		name := filepath.Base(args[0])
		return (name == "chromium" || name == "chrome") && !slices.ContainsFunc(args, func(a string) bool { return strings.HasPrefix(a, "--type=") })
	})
	return slices.DeleteFunc(slices.Clone(pids), func(pid int) bool { return slices.Contains(pids, testenv.Parent(pid)) })
}

// driverPIDs are the Playwright drivers (node running cli.js) descended from this test binary.
func driverPIDs(t *testing.T) []int {
	return descendants(t, func(args []string) bool {
		return len(args) > 1 && strings.HasSuffix(args[1], filepath.Join("package", "cli.js"))
	})
}

// descendants are the processes descended from this test binary whose arguments match.
func descendants(t *testing.T, match func(args []string) bool) []int {
	t.Helper()
	var pids []int
	for _, pid := range testenv.Descendants(os.Getpid()) {
		if args := testenv.Args(pid); args != nil && match(args) {
			pids = append(pids, pid)
		}
	}
	return pids
}

func TestBrowserReplacesKilledChromiumAndDriver(t *testing.T) {
	if testing.Short() {
		t.Skip("seconds of waiting on Chromium; make test runs it")
	}
	netw.handleHTML("alive.test", `<title>alive</title><p>still here</p>`)
	before, driversBefore := chromiumBrowserPIDs(t), driverPIDs(t)
	b := productionBrowser(t)
	newOnes := func(before, now []int) []int {
		var out []int
		for _, pid := range now {
			if !slices.Contains(before, pid) {
				out = append(out, pid)
			}
		}
		return out
	}
	ours := newOnes(before, chromiumBrowserPIDs(t))
	if len(ours) != 1 {
		t.Fatalf("the new browser's Chromium processes: %v (before: %v)", ours, before)
	}
	ourDriver := newOnes(driversBefore, driverPIDs(t))
	if len(ourDriver) != 1 {
		t.Fatalf("the new browser's drivers: %v (before: %v)", ourDriver, driversBefore)
	}
	reviewOK := func(when string) {
		t.Helper()
		captures, err := b.Review(context.Background(), "http://alive.test/")
		if err != nil {
			t.Fatalf("%s: %v", when, err)
		}
		for _, c := range captures {
			if c.Error != "" || c.Title != "alive" {
				t.Errorf("%s: %s: error %q title %q", when, c.Profile, c.Error, c.Title)
			}
		}
	}
	reviewOK("first review")

	// Killed: the next review finds it gone (a new context fails, or the driver has already
	// reported the disconnection) and replaces it.
	if err := syscall.Kill(ours[0], syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	reviewOK("after the kill")
	if pids := chromiumBrowserPIDs(t); slices.Contains(pids, ours[0]) {
		t.Errorf("the killed Chromium %d is still there: %v", ours[0], pids)
	}

	// Closed from under the Browser: replaced as well.
	b.mu.Lock()
	chromium := b.chromium
	b.mu.Unlock()
	if err := chromium.Close(); err != nil {
		t.Fatal(err)
	}
	reviewOK("after a close")

	// The driver killed: a new driver and a new Chromium.
	if err := syscall.Kill(ourDriver[0], syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	reviewOK("after the driver's death")

	// Closed for good: reviews fail.
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Review(context.Background(), "http://alive.test/"); err == nil || !strings.Contains(err.Error(), ErrClosed.Error()) {
		t.Errorf("review after Close: %v", err)
	}
}

func TestReviewsAtOnceAreBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("seconds of waiting on Chromium; make test runs it")
	}
	b := sharedBrowser(t) // Concurrency: DefaultConcurrency
	var now, most atomic.Int32
	netw.handle("busy.test", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := now.Add(1)
		defer now.Add(-1)
		for {
			m := most.Load()
			if n <= m || most.CompareAndSwap(m, n) {
				break
			}
		}
		time.Sleep(400 * time.Millisecond)
		w.Header().Set("Content-Type", "text/html")
		_, _ = fmt.Fprint(w, `<title>busy</title>`)
	}))
	const reviews = 4
	var wg sync.WaitGroup
	errs := make(chan string, reviews*3)
	for i := range reviews {
		wg.Go(func() {
			captures, err := b.Review(context.Background(), fmt.Sprintf("http://busy.test/%d", i))
			if err != nil {
				errs <- err.Error()
				return
			}
			for _, c := range captures {
				if c.Error != "" || c.Title != "busy" {
					errs <- fmt.Sprintf("%s: error %q title %q", c.Profile, c.Error, c.Title)
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	// Each review opens its three visitors at once; two reviews at a time.
	if m := most.Load(); m > int32(3*DefaultConcurrency) {
		t.Errorf("%d page requests at once, want at most %d", m, 3*DefaultConcurrency)
	}
	t.Logf("most page requests at once: %d", most.Load())
}

// TestReviewTime measures reviews (three visitors each) of a simple local page on this
// machine and logs their median.
func TestReviewTime(t *testing.T) {
	if testing.Short() {
		t.Skip("seconds of waiting on Chromium; make test runs it")
	}
	b := sharedBrowser(t)
	netw.handleHTML("simple.test", benignPage)
	const runs = 7
	var times []time.Duration
	for range runs {
		start := time.Now()
		captures, err := b.Review(context.Background(), "http://simple.test/")
		if err != nil {
			t.Fatal(err)
		}
		times = append(times, time.Since(start))
		for _, c := range captures {
			if c.Error != "" {
				t.Fatalf("%s: %s", c.Profile, c.Error)
			}
		}
	}
	slices.Sort(times)
	t.Logf("review of a simple local page, three visitors side by side: median %v (min %v, max %v, %d runs)",
		times[runs/2].Round(time.Millisecond), times[0].Round(time.Millisecond), times[runs-1].Round(time.Millisecond), runs)
}
