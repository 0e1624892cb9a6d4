package redis

import (
	"context"
	"log/slog"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	goredis "github.com/redis/go-redis/v9"
)

// Event is one message on the invalidation bus.
type Event struct {
	Kind     EventKind
	DomainID int64  // EventLink
	Key      string // EventLink
	ID       int64  // EventIssued, EventReserved, EventKeyRevoked, EventWorkspaceGone, EventDomain
}

// EventKind says what an Event announces.
type EventKind byte

// The events every node listens to.
const (
	// EventLink: the link at (DomainID, Key) changed or was deleted; drop local copies.
	EventLink EventKind = 'l'
	// EventIssued: IDs up to ID have been handed out to some node.
	EventIssued EventKind = 'h'
	// EventReserved: ID's code is now a custom alias.
	EventReserved EventKind = 'r'
	// EventKeyRevoked: the API key ID was revoked; drop cached copies.
	EventKeyRevoked EventKind = 'k'
	// EventWorkspaceGone: the workspace ID was deleted; its links stop answering.
	EventWorkspaceGone EventKind = 'w'
	// EventDomain: the custom domain ID was verified, edited or removed; reload the host table.
	EventDomain EventKind = 'd'
	// EventResync: the subscription was (re)established and messages may have been missed.
	EventResync EventKind = 's'
)

func (e Event) encode() string {
	switch e.Kind {
	case EventLink:
		return "l " + strconv.FormatInt(e.DomainID, 10) + " " + e.Key
	default:
		return string(e.Kind) + " " + strconv.FormatInt(e.ID, 10)
	}
}

func decodeEvent(s string) (Event, bool) {
	parts := strings.SplitN(s, " ", 3)
	if len(parts) < 2 || len(parts[0]) != 1 {
		return Event{}, false
	}
	n, err := strconv.ParseInt(parts[1], 10, 64)
	if err != nil {
		return Event{}, false
	}
	e := Event{Kind: EventKind(parts[0][0])}
	switch e.Kind {
	case EventLink:
		if len(parts) != 3 {
			return Event{}, false
		}
		e.DomainID, e.Key = n, parts[2]
	case EventIssued, EventReserved, EventKeyRevoked, EventWorkspaceGone, EventDomain:
		e.ID = n
	default:
		return Event{}, false
	}
	return e, true
}

// Bus publishes and receives Events on one channel of the deployment's namespace.
type Bus struct {
	c   *Client
	log *slog.Logger
}

// NewBus returns the bus over c.
func NewBus(c *Client, log *slog.Logger) *Bus { return &Bus{c: c, log: log} }

func (b *Bus) channel() string { return b.c.Key("events") }

// Publish sends e to every node (this one included).
func (b *Bus) Publish(ctx context.Context, e Event) error {
	return b.c.rdb.Publish(ctx, b.channel(), e.encode()).Err()
}

// Listen calls handle for every event until ctx ends, reconnecting after failures. It calls
// handle with EventResync each time the subscription starts, since events may have been lost.
func (b *Bus) Listen(ctx context.Context, handle func(Event)) {
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
					handle(Event{Kind: EventResync})
				}
			case *goredis.Message:
				if e, ok := decodeEvent(m.Payload); ok {
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
