package visit

import (
	"context"
	crand "crypto/rand"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/uuid"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promauto"
	"github.com/shortlink/shortlink/backend/visitor"
)

var (
	captured = promauto.NewCounter(prometheus.CounterOpts{
		Name: "shortlink_visits_captured_total",
		Help: "Visits taken into this node's capture buffer.",
	})
	dropped = promauto.NewCounterVec(prometheus.CounterOpts{
		Name: "shortlink_visits_dropped_total",
		Help: "Visits not recorded: the capture buffer was full, or neither Redis nor PostgreSQL took them.",
	}, []string{"reason"})
	buffered = promauto.NewGauge(prometheus.GaugeOpts{
		Name: "shortlink_visits_buffered",
		Help: "Visits in this node's capture buffer, not yet sent.",
	})
	sending = promauto.NewGauge(prometheus.GaugeOpts{
		Name: "shortlink_visits_sending",
		Help: "Batches of visits this node is writing now: to the stream, or to PostgreSQL while Redis fails or after it lost visits.",
	})
	kept = promauto.NewGauge(prometheus.GaugeOpts{
		Name: "shortlink_visits_kept",
		Help: "Visits this node sent to the stream and keeps until the consumers have stored them.",
	})
)

var (
	droppedFull   = dropped.WithLabelValues("full")
	droppedFailed = dropped.WithLabelValues("failed")
)

const (
	// BufferSize is how many hits a Buffer holds before it drops them: about a second of a
	// node's busiest traffic.
	BufferSize = 65536
	// batchSize is the most events one flush sends (one stream entry, or one insert).
	batchSize = 1000
	// batchWait is how long the flusher waits for a batch to fill before it sends what it has:
	// the visits a node holds unsent are at most those of a batch being gathered (batchWait of
	// traffic, batchSize at most), one being sent, and those arriving meanwhile.
	batchWait = 10 * time.Millisecond
	// streamMaxLen trims the stream (approximately) to this many entries, each a batch: hours
	// of visits, should the consumers stop.
	streamMaxLen = 1_000_000
	// redisTimeout bounds one batch's XADD.
	redisTimeout = time.Second
	// storeTimeout bounds one batch's insert while Redis is down.
	storeTimeout = 5 * time.Second
	// redisRetry is how long a Buffer that found Redis down writes to the Store before it
	// tries Redis again.
	redisRetry = time.Second
	// dropLogEvery is the least time between two log lines about dropped events.
	dropLogEvery = 10 * time.Second
	// A Buffer keeps the entries it sent until the consumer group has acknowledged them, at
	// most resendMax events: Redis may lose entries not yet consumed (a restart without
	// persistence, a failover to a replica that was behind), so when Redis stops answering,
	// restarts, or loses the stream, the Buffer stores what it kept straight into PostgreSQL,
	// where what was consumed already counts nothing. Every confirmEvery it asks Redis how far
	// the group got, and whether it is still the server it sent the entries to.
	resendMax    = 250_000
	confirmEvery = time.Second
)

// StreamKey is the key of the visit stream under the deployment's Redis prefix.
func StreamKey(prefix string) string { return prefix + "visits" }

// Options configure a Buffer.
type Options struct {
	// Stream is the visit stream; nil sends every batch to the Store.
	Stream Stream
	Store  Store
	// Due takes the links a direct insert made due for moderation; nil: none are queued in
	// Redis (they stay recorded in the Store).
	Due DueQueue
	// Classifier and Hasher turn hits into events.
	Classifier *visitor.Classifier
	Hasher     *Hasher
	Log        *slog.Logger
	// Size is how many hits the Buffer holds (BufferSize when < 1).
	Size int
	// Now is the Buffer's clock (time.Now when nil): a test moves it past the checks of the
	// consumer group instead of waiting for them.
	Now func() time.Time
}

// Buffer captures the visits of one node and sends them in batches to the visit stream, or to
// the Store while Redis is down. Safe for concurrent use.
type Buffer struct {
	stream     Stream
	store      Store
	due        DueQueue
	classifier *visitor.Classifier
	hasher     *Hasher
	log        *slog.Logger
	now        func() time.Time

	hits chan Hit
	// entry is the flusher's encoding of the batch it sends; once sent, it is kept (sent) and
	// the next is written into spare memory: that of entries known consumed, so that a busy
	// node neither copies nor allocates its entries.
	entry []byte
	spare [][]byte
	// hashes holds the visitor hashes of the batch being gathered (flusher only), 16 bytes
	// each: one allocation for all of them, reused for the next batch once send is done.
	hashes []byte
	// ids makes the events' IDs (flusher only): random bits from a generator seeded once,
	// not a system call for each visit.
	ids *rand.ChaCha8
	// referers are the hosts of the Referer headers seen lately (flusher only): a page that
	// sends visitors sends many, and parsing its URL each time costs more than the rest of
	// the event.
	referers map[string]string
	closed   atomic.Bool
	down     atomic.Bool // the last batch went to the Store
	// downUntil is when the flusher tries Redis again after it failed (Unix ns).
	downUntil atomic.Int64

	lastDropLog atomic.Int64 // Unix ns of the last log line about drops
	unlogged    atomic.Int64 // drops since then

	// sent are the entries sent and not yet known to be consumed (flusher only); runID is the
	// Redis server they went to, confirmed when it was last asked.
	sent       []sentEntry
	sentEvents int
	runID      string
	confirmed  time.Time
	forgotLog  time.Time // the last log line about entries forgotten unconsumed
	resending  sync.WaitGroup
	keptEvents atomic.Int64
	// confirms counts the checks of the consumer group done (Confirms).
	confirms atomic.Int64

	stop      chan struct{}
	done      chan struct{}
	closeOnce sync.Once
}

// NewBuffer starts a Buffer; Close stops it.
func NewBuffer(o Options) *Buffer {
	if o.Size < 1 {
		o.Size = BufferSize
	}
	if o.Hasher == nil {
		o.Hasher = NewHasher(nil)
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	b := &Buffer{
		stream: o.Stream, store: o.Store, due: o.Due,
		classifier: o.Classifier, hasher: o.Hasher, log: o.Log, now: o.Now,
		hits: make(chan Hit, o.Size),
		ids:  rand.NewChaCha8(seed()), referers: make(map[string]string),
		hashes: make([]byte, 0, 16*batchSize),
		stop:   make(chan struct{}), done: make(chan struct{}),
	}
	go b.run()
	return b
}

// Capture queues the hit and returns at once. A full buffer, or one closed, drops it: the
// answer to the visitor never waits on analytics.
func (b *Buffer) Capture(h Hit) {
	if !b.closed.Load() {
		select {
		case b.hits <- h:
			return
		default:
		}
	}
	droppedFull.Inc()
	b.dropped(1, "visits: capture buffer full; visits dropped")
}

// dropped counts n lost events and logs them, at most once per dropLogEvery.
func (b *Buffer) dropped(n int, msg string, args ...any) {
	total := b.unlogged.Add(int64(n))
	now := b.now().UnixNano()
	last := b.lastDropLog.Load()
	if now-last < int64(dropLogEvery) || !b.lastDropLog.CompareAndSwap(last, now) {
		return
	}
	b.unlogged.Add(-total)
	b.log.Warn(msg, append(args, "dropped", total)...)
}

// run sends batches until Close, then what is left.
func (b *Buffer) run() {
	defer close(b.done)
	batch := make([]Event, 0, batchSize)
	wait := time.NewTimer(batchWait)
	wait.Stop()
	for {
		select {
		case h := <-b.hits:
			batch = b.gather(b.add(batch[:0], &h), wait)
			b.send(batch)
		case <-b.stop:
			for {
				batch = b.fill(batch[:0])
				if len(batch) == 0 {
					return
				}
				b.send(batch)
			}
		}
	}
}

// gather adds hits to a batch until it holds batchSize, or batchWait has passed, or the Buffer
// is closing: a busy node sends a few large entries a second rather than thousands of small
// ones, which costs it, Redis and the consumers' inserts far less. It sleeps out the wait rather
// than waking for each hit: what arrives meanwhile waits in the channel.
func (b *Buffer) gather(batch []Event, wait *time.Timer) []Event {
	if batch = b.fill(batch); len(batch) >= batchSize {
		return batch
	}
	wait.Reset(batchWait)
	select {
	case <-wait.C:
	case <-b.stop:
		wait.Stop()
	}
	return b.fill(batch)
}

// fill adds the hits waiting, up to batchSize, without waiting for more.
func (b *Buffer) fill(batch []Event) []Event {
	for len(batch) < batchSize {
		select {
		case h := <-b.hits:
			batch = b.add(batch, &h)
		default:
			return batch
		}
	}
	return batch
}

// add appends the event of a hit to batch: the hit classified, made into the event where it
// lies in the batch (an event is 250 bytes: copies of it showed in the flusher's profile).
func (b *Buffer) add(batch []Event, h *Hit) []Event {
	if h.event != nil {
		return append(batch, *h.event)
	}
	var v visitor.Visitor
	if b.classifier != nil {
		v = b.classifier.ClassifyOf(h.RemoteAddr, h.Forwarded, h.UserAgent)
	}
	b.hashes = b.hasher.appendHash(b.hashes, h.At, v.IP, h.UserAgent)
	hash := b.hashes[len(b.hashes)-16 : len(b.hashes) : len(b.hashes)]
	batch = append(batch, Event{})
	e := &batch[len(batch)-1]
	e.set(b.newID(h.At), h.At, h.Target, h.Variant, &v, b.refererHost(h.Referer), hash)
	if h.Query != "" {
		e.SetUTM(h.Query)
	}
	return batch
}

// maxReferers bounds the Referer hosts a Buffer remembers: past it, it forgets them all.
const maxReferers = 4096

// refererHost is RefererHost, remembered.
func (b *Buffer) refererHost(referer string) string {
	if referer == "" {
		return ""
	}
	if host, ok := b.referers[referer]; ok {
		return host
	}
	if len(b.referers) >= maxReferers {
		clear(b.referers)
	}
	host := RefererHost(referer)
	b.referers[referer] = host
	return host
}

// newID is a version 7 UUID (RFC 9562) of the visit's time: its millisecond, then 74 bits of
// the flusher's generator. uuid.NewV7 would read the clock again and take a lock to keep a
// sequence within the millisecond; the random bits alone keep two IDs apart.
func (b *Buffer) newID(at time.Time) uuid.UUID {
	var id uuid.UUID
	ms := uint64(at.UnixMilli())
	binary.BigEndian.PutUint64(id[0:8], ms<<16|b.ids.Uint64()&0xffff)
	binary.BigEndian.PutUint64(id[8:16], b.ids.Uint64())
	id[6] = 0x70 | id[6]&0x0f // version 7
	id[8] = 0x80 | id[8]&0x3f // the RFC's variant
	return id
}

// seed is 32 random bytes from the system.
func seed() [32]byte {
	var s [32]byte
	_, _ = crand.Read(s[:])
	return s
}

// sentEntry is a stream entry a Buffer sent, kept until consumed.
type sentEntry struct {
	id     streamID
	data   []byte
	events int
}

// send writes one batch to the stream, or to the Store while Redis fails; its visitor hashes'
// memory then serves the next batch.
func (b *Buffer) send(batch []Event) {
	sending.Inc()
	defer sending.Dec()
	defer func() { b.hashes = b.hashes[:0] }()
	captured.Add(float64(len(batch)))
	buffered.Set(float64(len(b.hits)))
	if b.stream != nil && b.now().UnixNano() >= b.downUntil.Load() {
		id, err := b.xadd(batch)
		if err == nil {
			if b.down.Swap(false) {
				b.log.Info("visits: redis answers again; sending visits to the stream")
			}
			b.keep(id, b.entry, len(batch))
			b.entry = nil
			if n := len(b.spare); n > 0 {
				b.entry, b.spare = b.spare[n-1], b.spare[:n-1]
			}
			return
		}
		// The entry may be in the stream already: storing it again counts nothing.
		b.downUntil.Store(b.now().Add(redisRetry).UnixNano())
		if !b.down.Swap(true) {
			b.log.Warn("visits: redis is not answering; writing visits to PostgreSQL", "err", err)
		}
		b.resend()
	}
	b.insert(batch)
}

// keep remembers an entry sent, forgets the oldest past resendMax, and every confirmEvery
// forgets those the group has acknowledged.
func (b *Buffer) keep(id string, data []byte, events int) {
	sid, err := parseStreamID(id)
	if err != nil {
		b.log.Warn("visits: stream entry id", "id", id, "err", err)
	}
	b.sent = append(b.sent, sentEntry{id: sid, data: data, events: events})
	b.sentEvents += events
	drop := 0
	for drop < len(b.sent) && b.sentEvents > resendMax {
		b.sentEvents -= b.sent[drop].events
		drop++
	}
	if drop > 0 {
		b.forget(drop)
		if b.now().Sub(b.forgotLog) >= dropLogEvery {
			b.forgotLog = b.now()
			b.log.Warn("visits: the consumers are behind; this node no longer keeps the oldest visits not yet stored, which a Redis restart without persistence would lose",
				"kept", b.sentEvents)
		}
	}
	confirmed := b.now().Sub(b.confirmed) >= confirmEvery
	if confirmed {
		b.confirm()
	}
	b.keptEvents.Store(int64(b.sentEvents))
	kept.Set(float64(b.sentEvents))
	if confirmed {
		b.confirms.Add(1)
	}
}

// confirm asks Redis how far the consumer group got and forgets the entries it acknowledged.
// When Redis is not the server the entries went to (its run_id changed: a restart, a
// failover), or the stream lacks entries kept, it stores every entry kept into the Store.
func (b *Buffer) confirm() {
	b.confirmed = b.now()
	ctx, cancel := context.WithTimeout(context.Background(), redisTimeout)
	defer cancel()
	st, err := b.stream.State(ctx)
	if err != nil {
		return // asked again on the next entry: Redis failing shows in the next XADD
	}
	lost := b.runID != "" && st.Server != b.runID
	b.runID = st.Server
	if lost || st.StreamErr != nil {
		if lost || errors.Is(st.StreamErr, ErrNoStream) {
			b.lost("redis restarted or failed over")
		}
		return
	}
	if st.GroupErr != nil || !b.forgetConsumed(st.Group) {
		// What the group acknowledged is unknown, and the consumers trim what it did: entries
		// kept and gone from the stream are no sign of a loss until it is known.
		return
	}
	// What is kept now is not acknowledged, so it must still be in the stream.
	if n := len(b.sent); n > 0 {
		if b.sent[0].id.less(parseOr(st.First)) || parseOr(st.LastGenerated).less(b.sent[n-1].id) {
			b.lost("the stream lost entries not yet consumed")
		}
	}
}

// forgetConsumed forgets the entries the group acknowledged; false when that is unknown.
func (b *Buffer) forgetConsumed(g GroupProgress) bool {
	upTo, ok := acknowledged(g)
	if !ok {
		return false
	}
	drop := 0
	for drop < len(b.sent) && !upTo.less(b.sent[drop].id) {
		b.sentEvents -= b.sent[drop].events
		drop++
	}
	b.forget(drop)
	return true
}

// maxSpare bounds the memory of entries a Buffer keeps for its next ones.
const maxSpare = 4

// forget lets go of the n oldest entries kept, their memory kept for the next entries.
func (b *Buffer) forget(n int) {
	if n == 0 {
		return
	}
	for _, e := range b.sent[:n] {
		if len(b.spare) < maxSpare {
			b.spare = append(b.spare, e.data[:0])
		}
	}
	clear(b.sent[:n])
	b.sent = append(b.sent[:0], b.sent[n:]...)
}

// acknowledged is the ID up to which the group acknowledged every entry: the last one
// delivered, or the one below the oldest still pending. ok is false when pending could not be
// read and is needed; a missing group has acknowledged nothing (0-0).
func acknowledged(g GroupProgress) (upTo streamID, ok bool) {
	if !g.Exists {
		return streamID{}, true
	}
	upTo = parseOr(g.LastDelivered)
	if g.Pending > 0 {
		if g.PendingErr != nil {
			return streamID{}, false
		}
		upTo = min2(upTo, parseOr(g.OldestPending).previous())
	}
	return upTo, true
}

// lost stores what is kept straight into the Store: Redis may not have it any more.
func (b *Buffer) lost(why string) {
	b.log.Warn("visits: "+why+"; storing the visits not yet consumed in PostgreSQL", "visits", b.sentEvents)
	b.resend()
}

// resend stores every entry kept straight into the Store: Redis stopped answering or lost
// entries. It runs beside the flusher, which goes on sending what arrives (a large backlog
// would otherwise hold it long enough to fill the capture buffer); Close waits for it.
func (b *Buffer) resend() {
	if len(b.sent) == 0 {
		return
	}
	entries := b.sent
	b.sent, b.sentEvents = nil, 0
	b.keptEvents.Store(0)
	kept.Set(0)
	b.resending.Add(1)
	sending.Inc()
	go func() {
		defer b.resending.Done()
		defer sending.Dec()
		for _, e := range entries {
			var batch []Event
			if err := json.Unmarshal(e.data, &batch); err == nil {
				b.insert(batch)
			}
		}
	}()
}

// streamID is a stream entry's ID, milliseconds and sequence.
type streamID struct{ ms, seq uint64 }

func parseStreamID(s string) (streamID, error) {
	a, c, ok := strings.Cut(s, "-")
	ms, err := strconv.ParseUint(a, 10, 64)
	if err != nil {
		return streamID{}, fmt.Errorf("stream id %q: %w", s, err)
	}
	var seq uint64
	if ok {
		if seq, err = strconv.ParseUint(c, 10, 64); err != nil {
			return streamID{}, fmt.Errorf("stream id %q: %w", s, err)
		}
	}
	return streamID{ms, seq}, nil
}

// parseOr is the ID s, or 0-0 when it does not parse.
func parseOr(s string) streamID {
	id, _ := parseStreamID(s)
	return id
}

func (a streamID) less(b streamID) bool { return a.ms < b.ms || a.ms == b.ms && a.seq < b.seq }

// previous is the greatest ID below a (0-0 for 0-0).
func (a streamID) previous() streamID {
	switch {
	case a.seq > 0:
		return streamID{a.ms, a.seq - 1}
	case a.ms > 0:
		return streamID{a.ms - 1, ^uint64(0)}
	}
	return a
}

// next is the least ID above a.
func (a streamID) next() streamID {
	if a.seq == ^uint64(0) {
		return streamID{a.ms + 1, 0}
	}
	return streamID{a.ms, a.seq + 1}
}

func (a streamID) String() string {
	return strconv.FormatUint(a.ms, 10) + "-" + strconv.FormatUint(a.seq, 10)
}

func min2(a, b streamID) streamID {
	if b.less(a) {
		return b
	}
	return a
}

// insert writes one batch to the Store; events it does not take are dropped and counted.
func (b *Buffer) insert(batch Batch) {
	ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
	defer cancel()
	st, err := b.store.Insert(ctx, []Batch{batch})
	if err != nil {
		droppedFailed.Add(float64(len(batch)))
		b.dropped(len(batch), "visits: neither redis nor PostgreSQL took a batch; visits dropped", "err", err)
		return
	}
	stored(ctx, st, []Batch{batch}, b.due, b.log)
}

// xadd sends the batch as one stream entry and answers its ID.
func (b *Buffer) xadd(batch []Event) (string, error) {
	b.entry = appendEntry(b.entry[:0], batch)
	ctx, cancel := context.WithTimeout(context.Background(), redisTimeout)
	defer cancel()
	return b.stream.Add(ctx, b.entry, streamMaxLen)
}

// Close stops capturing and sends every hit buffered before it returns: a node calls it after
// its HTTP server has drained, on SIGTERM.
func (b *Buffer) Close() {
	b.closeOnce.Do(func() {
		b.closed.Store(true)
		close(b.stop)
		<-b.done
		b.resending.Wait()
	})
}
