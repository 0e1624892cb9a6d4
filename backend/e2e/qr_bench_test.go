package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// BenchmarkQRBurst uploads a 2048×2048 logo of 16 bits a channel to a workspace of a real
// server (PostgreSQL, Redis) in this process, then fires 60 requests at once for its link's
// code at size=2048 with logo=1, and reports what the burst cost the process: the peak of its
// resident memory above what it held before the burst (peak-rss-MiB, from /proc/self/statm),
// the peak of its Go heap (peak-heap-MiB), the slowest answer (max-s) and the answers by
// status. Each round uploads the logo again (a new version: no code of it is cached yet).
// same: the 60 requests ask for one code; distinct: each asks for its own colours, so none is
// served by another's drawing or the cache. The API's rate limit is lifted, as for 60
// workspaces at once: what is measured is the server's own bound (QR_RENDERS, the default
// GOMAXPROCS, and QR_RENDER_WAIT). unbounded sets QR_RENDERS=64 and no cache, for comparison.
//
//	deploy/local/with-services.sh go test -run x -bench QRBurst -benchtime 3x ./backend/e2e
func BenchmarkQRBurst(b *testing.B) {
	for _, c := range []struct {
		name     string
		distinct bool
		env      []string
	}{
		{"same", false, nil},
		{"distinct", true, nil},
		{"distinct-unbounded", true, []string{"QR_RENDERS", "64", "QR_CACHE_BYTES", "0"}},
	} {
		bounded := c.env == nil
		b.Run(c.name, func(b *testing.B) {
			if residentBytes() == 0 {
				b.Skip("no /proc/self/statm to read the resident memory from")
			}
			env := append([]string{"PLAN_LIMITS", "free.requests_per_minute=unlimited"}, c.env...)
			base := startBenchServer(b, env...)
			client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}, Timeout: time.Minute}
			token, ws, link := benchWorkspace(b, client, base)
			logo := deepLogo(b, 2048, 2048)
			var peakHeap, peakMapped, peakRSS uint64
			var slowest time.Duration
			statuses := map[int]int{}
			var latencies []time.Duration
			round := 0
			for b.Loop() {
				b.StopTimer()
				benchCall(b, client, "PUT", fmt.Sprintf("%s/api/v1/workspaces/%d/logo", base, ws), token, logo, http.StatusNoContent)
				runtime.GC()
				debug.FreeOSMemory()
				rss0 := residentBytes()
				var heap, mapped uint64
				stop := sampleMemory(&heap, &mapped)
				var rss uint64
				stopRSS := sampleRSS(&rss)
				b.StartTimer()
				var mu sync.Mutex
				var wg sync.WaitGroup
				for i := range 60 {
					wg.Go(func() {
						q := "size=2048&logo=1"
						if c.distinct {
							q += fmt.Sprintf("&fg=%02x%02x00", round%64, i)
						}
						u := fmt.Sprintf("%s/api/v1/workspaces/%d/links/%d/qr?%s", base, ws, link, q)
						req, _ := http.NewRequest("GET", u, nil)
						req.Header.Set("Authorization", "Bearer "+token)
						start := time.Now()
						res, err := client.Do(req)
						if err != nil {
							b.Error(err)
							return
						}
						_, _ = io.Copy(io.Discard, res.Body)
						_ = res.Body.Close()
						took := time.Since(start)
						mu.Lock()
						defer mu.Unlock()
						statuses[res.StatusCode]++
						latencies = append(latencies, took)
						slowest = max(slowest, took)
						switch res.StatusCode {
						case http.StatusOK:
							if bounded && took > 5*time.Second {
								b.Errorf("a code answered after %v", took)
							}
						case http.StatusServiceUnavailable, http.StatusTooManyRequests:
							if res.Header.Get("Retry-After") == "" {
								b.Errorf("%d without Retry-After", res.StatusCode)
							}
						default:
							b.Errorf("qr: %d", res.StatusCode)
						}
					})
				}
				wg.Wait()
				b.StopTimer()
				stop()
				stopRSS()
				peakHeap, peakMapped = max(peakHeap, heap), max(peakMapped, mapped)
				if rss > rss0 {
					peakRSS = max(peakRSS, rss-rss0)
				}
				b.StartTimer()
				round++
			}
			const mib = 1 << 20
			slices.Sort(latencies)
			b.ReportMetric(float64(peakRSS)/mib, "peak-rss-MiB")
			b.ReportMetric(float64(peakHeap)/mib, "peak-heap-MiB")
			b.ReportMetric(float64(peakMapped)/mib, "peak-mapped-MiB")
			b.ReportMetric(latencies[len(latencies)/2].Seconds(), "p50-s")
			b.ReportMetric(slowest.Seconds(), "max-s")
			for _, st := range []int{http.StatusOK, http.StatusServiceUnavailable, http.StatusTooManyRequests} {
				b.ReportMetric(float64(statuses[st])/float64(round), strconv.Itoa(st)+"s/op")
			}
			if bounded && peakRSS > 300*mib {
				b.Errorf("the burst took the process %d MiB above where it was, over 300", peakRSS/mib)
			}
		})
	}
}

// benchWorkspace signs a person up and makes a link; it returns the access token, the
// workspace and the link.
func benchWorkspace(b *testing.B, client *http.Client, base string) (token string, ws, link int64) {
	b.Helper()
	var up struct {
		Workspace   struct{ ID int64 }
		AccessToken string `json:"access_token"`
	}
	body := []byte(`{"email":"qr-bench@example.com","password":"correct horse battery"}`)
	if err := json.Unmarshal(benchCall(b, client, "POST", base+"/api/v1/auth/signup", "", body, http.StatusCreated), &up); err != nil {
		b.Fatal(err)
	}
	var l struct{ ID int64 }
	body = []byte(`{"url":"https://example.com/printed-poster"}`)
	if err := json.Unmarshal(benchCall(b, client, "POST", fmt.Sprintf("%s/api/v1/workspaces/%d/links", base, up.Workspace.ID), up.AccessToken, body, http.StatusCreated), &l); err != nil {
		b.Fatal(err)
	}
	return up.AccessToken, up.Workspace.ID, l.ID
}

// benchCall sends one request and fails b unless it is answered want; it returns the body.
func benchCall(b *testing.B, client *http.Client, method, url, token string, body []byte, want int) []byte {
	b.Helper()
	req, _ := http.NewRequest(method, url, bytes.NewReader(body))
	if strings.HasPrefix(string(body), "{") {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := client.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	defer func() { _ = res.Body.Close() }()
	out, _ := io.ReadAll(res.Body)
	if res.StatusCode != want {
		b.Fatalf("%s %s: %d %s", method, url, res.StatusCode, out)
	}
	return out
}

// residentBytes is the process's resident memory, from /proc/self/statm; 0 where it cannot be
// read.
func residentBytes() uint64 {
	data, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	fields := strings.Fields(string(data))
	if len(fields) < 2 {
		return 0
	}
	pages, err := strconv.ParseUint(fields[1], 10, 64)
	if err != nil {
		return 0
	}
	return pages * uint64(os.Getpagesize())
}

// sampleRSS records the highest resident memory seen until the returned function is called.
func sampleRSS(peak *uint64) (stop func()) {
	done, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		tick := time.NewTicker(2 * time.Millisecond)
		defer tick.Stop()
		for {
			*peak = max(*peak, residentBytes())
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	}()
	return func() { close(done); <-finished }
}
