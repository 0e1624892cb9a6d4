package e2e

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/app"
	"github.com/shortlink/shortlink/backend/config"
	"github.com/shortlink/shortlink/backend/testenv"
)

// BenchmarkConcurrentLogins fires 200 logins of unknown emails at once, each from its own
// address, at a real server (PostgreSQL, Redis) in this process, and reports the peak of the
// process's memory while they run: peak-heap-MiB (live and unswept heap objects) and
// peak-mapped-MiB (memory the Go runtime holds from the OS). bound=cpus is the default
// PASSWORD_HASH_CONCURRENCY; bound=200 lets every login hash at once, as before the bound.
//
//	deploy/local/with-services.sh go test -run x -bench ConcurrentLogins -benchtime 3x ./backend/e2e
func BenchmarkConcurrentLogins(b *testing.B) {
	for _, bound := range []struct{ name, value string }{{"cpus", "0"}, {"200", "200"}} {
		b.Run("bound="+bound.name, func(b *testing.B) {
			base := startBenchServer(b, "PASSWORD_HASH_CONCURRENCY", bound.value, "TRUSTED_PROXIES", "127.0.0.1/32")
			client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 200}, Timeout: time.Minute}
			var peakHeap, peakMapped uint64
			var unavailable, refused atomic.Int64
			round := 0
			for b.Loop() {
				b.StopTimer()
				runtime.GC()
				debug.FreeOSMemory()
				stop := sampleMemory(&peakHeap, &peakMapped)
				b.StartTimer()
				var wg sync.WaitGroup
				for i := range 200 {
					wg.Go(func() {
						body := fmt.Sprintf(`{"email":"nobody-%d-%d@example.com","password":"correct horse battery"}`, round, i)
						req, _ := http.NewRequest("POST", base+"/api/v1/auth/login", bytes.NewReader([]byte(body)))
						req.Header.Set("Content-Type", "application/json")
						req.Header.Set("X-Forwarded-For", fmt.Sprintf("10.%d.%d.%d", round%250, i/250, i%250+1))
						res, err := client.Do(req)
						if err != nil {
							b.Error(err)
							return
						}
						_, _ = io.Copy(io.Discard, res.Body)
						_ = res.Body.Close()
						switch res.StatusCode {
						case http.StatusUnauthorized:
						case http.StatusServiceUnavailable:
							unavailable.Add(1)
						case http.StatusTooManyRequests:
							refused.Add(1)
						default:
							b.Errorf("login: %d", res.StatusCode)
						}
					})
				}
				wg.Wait()
				b.StopTimer()
				stop()
				b.StartTimer()
				round++
			}
			const mib = 1 << 20
			b.ReportMetric(float64(peakHeap)/mib, "peak-heap-MiB")
			b.ReportMetric(float64(peakMapped)/mib, "peak-mapped-MiB")
			b.ReportMetric(float64(unavailable.Load())/float64(round), "503s/op")
			b.ReportMetric(float64(refused.Load())/float64(round), "429s/op")
		})
	}
}

// sampleMemory records the highest heap and mapped memory seen until the returned function
// is called.
func sampleMemory(peakHeap, peakMapped *uint64) (stop func()) {
	samples := []metrics.Sample{
		{Name: "/memory/classes/heap/objects:bytes"},
		{Name: "/memory/classes/total:bytes"},
		{Name: "/memory/classes/heap/released:bytes"},
	}
	read := func() {
		metrics.Read(samples)
		*peakHeap = max(*peakHeap, samples[0].Value.Uint64())
		*peakMapped = max(*peakMapped, samples[1].Value.Uint64()-samples[2].Value.Uint64())
	}
	done, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			read()
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	}()
	return func() { close(done); <-finished }
}

// startBenchServer runs a server on a fresh database and Redis namespace until b ends, and
// returns its base URL.
func startBenchServer(b *testing.B, overrides ...string) string {
	b.Helper()
	env := map[string]string{
		"DATABASE_URL": testenv.DatabaseURL(b),
		"REDIS_URL":    testenv.RedisURL(b),
		"REDIS_PREFIX": testenv.RedisPrefix(b),
		"HTTP_ADDR":    "127.0.0.1:0",
		"PUBLIC_URL":   "http://" + shortHost,
		"JWT_SECRET":   "test-secret-test-secret-test-secret-0123",
		"CODE_KEY":     "2b7e151628aed2a6abf7158809cf4f3c",
	}
	for i := 0; i+1 < len(overrides); i += 2 {
		env[overrides[i]] = overrides[i+1]
	}
	cfg, err := config.FromMap(env)
	if err != nil {
		b.Fatal(err)
	}
	a, err := app.New(context.Background(), cfg, slog.New(slog.DiscardHandler))
	if err != nil {
		b.Fatal(err)
	}
	if err := a.Listen(); err != nil {
		b.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- a.Run(context.Background()) }()
	b.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := a.Close(ctx); err != nil {
			b.Errorf("close: %v", err)
		}
		if err := <-done; err != nil {
			b.Errorf("run: %v", err)
		}
	})
	return "http://" + a.Addr()
}
