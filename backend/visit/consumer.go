package visit

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strings"
	"time"

	goredis "github.com/redis/go-redis/v9"
)

const (
	// Group is the consumer group every node's Consumer reads the visit stream in.
	Group = "ingest"
	// ClaimAfter is how long an entry read and not acknowledged stays with its consumer before
	// another claims it: that consumer died, or its inserts fail.
	ClaimAfter = 30 * time.Second
	// readBlock is how long one read waits for new entries.
	readBlock = time.Second
	// partitionsAhead is how many days of partitions the Consumer keeps ready.
	partitionsAhead = 7
)

// Consumer reads the visit stream in the consumer group and stores the events. Each node
// runs one, under a name of its own (stable across restarts, so that it reads its own pending
// entries again first).
type Consumer struct {
	rdb    *goredis.Client
	stream string
	name   string
	store  Store
	log    *slog.Logger

	claimAfter time.Duration
	block      time.Duration
	claimFrom  string // where the next XAUTOCLAIM scan starts
}

// NewConsumer returns the Consumer name of the stream under prefix in rdb, writing to store.
func NewConsumer(rdb *goredis.Client, prefix, name string, store Store, log *slog.Logger) *Consumer {
	return &Consumer{
		rdb: rdb, stream: StreamKey(prefix), name: name, store: store, log: log,
		claimAfter: ClaimAfter, block: readBlock, claimFrom: "0-0",
	}
}

// Run stores events until ctx ends; errors are logged and retried after a pause.
func (c *Consumer) Run(ctx context.Context) {
	var partitioned time.Time
	for ctx.Err() == nil {
		if time.Since(partitioned) > time.Hour {
			if err := c.store.CreatePartitions(ctx, time.Now().AddDate(0, 0, -1), partitionsAhead+2); err != nil {
				c.log.Warn("visits: create partitions", "err", err)
			} else {
				partitioned = time.Now()
			}
		}
		if _, err := c.Step(ctx); err != nil && ctx.Err() == nil {
			c.log.Warn("visits: ingest", "err", err)
			select {
			case <-ctx.Done():
			case <-time.After(time.Second):
			}
		}
	}
}

// Step runs one round: it stores this consumer's own pending entries, entries idle longer
// than ClaimAfter in any consumer, and then new entries (waiting up to a second for some), and
// returns how many events it stored that were new.
func (c *Consumer) Step(ctx context.Context) (int, error) {
	if err := c.ensureGroup(ctx); err != nil {
		return 0, err
	}
	total := 0
	// Entries this consumer read before it restarted.
	for {
		streams, err := c.rdb.XReadGroup(ctx, &goredis.XReadGroupArgs{
			Group: Group, Consumer: c.name, Streams: []string{c.stream, "0"}, Count: batchSize,
		}).Result()
		if err != nil {
			return total, err
		}
		if len(streams) == 0 || len(streams[0].Messages) == 0 {
			break
		}
		n, err := c.handle(ctx, streams[0].Messages)
		total += n
		if err != nil {
			return total, err
		}
	}
	// Entries of consumers that died.
	msgs, next, err := c.rdb.XAutoClaim(ctx, &goredis.XAutoClaimArgs{
		Stream: c.stream, Group: Group, Consumer: c.name,
		MinIdle: c.claimAfter, Start: c.claimFrom, Count: batchSize,
	}).Result()
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
	// New entries.
	streams, err := c.rdb.XReadGroup(ctx, &goredis.XReadGroupArgs{
		Group: Group, Consumer: c.name, Streams: []string{c.stream, ">"},
		Count: batchSize, Block: c.block,
	}).Result()
	if errors.Is(err, goredis.Nil) {
		return total, nil
	}
	if err != nil {
		return total, err
	}
	for _, s := range streams {
		n, err := c.handle(ctx, s.Messages)
		total += n
		if err != nil {
			return total, err
		}
	}
	return total, nil
}

// ensureGroup creates the stream and its group where missing.
func (c *Consumer) ensureGroup(ctx context.Context) error {
	err := c.rdb.XGroupCreateMkStream(ctx, c.stream, Group, "0").Err()
	if err != nil && !strings.HasPrefix(err.Error(), "BUSYGROUP") {
		return err
	}
	return nil
}

// handle stores the entries' events in one insert and acknowledges them. Entries that are not
// events are logged and acknowledged: reading them again would not help.
func (c *Consumer) handle(ctx context.Context, msgs []goredis.XMessage) (int, error) {
	events := make([]Event, 0, len(msgs))
	ids := make([]string, 0, len(msgs))
	for _, m := range msgs {
		ids = append(ids, m.ID)
		data, _ := m.Values[streamField].(string)
		var e Event
		if err := json.Unmarshal([]byte(data), &e); err != nil {
			c.log.Error("visits: skip an entry that is not an event", "id", m.ID, "err", err)
			continue
		}
		events = append(events, e)
	}
	n := 0
	if len(events) > 0 {
		var err error
		if n, err = c.store.Insert(ctx, events); err != nil {
			return 0, err // left pending: read again after a restart, or claimed
		}
	}
	if err := c.rdb.XAck(ctx, c.stream, Group, ids...).Err(); err != nil {
		// Stored: a later delivery counts nothing.
		return n, err
	}
	return n, nil
}
