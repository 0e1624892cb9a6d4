package visit

import (
	"context"
	"time"

	"github.com/google/uuid"

	"github.com/prometheus/client_golang/prometheus/testutil"
)

// BatchSize is the most events one flush sends.
const BatchSize = batchSize

// AppendEntry appends the batch as a stream entry's value.
func AppendEntry(b []byte, batch []Event) []byte { return appendEntry(b, batch) }

// SetClaimAfter changes how long entries stay with a consumer before c claims them.
func (c *Consumer) SetClaimAfter(d time.Duration) { c.claimAfter = d }

// Measure sets the stream gauge and trims what the group acknowledged, as Run does every few
// seconds.
func (c *Consumer) Measure(ctx context.Context) { c.measure(ctx) }

// SetBlock changes how long one read waits for new entries.
func (c *Consumer) SetBlock(d time.Duration) { c.block = d }

// DroppedFull is how many events full buffers dropped, in this process.
func DroppedFull() float64 { return testutil.ToFloat64(droppedFull) }

// HitOf is a hit the Buffer sends as the event e, unchanged.
func HitOf(e Event) Hit { return Hit{event: &e} }

// NewID is the ID the Buffer's flusher gives an event of a visit at at.
func (b *Buffer) NewID(at time.Time) uuid.UUID { return b.newID(at) }

// Waiting is how many hits the Buffer holds, not yet taken by its flusher.
func (b *Buffer) Waiting() int { return len(b.hits) }

// Kept is how many events the Buffer keeps until the consumers have stored them.
func (b *Buffer) Kept() int64 { return b.keptEvents.Load() }

// Confirms is how many times the Buffer has asked Redis how far the consumer group got, each
// counted once what it kept after it is known (Kept).
func (b *Buffer) Confirms() int64 { return b.confirms.Load() }

// Steps is how many steps (a read, its insert and acknowledgement) Run has finished.
func (c *Consumer) Steps() int64 { return c.steps.Load() }
