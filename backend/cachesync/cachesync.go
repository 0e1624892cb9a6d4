// Package cachesync keeps every node's link caches in step with PostgreSQL when the fast path
// fails. Creates, edits and deletions write Redis and announce themselves on the bus at once;
// a Redis that is paused, restarted or unreachable at that moment, or a node that stops
// mid-write, would otherwise leave an old version live until its TTL. PostgreSQL records every
// committed change of a link in a feed (a trigger on links); each node reads the feed about once
// a second, rewrites the Redis entries from the rows, and drops its own copies. A change that
// Redis does not take is retried on every round until it does.
//
// The same loop keeps the redirect path's other two facts current: which code-shaped IDs are
// aliases (read incrementally), and which workspaces are being deleted.
package cachesync

import (
	"context"
	"log/slog"
	"time"

	"github.com/shortlink/shortlink/backend/link"
)

// Change is one entry of the feed: the link at (DomainID, Key) changed or, if Deleted, went away
// at Version.
type Change struct {
	Seq      int64
	DomainID int64
	Key      string
	Version  int64
	Deleted  bool
}

// Ref names a link by where it is served.
type Ref struct {
	DomainID int64
	Key      string
}

// Feed reads the change feed.
type Feed interface {
	// Latest is the newest sequence number written so far (0 if none).
	Latest(ctx context.Context) (int64, error)
	// After returns up to limit changes with a sequence number above after, and those numbered
	// in gaps, in sequence order.
	After(ctx context.Context, after int64, gaps []int64, limit int) ([]Change, error)
}

// Store reads the current rows of changed links.
type Store interface {
	// ResolveMany returns the links that exist at refs, in any order; missing ones are left out.
	ResolveMany(ctx context.Context, refs []Ref) ([]*link.Link, error)
}

// Remote is the shared cache. Both writes keep an entry that holds a newer version.
type Remote interface {
	// Store writes current links and the tombstones of deleted ones, in one round trip.
	Store(ctx context.Context, links []*link.Link, gone []Change) error
}

// Local is this node's own cache.
type Local interface {
	Invalidate(domainID int64, key string)
}

// Interval is how often the feed is read: the bound on how long a change whose fast path failed
// stays unseen once Redis answers again.
const Interval = time.Second

// batch is the most changes read and applied in one round.
const batch = 2000

// Syncer applies the feed to this node's caches.
type Syncer struct {
	feed   Feed
	store  Store
	remote Remote
	local  Local
	log    *slog.Logger

	cur cursor
	// pending holds changes Redis did not take yet, newest per key; retried every round.
	pending map[Ref]Change
}

// New returns a syncer; Start must run before Round.
func New(feed Feed, store Store, remote Remote, local Local, log *slog.Logger) *Syncer {
	return &Syncer{feed: feed, store: store, remote: remote, local: local, log: log, pending: map[Ref]Change{}}
}

// Start positions the syncer at the feed's end: older changes are already in every cache that
// was loaded after them.
func (s *Syncer) Start(ctx context.Context) error {
	latest, err := s.feed.Latest(ctx)
	if err != nil {
		return err
	}
	s.cur = newCursor(latest)
	return nil
}

// Run reads the feed every Interval until ctx ends.
func (s *Syncer) Run(ctx context.Context) {
	t := time.NewTicker(Interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if err := s.Round(ctx); err != nil && ctx.Err() == nil {
				s.log.Warn("cache sync: read the change feed", "err", err)
			}
		}
	}
}

// Round reads what the feed has gained since the last round and applies it, with the changes
// still pending from earlier rounds.
func (s *Syncer) Round(ctx context.Context) error {
	for {
		changes, err := s.feed.After(ctx, s.cur.after, s.cur.gapList(), batch)
		if err != nil {
			return err
		}
		seqs := make([]int64, len(changes))
		for i, c := range changes {
			seqs[i] = c.Seq
		}
		s.cur.advance(seqs, time.Now())
		for _, c := range changes {
			// At once, whatever Redis does: a node that cannot reach Redis reads PostgreSQL.
			s.local.Invalidate(c.DomainID, c.Key)
			ref := Ref{c.DomainID, c.Key}
			if old, ok := s.pending[ref]; !ok || c.Seq > old.Seq {
				s.pending[ref] = c
			}
		}
		if err := s.apply(ctx); err != nil {
			return err
		}
		if len(changes) < batch {
			return nil
		}
	}
}

// apply writes every pending change to Redis from the current rows, then drops this node's
// copies again (a copy loaded from Redis before the write may be old). While Redis refuses, the
// changes stay pending, and the round stops at the first refusal: one read of PostgreSQL a
// round, however many changes wait.
func (s *Syncer) apply(ctx context.Context) error {
	if len(s.pending) == 0 {
		return nil
	}
	refs := make([]Ref, 0, len(s.pending))
	for ref := range s.pending {
		refs = append(refs, ref)
	}
	for start := 0; start < len(refs); start += batch {
		part := refs[start:min(start+batch, len(refs))]
		current, err := s.store.ResolveMany(ctx, part)
		if err != nil {
			return err
		}
		found := make(map[Ref]bool, len(current))
		for _, l := range current {
			found[Ref{l.DomainID, l.Key}] = true
		}
		var gone []Change
		for _, ref := range part {
			if c := s.pending[ref]; !found[ref] && c.Deleted {
				gone = append(gone, c)
			}
		}
		if err := s.remote.Store(ctx, current, gone); err != nil {
			s.log.Debug("cache sync: redis did not take the changes; retrying next round", "changes", len(s.pending), "err", err)
			return nil
		}
		for _, ref := range part {
			s.local.Invalidate(ref.DomainID, ref.Key)
			delete(s.pending, ref)
		}
	}
	return nil
}

// Pending is how many changes wait for Redis.
func (s *Syncer) Pending() int { return len(s.pending) }
