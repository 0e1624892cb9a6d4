// Package redis holds what Shortlink keeps in Redis: the shared link cache with its negative
// entries, and the pub/sub bus that keeps every node's in-process cache in step.
package redis

import (
	"context"
	"fmt"
	"time"

	goredis "github.com/redis/go-redis/v9"
)

// Client is a Redis connection with the deployment's key prefix.
type Client struct {
	rdb    *goredis.Client
	prefix string
}

// Open connects to Redis. Timeouts are short on purpose: when Redis is down, redirects and
// creates carry on without it instead of waiting.
func Open(ctx context.Context, url, prefix string) (*Client, error) {
	opt, err := goredis.ParseURL(url)
	if err != nil {
		return nil, fmt.Errorf("redis: parse REDIS_URL: %w", err)
	}
	opt.DialTimeout = 500 * time.Millisecond
	opt.ReadTimeout = 500 * time.Millisecond
	opt.WriteTimeout = 500 * time.Millisecond
	opt.PoolTimeout = time.Second
	opt.MaxRetries = 1
	c := &Client{rdb: goredis.NewClient(opt), prefix: prefix}
	if err := c.rdb.Ping(ctx).Err(); err != nil {
		// Not fatal: the service works without Redis, only slower and with slower invalidation.
		return c, fmt.Errorf("redis: ping: %w", err)
	}
	return c, nil
}

// Redis is the underlying client, for packages that keep their own keys (with Key).
func (c *Client) Redis() *goredis.Client { return c.rdb }

// Key returns name inside the deployment's namespace.
func (c *Client) Key(name string) string { return c.prefix + name }

// Ping reports whether Redis answers.
func (c *Client) Ping(ctx context.Context) error { return c.rdb.Ping(ctx).Err() }

// Close closes the connections.
func (c *Client) Close() error { return c.rdb.Close() }
