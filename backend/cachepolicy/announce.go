// Announcer: the changes this node makes that every node's caches must follow at once.

package cachepolicy

import (
	"context"
	"log/slog"
	"time"

	"github.com/shortlink/shortlink/backend/cachesync"
)

// Node is what an announcement changes on this node first (redirect.Resolver).
type Node interface {
	Issued(max int64)
	WorkspaceGone(id int64)
}

// Announcer tells this node and then every other, over the bus, of a change their caches
// follow. A message the bus loses is made good by the cache sync, within the time each method
// names.
type Announcer struct {
	bus  Publisher
	node Node
	log  *slog.Logger
}

// NewAnnouncer returns an Announcer publishing on bus.
func NewAnnouncer(bus Publisher, node Node, log *slog.Logger) *Announcer {
	return &Announcer{bus: bus, node: node, log: log}
}

// IDBlock runs before any ID of a new block is used (idblock's announce): every node learns
// those IDs exist; the others also read the highest issued ID every few seconds.
func (a *Announcer) IDBlock(max int64) {
	a.node.Issued(max)
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if err := a.bus.Publish(ctx, cachesync.Event{Kind: cachesync.EventIssued, ID: max}); err != nil {
		a.log.Warn("announce id block", "err", err)
	}
}

// Domain tells every node that a custom domain changed: they reload their host tables.
func (a *Announcer) Domain(ctx context.Context, id int64) {
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	if err := a.bus.Publish(ctx, cachesync.Event{Kind: cachesync.EventDomain, ID: id}); err != nil {
		a.log.Warn("announce domain change; other nodes learn of it within a second", "err", err)
	}
}

// KeyRevoked tells every node to forget its copy of a revoked API key (this node has); the
// others forget it within the keys' cache time should the message be lost.
func (a *Announcer) KeyRevoked(ctx context.Context, id int64) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
	defer cancel()
	if err := a.bus.Publish(ctx, cachesync.Event{Kind: cachesync.EventKeyRevoked, ID: id}); err != nil {
		a.log.Warn("announce revoked api key; other nodes forget it within 5s", "err", err)
	}
}

// SessionsEnded tells every other node that sessions were signed out, so that they stop
// accepting their access tokens at once (this node has forgotten them already); should the
// message be lost, they do within the 5 s they remember a session.
func (a *Announcer) SessionsEnded(ctx context.Context) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 300*time.Millisecond)
	defer cancel()
	if err := a.bus.Publish(ctx, cachesync.Event{Kind: cachesync.EventSessionsEnded}); err != nil {
		a.log.Warn("announce ended sessions; other nodes refuse them within 5s", "err", err)
	}
}

// WorkspaceGone stops every node answering a deleted workspace's links: this one at once, the
// others on the message or the next cache sync round.
func (a *Announcer) WorkspaceGone(ctx context.Context, id int64) {
	a.node.WorkspaceGone(id)
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 300*time.Millisecond)
	defer cancel()
	if err := a.bus.Publish(ctx, cachesync.Event{Kind: cachesync.EventWorkspaceGone, ID: id}); err != nil {
		a.log.Warn("announce deleted workspace; other nodes learn of it within a second", "err", err)
	}
}
