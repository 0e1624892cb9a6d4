package redis

import (
	"context"
	"log/slog"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/shortlink/shortlink/backend/cachesync"
)

// encodeEvent is e as a message on the channel.
func encodeEvent(e cachesync.Event) string {
	switch e.Kind {
	case cachesync.EventLink:
		return "l " + strconv.FormatInt(e.DomainID, 10) + " " + e.Key
	default:
		return string(e.Kind) + " " + strconv.FormatInt(e.ID, 10)
	}
}

// decodeEvent reads a message of the channel; false for one it does not know.
func decodeEvent(s string) (cachesync.Event, bool) {
	parts := strings.SplitN(s, " ", 3)
	if len(parts) < 2 || len(parts[0]) != 1 {
		return cachesync.Event{}, false
	}
	n, err := strconv.ParseInt(parts[1], 10, 64)
	if err != nil {
		return cachesync.Event{}, false
	}
	e := cachesync.Event{Kind: cachesync.EventKind(parts[0][0])}
	switch e.Kind {
	case cachesync.EventLink:
		if len(parts) != 3 {
			return cachesync.Event{}, false
		}
		e.DomainID, e.Key = n, parts[2]
	case cachesync.EventIssued, cachesync.EventReserved, cachesync.EventKeyRevoked, cachesync.EventWorkspaceGone, cachesync.EventDomain,
		cachesync.EventSessionsEnded:
		e.ID = n
	default:
		return cachesync.Event{}, false
	}
	return e, true
}

// linksPrefix starts a message of many EventLink events (encodeLinkEvents).
const linksPrefix = "L\n"

// encodeLinkEvents is an EventLink event for each of refs as one message: a change of many
// links (a bulk job's batch, a round of the cache sync) costs one message, not one a link.
func encodeLinkEvents(refs []cachesync.Ref) string {
	var b strings.Builder
	b.Grow(len(linksPrefix) + 24*len(refs))
	b.WriteString(linksPrefix)
	for i, r := range refs {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(strconv.FormatInt(r.DomainID, 10))
		b.WriteByte(' ')
		b.WriteString(r.Key)
	}
	return b.String()
}

// decodeEvents reads a message of the channel into its events: many for a message of
// encodeLinkEvents, one otherwise; none for one it does not know.
func decodeEvents(s string) []cachesync.Event {
	body, many := strings.CutPrefix(s, linksPrefix)
	if !many {
		if e, ok := decodeEvent(s); ok {
			return []cachesync.Event{e}
		}
		return nil
	}
	var out []cachesync.Event
	for line := range strings.SplitSeq(body, "\n") {
		domain, key, ok := strings.Cut(line, " ")
		n, err := strconv.ParseInt(domain, 10, 64)
		if ok && err == nil {
			out = append(out, cachesync.Event{Kind: cachesync.EventLink, DomainID: n, Key: key})
		}
	}
	return out
}

// Bus publishes and receives cachesync.Events on one channel of the deployment's namespace.
type Bus struct {
	c   *Client
	log *slog.Logger
}

// NewBus returns the bus over c.
func NewBus(c *Client, log *slog.Logger) *Bus { return &Bus{c: c, log: log} }

func (b *Bus) channel() string { return b.c.Key("events") }

// Publish sends e to every node (this one included).
func (b *Bus) Publish(ctx context.Context, e cachesync.Event) error {
	return b.c.rdb.Publish(ctx, b.channel(), encodeEvent(e)).Err()
}

// Listen calls handle for every event until ctx ends, reconnecting after failures. It calls
// handle with EventResync each time the subscription starts, since events may have been lost.
func (b *Bus) Listen(ctx context.Context, handle func(cachesync.Event)) {
	for ctx.Err() == nil {
		switched := b.c.Switched()
		ps := b.c.rdb.Subscribe(ctx, b.channel())
		// Receive does not return when ctx ends; closing the subscription makes it return.
		// So does a failover: the subscription may sit on the old master, now a replica (or
		// cut off), where nothing is published any more.
		stop := context.AfterFunc(ctx, func() { _ = ps.Close() })
		var moved atomic.Bool
		watched := make(chan struct{})
		go func() {
			select {
			case <-switched:
				moved.Store(true)
				_ = ps.Close()
			case <-watched:
			}
		}()
		for {
			msg, err := ps.Receive(ctx)
			if err != nil {
				switch {
				case ctx.Err() != nil:
				case moved.Load():
					b.log.Info("event bus: the Redis master changed, resubscribing")
				default:
					b.log.Warn("event bus: receive failed, resubscribing", "err", err)
				}
				break
			}
			switch m := msg.(type) {
			case *goredis.Subscription:
				if m.Kind == "subscribe" {
					handle(cachesync.Event{Kind: cachesync.EventResync})
				}
			case *goredis.Message:
				for _, e := range decodeEvents(m.Payload) {
					handle(e)
				}
			}
		}
		stop()
		close(watched)
		_ = ps.Close()
		if moved.Load() {
			continue // at once: the new master is known
		}
		select {
		case <-ctx.Done():
		case <-time.After(250 * time.Millisecond):
		}
	}
}
