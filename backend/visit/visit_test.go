package visit_test

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"maps"
	"math"
	"net"
	"net/netip"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/shortlink/shortlink/backend/moderation"
	"github.com/shortlink/shortlink/backend/postgres"
	"github.com/shortlink/shortlink/backend/redis"
	"github.com/shortlink/shortlink/backend/stats"
	"github.com/shortlink/shortlink/backend/testenv"
	"github.com/shortlink/shortlink/backend/visit"
	"github.com/shortlink/shortlink/backend/visitor"
)

var quiet = slog.New(slog.DiscardHandler)

var hasher = visit.NewHasher([]byte("test secret"))

// events makes n events of links 1..links at now, every seventh a crawler's.
func events(n, links int) []visit.Event {
	now := time.Now()
	out := make([]visit.Event, n)
	for i := range out {
		v := &visitor.Visitor{IP: netip.AddrFrom4([4]byte{10, 0, byte(i >> 8), byte(i)}), Country: "FR"}
		v.Device, v.OS, v.Browser, v.Crawler = visitor.Desktop, "Linux", "Firefox", i%7 == 0
		t := visit.Target{LinkID: int64(1 + i%links), WorkspaceID: 7, DomainID: 0}
		out[i] = visit.NewEvent(now, t, -1, v, "https://Example.com/page", "agent", hasher)
	}
	return out
}

// want counts the people and the crawlers of each link.
func want(evs []visit.Event) map[int64][2]int64 {
	m := map[int64][2]int64{}
	for _, e := range evs {
		c := m[e.LinkID]
		if e.Crawler {
			c[1]++
		} else {
			c[0]++
		}
		m[e.LinkID] = c
	}
	return m
}

func stored(t *testing.T, db *postgres.DB) int {
	t.Helper()
	var n int
	if err := db.Pool.QueryRow(context.Background(), `SELECT count(*) FROM visits`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// checkStored fails t unless visits holds exactly evs, each once, and the rollups add up to them.
func checkStored(t *testing.T, db *postgres.DB, evs []visit.Event) {
	t.Helper()
	ctx := context.Background()
	var rows, distinct int
	if err := db.Pool.QueryRow(ctx, `SELECT count(*), count(DISTINCT event_id) FROM visits`).Scan(&rows, &distinct); err != nil {
		t.Fatal(err)
	}
	if rows != len(evs) || distinct != len(evs) {
		t.Errorf("visits holds %d rows, %d distinct events; want %d", rows, distinct, len(evs))
	}
	r, err := db.Pool.Query(ctx, `SELECT link_id, sum(visits), sum(bots) FROM visit_hours GROUP BY link_id`)
	if err != nil {
		t.Fatal(err)
	}
	got := map[int64][2]int64{}
	for r.Next() {
		var id, v, b int64
		if err := r.Scan(&id, &v, &b); err != nil {
			t.Fatal(err)
		}
		got[id] = [2]int64{v, b}
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	w := want(evs)
	if len(got) != len(w) {
		t.Errorf("rollups of %d links, want %d", len(got), len(w))
	}
	for id, c := range w {
		if got[id] != c {
			t.Errorf("link %d: rollups count %v (people, crawlers), want %v", id, got[id], c)
		}
	}
}

// pending is how many entries of the stream the group has not acknowledged.
func pending(t *testing.T, rdb *redis.Inspector, prefix string) int64 {
	t.Helper()
	p, err := rdb.XPending(context.Background(), visit.StreamKey(prefix), visit.Group)
	if err != nil {
		t.Fatal(err)
	}
	return p.Count
}

// runUntil runs the consumers at once until visits holds n rows (or 30 s pass), then stops them.
func runUntil(t *testing.T, db *postgres.DB, n int, consumers ...*visit.Consumer) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for _, c := range consumers {
		wg.Add(1)
		go func() { defer wg.Done(); c.Run(ctx) }()
	}
	deadline := time.Now().Add(30 * time.Second)
	for stored(t, db) < n && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	cancel()
	wg.Wait()
}

// testRedis is the test run's Redis in a namespace of t's own: the server's client, and an
// Inspector to look inside the stream with.
func testRedis(t testing.TB) (*redis.Client, *redis.Inspector, string) {
	t.Helper()
	rc, prefix := testenv.Redis(t)
	return rc, testenv.RedisInspector(t, testenv.RedisURL(t)), prefix
}

func consumer(rc *redis.Client, name string, db *postgres.DB) *visit.Consumer {
	c := visit.NewConsumer(visit.ConsumerOptions{Stream: redis.NewVisitStream(rc), Name: name,
		Store: postgres.NewVisits(db), Log: quiet})
	c.SetBlock(50 * time.Millisecond)
	return c
}

// Events captured on two nodes at once, read by two consumers at once, are stored exactly once
// each and counted once each in the rollups.
func TestTwoBuffersTwoConsumers(t *testing.T) {
	t.Parallel()
	db := testenv.DB(t)
	rc, rdb, prefix := testRedis(t)
	store := postgres.NewVisits(db)
	a := visit.NewBuffer(visit.Options{Stream: redis.NewVisitStream(rc), Store: store, Log: quiet, Size: 0})
	b := visit.NewBuffer(visit.Options{Stream: redis.NewVisitStream(rc), Store: store, Log: quiet, Size: 0})
	evs := events(20000, 13)

	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	var consumers []*visit.Consumer
	for _, name := range []string{"node-a", "node-b"} {
		c := consumer(rc, name, db)
		consumers = append(consumers, c)
		wg.Add(1)
		go func() { defer wg.Done(); c.Run(ctx) }()
	}
	var capture sync.WaitGroup
	for w := range 8 {
		capture.Add(1)
		go func() {
			defer capture.Done()
			buf := a
			if w%2 == 1 {
				buf = b
			}
			for i := w; i < len(evs); i += 8 {
				buf.Capture(visit.HitOf(evs[i]))
			}
		}()
	}
	capture.Wait()
	a.Close()
	b.Close()
	deadline := time.Now().Add(30 * time.Second)
	for stored(t, db) < len(evs) && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	// A step of each consumer that began after every event was stored has finished: a late
	// double count would show now.
	for _, c := range consumers {
		from := c.Steps()
		testenv.Eventually(t, 10*time.Second, "two more steps of a consumer", func() bool { return c.Steps() >= from+2 })
	}
	cancel()
	wg.Wait()
	checkStored(t, db, evs)
	if n := pending(t, rdb, prefix); n != 0 {
		t.Errorf("%d entries left unacknowledged", n)
	}
}

// A consumer that read entries and died before acknowledging them, having stored some, leaves
// them to another consumer, which stores the rest and counts each event once.
func TestDeadConsumerEntriesClaimed(t *testing.T) {
	t.Parallel()
	db := testenv.DB(t)
	rc, rdb, prefix := testRedis(t)
	store := postgres.NewVisits(db)
	ctx := context.Background()
	stream := visit.StreamKey(prefix)
	if err := rdb.XGroupCreateMkStream(ctx, stream, visit.Group, "0"); err != nil {
		t.Fatal(err)
	}
	evs := events(300, 5)
	// Five nodes' buffers: five entries at least.
	for i := 0; i < len(evs); i += 60 {
		buf := visit.NewBuffer(visit.Options{Stream: redis.NewVisitStream(rc), Store: store, Log: quiet, Size: 0})
		for _, e := range evs[i : i+60] {
			buf.Capture(visit.HitOf(e))
		}
		buf.Close()
	}

	// The dead consumer reads every entry, stores the batches of the first two and dies
	// before acknowledging any.
	read, err := rdb.XReadGroup(ctx, stream, visit.Group, "dead", 1000)
	if err != nil {
		t.Fatalf("dead consumer read: %v", err)
	}
	readAt := time.Now()
	entries, inEntries := len(read), 0
	var batches []visit.Batch
	for _, m := range read {
		var batch visit.Batch
		if err := json.Unmarshal([]byte(m.Values["e"].(string)), &batch); err != nil {
			t.Fatal(err)
		}
		inEntries += len(batch)
		batches = append(batches, batch)
	}
	if inEntries != len(evs) || entries < 5 {
		t.Fatalf("the stream holds %d events in %d entries, want %d in 5 or more", inEntries, entries, len(evs))
	}
	if _, err := store.Insert(ctx, batches[:2]); err != nil {
		t.Fatal(err)
	}
	storedFirst := len(batches[0]) + len(batches[1])
	if n := pending(t, rdb, prefix); n != int64(entries) {
		t.Fatalf("%d entries pending, want %d", n, entries)
	}

	live := consumer(rc, "live", db)
	// Long enough for the store above to finish first on a busy machine.
	const claimAfter = 2 * time.Second
	live.SetClaimAfter(claimAfter)
	// Not idle long enough yet: nothing is claimed.
	if n, err := live.Step(ctx); err != nil || n != 0 {
		t.Fatalf("claimed early: %d events, %v", n, err)
	}
	time.Sleep(time.Until(readAt.Add(claimAfter + 100*time.Millisecond)))
	n, err := live.Step(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if n != len(evs)-storedFirst {
		t.Errorf("the live consumer stored %d new events, want %d", n, len(evs)-storedFirst)
	}
	checkStored(t, db, evs)
	if n := pending(t, rdb, prefix); n != 0 {
		t.Errorf("%d entries left unacknowledged", n)
	}
}

// The same batch delivered twice (twice in one insert, in two inserts, in the stream and
// stored directly by its node) is stored and counted once; a batch holding other events is new.
func TestSameBatchTwice(t *testing.T) {
	t.Parallel()
	db := testenv.DB(t)
	rc, rdb, prefix := testRedis(t)
	store := postgres.NewVisits(db)
	ctx := context.Background()
	evs := events(10, 2)
	first, second := visit.Batch(evs[:3]), visit.Batch(evs[3:5])
	if st, err := store.Insert(ctx, []visit.Batch{first, first}); err != nil || st.Events != 3 {
		t.Fatalf("insert: %d new, %v; want 3", st.Events, err)
	}
	if st, err := store.Insert(ctx, []visit.Batch{first}); err != nil || st.Events != 0 {
		t.Fatalf("insert again: %d new, %v; want 0", st.Events, err)
	}
	if st, err := store.Insert(ctx, []visit.Batch{second, first}); err != nil || st.Events != 2 {
		t.Fatalf("insert with a new batch: %d new, %v; want 2", st.Events, err)
	}
	// A node that is not sure Redis took its entry stores the batch itself.
	buf := visit.NewBuffer(visit.Options{Stream: redis.NewVisitStream(rc), Store: store, Log: quiet, Size: 0})
	for _, e := range evs[5:] {
		buf.Capture(visit.HitOf(e))
	}
	buf.Close()
	entries, err := rdb.XRange(ctx, visit.StreamKey(prefix), "-", "+")
	if err != nil {
		t.Fatal(err)
	}
	direct := 0
	for _, m := range entries {
		var batch visit.Batch
		if err := json.Unmarshal([]byte(m.Values["e"].(string)), &batch); err != nil {
			t.Fatal(err)
		}
		st, err := store.Insert(ctx, []visit.Batch{batch})
		if err != nil {
			t.Fatal(err)
		}
		direct += st.Events
	}
	if direct != len(evs)-5 {
		t.Errorf("stored directly %d new events, want %d", direct, len(evs)-5)
	}
	c := consumer(rc, "only", db)
	n, err := c.Step(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Errorf("the consumer stored %d new events, want none", n)
	}
	checkStored(t, db, evs)
}

// downRedis is a client of a Redis that does not answer: a port nothing listens on.
func downRedis(t *testing.T) *redis.Client {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	_ = ln.Close()
	rc, _ := redis.Open(context.Background(), "redis://"+addr, "unused:") // no answer: no error here
	t.Cleanup(func() { _ = rc.Close() })
	return rc
}

// With Redis down, captured events go to PostgreSQL directly, each counted once; Close leaves
// none behind.
func TestRedisDownWritesToPostgres(t *testing.T) {
	t.Parallel()
	db := testenv.DB(t)
	buf := visit.NewBuffer(visit.Options{Stream: redis.NewVisitStream(downRedis(t)), Store: postgres.NewVisits(db), Log: quiet, Size: 0})
	evs := events(5000, 4)
	for _, e := range evs {
		buf.Capture(visit.HitOf(e))
	}
	buf.Close()
	checkStored(t, db, evs)
}

// Events of days without a partition yet (a backlog, a clock ahead) create their partitions.
func TestMissingPartitions(t *testing.T) {
	t.Parallel()
	db := testenv.DB(t)
	store := postgres.NewVisits(db)
	evs := events(6, 2)
	for i := range evs {
		evs[i].At = time.Date(2024, 2, 28+i%3, 23, 30, 0, 0, time.UTC)
	}
	if st, err := store.Insert(context.Background(), []visit.Batch{evs}); err != nil || st.Events != len(evs) {
		t.Fatalf("insert: %d new, %v", st.Events, err)
	}
	checkStored(t, db, evs)
	var hours int
	if err := db.Pool.QueryRow(context.Background(), `SELECT count(DISTINCT hour) FROM visit_hours`).Scan(&hours); err != nil || hours != 3 {
		t.Errorf("rollups of %d hours, want 3 (%v)", hours, err)
	}
}

// blockedStore never returns while its gate is closed, so that the buffer fills up.
type blockedStore struct{ gate chan struct{} }

func (s blockedStore) Insert(ctx context.Context, batches []visit.Batch) (visit.Stored, error) {
	<-s.gate
	n := 0
	for _, b := range batches {
		n += len(b)
	}
	return visit.Stored{Events: n}, nil
}

func (s blockedStore) CreatePartitions(context.Context, time.Time, int) error { return nil }

func (s blockedStore) DropPartitions(context.Context, time.Time, time.Time) (int, error) {
	return 0, nil
}

func (s blockedStore) CompactDays(context.Context, time.Time) (int, error) { return 0, nil }

// Capture never waits: a full buffer drops the event and counts it.
func TestCaptureNeverBlocks(t *testing.T) {
	t.Parallel()
	gate := make(chan struct{})
	buf := visit.NewBuffer(visit.Options{Store: blockedStore{gate}, Log: quiet, Size: 10})
	before := visit.DroppedFull()
	start := time.Now()
	const n = 5000
	for _, e := range events(n, 1) {
		buf.Capture(visit.HitOf(e))
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("%d captures took %v", n, d)
	}
	// The buffer holds 10, and the flusher may have gathered up to a batch into the one its
	// store blocks on, and be holding a few more: everything else is dropped.
	if got, want := visit.DroppedFull()-before, float64(n-visit.BatchSize-2*10); got < want {
		t.Errorf("%v events counted as dropped, want at least %v", got, want)
	}
	close(gate)
	buf.Close()
}

func TestVisitorHash(t *testing.T) {
	t.Parallel()
	ip := netip.MustParseAddr("203.0.113.9")
	day := time.Date(2026, 3, 1, 1, 0, 0, 0, time.UTC)
	h := hasher.Hash(day, ip, "ua")
	if len(h) != 16 {
		t.Fatalf("hash of %d bytes", len(h))
	}
	for _, c := range []struct {
		name string
		at   time.Time
		ip   netip.Addr
		ua   string
		same bool
	}{
		{"same day", day.Add(20 * time.Hour), ip, "ua", true},
		{"next day", day.Add(24 * time.Hour), ip, "ua", false},
		{"other agent", day, ip, "ua2", false},
		{"other address", day, netip.MustParseAddr("203.0.113.10"), "ua", false},
		{"mapped address", day, netip.MustParseAddr("::ffff:203.0.113.9"), "ua", true},
	} {
		if got := string(hasher.Hash(c.at, c.ip, c.ua)) == string(h); got != c.same {
			t.Errorf("%s: same hash %v, want %v", c.name, got, c.same)
		}
	}
	if string(visit.NewHasher([]byte("other")).Hash(day, ip, "ua")) == string(h) {
		t.Error("another secret gives the same hash")
	}
	// Hashes stored by earlier versions: a change of the hash would count every visitor of
	// the day of a deployment twice.
	for addr, want := range map[string]string{
		"203.0.113.9":        "b1f3b2aab331bf23be80917e947d21f9",
		"::ffff:203.0.113.9": "b1f3b2aab331bf23be80917e947d21f9",
		"2001:db8::1":        "b4384261584e23dcb847e9a6e1f8861a",
		"fe80::1%eth0":       "0f16f393703cfa5fa218dd30de5ff7fd",
	} {
		if got := hex.EncodeToString(hasher.Hash(day, netip.MustParseAddr(addr), "ua")); got != want {
			t.Errorf("hash of %s: %s, want %s", addr, got, want)
		}
	}
	if got := hex.EncodeToString(hasher.Hash(day, netip.Addr{}, "ua")); got != "9d48dcc4f3df9c09ab49043eeb871b0a" {
		t.Errorf("hash of no address: %s", got)
	}
}

// The flusher's event IDs are version 7 UUIDs of the visit's millisecond, all different.
func TestEventIDs(t *testing.T) {
	t.Parallel()
	buf := visit.NewBuffer(visit.Options{Store: blockedStore{}, Log: quiet})
	defer buf.Close()
	at := time.Date(2026, 11, 27, 10, 0, 0, 123_456_789, time.UTC)
	seen := make(map[uuid.UUID]bool)
	for range 100_000 {
		id := buf.NewID(at)
		if id.Version() != 7 || id.Variant() != uuid.RFC4122 {
			t.Fatalf("%s: version %d, variant %s", id, id.Version(), id.Variant())
		}
		if sec, nsec := id.Time().UnixTime(); !time.Unix(sec, nsec).Equal(at.Truncate(time.Millisecond)) {
			t.Fatalf("%s: time %v, want %v", id, time.Unix(sec, nsec).UTC(), at.Truncate(time.Millisecond))
		}
		if seen[id] {
			t.Fatalf("%s twice", id)
		}
		seen[id] = true
	}
	if later := buf.NewID(at.Add(time.Millisecond)); later.String() <= buf.NewID(at).String() {
		t.Error("an ID of a later millisecond sorts first")
	}
}

func TestRefererHost(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"":                         "",
		"https://WWW.Example.com/": "www.example.com",
		"http://a.example:8080/x":  "a.example",
		"android-app://com.x/":     "com.x",
		"not a url":                "",
		"http://[2001:db8::1]:80/": "2001:db8::1",
	} {
		if got := visit.RefererHost(in); got != want {
			t.Errorf("RefererHost(%q) = %q, want %q", in, got, want)
		}
	}
}

// person and crawler make an event of link id at the given time, by a visitor of their own.
func person(id int64, at time.Time, n int) visit.Event {
	v := &visitor.Visitor{IP: netip.AddrFrom4([4]byte{192, 0, byte(n >> 8), byte(n)}), Country: "DE"}
	v.Device, v.OS, v.Browser = visitor.IOS, "iOS", "Safari"
	return visit.NewEvent(at, visit.Target{LinkID: id, WorkspaceID: 3}, -1, v, "", "ua", hasher)
}

func crawler(id int64, at time.Time, n int) visit.Event {
	e := person(id, at, n)
	e.Crawler = true
	return e
}

// A link is due for moderation each time its people's visits reach a power of two, in whatever
// batches they come; crawlers never make it due; the queue holds it once.
func TestMilestonesQueued(t *testing.T) {
	t.Parallel()
	db := testenv.DB(t)
	rc, rdb, prefix := testRedis(t)
	store := postgres.NewVisits(db)
	queue := moderation.NewQueue(redis.NewReviewQueue(rc))
	ctx := context.Background()
	now := time.Now()

	// Crawlers alone: nothing is due.
	var bots []visit.Event
	for i := range 40 {
		bots = append(bots, crawler(1, now, i))
	}
	if st, err := store.Insert(ctx, []visit.Batch{bots}); err != nil || len(st.Due) != 0 {
		t.Fatalf("crawlers: due %v, %v", st.Due, err)
	}
	// People in batches of 1, 1, 3, 2, 10, 1: counts 1, 2, 5, 7, 17, 18 pass 1, 2, 4, then 8 and
	// 16 in one batch.
	n := 0
	dueAt := []int{}
	for _, size := range []int{1, 1, 3, 2, 10, 1} {
		var batch []visit.Event
		for range size {
			n++
			batch = append(batch, person(1, now, n), crawler(1, now, 1000+n))
		}
		st, err := store.Insert(ctx, []visit.Batch{batch})
		if err != nil {
			t.Fatal(err)
		}
		if len(st.Due) > 0 {
			dueAt = append(dueAt, n)
			if err := queue.Enqueue(ctx, now, st.Due...); err != nil {
				t.Fatal(err)
			}
		}
	}
	if want := []int{1, 2, 5, 17}; !slices.Equal(dueAt, want) {
		t.Errorf("due after %v people's visits, want %v", dueAt, want)
	}
	var visits int64
	if err := db.Pool.QueryRow(ctx, `SELECT visits FROM moderation_due WHERE link_id = 1`).Scan(&visits); err != nil || visits != 17 {
		t.Errorf("moderation_due records %d visits (%v), want 17", visits, err)
	}
	members, err := rdb.ZRangeWithScores(ctx, moderation.DueKey(prefix), 0, -1)
	// Served ahead of new links by the lead a visit milestone has in the queue.
	want := now.Add(-moderation.LeadVisits).UnixMilli()
	if err != nil || len(members) != 1 || members[0].Member != "1" || int64(members[0].Score) != want {
		t.Errorf("queue holds %v (%v), want link 1 due at %d", members, err, want)
	}
	// The same events again make nothing due.
	if st, err := store.Insert(ctx, []visit.Batch{{person(1, now, 1)}}); err != nil || len(st.Due) != 0 || st.Events != 1 {
		t.Errorf("a new visit after 18: %+v, %v", st, err)
	}
}

// Unique visitors: a person counts once per UTC day, in the hour first seen; crawlers never.
// The breakdowns count people by each key, per hour and per day; totals add up.
func TestRollups(t *testing.T) {
	t.Parallel()
	db := testenv.DB(t)
	store := postgres.NewVisits(db)
	ctx := context.Background()
	day1 := time.Date(2026, 5, 4, 10, 15, 0, 0, time.UTC)
	day2 := day1.Add(24 * time.Hour)
	evs := []visit.Event{
		person(5, day1, 1), person(5, day1.Add(time.Hour), 1), // same person, same day: 1
		person(5, day1.Add(time.Hour), 2),
		person(5, day2, 1), // the first person again the next day: 1 more
		crawler(5, day1, 9),
	}
	evs[2].Country, evs[2].Device, evs[2].Referrer, evs[2].Variant = "FR", "android", "t.co", 1
	// Delivered in two batches, the first one twice: each event counts once.
	for _, b := range []visit.Batch{evs[:3], evs[3:], evs[:3]} {
		if _, err := store.Insert(ctx, []visit.Batch{b}); err != nil {
			t.Fatal(err)
		}
	}
	type hour struct{ visits, bots, uniques int64 }
	got := map[time.Time]hour{}
	rows, err := db.Pool.Query(ctx, `SELECT hour, visits, bots, uniques FROM visit_hours WHERE link_id = 5`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var h time.Time
		var c hour
		if err := rows.Scan(&h, &c.visits, &c.bots, &c.uniques); err != nil {
			t.Fatal(err)
		}
		got[h.UTC()] = c
	}
	h10 := day1.Truncate(time.Hour)
	want := map[time.Time]hour{
		h10:                     {1, 1, 1},
		h10.Add(time.Hour):      {2, 0, 1},
		h10.Add(24 * time.Hour): {1, 0, 1},
	}
	if !maps.Equal(got, want) {
		t.Errorf("visit_hours %v, want %v", got, want)
	}
	var v, b, u int64
	if err := db.Pool.QueryRow(ctx, `SELECT visits, bots, uniques FROM visit_totals WHERE link_id = 5`).Scan(&v, &b, &u); err != nil || v != 4 || b != 1 || u != 3 {
		t.Errorf("visit_totals %d/%d/%d (%v), want 4 people, 1 crawler, 3 uniques", v, b, u, err)
	}
	// The days are over: their hourly breakdowns are summed into daily ones.
	if _, err := store.CompactDays(ctx, time.Now()); err != nil {
		t.Fatal(err)
	}
	keys := map[string]int64{}
	rows, err = db.Pool.Query(ctx, `SELECT dim::text || ':' || key, sum(visits) FROM visit_key_days WHERE link_id = 5 GROUP BY 1`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var k string
		var n int64
		if err := rows.Scan(&k, &n); err != nil {
			t.Fatal(err)
		}
		keys[k] = n
	}
	wantKeys := map[string]int64{"c:DE": 3, "c:FR": 1, "a:" + visit.AgentKey("ios", "iOS", "Safari", ""): 3,
		"a:" + visit.AgentKey("android", "iOS", "Safari", ""): 1, "r:t.co": 1, "v:1": 1}
	if !maps.Equal(keys, wantKeys) {
		t.Errorf("breakdowns %v, want %v", keys, wantKeys)
	}
	var hourKeys, dayKeys int64
	if err := db.Pool.QueryRow(ctx, `SELECT (SELECT sum(visits) FROM visit_key_hours WHERE link_id = 5),
		(SELECT sum(visits) FROM visit_key_days WHERE link_id = 5)`).Scan(&hourKeys, &dayKeys); err != nil || hourKeys != dayKeys {
		t.Errorf("hourly breakdowns add up to %d, daily to %d (%v)", hourKeys, dayKeys, err)
	}
}

// The device, system, browser and in-app browser of a visit are stored as one agent key and
// read apart again, each summed with the rows stored apart before the agent key; a part that
// is unknown counts in no breakdown of its own, and neither does a visit whose agent is all
// unknown.
func TestAgentKeysReadApart(t *testing.T) {
	t.Parallel()
	db := testenv.DB(t)
	store := postgres.NewVisits(db)
	reads := postgres.NewStatsStore(db)
	ctx := context.Background()
	hour := time.Now().UTC().Truncate(time.Hour)
	at := hour.Add(time.Minute)
	evs := []visit.Event{person(11, at, 1), person(11, at, 2)} // ios, iOS, Safari
	noOS := person(11, at, 3)
	noOS.Device, noOS.OS, noOS.Browser = "desktop", "", "Firefox"
	unknown := person(11, at, 4)
	unknown.Device, unknown.OS, unknown.Browser = "", "", ""
	inApp := person(11, at, 5)
	inApp.InApp = "wechat"
	onlyApp := person(11, at, 6)
	onlyApp.Device, onlyApp.OS, onlyApp.Browser, onlyApp.InApp = "", "", "", "instagram"
	evs = append(evs, noOS, unknown, inApp, onlyApp)
	if _, err := store.Insert(ctx, []visit.Batch{evs}); err != nil {
		t.Fatal(err)
	}
	// Rows of the same hour as they were stored before the agent key.
	if _, err := db.Pool.Exec(ctx, `INSERT INTO visit_key_hours (link_id, hour, dim, key, visits)
		VALUES (11, $1, 'd', 'ios', 5), (11, $1, 'o', 'iOS', 5), (11, $1, 'b', 'Safari', 4), (11, $1, 'b', 'Chrome', 1),
			(11, $1, 'i', 'wechat', 2)`, hour); err != nil {
		t.Fatal(err)
	}
	keys, err := reads.LinkKeys(ctx, 11, stats.Span{}, []stats.Span{{From: hour, To: hour.Add(time.Hour)}}, 10)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int64{}
	for _, k := range keys {
		got[string(k.Dim)+":"+k.Key] = k.Visits
	}
	want := map[string]int64{"c:DE": 6, "d:ios": 8, "d:desktop": 1, "o:iOS": 8, "b:Safari": 7, "b:Chrome": 1,
		"b:Firefox": 1, "i:wechat": 3, "i:instagram": 1}
	if !maps.Equal(got, want) {
		t.Errorf("breakdowns %v, want %v", got, want)
	}
}

// Once a day is over its hourly breakdowns are summed into daily ones; the statistics read
// the same numbers before and after, and visits arriving late for a summed day, even while it
// is being summed, count once in both.
func TestCompactDays(t *testing.T) {
	t.Parallel()
	db := testenv.DB(t)
	store := postgres.NewVisits(db)
	reads := postgres.NewStatsStore(db)
	ctx := context.Background()
	today := time.Now().UTC().Truncate(24 * time.Hour)
	first := today.AddDate(0, 0, -3)
	if _, err := db.Pool.Exec(ctx, `UPDATE visit_rollups SET key_days_before = $1::date`, first.Format(time.DateOnly)); err != nil {
		t.Fatal(err)
	}
	n := 0
	var evs []visit.Event
	for d := range 4 { // three days over, and today
		for h := range 3 {
			for range d + h + 1 {
				n++
				evs = append(evs, person(9, first.AddDate(0, 0, d).Add(time.Duration(5*h)*time.Hour+time.Minute), n))
			}
		}
	}
	if _, err := store.Insert(ctx, []visit.Batch{evs}); err != nil {
		t.Fatal(err)
	}
	read := func() map[string]int64 {
		t.Helper()
		keys, err := reads.LinkKeys(ctx, 9, stats.Span{From: first, To: today.AddDate(0, 0, 1)}, nil, 10)
		if err != nil {
			t.Fatal(err)
		}
		m := map[string]int64{}
		for _, k := range keys {
			m[string(k.Dim)+":"+k.Key] = k.Visits
		}
		return m
	}
	all := int64(len(evs))
	want := map[string]int64{"c:DE": all, "d:ios": all, "o:iOS": all, "b:Safari": all}
	if got := read(); !maps.Equal(got, want) {
		t.Fatalf("before summing: %v, want %v", got, want)
	}
	if days, err := store.CompactDays(ctx, time.Now()); err != nil || days != 3 {
		t.Fatalf("summed %d days (%v), want 3", days, err)
	}
	if days, err := store.CompactDays(ctx, time.Now()); err != nil || days != 0 {
		t.Fatalf("summed %d days again (%v), want none", days, err)
	}
	if got := read(); !maps.Equal(got, want) {
		t.Fatalf("after summing: %v, want %v", got, want)
	}
	var daily int64
	if err := db.Pool.QueryRow(ctx, `SELECT count(*) FROM visit_key_days WHERE link_id = 9`).Scan(&daily); err != nil || daily != 3*2 {
		t.Errorf("%d daily rows (%v), want 2 keys (the country, the agent) on 3 days", daily, err)
	}

	// Late visits for yesterday while it is being summed: batches on four connections, and
	// the sum in the middle.
	if _, err := db.Pool.Exec(ctx, `UPDATE visit_rollups SET key_days_before = $1::date`, today.AddDate(0, 0, -1).Format(time.DateOnly)); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	late := 0
	for w := range 4 {
		batch := make([]visit.Event, 0, 50)
		for range 50 {
			n++
			batch = append(batch, person(9, today.Add(-time.Duration(1+w)*time.Hour), n))
		}
		late += len(batch)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range batch {
				if _, err := store.Insert(ctx, []visit.Batch{batch[i : i+1]}); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	if days, err := store.CompactDays(ctx, time.Now()); err != nil || days != 1 {
		t.Errorf("summed %d days (%v), want yesterday", days, err)
	}
	wg.Wait()
	all += int64(late)
	want = map[string]int64{"c:DE": all, "d:ios": all, "o:iOS": all, "b:Safari": all}
	if got := read(); !maps.Equal(got, want) {
		t.Errorf("with late visits: %v, want %v", got, want)
	}
	var hourly, summed int64
	if err := db.Pool.QueryRow(ctx, `SELECT
		(SELECT sum(visits) FROM visit_key_hours WHERE link_id = 9 AND hour >= $1 AND hour < $2),
		(SELECT sum(visits) FROM visit_key_days WHERE link_id = 9 AND day = $1::date)`,
		today.AddDate(0, 0, -1), today).Scan(&hourly, &summed); err != nil || hourly != summed {
		t.Errorf("yesterday's hours add up to %d, its day to %d (%v)", hourly, summed, err)
	}
}

// Partitions past the retention are dropped, and the visitor hashes of days before yesterday.
func TestDropPartitions(t *testing.T) {
	t.Parallel()
	db := testenv.DB(t)
	store := postgres.NewVisits(db)
	ctx := context.Background()
	old := time.Now().AddDate(0, 0, -30)
	if _, err := store.Insert(ctx, []visit.Batch{{person(8, old, 1)}}); err != nil {
		t.Fatal(err)
	}
	count := func(table string) (n int) {
		if err := db.Pool.QueryRow(ctx, `SELECT count(*) FROM `+table+` WHERE link_id = 8`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if count("visits") != 1 || count("visitor_sets") != 1 {
		t.Fatal("the old visit was not stored")
	}
	if _, err := store.DropPartitions(ctx, time.Now().AddDate(0, 0, -40), time.Now().AddDate(0, 0, -2)); err != nil {
		t.Fatal(err)
	}
	if count("visits") != 1 || count("visitor_sets") != 0 {
		t.Errorf("after dropping hashes only: %d visits, %d sets of hashes; want 1, 0", count("visits"), count("visitor_sets"))
	}
	n, err := store.DropPartitions(ctx, time.Now().AddDate(0, 0, -10), time.Now().AddDate(0, 0, -2))
	if err != nil || n < 1 {
		t.Fatalf("dropped %d partitions (%v)", n, err)
	}
	if count("visits") != 0 || count("visit_hours") != 1 {
		t.Errorf("after the retention: %d visits, %d rollup hours; want 0, 1", count("visits"), count("visit_hours"))
	}
}

// When Redis stops answering, the entries sent in the last seconds are stored straight into
// PostgreSQL: Redis may come back without them (no persistence), and those a consumer stored
// already count nothing.
func TestRedisLossResends(t *testing.T) {
	t.Parallel()
	db := testenv.DB(t)
	rc, shared, prefix := testRedis(t)
	node, err := redis.Open(context.Background(), testenv.RedisURL(t), prefix)
	if err != nil {
		t.Fatal(err)
	}
	buf := visit.NewBuffer(visit.Options{Stream: redis.NewVisitStream(node), Store: postgres.NewVisits(db), Log: quiet})
	evs := events(3000, 3)
	// A consumer stores the first 1000 before Redis goes.
	for _, e := range evs[:1000] {
		buf.Capture(visit.HitOf(e))
	}
	ctx := context.Background()
	testenv.Eventually(t, 10*time.Second, "the stream holds 1000 events", func() bool { return streamEvents(t, shared, prefix) == 1000 })
	runUntil(t, db, 1000, consumer(rc, "c", db))
	for _, e := range evs[1000:2990] {
		buf.Capture(visit.HitOf(e))
	}
	testenv.Eventually(t, 10*time.Second, "the stream holds 1990 events", func() bool { return streamEvents(t, shared, prefix) == 1990 })
	// Redis loses the stream, and stops answering this node.
	if _, err := shared.Del(ctx, visit.StreamKey(prefix)); err != nil {
		t.Fatal(err)
	}
	_ = node.Close()
	for _, e := range evs[2990:] {
		buf.Capture(visit.HitOf(e))
	}
	buf.Close()
	checkStored(t, db, evs)
}

// TestBufferKeepsWhatIsNotConsumed: a Buffer keeps the entries it sent until the consumer group
// has acknowledged them, however long that takes, and stores them itself when the stream loses
// them while Redis keeps answering (here the stream is deleted; a restart without persistence
// is found by Redis's run_id instead, which one shared Redis cannot show).
func TestBufferKeepsWhatIsNotConsumed(t *testing.T) {
	t.Parallel()
	db := testenv.DB(t)
	rc, rdb, prefix := testRedis(t)
	clock := &movingClock{}
	buf := visit.NewBuffer(visit.Options{Stream: redis.NewVisitStream(rc), Store: postgres.NewVisits(db), Log: quiet, Now: clock.Now})
	defer buf.Close()
	evs := events(4000, 5)
	for _, e := range evs[:1000] {
		buf.Capture(visit.HitOf(e))
	}
	testenv.Eventually(t, 10*time.Second, "the stream holds 1000 events", func() bool { return streamEvents(t, rdb, prefix) == 1000 })
	// The stream holds the entry before the flusher has its reply and keeps it.
	testenv.Eventually(t, 10*time.Second, "the buffer keeps 1000", func() bool { return buf.Kept() == 1000 })
	runUntil(t, db, 1000, consumer(rc, "c", db))
	// Once the group has acknowledged them, the next check forgets them (one a second, on a send).
	next := 1000
	testenv.Eventually(t, 10*time.Second, "the acknowledged visits forgotten", func() bool {
		buf.Capture(visit.HitOf(evs[next]))
		next++
		time.Sleep(50 * time.Millisecond)
		return buf.Kept() < 1000
	})
	// No consumer now: what is sent stays kept, past the checks. A second on, the last send
	// asks how far the group got.
	for _, e := range evs[next:3998] {
		buf.Capture(visit.HitOf(e))
	}
	testenv.Eventually(t, 10*time.Second, "the stream holds 2998 events", func() bool { return streamEvents(t, rdb, prefix) == 3998-1000 })
	clock.Add(time.Second)
	confirmedOnce(t, buf, func() { buf.Capture(visit.HitOf(evs[3998])) }, func() bool { return streamEvents(t, rdb, prefix) == 3999-1000 })
	if k := buf.Kept(); k < int64(3999-next) {
		t.Fatalf("kept %d visits, want the %d not consumed", k, 3999-next)
	}
	// The stream goes; the next send finds its entries missing and stores what it keeps itself,
	// that send's entry too (a consumer would count it nothing more).
	if _, err := rdb.Del(context.Background(), visit.StreamKey(prefix)); err != nil {
		t.Fatal(err)
	}
	clock.Add(time.Second)
	buf.Capture(visit.HitOf(evs[3999]))
	testenv.Eventually(t, 10*time.Second, "the buffer keeps nothing", func() bool { return buf.Kept() == 0 })
	buf.Close()
	checkStored(t, db, evs)
}

// movingClock is the time now plus what a test moved it on; safe for concurrent use.
type movingClock struct {
	mu    sync.Mutex
	ahead time.Duration
}

// Now is the time now, moved on.
func (c *movingClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return time.Now().Add(c.ahead)
}

// Add moves the clock on by d.
func (c *movingClock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.ahead += d
}

// confirmedOnce captures (send) and waits until sent holds (what it captured is in the
// stream) and the Buffer has checked the consumer group since: a send after a move of the
// clock past the checks' second asks it.
func confirmedOnce(t *testing.T, buf *visit.Buffer, send func(), sent func() bool) {
	t.Helper()
	from := buf.Confirms()
	send()
	testenv.Eventually(t, 10*time.Second, "the sent events in the stream, and a check of the group", func() bool {
		return sent() && buf.Confirms() > from
	})
}

// streamEvents is how many events the stream's entries hold that the group has not yet been
// given (every entry when there is no group): those given may be trimmed.
func streamEvents(t *testing.T, rdb *redis.Inspector, prefix string) int {
	t.Helper()
	ctx := context.Background()
	from := "-"
	groups, err := rdb.XInfoGroups(ctx, visit.StreamKey(prefix))
	if err != nil && !strings.Contains(err.Error(), "no such key") {
		t.Fatal(err)
	}
	for _, g := range groups {
		if g.Name == visit.Group {
			from = "(" + g.LastDeliveredID
		}
	}
	msgs, err := rdb.XRange(ctx, visit.StreamKey(prefix), from, "+")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, m := range msgs {
		var batch []visit.Event
		if err := json.Unmarshal([]byte(m.Values["e"].(string)), &batch); err != nil {
			t.Fatal(err)
		}
		n += len(batch)
	}
	return n
}

// The consumers trim from the stream what the group acknowledged, and no more: an entry still
// pending with a consumer stays, and so does every one after it. A Buffer's entries not yet
// consumed stay kept, and it does not take the trim for a loss.
func TestConsumerTrimsWhatIsAcknowledged(t *testing.T) {
	t.Parallel()
	db := testenv.DB(t)
	rc, rdb, prefix := testRedis(t)
	ctx := context.Background()
	key := visit.StreamKey(prefix)
	entries := func() int64 { n, _ := rdb.XLen(ctx, key); return n }
	clock := &movingClock{}
	buf := visit.NewBuffer(visit.Options{Stream: redis.NewVisitStream(rc), Store: postgres.NewVisits(db), Log: quiet, Now: clock.Now})
	defer buf.Close()
	evs := events(5000, 5)
	send := func(from, to int) {
		for _, e := range evs[from:to] {
			buf.Capture(visit.HitOf(e))
		}
	}
	for i := range 3 {
		send(i*1000, (i+1)*1000)
		testenv.Eventually(t, 10*time.Second, "the stream holds the sent events", func() bool { return streamEvents(t, rdb, prefix) == (i+1)*1000 })
	}
	sent := entries()
	if err := rdb.XGroupCreate(ctx, key, visit.Group, "0"); err != nil {
		t.Fatal(err)
	}
	// A consumer that then dies holds the first entry.
	held, err := rdb.XReadGroup(ctx, key, visit.Group, "dead", 1)
	if err != nil {
		t.Fatal(err)
	}
	var first []visit.Event
	if err := json.Unmarshal([]byte(held[0].Values["e"].(string)), &first); err != nil {
		t.Fatal(err)
	}
	c := consumer(rc, "c", db)
	c.SetClaimAfter(time.Hour)
	for n := 0; n < 3000-len(first); {
		got, err := c.Step(ctx)
		if err != nil {
			t.Fatal(err)
		}
		n += got
	}
	c.Measure(ctx)
	if n := entries(); n != sent {
		t.Fatalf("%d entries after a trim with the first one pending, want all %d", n, sent)
	}
	// The Buffer sends more and checks the group a second later: it keeps everything, since the
	// first entry is not acknowledged yet.
	send(3000, 4000)
	testenv.Eventually(t, 10*time.Second, "the stream holds 1000 events", func() bool { return streamEvents(t, rdb, prefix) == 1000 })
	clock.Add(time.Second)
	confirmedOnce(t, buf, func() { send(4000, 5000) }, func() bool { return streamEvents(t, rdb, prefix) == 2000 && buf.Kept() == 5000 })
	// The dead consumer's entry is claimed and stored: every entry goes.
	c.SetClaimAfter(time.Millisecond)
	testenv.Eventually(t, 10*time.Second, "every entry stored and acknowledged", func() bool {
		if _, err := c.Step(ctx); err != nil {
			t.Fatal(err)
		}
		pending, err := rdb.XPending(ctx, key, visit.Group)
		return err == nil && pending.Count == 0 && streamEvents(t, rdb, prefix) == 0
	})
	c.Measure(ctx)
	if n := entries(); n != 0 {
		t.Fatalf("%d entries after every one was acknowledged, want 0", n)
	}
	// Trimmed is not lost: the Buffer's next check forgets what it kept, and stores nothing itself.
	clock.Add(time.Second)
	buf.Capture(visit.HitOf(evs[0]))
	testenv.Eventually(t, 10*time.Second, "the buffer keeps 1", func() bool { return buf.Kept() == 1 })
	buf.Close()
	checkStored(t, db, evs)
}

func BenchmarkVisitorHash(b *testing.B) {
	ip := netip.MustParseAddr("203.0.113.9")
	at := time.Now()
	for b.Loop() {
		hasher.Hash(at, ip, "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36")
	}
}

// BenchmarkDecodeBatch: what a consumer spends decoding a stream entry, per visit.
func BenchmarkDecodeBatch(b *testing.B) {
	data, _ := json.Marshal(events(1000, 50))
	b.ReportAllocs()
	for b.Loop() {
		var evs []visit.Event
		if err := json.Unmarshal(data, &evs); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1000, "ns/event")
}

// A stream entry is what json.Marshal makes of the batch: byte for byte where no string needs
// escaping, and decoded alike whatever the strings hold.
func TestEntryEncoding(t *testing.T) {
	t.Parallel()
	evs := events(50, 7)
	evs[3].Visitor = nil
	evs[4].Variant, evs[4].InApp, evs[4].Referrer = 1, "wechat", ""
	evs[5].UTMSource, evs[5].UTMCampaign = "newsletter", "spring"
	evs[6].UTMMedium = "email"
	want, err := json.Marshal(evs)
	if err != nil {
		t.Fatal(err)
	}
	if got := visit.AppendEntry(nil, evs); string(got) != string(want) {
		t.Errorf("entry\n%s\nwant\n%s", got, want)
	}
	odd := events(3, 1)
	odd[0].Referrer = "bücher.example"
	odd[1].Browser = "quote\" back\\slash \x01 <tag> & \u2028"
	odd[2].Country = "\xff\xfe invalid"
	odd[2].UTMSource = "ünï \"q\""
	var got, ref []visit.Event
	if err := json.Unmarshal(visit.AppendEntry(nil, odd), &got); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(odd)
	if err := json.Unmarshal(b, &ref); err != nil {
		t.Fatal(err)
	}
	for i := range ref {
		if !got[i].At.Equal(ref[i].At) {
			t.Errorf("event %d: at %v, want %v", i, got[i].At, ref[i].At)
		}
		got[i].At = ref[i].At
		if fmt.Sprint(got[i]) != fmt.Sprint(ref[i]) {
			t.Errorf("event %d decodes as\n%+v\nwant\n%+v", i, got[i], ref[i])
		}
	}
}

func BenchmarkAppendEntry(b *testing.B) {
	evs := events(1000, 50)
	var buf []byte
	b.ReportAllocs()
	for b.Loop() {
		buf = visit.AppendEntry(buf[:0], evs)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1000, "ns/event")
}

// BenchmarkFlush: hits as the redirect path captures them, classified, hashed, encoded and sent
// to the stream by a Buffer's flusher; ns/op is the flusher's time per visit, cpu-ns/visit the
// CPU this process spent per visit (the captures and the flusher, its garbage collection
// included), which the machine's other work disturbs less.
func BenchmarkFlush(b *testing.B) {
	rc, _, _ := testRedis(b)
	classifier, err := visitor.New(visitor.Options{})
	if err != nil {
		b.Fatal(err)
	}
	// The buffer of a node, the captures paced so that it never fills: the hits go through
	// the memory a serving node reuses, not through one slot each.
	buf := visit.NewBuffer(visit.Options{Stream: redis.NewVisitStream(rc), Store: blockedStore{}, Log: quiet,
		Classifier: classifier, Hasher: hasher})
	hit := visit.Hit{At: time.Now(), Target: visit.Target{LinkID: 1, WorkspaceID: 1}, Variant: -1,
		RemoteAddr: "203.0.113.9:41234", Referer: "https://www.google.com/",
		UserAgent: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36"}
	var before, after syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &before)
	b.ResetTimer()
	for i := range b.N {
		if i%1000 == 0 {
			for buf.Waiting() > visit.BufferSize/2 {
				time.Sleep(100 * time.Microsecond)
			}
		}
		buf.Capture(hit)
	}
	buf.Close()
	b.StopTimer()
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &after)
	cpu := after.Utime.Nano() + after.Stime.Nano() - before.Utime.Nano() - before.Stime.Nano()
	b.ReportMetric(float64(cpu)/float64(b.N), "cpu-ns/visit")
}

// SetUTM keeps the first utm_source, utm_medium and utm_campaign of a query, unescaped, valid
// UTF-8, without control characters and at most MaxUTM bytes; other parameters are ignored.
func TestSetUTM(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("é", visit.MaxUTM) // two bytes each
	for _, c := range []struct {
		query                    string
		source, medium, campaign string
	}{
		{"", "", "", ""},
		{"a=1&b=2", "", "", ""},
		{"utm_source=newsletter", "newsletter", "", ""},
		{"utm_source=news+letter&utm_medium=e%2Dmail&utm_campaign=%E6%98%A5", "news letter", "e-mail", "春"},
		{"utm_source=a&utm_source=b", "a", "", ""},
		{"utm_source=&utm_source=b", "b", "", ""},
		{"utm_source=%ZZ&utm_medium=ok", "", "ok", ""},
		{"utm_source=%00x%0Ay%20", "xy", "", ""},
		{"utm_term=x&utm_content=y&utm_sourcex=z", "", "", ""},
		{"utm_campaign=" + long, "", "", long[:visit.MaxUTM]},
		{"utm_campaign=" + strings.Repeat("%C3%A9", 200), "", "", long[:visit.MaxUTM]},
		{"utm_medium=%FF%FEab", "", "ab", ""},
	} {
		var e visit.Event
		e.SetUTM(c.query)
		if e.UTMSource != c.source || e.UTMMedium != c.medium || e.UTMCampaign != c.campaign {
			t.Errorf("SetUTM(%.40q) = %q, %q, %q; want %q, %q, %q", c.query,
				e.UTMSource, e.UTMMedium, e.UTMCampaign, c.source, c.medium, c.campaign)
		}
		if len(e.UTMCampaign) > visit.MaxUTM {
			t.Errorf("SetUTM(%.40q): campaign of %d bytes", c.query, len(e.UTMCampaign))
		}
	}
}

func FuzzSetUTM(f *testing.F) {
	f.Add("utm_source=a%20b&utm_medium=c")
	f.Add("utm_campaign=%E6%98")
	f.Fuzz(func(t *testing.T, q string) {
		var e visit.Event
		e.SetUTM(q)
		for _, v := range []string{e.UTMSource, e.UTMMedium, e.UTMCampaign} {
			if len(v) > visit.MaxUTM || !utf8.ValidString(v) || strings.ContainsAny(v, "\x00\n") {
				t.Fatalf("SetUTM(%q) kept %q", q, v)
			}
		}
	})
}

// Past the exact count a link's people of the day are counted in a sketch, stored by two
// consumers at once: the count stays within the sketch's error, repeat visits add about
// nothing, and the hashes stop being stored. Below it they are exact. A workspace's people are
// counted once whichever of its links they visit.
func TestUniquesPastExactCount(t *testing.T) {
	t.Parallel()
	db := testenv.DB(t)
	store := postgres.NewVisits(db).CountExactly(100)
	ctx := context.Background()
	at := time.Date(2026, 5, 4, 10, 15, 0, 0, time.UTC)
	const people = 20_000 // past the sketch's sparse list: its dense registers count
	var batches []visit.Batch
	for round := range 2 { // everyone twice
		for first := 0; first < people; first += 500 {
			var b visit.Batch
			for n := first; n < first+500; n++ {
				b = append(b, person(1, at.Add(time.Duration(round)*time.Hour), n))
				if n < 300 {
					b = append(b, person(2, at, n)) // 300 of them on link 2 too
				}
			}
			batches = append(batches, b)
		}
	}
	// Below the exact count: 80 people, each three times.
	var small visit.Batch
	for range 3 {
		for n := range 80 {
			small = append(small, person(3, at, n))
		}
	}
	batches = append(batches, small)
	storeByTwo(t, store, batches)
	uniques := func(link int64) (n int64) {
		t.Helper()
		if err := db.Pool.QueryRow(ctx, `SELECT uniques FROM visit_totals WHERE link_id = $1`, link).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	within := func(what string, got, want int64, share float64) {
		t.Helper()
		if d := math.Abs(float64(got-want)) / float64(want); d > share {
			t.Errorf("%s: %d, want %d within %.0f%%", what, got, want, share*100)
		}
	}
	within("link 1's people", uniques(1), people, 0.03)
	if n := uniques(2); n != 300 {
		t.Errorf("link 2's people: %d, want 300 (exact)", n)
	}
	if n := uniques(3); n != 80 {
		t.Errorf("link 3's people: %d, want 80 (exact)", n)
	}
	var hashes []byte
	var sketch []byte
	if err := db.Pool.QueryRow(ctx, `SELECT (SELECT hashes FROM visitor_sets WHERE link_id = 1),
		(SELECT sketch FROM visitor_sketches WHERE link_id = 1)`).Scan(&hashes, &sketch); err != nil {
		t.Fatal(err)
	}
	if hashes != nil || len(sketch) == 0 {
		t.Errorf("link 1 keeps %d bytes of hashes and a sketch of %d bytes; want no hashes past the exact count, and a sketch", len(hashes), len(sketch))
	}
	var set3 []byte
	if err := db.Pool.QueryRow(ctx, `SELECT hashes FROM visitor_sets WHERE link_id = 3`).Scan(&set3); err != nil || len(set3) != 80*visit.SetEntry {
		t.Errorf("link 3 keeps %d bytes of hashes (%v), want 80 people's", len(set3), err)
	}
	var space int64
	if err := db.Pool.QueryRow(ctx, `SELECT sum(uniques) FROM workspace_visit_hours WHERE workspace_id = 3`).Scan(&space); err != nil {
		t.Fatal(err)
	}
	within("the workspace's people", space, people, 0.03)
}

// Below the exact count, two consumers storing the same link day's people at once, each person
// in batches of both, count every person once, in the hour of their first visit that a batch
// stored, and the day's set holds each of them once.
func TestExactUniquesTwoConsumers(t *testing.T) {
	t.Parallel()
	db := testenv.DB(t)
	store := postgres.NewVisits(db)
	ctx := context.Background()
	at := time.Date(2026, 5, 4, 10, 15, 0, 0, time.UTC)
	const people = 1500
	var batches []visit.Batch
	for first := 0; first < people; first += 50 {
		var b, again visit.Batch
		for n := first; n < first+50; n++ {
			b = append(b, person(4, at, n), person(5, at, n%40))
			again = append(again, person(4, at.Add(time.Hour), n)) // back an hour later
		}
		batches = append(batches, b, again)
	}
	storeByTwo(t, store, batches)
	for _, c := range []struct {
		link   int64
		people int64
	}{{4, people}, {5, 40}} {
		var total, hours int64
		var set []byte
		if err := db.Pool.QueryRow(ctx, `SELECT (SELECT uniques FROM visit_totals WHERE link_id = $1),
			(SELECT sum(uniques) FROM visit_hours WHERE link_id = $1),
			(SELECT hashes FROM visitor_sets WHERE link_id = $1)`, c.link).Scan(&total, &hours, &set); err != nil {
			t.Fatal(err)
		}
		if total != c.people || hours != c.people || len(set) != int(c.people)*visit.SetEntry {
			t.Errorf("link %d: %d people in its total, %d in its hours, %d in its set; want %d", c.link, total, hours, len(set)/visit.SetEntry, c.people)
		}
	}
}

// storeByTwo stores the batches one at a time by two writers at once, each taking every other.
func storeByTwo(t *testing.T, store *postgres.Visits, batches []visit.Batch) {
	t.Helper()
	var wg sync.WaitGroup
	for w := range 2 {
		wg.Go(func() {
			for i := w; i < len(batches); i += 2 {
				if _, err := store.Insert(context.Background(), []visit.Batch{batches[i]}); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
}

// A set of people adds those it did not hold, once each, counted in the hour of their first
// visit among those given, and stays sorted; a hash shorter than an entry is padded.
func TestSetAdd(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 5, 4, 10, 0, 0, 0, time.UTC)
	hash := func(n byte) []byte { return []byte{n, 1, 2, 3, 4, 5, 6, 7, 8, 9} }
	set, got, err := visit.Set(nil).Add(9, []visit.VisitorSeen{
		{Visitor: hash(5), Hour: at.Add(time.Hour)}, {Visitor: hash(1), Hour: at}, {Visitor: hash(5), Hour: at},
	})
	if err != nil || set.Len() != 2 || len(got) != 1 || got[0] != (visit.HourUniques{ID: 9, Hour: at, N: 2}) {
		t.Fatalf("first people: a set of %d, counted %+v (%v); want 2, both at %v", set.Len(), got, err, at)
	}
	set, got, err = set.Add(9, []visit.VisitorSeen{
		{Visitor: hash(5), Hour: at}, {Visitor: hash(3), Hour: at.Add(2 * time.Hour)},
		{Visitor: []byte{7}, Hour: at.Add(time.Hour)}, {Visitor: hash(0), Hour: at.Add(2 * time.Hour)},
	})
	want := []visit.HourUniques{{ID: 9, Hour: at.Add(time.Hour), N: 1}, {ID: 9, Hour: at.Add(2 * time.Hour), N: 2}}
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("then counted %+v (%v), want %+v", got, err, want)
	}
	wantSet := slices.Concat(hash(0)[:8], hash(1)[:8], hash(3)[:8], hash(5)[:8], []byte{7, 0, 0, 0, 0, 0, 0, 0})
	if !bytes.Equal(set, wantSet) {
		t.Errorf("the set is %x, want %x", []byte(set), wantSet)
	}
	again, got, err := set.Add(9, []visit.VisitorSeen{{Visitor: hash(3), Hour: at}, {Visitor: []byte{7}, Hour: at}})
	if err != nil || len(got) != 0 || !bytes.Equal(again, wantSet) {
		t.Errorf("people it holds: counted %+v (%v), the set %x; want none and the same set", got, err, []byte(again))
	}
	if _, _, err := visit.Set(make([]byte, 12)).Add(9, nil); err == nil {
		t.Error("a set of 12 bytes was read")
	}
}

// A sketch counts what it is given: the people of each hour once, in the hour first seen;
// exact in practice while it is small, within its error when large, and the same once stored.
func TestSketch(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 5, 4, 10, 0, 0, 0, time.UTC)
	var seen []visit.VisitorSeen
	for n := range 3000 {
		hour := at.Add(time.Duration(n/1000) * time.Hour)
		seen = append(seen, visit.VisitorSeen{Visitor: hasher.Hash(at, netip.AddrFrom4([4]byte{10, 1, byte(n >> 8), byte(n)}), "ua"), Hour: hour})
	}
	sk := visit.NewSketch()
	got := sk.CountNew(7, seen)
	if len(got) != 3 || got[0].N+got[1].N+got[2].N != 3000 || got[0].ID != 7 || !got[1].Hour.Equal(at.Add(time.Hour)) {
		t.Fatalf("counted %+v, want 3 hours of 1000", got)
	}
	if again := sk.CountNew(7, seen); len(again) != 0 {
		t.Errorf("the same people again counted %+v", again)
	}
	stored, err := visit.SketchOf(sk.Bytes())
	if err != nil || stored.Estimate() != sk.Estimate() {
		t.Fatalf("stored sketch estimates %d (%v), want %d", stored.Estimate(), err, sk.Estimate())
	}
	for n := 3000; n < 1_000_000; n++ {
		stored.Add(hasher.Hash(at, netip.AddrFrom4([4]byte{10, byte(n >> 16), byte(n >> 8), byte(n)}), "ua"))
	}
	if e := stored.Estimate(); math.Abs(float64(e)-1e6)/1e6 > 0.03 {
		t.Errorf("a million people estimated at %d", e)
	}
	if _, err := visit.SketchOf([]byte("not a sketch")); err == nil {
		t.Error("a broken sketch read without an error")
	}
}
