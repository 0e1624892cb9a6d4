package visit

import (
	"context"
	"errors"
	"time"
)

// Stream is the visit stream as Redis keeps it (key StreamKey): Buffers add entries, and
// Consumers read them in the consumer group Group. Each entry holds one batch of events.
type Stream interface {
	// Add appends an entry holding data, trimming the stream to about maxLen entries, and
	// answers the entry's ID.
	Add(ctx context.Context, data []byte, maxLen int64) (string, error)
	// State tells which Redis server answers and how far the stream and the group got, in one
	// round trip; the error says the server did not answer.
	State(ctx context.Context) (StreamState, error)
	// Progress tells how far the group got.
	Progress(ctx context.Context) (GroupProgress, error)
	// EnsureGroup creates the stream and the group where missing.
	EnsureGroup(ctx context.Context) error
	// Read returns up to count entries for consumer from the group: with from "0" the ones it
	// read and did not acknowledge, with ">" new ones, waiting up to block for some (none
	// within it: no entries, no error; block < 0: not waiting at all).
	Read(ctx context.Context, consumer, from string, count int64, block time.Duration) ([]StreamEntry, error)
	// Claim moves to consumer up to count entries that other consumers have held for at least
	// minIdle, scanning from start, and answers where the next scan starts.
	Claim(ctx context.Context, consumer string, minIdle time.Duration, start string, count int64) ([]StreamEntry, string, error)
	// Ack acknowledges the entries.
	Ack(ctx context.Context, ids ...string) error
	// Trim drops the entries below minID, approximately.
	Trim(ctx context.Context, minID string) error
	// Consumers lists the group's consumers.
	Consumers(ctx context.Context) ([]StreamConsumer, error)
	// RemoveConsumer forgets a consumer of the group.
	RemoveConsumer(ctx context.Context, name string) error
}

// ErrNoStream is StreamState.StreamErr when the stream does not exist.
var ErrNoStream = errors.New("visit stream does not exist")

// StreamEntry is one entry of the stream.
type StreamEntry struct {
	ID string
	// Data is the entry's batch of events as JSON; "" when the entry holds none.
	Data string
}

// StreamState is what a Buffer learns when it confirms what was consumed.
type StreamState struct {
	// Server is the run ID of the Redis server, new at every start.
	Server string
	// StreamErr says the stream could not be read (ErrNoStream: it does not exist); First and
	// LastGenerated are its oldest entry and the newest ID it ever gave.
	StreamErr            error
	First, LastGenerated string
	// GroupErr says the group's progress could not be read.
	GroupErr error
	Group    GroupProgress
}

// GroupProgress is how far the consumer group Group got.
type GroupProgress struct {
	// Exists says the group exists; without it nothing was acknowledged.
	Exists bool
	// LastDelivered is the last entry handed to a consumer.
	LastDelivered string
	// Lag is how many entries were not handed out yet, Pending how many were and are not
	// acknowledged.
	Lag, Pending int64
	// OldestPending is the oldest entry not acknowledged; PendingErr says it could not be read.
	OldestPending string
	PendingErr    error
}

// StreamConsumer is one consumer of the group.
type StreamConsumer struct {
	Name    string
	Pending int64
	Idle    time.Duration
}
