package visitcap_test

import (
	"context"
	"log/slog"
	"net"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/postgres"
	"github.com/shortlink/shortlink/backend/redis"
	"github.com/shortlink/shortlink/backend/testenv"
	"github.com/shortlink/shortlink/backend/visitcap"
)

// never is a write interval no test waits for: counts are written when a test says so (Flush)
// and on Close.
const never = time.Hour

var quiet = slog.New(slog.DiscardHandler)

// node is what one server process holds: its own Redis client, its own database pool and its
// own Counter, sharing the servers with the other nodes.
type node struct {
	counter *visitcap.Counter
	store   *postgres.VisitCounts
	writes  *timedStore // the same store, timing the Counter's writes
	db      *postgres.DB
}

// timedStore is a Store that remembers when each write of counts (Raise) began and ended.
type timedStore struct {
	visitcap.Store
	mu     sync.Mutex
	writes [][2]time.Time
}

func (s *timedStore) Raise(ctx context.Context, counts []visitcap.Count) ([]visitcap.Count, error) {
	start := time.Now()
	out, err := s.Store.Raise(ctx, counts)
	s.mu.Lock()
	s.writes = append(s.writes, [2]time.Time{start, time.Now()})
	s.mu.Unlock()
	return out, err
}

// around answers the start of the last write begun before at, and the end of the first write
// begun after it (zero times when there is none).
func (s *timedStore) around(at time.Time) (lastStart, nextEnd time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, w := range s.writes {
		if w[0].Before(at) {
			lastStart = w[0]
		} else if nextEnd.IsZero() {
			nextEnd = w[1]
		}
	}
	return lastStart, nextEnd
}

// cluster is a database of the test's own and the Redis both of its nodes use.
type cluster struct {
	t        *testing.T
	dbURL    string
	redisURL string
	prefix   string
}

func newCluster(t *testing.T, redisURL, prefix string) *cluster {
	return &cluster{t: t, dbURL: testenv.DatabaseURL(t), redisURL: redisURL, prefix: prefix}
}

// sharedRedis is the test run's Redis with a key prefix of t's own.
func sharedRedis(t *testing.T) (string, string) {
	return testenv.RedisURL(t), testenv.RedisPrefix(t)
}

func (c *cluster) node(interval time.Duration) *node {
	c.t.Helper()
	db, err := postgres.Open(context.Background(), c.dbURL)
	if err != nil {
		c.t.Fatal(err)
	}
	// The server's client: a Redis that does not answer costs little. One that does not answer
	// yet is no error here.
	rdb, err := redis.Open(context.Background(), c.redisURL, c.prefix)
	if rdb == nil {
		c.t.Fatal(err)
	}
	store := postgres.NewVisitCounts(db)
	writes := &timedStore{Store: store}
	n := &node{counter: visitcap.NewWithInterval(redis.NewVisitCaps(rdb), writes, quiet, interval), store: store, writes: writes, db: db}
	c.t.Cleanup(func() {
		n.counter.Close()
		_ = rdb.Close()
		db.Close()
	})
	return n
}

// hammer has 32 goroutines call Take total times in all, spread over the nodes, and returns how
// many visitors passed. Errors fail the test.
func hammer(t *testing.T, nodes []*node, linkID, max int64, total int) int {
	t.Helper()
	const workers = 32
	var passed, next atomic.Int64
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			n := nodes[w%len(nodes)]
			for next.Add(1) <= int64(total) {
				ok, err := n.counter.Take(context.Background(), linkID, max)
				if err != nil {
					t.Error(err)
					return
				}
				if ok {
					passed.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	return int(passed.Load())
}

func flushAll(t *testing.T, nodes ...*node) {
	t.Helper()
	for _, n := range nodes {
		if err := n.counter.Flush(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
}

func stored(t *testing.T, n *node, linkID int64) int64 {
	t.Helper()
	v, err := n.store.Visits(context.Background(), linkID)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// The measure: a cap of 50, two nodes, 32 goroutines and 1,000 visits at once →
// exactly 50 pass, and 50 are stored once the nodes have written their counts.
func TestExactlyMaxAcrossNodes(t *testing.T) {
	t.Parallel()
	opt, prefix := sharedRedis(t)
	c := newCluster(t, opt, prefix)
	a, b := c.node(visitcap.FlushInterval), c.node(visitcap.FlushInterval)
	const link = 1001
	if got := hammer(t, []*node{a, b}, link, 50, 1000); got != 50 {
		t.Fatalf("%d visitors passed a cap of 50", got)
	}
	flushAll(t, a, b)
	if got := stored(t, a, link); got != 50 {
		t.Errorf("stored %d visits, want 50", got)
	}
	// Other links count apart.
	if got := hammer(t, []*node{a, b}, link+1, 7, 100); got != 7 {
		t.Errorf("%d visitors passed a cap of 7 on another link", got)
	}
}

// Raising the cap lets visitors through again; lowering it below the count refuses them; a
// cap below 1 refuses everyone.
func TestChangedCap(t *testing.T) {
	t.Parallel()
	opt, prefix := sharedRedis(t)
	c := newCluster(t, opt, prefix)
	a, b := c.node(never), c.node(never)
	const link = 7
	steps := []struct {
		max    int64
		visits int
		want   int
	}{
		{max: 5, visits: 20, want: 5},
		{max: 8, visits: 20, want: 3},
		{max: 8, visits: 5, want: 0},
		{max: 2, visits: 5, want: 0},
		{max: 0, visits: 5, want: 0},
		{max: 10, visits: 20, want: 2},
	}
	for i, s := range steps {
		if got := hammer(t, []*node{a, b}, link, s.max, s.visits); got != s.want {
			t.Fatalf("step %d (max %d): %d passed, want %d", i, s.max, got, s.want)
		}
	}
}

// A key missing from Redis starts from the stored count, whichever node seeds it.
func TestSeededFromStore(t *testing.T) {
	t.Parallel()
	opt, prefix := sharedRedis(t)
	c := newCluster(t, opt, prefix)
	a, b := c.node(never), c.node(never)
	const link = 42
	if _, err := a.store.Raise(context.Background(), []visitcap.Count{{LinkID: link, Visits: 47}}); err != nil {
		t.Fatal(err)
	}
	if got := hammer(t, []*node{a, b}, link, 50, 200); got != 3 {
		t.Fatalf("%d passed with 47 of 50 stored, want 3", got)
	}
}

// What a Redis loss costs, measured: the visits counted since the nodes last wrote are handed
// out again, exactly those and only until the next write; a loss right after a write costs
// nothing.
func TestRedisLoss(t *testing.T) {
	t.Parallel()
	const max = 50
	for _, tc := range []struct {
		name           string
		writeAfterLoss bool // a node writes its counts between the loss and the next visitors
		want           int
	}{
		{name: "before the next write", want: max + 10},
		{name: "after the next write", writeAfterLoss: true, want: max},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rs := testenv.NewRedisServer(t)
			c := newCluster(t, rs.URL(), "sl:")
			a, b := c.node(never), c.node(never)
			const link = 9
			passed := hammer(t, []*node{a, b}, link, max, 20)
			flushAll(t, a, b)
			passed += hammer(t, []*node{a, b}, link, max, 10) // counted, not yet written
			if passed != 30 {
				t.Fatalf("%d passed before the loss, want 30", passed)
			}
			if err := rs.Do("FLUSHALL"); err != nil {
				t.Fatal(err)
			}
			if tc.writeAfterLoss {
				flushAll(t, a, b)
			}
			passed += hammer(t, []*node{a, b}, link, max, 1000)
			if passed != tc.want {
				t.Errorf("%d passed a cap of %d with 10 visits unwritten at the loss, want %d", passed, max, tc.want)
			}
			flushAll(t, a, b)
			if got := stored(t, a, link); got != max {
				t.Errorf("stored %d, want %d", got, max)
			}
		})
	}
}

// A FLUSHALL while two nodes count at full speed, each writing every 100 ms: what the loss gave
// back is the difference between the visitors who passed and the count once every node wrote;
// it stays within the visits from the last write before the loss to the end of the first write
// after it: about two intervals, longer when a loaded machine runs the writes late.
func TestRedisLossUnderLoad(t *testing.T) {
	t.Parallel()
	rs := testenv.NewRedisServer(t)
	c := newCluster(t, rs.URL(), "sl:")
	const interval = 100 * time.Millisecond
	a, b := c.node(interval), c.node(interval)
	const link, max = 11, 1 << 40 // never reached: the count shows what was given back
	var passed atomic.Int64
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for w := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			n := []*node{a, b}[w%2]
			for {
				select {
				case <-stop:
					return
				default:
				}
				ok, err := n.counter.Take(context.Background(), link, max)
				if err != nil {
					t.Error(err)
					return
				}
				if ok {
					passed.Add(1)
				}
			}
		}()
	}
	start := time.Now()
	time.Sleep(5 * interval)
	lost := time.Now()
	if err := rs.Do("FLUSHALL"); err != nil {
		t.Fatal(err)
	}
	time.Sleep(5 * interval)
	close(stop)
	wg.Wait()
	elapsed := time.Since(start)
	flushAll(t, a, b)
	given := passed.Load() - stored(t, a, link)
	rate := float64(passed.Load()) / elapsed.Seconds()
	// The window from the earlier node's last write before the loss to the later node's first
	// write after it, and a quarter more for the rate's ups and downs.
	var from, to time.Time
	for _, n := range []*node{a, b} {
		last, next := n.writes.around(lost)
		if last.IsZero() || next.IsZero() {
			t.Fatalf("no write before or after the loss: %v, %v", last, next)
		}
		if from.IsZero() || last.Before(from) {
			from = last
		}
		if next.After(to) {
			to = next
		}
	}
	window := to.Sub(from)
	if window < 2*interval {
		window = 2 * interval
	}
	bound := int64(rate * 1.25 * window.Seconds())
	t.Logf("a FLUSHALL at %.0f visits/s with writes every %s (%s from the last before to the first after) gave back %d visits (bound %d)",
		rate, interval, window, given, bound)
	if given < 0 || given > bound {
		t.Errorf("the loss gave back %d visits, bound %d", given, bound)
	}
}

// Redis down from the start: every visit is counted in PostgreSQL, still exactly.
func TestRedisDown(t *testing.T) {
	t.Parallel()
	c := newCluster(t, "redis://"+closedPort(t), "sl:")
	a, b := c.node(visitcap.FlushInterval), c.node(visitcap.FlushInterval)
	const link = 5
	if got := hammer(t, []*node{a, b}, link, 50, 1000); got != 50 {
		t.Fatalf("%d passed a cap of 50 with Redis down", got)
	}
	if got := stored(t, a, link); got != 50 {
		t.Errorf("stored %d, want 50", got)
	}
	if !a.counter.RedisDown() || !b.counter.RedisDown() {
		t.Error("the nodes do not know Redis is down")
	}
}

// Redis stops answering for a while and comes back with its old keys: the visits PostgreSQL
// counted meanwhile are in the key before a node counts in Redis again.
func TestRedisBackNotBehind(t *testing.T) {
	t.Parallel()
	rs := testenv.NewRedisServer(t)
	c := newCluster(t, rs.URL(), "sl:")
	const interval = 100 * time.Millisecond
	a, b := c.node(interval), c.node(interval)
	const link, max = 3, 50
	passed := hammer(t, []*node{a, b}, link, max, 10)
	rc := testenv.RedisInspector(t, rs.URL())
	testenv.Eventually(t, 10*time.Second, "the visits written, the key holding 10", func() bool {
		got, _, _ := rc.Get(context.Background(), "sl:visitcap:"+strconv.Itoa(link))
		return got == "10"
	})
	// The outage's promise is exact counting from what the nodes had written: a visit another
	// node counted in Redis and had not written when it failed can pass again (the package's
	// doc), so the pause comes after both wrote theirs.
	testenv.Eventually(t, 10*time.Second, "the count of 10 stored", func() bool { return stored(t, a, link) == 10 })

	// Long enough for the visits below on a machine busy with other tests.
	const pause = 6 * time.Second
	if err := rs.Do("CLIENT", "PAUSE", strconv.Itoa(int(pause.Milliseconds())), "ALL"); err != nil {
		t.Fatal(err)
	}
	paused := time.Now()
	passed += hammer(t, []*node{a, b}, link, max, 20)
	if time.Since(paused) > pause-time.Second {
		t.Fatal("the visits took longer than the pause; the test proves nothing")
	}
	if !a.counter.RedisDown() || !b.counter.RedisDown() {
		t.Fatal("the nodes did not notice the pause")
	}
	testenv.Eventually(t, pause+10*time.Second, "Redis in use again", func() bool {
		return !a.counter.RedisDown() && !b.counter.RedisDown()
	})
	if got, _, _ := rc.Get(context.Background(), "sl:visitcap:"+strconv.Itoa(link)); got != "30" {
		t.Errorf("the key holds %q after the outage, want 30", got)
	}
	passed += hammer(t, []*node{a, b}, link, max, 1000)
	if passed != max {
		t.Errorf("%d passed a cap of %d across an outage", passed, max)
	}
}

// Redis fails before the node wrote what it counted there: its counts in the Store start from
// the highest it saw, so no visit it let through passes twice.
func TestRedisDownBeforeWrite(t *testing.T) {
	t.Parallel()
	rs := testenv.NewRedisServer(t)
	c := newCluster(t, rs.URL(), "sl:")
	a := c.node(never)
	const link, max = 4, 20
	if got := hammer(t, []*node{a}, link, max, 10); got != 10 {
		t.Fatalf("%d passed", got)
	}
	if got := stored(t, a, link); got != 0 {
		t.Fatalf("stored %d before any write", got)
	}
	rs.Stop()
	if got := hammer(t, []*node{a}, link, max, 100); got != max-10 {
		t.Errorf("%d passed after Redis failed, want %d", got, max-10)
	}
	if !a.counter.RedisDown() {
		t.Error("the node did not notice Redis stopped")
	}
	if got := stored(t, a, link); got != max {
		t.Errorf("stored %d, want %d", got, max)
	}
}

// PostgreSQL down, Redis up: links whose counters Redis holds keep counting there; a link that
// must be seeded fails, without sending the node's other links to the Store.
func TestStoreDown(t *testing.T) {
	t.Parallel()
	opt, prefix := sharedRedis(t)
	c := newCluster(t, opt, prefix)
	a := c.node(never)
	const seeded, unseeded = 1, 2
	if got := hammer(t, []*node{a}, seeded, 10, 5); got != 5 {
		t.Fatalf("%d passed", got)
	}
	a.db.Close()
	if _, err := a.counter.Take(context.Background(), unseeded, 10); err == nil {
		t.Error("a counter that could not be seeded counted")
	}
	if a.counter.RedisDown() {
		t.Error("a failing Store sent the node to the Store")
	}
	if got := hammer(t, []*node{a}, seeded, 10, 20); got != 5 {
		t.Errorf("%d passed with PostgreSQL down, want 5", got)
	}
}

// Close writes the last counts: a graceful restart followed by a Redis loss gives nothing back.
func TestCloseWrites(t *testing.T) {
	t.Parallel()
	rs := testenv.NewRedisServer(t)
	c := newCluster(t, rs.URL(), "sl:")
	a := c.node(never)
	const link = 8
	if got := hammer(t, []*node{a}, link, 50, 30); got != 30 {
		t.Fatalf("%d passed", got)
	}
	a.counter.Close()
	if err := rs.Do("FLUSHALL"); err != nil {
		t.Fatal(err)
	}
	b := c.node(never)
	if got := hammer(t, []*node{b}, link, 50, 100); got != 20 {
		t.Errorf("%d passed after a restart and a Redis loss, want 20", got)
	}
}

// BenchmarkTake is the Redis path of a capped link that is still open (one script call), next
// to a plain INCR, the floor of any Redis counter, and the PostgreSQL path of Redis down.
func BenchmarkTake(b *testing.B) {
	rdb := testenv.RedisInspector(b, testenv.RedisURL(b))
	db := testenv.DB(b)
	prefix := testenv.RedisPrefix(b)
	shared, err := redis.Open(context.Background(), testenv.RedisURL(b), prefix)
	if err != nil {
		b.Fatal(err)
	}
	defer func() { _ = shared.Close() }()
	counter := visitcap.New(redis.NewVisitCaps(shared), postgres.NewVisitCounts(db), quiet)
	defer counter.Close()
	dead, _ := redis.Open(context.Background(), "redis://"+closedPort(b), prefix)
	defer func() { _ = dead.Close() }()
	down := visitcap.New(redis.NewVisitCaps(dead), postgres.NewVisitCounts(db), quiet)
	defer down.Close()
	ctx := context.Background()
	const open = 1 << 62
	for _, c := range []*visitcap.Counter{counter, down} { // seeded; Redis known down
		if _, err := c.Take(ctx, 1, open); err != nil {
			b.Fatal(err)
		}
	}
	bench := func(name string, take func() error) {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := take(); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/parallel", func(b *testing.B) {
			b.ReportAllocs()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					if err := take(); err != nil {
						b.Error(err)
						return
					}
				}
			})
		})
	}
	bench("redis", func() error { _, err := counter.Take(ctx, 1, open); return err })
	bench("incr-floor", func() error { _, err := rdb.Incr(ctx, prefix+"floor"); return err })
	bench("postgres", func() error { _, err := down.Take(ctx, 2, open); return err })
}

// closedPort is a loopback address nothing listens on.
func closedPort(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	_ = ln.Close()
	return addr
}
