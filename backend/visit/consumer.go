package visit

import (
	"context"
	json "github.com/goccy/go-json"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promauto"
)

var (
	ingested = promauto.NewCounter(prometheus.CounterOpts{
		Name: "shortlink_visits_ingested_total",
		Help: "Visits stored in PostgreSQL by this node (new ones; redeliveries are not counted).",
	})
	ingestLag = promauto.NewGauge(prometheus.GaugeOpts{
		Name: "shortlink_visits_ingest_lag_seconds",
		Help: "Age of the oldest visit in the last batch this node stored: how far the numbers trail the redirects.",
	})
	streamEntries = promauto.NewGauge(prometheus.GaugeOpts{
		Name: "shortlink_visits_stream_pending",
		Help: "Entries of the visit stream not yet acknowledged by a consumer (read or not), each a batch of visits.",
	})
)

// stored accounts for the batches the Store took, and queues the links it made due for
// moderation.
func stored(ctx context.Context, st Stored, batches []Batch, due DueQueue, log *slog.Logger) {
	ingested.Add(float64(st.Events))
	oldest := batches[0][0].At
	for _, b := range batches {
		for i := range b {
			if b[i].At.Before(oldest) {
				oldest = b[i].At
			}
		}
	}
	ingestLag.Set(time.Since(oldest).Seconds())
	if len(st.Due) > 0 && due != nil {
		if err := due.Enqueue(ctx, time.Now(), st.Due...); err != nil {
			// Recorded in the Store with the visits: the queue is rebuilt from there.
			log.Warn("visits: queue links for moderation", "links", len(st.Due), "err", err)
		}
	}
}

const (
	// Group is the consumer group every node's Consumer reads the visit stream in.
	Group = "ingest"
	// ClaimAfter is how long an entry read and not acknowledged stays with its consumer before
	// another claims it (that consumer died, or its inserts fail), unless
	// ConsumerOptions.ClaimAfter says otherwise.
	ClaimAfter = 30 * time.Second
	// compactEvery is how often a consumer looks for days whose breakdowns to sum: the
	// statistics read a day's hours until it is summed, so a late sum costs only reads.
	compactEvery = 10 * time.Minute
	// readBlock is how long one read waits for new entries.
	readBlock = time.Second
	// gatherWait is how long a consumer that read fewer than half of its entries waits for
	// more before it stores them: at a few thousand visits a second and more, a transaction
	// then holds a quarter of a second of visits rather than the one or two entries that
	// arrived since the last commit, and writes a fraction of the rows per visit; the numbers
	// trail the redirects by that much more.
	gatherWait = 250 * time.Millisecond
	// handleTimeout bounds the insert and acknowledgement of what one read took.
	handleTimeout = 30 * time.Second
	// forgetAfter is how long a consumer holding no entries stays in the group unheard of.
	forgetAfter = 24 * time.Hour
	// partitionsAhead is how many days of partitions the Consumer keeps ready.
	partitionsAhead = 7
)

// Consumer reads the visit stream in the consumer group and stores the events. Each node
// runs one, under a name of its own (stable across restarts, so that it reads its own pending
// entries again first).
type Consumer struct {
	stream Stream
	name   string
	store  Store
	due    DueQueue
	clicks ClickSink
	log    *slog.Logger

	retention int // days of raw visits kept, 0: all

	entries    int64 // read at once and stored in one insert
	claimAfter time.Duration
	block      time.Duration
	gather     time.Duration
	claimFrom  string // where the next XAUTOCLAIM scan starts
	// steps counts the steps of Run finished: a test waits for one that began after an event.
	steps atomic.Int64
}

// ReadEntries is how many entries (each a batch of up to 1,000 events) one read takes and one
// insert stores, unless ConsumerOptions.Entries says otherwise. The events are summed per
// rollup row before they are written, so the more an insert holds, the fewer rows per event
// it writes. BenchmarkIngest measured PostgreSQL's CPU per event at about 14 µs for 32
// entries, 10.8–11.2 µs for 100 and 9.1–9.7 µs for 200 (10,000 links, uniform traffic), then
// 6.6–8.0 µs for 200 once a link day's people became one row (visitor_sets); a consumer holds
// about 0.9 kB of memory per event meanwhile (BenchmarkIngestMemory: 166–170 MB for 200
// entries). The rollup rows stay locked only for the last statement of the insert, a
// second or two for 200 entries on the 2-core VM.
const ReadEntries = 200

// ConsumerOptions configure a Consumer.
type ConsumerOptions struct {
	// Stream is the visit stream.
	Stream Stream
	// Name is this consumer's in the group.
	Name  string
	Store Store
	// Due takes the links the stored visits made due for moderation; nil: none are queued in
	// Redis (they stay recorded in the Store).
	Due DueQueue
	// RetentionDays is how many days of raw visits Run keeps; 0 keeps them all.
	RetentionDays int
	// ClaimAfter is how long entries stay with a consumer that read them before this one
	// claims them; ClaimAfter when zero.
	ClaimAfter time.Duration
	// Entries is how many entries one read takes and one insert stores; ReadEntries when
	// zero.
	Entries int
	// Clicks is told of every batch of events stored (webhooks' link.clicked); nil: none.
	Clicks ClickSink
	Log    *slog.Logger
}

// ClickSink takes the batches a Consumer stored, after they are stored and before they are
// acknowledged. It handles its own errors: the events are stored whatever it does. A batch
// read again after a consumer died may be told twice.
type ClickSink interface {
	Clicked(ctx context.Context, batches []Batch)
}

// NewConsumer returns a Consumer; Run starts it.
func NewConsumer(o ConsumerOptions) *Consumer {
	if o.ClaimAfter <= 0 {
		o.ClaimAfter = ClaimAfter
	}
	if o.Entries <= 0 {
		o.Entries = ReadEntries
	}
	return &Consumer{
		stream: o.Stream, name: o.Name, store: o.Store, due: o.Due, clicks: o.Clicks, log: o.Log,
		entries:   int64(o.Entries),
		retention: o.RetentionDays, claimAfter: o.ClaimAfter, block: readBlock, gather: gatherWait, claimFrom: "0-0",
	}
}

// Run stores events until ctx ends; errors are logged and retried after a pause.
func (c *Consumer) Run(ctx context.Context) {
	var partitioned, compacted, measured time.Time
	failing := false
	for ctx.Err() == nil {
		if time.Since(partitioned) > time.Hour {
			if err := c.partitions(ctx); err != nil {
				c.log.Warn("visits: manage partitions", "err", err)
			} else {
				partitioned = time.Now()
			}
		}
		if time.Since(compacted) > compactEvery {
			if n, err := c.store.CompactDays(ctx, time.Now()); err != nil {
				c.log.Warn("visits: sum the daily breakdowns", "err", err)
			} else {
				if n > 0 {
					c.log.Info("visits: summed the daily breakdowns", "days", n)
				}
				compacted = time.Now()
			}
		}
		if time.Since(measured) > 5*time.Second {
			c.measure(ctx)
			measured = time.Now()
		}
		_, err := c.Step(ctx)
		c.steps.Add(1)
		switch {
		case err != nil && ctx.Err() == nil:
			if !failing {
				c.log.Warn("visits: ingest failing; retrying every second", "err", err)
				failing = true
			}
			select {
			case <-ctx.Done():
			case <-time.After(time.Second):
			}
		case err == nil && failing:
			c.log.Info("visits: ingest works again")
			failing = false
		}
	}
}

// partitions creates the days ahead and drops those past the retention: raw visits older than
// it, and the visitor hashes of days before yesterday (a day's are needed only that day, and
// the next for visits that arrive late).
func (c *Consumer) partitions(ctx context.Context) error {
	now := time.Now()
	if err := c.store.CreatePartitions(ctx, now.AddDate(0, 0, -1), partitionsAhead+2); err != nil {
		return err
	}
	visitsBefore := time.Time{}
	if c.retention > 0 {
		visitsBefore = now.AddDate(0, 0, -c.retention)
	}
	n, err := c.store.DropPartitions(ctx, visitsBefore, now.AddDate(0, 0, -2))
	if err != nil {
		return err
	}
	if n > 0 {
		c.log.Info("visits: dropped partitions past retention", "tables", n, "retention_days", c.retention)
	}
	return nil
}

// Step runs one round: it stores this consumer's own pending entries, entries idle longer
// than its claim time in any consumer, and then new entries (waiting up to a second for some),
// and returns how many events it stored that were new.
func (c *Consumer) Step(ctx context.Context) (int, error) {
	if err := c.ensureGroup(ctx); err != nil {
		return 0, err
	}
	total := 0
	// Entries this consumer read before it restarted.
	for {
		msgs, err := c.stream.Read(ctx, c.name, "0", c.entries, 0)
		if err != nil {
			return total, err
		}
		if len(msgs) == 0 {
			break
		}
		n, err := c.handle(ctx, msgs)
		total += n
		if err != nil {
			return total, err
		}
	}
	// Entries of consumers that died.
	msgs, next, err := c.stream.Claim(ctx, c.name, c.claimAfter, c.claimFrom, c.entries)
	if err != nil {
		return total, err
	}
	c.claimFrom = next
	if len(msgs) > 0 {
		n, err := c.handle(ctx, msgs)
		total += n
		if err != nil {
			return total, err
		}
	}
	// New entries: when a read finds only a few, a moment's wait gathers more into the same
	// transaction, whose sums then stand for more visits each.
	msgs, err = c.stream.Read(ctx, c.name, ">", c.entries, c.block)
	if err != nil {
		return total, err
	}
	if len(msgs) > 0 && len(msgs) < int(c.entries/2) && c.gather > 0 {
		select {
		case <-ctx.Done():
		case <-time.After(c.gather):
			more, err := c.stream.Read(ctx, c.name, ">", c.entries-int64(len(msgs)), -1)
			if err == nil {
				msgs = append(msgs, more...)
			}
			// An error leaves those read to be stored; the next read meets it again.
		}
	}
	if len(msgs) > 0 {
		n, err := c.handle(ctx, msgs)
		total += n
		if err != nil {
			return total, err
		}
	}
	return total, nil
}

// ensureGroup creates the stream and its group where missing.
func (c *Consumer) ensureGroup(ctx context.Context) error {
	return c.stream.EnsureGroup(ctx)
}

// handle stores the entries' batches in one insert and acknowledges them. Entries that are
// not batches of events are logged and acknowledged: reading them again would not help.
func (c *Consumer) handle(ctx context.Context, msgs []StreamEntry) (int, error) {
	batches := make([]Batch, 0, len(msgs))
	ids := make([]string, 0, len(msgs))
	for i, m := range msgs {
		ids = append(ids, m.ID)
		var batch Batch
		if err := json.Unmarshal([]byte(m.Data), &batch); err != nil {
			c.log.Error("visits: skip an entry that is not a batch of events", "id", m.ID, "err", err)
			continue
		}
		// The entry's text is not needed once read: the memory goes back while the batch is
		// stored.
		msgs[i].Data = ""
		if len(batch) > 0 {
			batches = append(batches, batch)
		}
	}
	// What was read is stored and acknowledged even when ctx ends meanwhile (a node stopping):
	// left pending, it would wait ClaimAfter for another consumer.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), handleTimeout)
	defer cancel()
	n := 0
	if len(batches) > 0 {
		st, err := c.store.Insert(ctx, batches)
		if err != nil {
			return 0, err // left pending: read again after a restart, or claimed
		}
		stored(ctx, st, batches, c.due, c.log)
		if c.clicks != nil {
			c.clicks.Clicked(ctx, batches)
		}
		n = st.Events
	}
	if err := c.stream.Ack(ctx, ids...); err != nil {
		// Stored: a later delivery counts nothing.
		return n, err
	}
	return n, nil
}

// measure sets the gauge of entries the group has not acknowledged: those not yet delivered
// (the group's lag) and those delivered and pending. It trims the entries the group
// acknowledged from the stream: every node keeps what it sent until then (see resendMax), so
// none is needed again, and Redis holds only the visits not yet stored.
func (c *Consumer) measure(ctx context.Context) {
	g, err := c.stream.Progress(ctx)
	if err != nil {
		return
	}
	if g.Exists {
		streamEntries.Set(float64(max(g.Lag, 0) + g.Pending))
	}
	if upTo, ok := acknowledged(g); ok && upTo != (streamID{}) {
		// Approximately: Redis drops whole nodes of entries, which costs it least.
		if err := c.stream.Trim(ctx, upTo.next().String()); err != nil {
			c.log.Warn("visits: trim the stream", "err", err)
		}
	}
	// Consumers of processes long gone that hold nothing are forgotten.
	consumers, err := c.stream.Consumers(ctx)
	if err != nil {
		return
	}
	for _, other := range consumers {
		if other.Name != c.name && other.Pending == 0 && other.Idle > forgetAfter {
			_ = c.stream.RemoveConsumer(ctx, other.Name)
		}
	}
}
