// Node: this node's sync loop over the feeds, its reading of the highest issued ID, and the
// bus's events.

package cachesync

import (
	"context"
	"log/slog"
	"sync/atomic"
	"time"
)

// IssuedPoll is how often a node reads the highest issued ID, should news of a new ID block on
// the bus be lost.
const IssuedPoll = 5 * time.Second

// Resolver is the redirect path's cache (redirect.Resolver): its links, the IDs issued and the
// workspaces being deleted.
type Resolver interface {
	Reserver
	HandleEvent(e Event)
	Issued(id int64)
	IssuedID() int64
	SetGoneWorkspaces(ids []int64)
}

// IDs reads the highest ID any node was issued (postgres.IDSource).
type IDs interface {
	HighestIssued(ctx context.Context) (int64, error)
}

// Domains is the host → custom domain table (domain.Table).
type Domains interface {
	// Reload reads every domain again.
	Reload(ctx context.Context) error
	// Refresh reads them again if they changed since the last read.
	Refresh(ctx context.Context) error
}

// Accounts is what the sync asks of the account service (account.Service): the workspaces being
// deleted, and the API keys cached.
type Accounts interface {
	DeletedWorkspaces(ctx context.Context) ([]int64, error)
	ForgetKey(id int64)
	ForgetAllKeys()
}

// Sessions is what a node remembers of sessions being live (auth.Service).
type Sessions interface {
	ForgetSessionsHere()
}

// NodeOptions are what a Node keeps in step.
type NodeOptions struct {
	Syncer       *Syncer
	Reservations *ReservationSync
	Resolver     Resolver
	IDs          IDs
	Domains      Domains
	Accounts     Accounts
	// Sessions forgets what it remembers when another node signed sessions out; nil: nothing.
	Sessions Sessions
	Log      *slog.Logger
}

// Node keeps this node's caches in step with PostgreSQL and with the other nodes: every
// Interval a round of the change feed, the reservations, the custom domains (when their epoch
// moved) and the deleted workspaces; every IssuedPoll the highest issued ID; and the events of
// the bus as they come.
type Node struct {
	o NodeOptions
	// started: the feeds are positioned (Start). Only Start and the loop read or write it.
	started bool
	// rounds counts the rounds finished, resyncs the starts of the bus's subscription handled.
	rounds, resyncs atomic.Int64
}

// NewNode returns the node's sync; Start positions it, Run and PollIssued run it.
func NewNode(o NodeOptions) *Node { return &Node{o: o} }

// Start positions the change feeds: reservations are loaded in full, link changes from now.
// Should PostgreSQL fail here, the next round retries.
func (n *Node) Start(ctx context.Context) {
	n.started = n.o.Reservations.Start(ctx, n.o.Resolver.IssuedID()) == nil && n.o.Syncer.Start(ctx) == nil
}

// Run applies the feeds to this node's caches every Interval until ctx ends.
func (n *Node) Run(ctx context.Context) {
	every(ctx, Interval, func() { n.Round(ctx) })
}

// Round is one round of Run; a round before the feeds are positioned positions them.
func (n *Node) Round(ctx context.Context) {
	defer n.rounds.Add(1)
	if !n.started {
		n.Start(ctx)
		return
	}
	if err := n.o.Syncer.Round(ctx); err != nil && ctx.Err() == nil {
		n.o.Log.Warn("cache sync: apply link changes", "err", err)
	}
	if err := n.o.Reservations.Round(ctx); err != nil && ctx.Err() == nil {
		n.o.Log.Warn("cache sync: read reservations", "err", err)
	}
	if err := n.o.Domains.Refresh(ctx); err != nil && ctx.Err() == nil {
		n.o.Log.Warn("cache sync: read custom domains", "err", err)
	}
	if gone, err := n.o.Accounts.DeletedWorkspaces(ctx); err == nil {
		n.o.Resolver.SetGoneWorkspaces(gone)
	} else if ctx.Err() == nil {
		n.o.Log.Warn("cache sync: read deleted workspaces", "err", err)
	}
}

// Rounds answers how many rounds have finished: a test waits for one that began after an event.
func (n *Node) Rounds() int64 { return n.rounds.Load() }

// PollIssued catches up on ID blocks and reservations every IssuedPoll, even if bus messages
// were lost, until ctx ends.
func (n *Node) PollIssued(ctx context.Context) {
	every(ctx, IssuedPoll, func() { n.RefreshIssued(ctx) })
}

// RefreshIssued reads the highest issued ID into the resolver.
func (n *Node) RefreshIssued(ctx context.Context) {
	high, err := n.o.IDs.HighestIssued(ctx)
	if err != nil {
		n.o.Log.Warn("read highest issued id", "err", err)
		return
	}
	n.o.Resolver.Issued(high)
}

// HandleEvent applies an event of the bus (redis.Bus.Listen) to this node.
func (n *Node) HandleEvent(e Event) {
	n.o.Resolver.HandleEvent(e)
	switch e.Kind {
	case EventDomain:
		// Off the bus's goroutine: a reload is a query.
		go n.reloadDomains()
	case EventKeyRevoked:
		n.o.Accounts.ForgetKey(e.ID)
	case EventSessionsEnded:
		n.forgetSessions()
	case EventResync:
		n.o.Accounts.ForgetAllKeys()
		n.forgetSessions()
		go n.reloadDomains()
		// Events may have been missed while disconnected: catch up from the source of truth.
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		n.RefreshIssued(ctx)
		n.resyncs.Add(1)
	}
}

func (n *Node) forgetSessions() {
	if n.o.Sessions != nil {
		n.o.Sessions.ForgetSessionsHere()
	}
}

// Resyncs answers how many times the bus's subscription started and the node dropped its
// copies (EventResync handled).
func (n *Node) Resyncs() int64 { return n.resyncs.Load() }

func (n *Node) reloadDomains() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := n.o.Domains.Reload(ctx); err != nil {
		n.o.Log.Warn("reload custom domains; the next sync round retries", "err", err)
	}
}

// every runs fn each interval until ctx ends.
func every(ctx context.Context, interval time.Duration, fn func()) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			fn()
		}
	}
}
