// Links: link.Cache for a node, told of every committed create, edit and deletion.

package cachepolicy

import (
	"context"
	"log/slog"
	"time"

	"github.com/shortlink/shortlink/backend/account"
	"github.com/shortlink/shortlink/backend/cachesync"
	"github.com/shortlink/shortlink/backend/link"
	"github.com/shortlink/shortlink/backend/redis"
)

// Links is told of every committed change (link.Cache): it writes Redis, which tells the
// other nodes over the bus, and drops this node's copy before the create or edit call returns.
// A change Redis does not take is handed to the cache sync at once, so that every read of that
// link goes past Redis until the sync has written it.
type Links struct {
	redis Shared
	local Local
	sync  Pending
	log   *slog.Logger
	// notCached counts new links Redis did not take, for a log line at most every
	// NotCachedLogEvery: while Redis stalls, that is every batch.
	notCached *Throttle
}

// NotCachedLogEvery is the least time between two log lines about new links Redis did not take.
const NotCachedLogEvery = 10 * time.Second

// MaxNotCachedPending bounds the changes waiting for Redis past which new links Redis did not
// take are no longer handed to the sync: a Redis down for minutes must not grow the node's
// memory by every link created meanwhile. About seven seconds of creates at 15,000 a second,
// a failover's length; links beyond it fare as before: a miss Redis holds for one of their keys
// stands until it expires (30 s).
const MaxNotCachedPending = 100_000

// NewLinks returns the node's link.Cache over the shared cache, its own copies and the cache
// sync's pending changes.
func NewLinks(shared Shared, local Local, sync Pending, log *slog.Logger) *Links {
	return &Links{redis: shared, local: local, sync: sync, log: log, notCached: NewThrottle(NotCachedLogEvery, time.Now)}
}

var _ link.Cache = (*Links)(nil)

// Created writes new links to Redis.
func (c *Links) Created(ctx context.Context, links []*link.Link) error {
	return c.redis.Created(ctx, links)
}

// NotCached hands new links Redis did not take in time to the sync, which writes them to
// Redis once it answers: the change feed records edits and deletions, not creates, so nothing
// else would replace a miss Redis holds for one of their keys (an alias tried before it
// existed) before it expires. Until then this node reads them past Redis. Past
// MaxNotCachedPending waiting changes they are only counted.
func (c *Links) NotCached(links []*link.Link) {
	if c.sync.Waiting() < MaxNotCachedPending {
		for _, l := range links {
			c.sync.Missed(cachesync.Change{DomainID: l.DomainID, Key: l.Key, Version: redis.Version(l)})
		}
	}
	if total, ok := c.notCached.Add(int64(len(links))); ok {
		c.log.Warn("link cache: redis did not take new links in time; reading them past redis until it does", "links", total)
	}
}

// Changed replaces a link's entry; one Redis did not take is read past it until the sync has
// written it.
func (c *Links) Changed(ctx context.Context, l *link.Link) {
	if err := c.redis.Changed(ctx, l); err != nil {
		c.missed(cachesync.Change{DomainID: l.DomainID, Key: l.Key, Version: redis.Version(l)}, err)
	}
	c.local.Invalidate(l.DomainID, l.Key)
}

// ChangedMany replaces many links' entries in one pipeline; those Redis did not take are read
// past it until the sync has written them.
func (c *Links) ChangedMany(ctx context.Context, links []*link.Link) {
	if err := c.redis.ChangedMany(ctx, links); err != nil {
		for _, l := range links {
			c.sync.Missed(cachesync.Change{DomainID: l.DomainID, Key: l.Key, Version: redis.Version(l)})
		}
		c.log.Warn("link cache: redis did not take a bulk edit; reading those links past redis until it does", "links", len(links), "err", err)
	}
	for _, l := range links {
		c.local.Invalidate(l.DomainID, l.Key)
	}
}

// Removed replaces a deleted link's entry by a tombstone; one Redis did not take is read past
// it until the sync has written it.
func (c *Links) Removed(ctx context.Context, l *link.Link) {
	if err := c.redis.Removed(ctx, l); err != nil {
		c.missed(cachesync.Change{DomainID: l.DomainID, Key: l.Key, Version: redis.RemovedVersion(l), Deleted: true}, err)
	}
	c.local.Invalidate(l.DomainID, l.Key)
}

// RemovedMany drops the links of a deleted workspace; the change feed covers a failure.
func (c *Links) RemovedMany(ctx context.Context, links []*link.Link) {
	c.redis.RemovedMany(ctx, links)
	for _, l := range links {
		c.local.Invalidate(l.DomainID, l.Key)
	}
}

// RemovedRefs is RemovedMany for the links a workspace deletion removed
// (account.Service.OnLinksRemoved).
func (c *Links) RemovedRefs(ctx context.Context, refs []account.LinkRef) {
	links := make([]*link.Link, len(refs))
	for i, r := range refs {
		links[i] = &link.Link{DomainID: r.DomainID, Key: r.Key}
	}
	c.RemovedMany(ctx, links)
}

// Reserved makes a reserved ID known here at once, and to the other nodes through Redis.
func (c *Links) Reserved(ctx context.Context, id int64) {
	c.local.Reserve(id)
	c.redis.Reserved(ctx, id)
}

func (c *Links) missed(ch cachesync.Change, err error) {
	c.sync.Missed(ch)
	c.log.Warn("link cache: redis did not take a change; reading that link past redis until it does", "err", err)
}
