package visit_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/netip"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/postgres"
	"github.com/shortlink/shortlink/backend/redis"
	"github.com/shortlink/shortlink/backend/testenv"
	"github.com/shortlink/shortlink/backend/visit"
	"github.com/shortlink/shortlink/backend/visitor"
)

// BenchmarkIngest drains a visit stream pre-filled with INGEST_EVENTS events (500,000 unless
// set), in entries of up to 1000 as Buffers write them, into PostgreSQL with one consumer and
// with two, and reports events stored a second from the first read to the last commit. It also
// reports the CPU spent meanwhile per event by this process (the consumers), by PostgreSQL and
// by Redis, when they run on this machine, and how many of the cores PostgreSQL kept busy:
// where the time goes.
//
//	deploy/local/with-services.sh go test -run '^$' -bench 'Ingest$' -benchtime 1x ./backend/visit
func BenchmarkIngest(b *testing.B) {
	n := 500_000
	if s := os.Getenv("INGEST_EVENTS"); s != "" {
		var err error
		if n, err = strconv.Atoi(s); err != nil || n < 1 {
			b.Fatalf("INGEST_EVENTS=%q", s)
		}
	}
	for _, traffic := range []string{"zipf", "uniform"} {
		evs := benchEvents(n, traffic == "uniform")
		for _, consumers := range []int{1, 2} {
			b.Run(fmt.Sprintf("traffic=%s/consumers=%d", traffic, consumers), func(b *testing.B) {
				benchIngest(b, evs, consumers)
			})
		}
	}
}

// benchIngest is one run of BenchmarkIngest: evs stored by that many consumers.
func benchIngest(b *testing.B, evs []visit.Event, consumers int) {
	n := len(evs)
	for range b.N {
		b.StopTimer()
		db := testenv.DB(b)
		rc, rdb, prefix := testRedis(b)
		buf := visit.NewBuffer(visit.Options{Stream: redis.NewVisitStream(rc), Store: postgres.NewVisits(db), Log: quiet, Size: n + 1})
		for _, e := range evs {
			buf.Capture(visit.HitOf(e))
		}
		buf.Close()
		entries, err := rdb.XLen(context.Background(), visit.StreamKey(prefix))
		if err != nil {
			b.Fatal(err)
		}
		cpu := startCPU(b, db, rdb)
		b.StartTimer()

		start := time.Now()
		var stored atomic.Int64
		ctx, cancel := context.WithCancel(context.Background())
		var wg sync.WaitGroup
		for i := range consumers {
			c := consumer(rc, fmt.Sprintf("bench-%d", i), db)
			wg.Add(1)
			go func() {
				defer wg.Done()
				for ctx.Err() == nil {
					k, err := c.Step(ctx)
					if err != nil && ctx.Err() == nil {
						b.Error(err)
						cancel()
					}
					if stored.Add(int64(k)) >= int64(n) {
						cancel()
					}
				}
			}()
		}
		wg.Wait()
		elapsed := time.Since(start)
		cancel()

		b.StopTimer()
		used := cpu.stop()
		var rows int64
		if err := db.Pool.QueryRow(context.Background(), `SELECT sum(visits + bots) FROM visit_hours`).Scan(&rows); err != nil {
			b.Fatal(err)
		}
		if rows != int64(n) {
			b.Fatalf("the rollups count %d visits, want %d", rows, n)
		}
		// What the visits take on disk: the raw rows (with their index and the batch
		// keys), and the rollups they added to.
		var raw, rollups int64
		if err := db.Pool.QueryRow(context.Background(), `SELECT
					(SELECT coalesce(sum(pg_total_relation_size(i.inhrelid)), 0) FROM pg_inherits i
						WHERE i.inhparent IN ('visits'::regclass, 'visit_batches'::regclass)),
					(SELECT coalesce(sum(pg_total_relation_size(c)), 0) FROM unnest(ARRAY['visit_hours',
						'visit_key_hours', 'visit_totals', 'workspace_visit_hours']::regclass[]) AS c)`).Scan(&raw, &rollups); err != nil {
			b.Fatal(err)
		}
		secs := elapsed.Seconds()
		b.ReportMetric(float64(n)/secs, "events/s")
		b.ReportMetric(float64(n)/float64(entries), "events/entry")
		// CPU per event is what the work costs; cores, how busy each was (with other
		// processes of the machine taking their share).
		b.ReportMetric(float64(used.self.Microseconds())/float64(n), "go-µs/event")
		b.ReportMetric(float64(used.postgres.Microseconds())/float64(n), "pg-µs/event")
		b.ReportMetric(float64(used.redis.Microseconds())/float64(n), "redis-µs/event")
		b.ReportMetric(used.postgres.Seconds()/secs, "pg-cores")
		b.ReportMetric(float64(raw)/float64(n), "raw-bytes/event")
		b.ReportMetric(float64(rollups)/float64(n), "rollup-bytes/event")
		b.StartTimer()
	}
}

// BenchmarkIngestMemory stores one full read of the visit stream (uniform traffic) with one
// consumer, the garbage collector running after every 1% of heap growth so that it sees the
// heap's peak, and reports the most live heap the consumer added, per transaction and per
// event: what an ingest node needs per consumer while it catches up.
//
//	deploy/local/with-services.sh go test -run '^$' -bench IngestMemory -benchtime 1x ./backend/visit
func BenchmarkIngestMemory(b *testing.B) {
	evs := benchEvents(visit.ReadEntries*1000, true)
	for range b.N {
		b.StopTimer()
		db := testenv.DB(b)
		rc, _, _ := testRedis(b)
		buf := visit.NewBuffer(visit.Options{Stream: redis.NewVisitStream(rc), Store: postgres.NewVisits(db), Log: quiet, Size: len(evs) + 1})
		for _, e := range evs {
			buf.Capture(visit.HitOf(e))
		}
		buf.Close()
		c := consumer(rc, "bench", db)
		runtime.GC()
		sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		metrics.Read(sample)
		base := sample[0].Value.Uint64()
		old := debug.SetGCPercent(1)
		done := make(chan struct{})
		peak := make(chan uint64)
		go func() {
			most := base
			for {
				select {
				case <-done:
					peak <- most
					return
				case <-time.After(time.Millisecond):
				}
				metrics.Read(sample)
				most = max(most, sample[0].Value.Uint64())
			}
		}()
		b.StartTimer()
		n, err := c.Step(context.Background())
		b.StopTimer()
		close(done)
		most := <-peak
		debug.SetGCPercent(old)
		if err != nil || n == 0 {
			b.Fatalf("stored %d events: %v", n, err)
		}
		b.ReportMetric(float64(most-base)/(1<<20), "MB/transaction")
		b.ReportMetric(float64(n), "events/transaction")
		b.ReportMetric(float64(most-base)/float64(n), "bytes/event")
		b.StartTimer()
	}
}

// benchEvents makes n visits of 10,000 links in 100 workspaces, the popular links visited most
// (Zipf, s = 1.1) or all alike (uniform), one in five by a crawler, from 200,000 addresses over
// the last ten minutes of the current hour, with the countries, devices, systems, browsers and
// referrers of a real mix.
func benchEvents(n int, uniform bool) []visit.Event {
	rng := rand.New(rand.NewPCG(1, 2))
	zipf := rand.NewZipf(rng, 1.1, 4, 9_999)
	countries := []string{"US", "FR", "DE", "GB", "CN", "JP", "BR", "IN", "", ""}
	agents := []visitor.Agent{
		{Device: visitor.Desktop, OS: "Windows", Browser: "Chrome"},
		{Device: visitor.Desktop, OS: "macOS", Browser: "Safari"},
		{Device: visitor.IOS, OS: "iOS", Browser: "Safari"},
		{Device: visitor.Android, OS: "Android", Browser: "Chrome"},
		{Device: visitor.Android, OS: "Android", Browser: "Chrome", InApp: visitor.WeChat},
		{Device: visitor.IOS, OS: "iOS", Browser: "Safari", InApp: visitor.Instagram},
	}
	referers := []string{"", "", "https://www.google.com/", "https://t.co/x", "https://news.ycombinator.com/item"}
	now := time.Now()
	// The last ten minutes, or fewer so as not to reach into the hour before: visits spread
	// over two hours would write twice the hourly rows, and the figures would depend on the
	// minute the benchmark ran.
	span := min(10*time.Minute, now.Sub(now.Truncate(time.Hour)))
	if span <= 0 {
		span = 1
	}
	out := make([]visit.Event, n)
	for i := range out {
		link := int64(1 + zipf.Uint64())
		if uniform {
			link = 1 + rng.Int64N(10_000)
		}
		addr := rng.IntN(200_000)
		v := &visitor.Visitor{IP: netip.AddrFrom4([4]byte{10, byte(addr >> 16), byte(addr >> 8), byte(addr)}),
			Country: countries[rng.IntN(len(countries))], Agent: agents[rng.IntN(len(agents))]}
		v.Crawler = rng.IntN(5) == 0
		if v.Crawler {
			v.Agent = visitor.Agent{Device: visitor.OtherDevice, Crawler: true}
		}
		at := now.Add(-time.Duration(rng.Int64N(int64(span))))
		t := visit.Target{LinkID: link, WorkspaceID: 1 + link%100, DomainID: 0}
		out[i] = visit.NewEvent(at, t, -1, v, referers[rng.IntN(len(referers))], "agent", hasher)
	}
	return out
}

// cpuMeter measures the CPU time of this process and of the PostgreSQL and Redis servers the
// benchmark uses, when they run on this machine (Linux): PostgreSQL's postmaster and its
// children, Redis's process. Other servers of the machine are not counted.
type cpuMeter struct {
	postmaster, redis int
	at                cpuUse
}

type cpuUse struct{ self, postgres, redis time.Duration }

func startCPU(b *testing.B, db *postgres.DB, rdb *redis.Inspector) *cpuMeter {
	ctx := context.Background()
	m := &cpuMeter{}
	var backend int
	if err := db.Pool.QueryRow(ctx, `SELECT pg_backend_pid()`).Scan(&backend); err != nil {
		b.Fatal(err)
	}
	m.postmaster, _ = procStat(backend)
	if pid, err := rdb.ServerPID(ctx); err == nil {
		m.redis = pid
	}
	m.at = m.now()
	return m
}

func (m *cpuMeter) stop() cpuUse {
	now := m.now()
	return cpuUse{now.self - m.at.self, now.postgres - m.at.postgres, now.redis - m.at.redis}
}

func (m *cpuMeter) now() cpuUse {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	u := cpuUse{self: time.Duration(ru.Utime.Nano() + ru.Stime.Nano())}
	if m.redis > 0 {
		_, u.redis = procStat(m.redis)
	}
	if m.postmaster <= 1 {
		return u
	}
	_, u.postgres = procStat(m.postmaster)
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, p := range stats {
		pid, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(p, "/proc/"), "/stat"))
		if parent, cpu := procStat(pid); parent == m.postmaster {
			u.postgres += cpu
		}
	}
	return u
}

// procStat reads a process's parent and CPU time from /proc (zeros where there is none).
// Processes that exit are no longer counted: the consumers' connections stay open throughout.
func procStat(pid int) (parent int, cpu time.Duration) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, 0
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(f) < 13 {
		return 0, 0
	}
	parent, _ = strconv.Atoi(f[1])                                // ppid, field 4
	utime, _ := strconv.ParseInt(f[11], 10, 64)                   // field 14
	stime, _ := strconv.ParseInt(f[12], 10, 64)                   // field 15
	return parent, time.Duration(utime+stime) * time.Second / 100 // USER_HZ
}
