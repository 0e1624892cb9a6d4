// Package cachepolicy says what a committed change does to the caches that answer visitors:
// the shared Redis cache every node reads, this node's own copies (redirect.Resolver), the
// other nodes (told over the event bus), and the cache sync, which rewrites from PostgreSQL what
// Redis did not take (cachesync.Syncer). See docs/architecture.md#how-a-redirect-is-answered.
package cachepolicy

import (
	"context"

	"github.com/shortlink/shortlink/backend/cachesync"
	"github.com/shortlink/shortlink/backend/link"
)

// Shared is the cache every node reads (redis.LinkCache). Its writes keep an entry that holds
// a newer version, and announce themselves to the other nodes.
type Shared interface {
	Created(ctx context.Context, links []*link.Link) error
	Changed(ctx context.Context, l *link.Link) error
	ChangedMany(ctx context.Context, links []*link.Link) error
	Removed(ctx context.Context, l *link.Link) error
	RemovedMany(ctx context.Context, links []*link.Link)
	Reserved(ctx context.Context, id int64)
}

// Local is this node's own cache of links and of the IDs issued and reserved
// (redirect.Resolver).
type Local interface {
	Invalidate(domainID int64, key string)
	Reserve(id int64)
}

// Pending is the cache sync's list of changes Redis did not take (cachesync.Syncer): this node
// reads those links past Redis until the sync has written them.
type Pending interface {
	Missed(c cachesync.Change)
	// Waiting is how many changes wait for Redis.
	Waiting() int
}

// Publisher tells every node of an event (redis.Bus).
type Publisher interface {
	Publish(ctx context.Context, e cachesync.Event) error
}
