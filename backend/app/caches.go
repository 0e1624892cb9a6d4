package app

import (
	"context"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/shortlink/shortlink/backend/cachesync"
	"github.com/shortlink/shortlink/backend/link"
	"github.com/shortlink/shortlink/backend/redirect"
	"github.com/shortlink/shortlink/backend/redis"
)

// nodeCache is told of every committed change (link.Cache): it writes Redis, which tells the
// other nodes over the bus, and drops this node's copy before the create or edit call returns.
// A change Redis does not take is handed to the syncer at once, so that every read of that link
// goes past Redis until the syncer has written it.
type nodeCache struct {
	redis    *redis.LinkCache
	resolver *redirect.Resolver
	sync     *cachesync.Syncer
	log      *slog.Logger
	// notCached counts new links Redis did not take, for a log line at most every
	// notCachedLogEvery: while Redis stalls, that is every batch.
	notCached *notCachedLog
}

// notCachedLogEvery is the least time between two log lines about new links Redis did not take.
const notCachedLogEvery = 10 * time.Second

// maxNotCachedPending bounds the changes waiting for Redis past which new links Redis did not
// take are no longer handed to the syncer: a Redis down for minutes must not grow the node's
// memory by every link created meanwhile. About seven seconds of creates at 15,000 a second,
// a failover's length; links beyond it fare as before: a miss Redis holds for one of their keys
// stands until it expires (30 s).
const maxNotCachedPending = 100_000

type notCachedLog struct {
	unlogged atomic.Int64
	last     atomic.Int64 // UnixNano of the last line
}

var _ link.Cache = nodeCache{}

func (c nodeCache) Created(ctx context.Context, links []*link.Link) error {
	return c.redis.Created(ctx, links)
}

// NotCached hands new links Redis did not take in time to the syncer, which writes them to
// Redis once it answers: the change feed records edits and deletions, not creates, so nothing
// else would replace a miss Redis holds for one of their keys (an alias tried before it
// existed) before it expires. Until then this node reads them past Redis. Past
// maxNotCachedPending waiting changes they are only counted.
func (c nodeCache) NotCached(links []*link.Link) {
	if c.sync.Waiting() < maxNotCachedPending {
		for _, l := range links {
			c.sync.Missed(cachesync.Change{DomainID: l.DomainID, Key: l.Key, Version: redis.Version(l)})
		}
	}
	total := c.notCached.unlogged.Add(int64(len(links)))
	now, last := time.Now().UnixNano(), c.notCached.last.Load()
	if now-last < int64(notCachedLogEvery) || !c.notCached.last.CompareAndSwap(last, now) {
		return
	}
	c.notCached.unlogged.Add(-total)
	c.log.Warn("link cache: redis did not take new links in time; reading them past redis until it does", "links", total)
}

func (c nodeCache) Changed(ctx context.Context, l *link.Link) {
	if err := c.redis.Changed(ctx, l); err != nil {
		c.missed(cachesync.Change{DomainID: l.DomainID, Key: l.Key, Version: redis.Version(l)}, err)
	}
	c.resolver.Invalidate(l.DomainID, l.Key)
}

// ChangedMany replaces many links' entries in one pipeline; those Redis did not take are read
// past it until the syncer has written them.
func (c nodeCache) ChangedMany(ctx context.Context, links []*link.Link) {
	if err := c.redis.ChangedMany(ctx, links); err != nil {
		for _, l := range links {
			c.sync.Missed(cachesync.Change{DomainID: l.DomainID, Key: l.Key, Version: redis.Version(l)})
		}
		c.log.Warn("link cache: redis did not take a bulk edit; reading those links past redis until it does", "links", len(links), "err", err)
	}
	for _, l := range links {
		c.resolver.Invalidate(l.DomainID, l.Key)
	}
}

func (c nodeCache) Removed(ctx context.Context, l *link.Link) {
	if err := c.redis.Removed(ctx, l); err != nil {
		c.missed(cachesync.Change{DomainID: l.DomainID, Key: l.Key, Version: redis.RemovedVersion(l), Deleted: true}, err)
	}
	c.resolver.Invalidate(l.DomainID, l.Key)
}

// RemovedMany drops the links of a deleted workspace; the change feed covers a failure.
func (c nodeCache) RemovedMany(ctx context.Context, links []*link.Link) {
	c.redis.RemovedMany(ctx, links)
	for _, l := range links {
		c.resolver.Invalidate(l.DomainID, l.Key)
	}
}

func (c nodeCache) Reserved(ctx context.Context, id int64) {
	c.resolver.Reserve(id)
	c.redis.Reserved(ctx, id)
}

func (c nodeCache) missed(ch cachesync.Change, err error) {
	c.sync.Missed(ch)
	c.log.Warn("link cache: redis did not take a change; reading that link past redis until it does", "err", err)
}
