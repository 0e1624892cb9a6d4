package visit

import (
	"context"
	"encoding/json"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promauto"
	goredis "github.com/redis/go-redis/v9"
)

var dropped = promauto.NewCounterVec(prometheus.CounterOpts{
	Name: "shortlink_visits_dropped_total",
	Help: "Visits not recorded: the capture buffer was full, or neither Redis nor PostgreSQL took them.",
}, []string{"reason"})

var (
	droppedFull   = dropped.WithLabelValues("full")
	droppedFailed = dropped.WithLabelValues("failed")
)

const (
	// BufferSize is how many events a Buffer holds before it drops them: a few tenths of a
	// second of a node's busiest traffic.
	BufferSize = 65536
	// batchSize is the most events one flush sends (one pipelined XADD, or one insert).
	batchSize = 500
	// streamMaxLen trims the stream (approximately) to this many entries: hours of visits,
	// should the consumers stop.
	streamMaxLen = 10_000_000
	// redisTimeout bounds one batch's XADDs.
	redisTimeout = time.Second
	// storeTimeout bounds one batch's insert while Redis is down.
	storeTimeout = 5 * time.Second
	// redisRetry is how long a Buffer that found Redis down writes to the Store before it
	// tries Redis again.
	redisRetry = time.Second
	// dropLogEvery is the least time between two log lines about dropped events.
	dropLogEvery = 10 * time.Second
)

// streamField is the field of a stream entry that holds the event, as JSON.
const streamField = "e"

// StreamKey is the key of the visit stream under the deployment's Redis prefix.
func StreamKey(prefix string) string { return prefix + "visits" }

// Buffer captures the events of one node and sends them in batches to the visit stream, or to
// the Store while Redis is down. Safe for concurrent use.
type Buffer struct {
	rdb    *goredis.Client // nil: every batch goes to the Store
	stream string
	store  Store
	log    *slog.Logger

	events chan Event
	closed atomic.Bool
	down   atomic.Bool // the last batch went to the Store
	// downUntil is when the flusher tries Redis again after it failed (Unix ns).
	downUntil atomic.Int64

	lastDropLog atomic.Int64 // Unix ns of the last log line about drops
	unlogged    atomic.Int64 // drops since then

	stop      chan struct{}
	done      chan struct{}
	closeOnce sync.Once
}

// NewBuffer starts a Buffer holding up to size events (BufferSize when size < 1), sending
// them to the stream under prefix in rdb (nil: straight to store). Close stops it.
func NewBuffer(rdb *goredis.Client, prefix string, store Store, log *slog.Logger, size int) *Buffer {
	if size < 1 {
		size = BufferSize
	}
	b := &Buffer{
		rdb: rdb, stream: StreamKey(prefix), store: store, log: log,
		events: make(chan Event, size),
		stop:   make(chan struct{}), done: make(chan struct{}),
	}
	go b.run()
	return b
}

// Capture queues the event and returns at once. A full buffer, or one closed, drops the event:
// the answer to the visitor never waits on analytics.
func (b *Buffer) Capture(e Event) {
	if !b.closed.Load() {
		select {
		case b.events <- e:
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
	now := time.Now().UnixNano()
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
	for {
		select {
		case e := <-b.events:
			batch = append(batch[:0], e)
			batch = b.fill(batch)
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

// fill adds the events waiting, up to batchSize, without waiting for more.
func (b *Buffer) fill(batch []Event) []Event {
	for len(batch) < batchSize {
		select {
		case e := <-b.events:
			batch = append(batch, e)
		default:
			return batch
		}
	}
	return batch
}

// send writes one batch to the stream, or to the Store while Redis fails.
func (b *Buffer) send(batch []Event) {
	if b.rdb != nil && time.Now().UnixNano() >= b.downUntil.Load() {
		err := b.xadd(batch)
		if err == nil {
			if b.down.Swap(false) {
				b.log.Info("visits: redis answers again; sending visits to the stream")
			}
			return
		}
		// Part of the batch may be in the stream already: storing it again counts nothing.
		b.downUntil.Store(time.Now().Add(redisRetry).UnixNano())
		if !b.down.Swap(true) {
			b.log.Warn("visits: redis is not answering; writing visits to PostgreSQL", "err", err)
		}
	}
	b.insert(batch)
}

// insert writes one batch to the Store; events it does not take are dropped and counted.
func (b *Buffer) insert(batch []Event) {
	ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
	defer cancel()
	if _, err := b.store.Insert(ctx, batch); err != nil {
		droppedFailed.Add(float64(len(batch)))
		b.dropped(len(batch), "visits: neither redis nor PostgreSQL took a batch; visits dropped", "err", err)
	}
}

// xadd sends the batch with one pipelined XADD per event.
func (b *Buffer) xadd(batch []Event) error {
	ctx, cancel := context.WithTimeout(context.Background(), redisTimeout)
	defer cancel()
	pipe := b.rdb.Pipeline()
	for i := range batch {
		data, err := json.Marshal(&batch[i])
		if err != nil {
			return err
		}
		pipe.XAdd(ctx, &goredis.XAddArgs{
			Stream: b.stream, MaxLen: streamMaxLen, Approx: true,
			Values: []any{streamField, data},
		})
	}
	_, err := pipe.Exec(ctx)
	return err
}

// Close stops capturing and sends every event buffered before it returns: a node calls it
// after its HTTP server has drained, on SIGTERM.
func (b *Buffer) Close() {
	b.closeOnce.Do(func() {
		b.closed.Store(true)
		close(b.stop)
		<-b.done
	})
}
