package visitcap

import (
	"context"
	"log/slog"
	"time"
)

// NewWithInterval is New with another interval between writes.
func NewWithInterval(shared Shared, store Store, log *slog.Logger, interval time.Duration) *Counter {
	return newCounter(shared, store, log, interval)
}

// Flush writes the counts now, as the writer does every interval.
func (c *Counter) Flush(ctx context.Context) error { return c.flush(ctx) }

// RedisDown reports whether Takes count in the Store.
func (c *Counter) RedisDown() bool { return c.down.Load() }
