package visitcap

import (
	"context"
	"log/slog"
	"time"

	goredis "github.com/redis/go-redis/v9"
)

// NewWithInterval is New with another interval between writes.
func NewWithInterval(rdb *goredis.Client, prefix string, store Store, log *slog.Logger, interval time.Duration) *Counter {
	return newCounter(rdb, prefix, store, log, interval)
}

// Flush writes the counts now, as the writer does every interval.
func (c *Counter) Flush(ctx context.Context) error { return c.flush(ctx) }

// RedisDown reports whether Takes count in the Store.
func (c *Counter) RedisDown() bool { return c.down.Load() }

// Key is the Redis key of the link's counter.
func (c *Counter) Key(linkID int64) string { return c.key(linkID) }
