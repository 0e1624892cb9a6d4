// Package redis holds what Shortlink keeps in Redis: the shared link cache with its negative
// entries, and the pub/sub bus that keeps every node's in-process cache in step.
package redis

import (
	"context"
	"fmt"
	"net"
	"strings"
	"sync"
	"time"

	goredis "github.com/redis/go-redis/v9"
)

// Client is a Redis connection with the deployment's key prefix.
type Client struct {
	rdb    *goredis.Client
	prefix string

	// With Sentinels: watchers of the master's address, and switched, closed (and replaced)
	// each time the Sentinels announce a new master. nil for one server.
	stopWatch context.CancelFunc
	watchers  sync.WaitGroup
	mu        sync.Mutex
	master    string
	switched  chan struct{}
}

// Target is where Redis is: one server, or the master that Sentinels watch under a name.
type Target struct {
	// URL is redis://[user:password@]host:port/db (rediss:// for TLS). With Sentinels its host
	// is not used: only its user, password, database and scheme, for the master.
	URL string
	// Sentinels are host:port addresses of Sentinels; empty, URL's server is used.
	Sentinels  []string
	MasterName string
}

// Timeouts are short on purpose: when Redis is down, redirects and creates carry on without it
// instead of waiting. A connection is dialled once (dialAttempts), not go-redis's five times
// 100 ms apart: a redirect's lookup has 3 s for Redis and PostgreSQL both, and five dials cost
// a command 0.4 s of a Redis that refuses them and 2.9 s of one that does not answer.
const (
	dialAttempts = 1
	dialTimeout  = 500 * time.Millisecond
	ioTimeout    = 500 * time.Millisecond
	poolTimeout  = time.Second
)

// Open connects to the Redis server at url.
func Open(ctx context.Context, url, prefix string) (*Client, error) {
	return OpenTarget(ctx, Target{URL: url}, prefix)
}

// OpenTarget connects to Redis: to one server, or to the master the Sentinels name, following
// it when they fail over to a replica (connections to the old master are dropped, and the
// event bus subscribes again). An error with a Client means Redis did not answer yet, which is
// not fatal: the service works without Redis, only slower and with slower invalidation.
func OpenTarget(ctx context.Context, t Target, prefix string) (*Client, error) {
	c := &Client{prefix: prefix}
	if len(t.Sentinels) == 0 {
		opt, err := goredis.ParseURL(t.URL)
		if err != nil {
			return nil, fmt.Errorf("redis: parse REDIS_URL: %w", err)
		}
		opt.DialTimeout, opt.ReadTimeout, opt.WriteTimeout = dialTimeout, ioTimeout, ioTimeout
		opt.PoolTimeout = poolTimeout
		opt.MaxRetries, opt.DialerRetries = 1, dialAttempts
		c.rdb = goredis.NewClient(opt)
	} else {
		fo := &goredis.FailoverOptions{
			MasterName: t.MasterName, SentinelAddrs: t.Sentinels,
			DialTimeout: dialTimeout, ReadTimeout: ioTimeout, WriteTimeout: ioTimeout,
			PoolTimeout: poolTimeout, MaxRetries: 1, DialerRetries: dialAttempts,
		}
		if t.URL != "" {
			opt, err := goredis.ParseURL(t.URL)
			if err != nil {
				return nil, fmt.Errorf("redis: parse REDIS_URL: %w", err)
			}
			fo.Username, fo.Password, fo.DB, fo.TLSConfig = opt.Username, opt.Password, opt.DB, opt.TLSConfig
		}
		c.rdb = goredis.NewFailoverClient(fo)
		c.switched = make(chan struct{})
		c.watch(t)
	}
	if err := c.rdb.Ping(ctx).Err(); err != nil {
		return c, fmt.Errorf("redis: ping: %w", err)
	}
	return c, nil
}

// watch subscribes to +switch-master on every Sentinel: any of them announces a failover, and
// one that is down does not hide it. go-redis does the same for its pool; the subscriptions of
// the event bus are not in that pool and learn of it here.
func (c *Client) watch(t Target) {
	ctx, cancel := context.WithCancel(context.Background())
	c.stopWatch = cancel
	for _, addr := range t.Sentinels {
		sc := goredis.NewSentinelClient(&goredis.Options{Addr: addr, DialTimeout: dialTimeout,
			ReadTimeout: ioTimeout, WriteTimeout: ioTimeout, MaxRetries: 1, DialerRetries: dialAttempts})
		ps := sc.Subscribe(ctx, "+switch-master")
		c.watchers.Go(func() {
			defer func() { _ = sc.Close() }()
			defer func() { _ = ps.Close() }()
			ch := ps.Channel()
			for {
				select {
				case <-ctx.Done():
					return
				case m, ok := <-ch:
					if !ok {
						return
					}
					// "<name> <old ip> <old port> <new ip> <new port>"
					f := strings.Fields(m.Payload)
					if len(f) == 5 && f[0] == t.MasterName {
						c.newMaster(net.JoinHostPort(f[3], f[4]))
					}
				}
			}
		})
	}
}

// newMaster records the master's address; a new one wakes those waiting on Switched.
func (c *Client) newMaster(addr string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if addr == c.master {
		return // announced by another Sentinel already
	}
	c.master = addr
	close(c.switched)
	c.switched = make(chan struct{})
}

// Switched is closed when the Sentinels announce a new master after the call; nil (never
// ready) with one Redis server.
func (c *Client) Switched() <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.switched
}

// Key returns name inside the deployment's namespace.
func (c *Client) Key(name string) string { return c.prefix + name }

// Ping reports whether Redis answers.
func (c *Client) Ping(ctx context.Context) error { return c.rdb.Ping(ctx).Err() }

// DeleteAll deletes every key in the deployment's namespace.
func (c *Client) DeleteAll(ctx context.Context) error {
	iter := c.rdb.Scan(ctx, 0, c.prefix+"*", 1000).Iterator()
	for iter.Next(ctx) {
		if err := c.rdb.Del(ctx, iter.Val()).Err(); err != nil {
			return fmt.Errorf("redis: delete %s: %w", iter.Val(), err)
		}
	}
	if err := iter.Err(); err != nil {
		return fmt.Errorf("redis: list keys: %w", err)
	}
	return nil
}

// Close closes the connections.
func (c *Client) Close() error {
	if c.stopWatch != nil {
		c.stopWatch()
		c.watchers.Wait()
	}
	return c.rdb.Close()
}
