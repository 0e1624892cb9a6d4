// Package cachesync keeps every node's link caches in step with PostgreSQL when the fast path
// fails. Creates, edits and deletions write Redis and announce themselves on the bus at once;
// a Redis that is paused, restarted or unreachable at that moment, or a node that stops
// mid-write, would otherwise leave an old version live until its TTL. PostgreSQL records every
// committed change of a link in a feed (a trigger on links); each node reads the feed about once
// a second, rewrites the Redis entries from the rows, and drops its own copies. A change that
// Redis does not take is retried on every round until it does, and until then the node reads
// that link past Redis, from PostgreSQL (Pending). A Redis that comes back as another server
// (restarted from a snapshot, a replica promoted) may hold entries older than changes already
// applied: each node notices the new server and applies again every change younger than the
// cache's TTL.
//
// The same loop keeps the redirect path's other two facts current: which code-shaped IDs are
// aliases (read incrementally), and which workspaces are being deleted.
package cachesync

import (
	"context"
	"log/slog"
	"sync"
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
	// Server names the server answering, so that a restart or a failover shows.
	Server(ctx context.Context) (string, error)
}

// Replays reads the feed by age, for a replay after the shared cache changed servers.
type Replays interface {
	// FirstSince is the sequence number of the oldest change made within age (one past the
	// newest when there is none).
	FirstSince(ctx context.Context, age time.Duration) (int64, error)
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
	// server is the shared cache's server as last seen ("" before the first round).
	server string
	// replay is how far back a change of server replays the feed: the shared cache's TTL, and
	// a little more.
	replay  time.Duration
	replays Replays

	mu sync.RWMutex
	// pending holds changes Redis did not take yet, newest per key; retried every round.
	pending map[Ref]Change
}

// New returns a syncer; Start must run before Round. replay is the shared cache's entry TTL:
// how old a change can be and still be undone by a Redis restored from a snapshot.
func New(feed Feed, store Store, remote Remote, local Local, replays Replays, replay time.Duration, log *slog.Logger) *Syncer {
	return &Syncer{feed: feed, store: store, remote: remote, local: local, replays: replays,
		replay: replay + time.Minute, log: log, pending: map[Ref]Change{}}
}

// Pending reports whether a change of (domainID, key) waits for Redis: until it is written,
// Redis may hold an older version, so the redirect path reads past it.
func (s *Syncer) Pending(domainID int64, key string) bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if len(s.pending) == 0 {
		return false
	}
	_, ok := s.pending[Ref{domainID, key}]
	return ok
}

// Missed records a change whose write to Redis failed on the fast path, so that it is read past
// Redis at once rather than after the next round has read the feed.
func (s *Syncer) Missed(c Change) {
	s.mu.Lock()
	s.keepPending(c)
	s.mu.Unlock()
}

// keepPending adds c unless a later change of its key is pending already; s.mu is held.
func (s *Syncer) keepPending(c Change) {
	ref := Ref{c.DomainID, c.Key}
	if old, ok := s.pending[ref]; !ok || c.Seq == 0 || c.Seq > old.Seq {
		s.pending[ref] = c
	}
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

// Round reads what the feed has gained since the last round and applies it, with the changes
// still pending from earlier rounds. When Redis answers as another server than last round, the
// changes of the last TTL are applied again first.
func (s *Syncer) Round(ctx context.Context) error {
	if err := s.checkServer(ctx); err != nil {
		return err
	}
	for {
		changes, err := s.feed.After(ctx, s.cur.after, s.cur.gapList(), batch)
		if err != nil {
			return err
		}
		seqs := make([]int64, len(changes))
		for i, c := range changes {
			seqs[i] = c.Seq
		}
		if dropped := s.cur.advance(seqs, time.Now()); dropped > 0 {
			// Rolled-back writes leave such holes too; a commit this late is what would be lost.
			s.log.Info("cache sync: gave up waiting on change numbers never seen", "numbers", dropped, "after", gapWait)
		}
		s.take(changes)
		if err := s.apply(ctx); err != nil {
			return err
		}
		if len(changes) < batch {
			return nil
		}
	}
}

// take makes changes pending and drops this node's copies of them at once, whatever Redis
// does: until Redis has the new version, the node reads PostgreSQL.
func (s *Syncer) take(changes []Change) {
	s.mu.Lock()
	for _, c := range changes {
		s.keepPending(c)
	}
	s.mu.Unlock()
	for _, c := range changes {
		s.local.Invalidate(c.DomainID, c.Key)
	}
}

// checkServer replays the feed of the last TTL when Redis is another server than last round.
func (s *Syncer) checkServer(ctx context.Context) error {
	server, err := s.remote.Server(ctx)
	if err != nil || server == s.server {
		return nil // unreachable: nothing to compare yet; pending changes wait as they are
	}
	first := s.server == ""
	if !first {
		s.log.Info("cache sync: redis is another server now; applying the recent changes again", "within", s.replay)
		from, err := s.replays.FirstSince(ctx, s.replay)
		if err != nil {
			return err
		}
		for after := from - 1; after < s.cur.after; {
			changes, err := s.feed.After(ctx, after, nil, batch)
			if err != nil {
				return err
			}
			var older []Change
			for _, c := range changes {
				if c.Seq <= s.cur.after {
					older = append(older, c)
				}
			}
			s.take(older)
			if len(changes) < batch {
				break
			}
			after = changes[len(changes)-1].Seq
		}
	}
	s.server = server
	return nil
}

// apply writes every pending change to Redis from the current rows, then drops this node's
// copies again (a copy loaded from Redis before the write may be old). While Redis refuses, the
// changes stay pending, and the round stops at the first refusal: one read of PostgreSQL a
// round, however many changes wait.
func (s *Syncer) apply(ctx context.Context) error {
	s.mu.RLock()
	refs := make([]Ref, 0, len(s.pending))
	taken := make(map[Ref]Change, len(s.pending))
	for ref, c := range s.pending {
		refs = append(refs, ref)
		taken[ref] = c
	}
	s.mu.RUnlock()
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
			if c := taken[ref]; !found[ref] && c.Deleted {
				gone = append(gone, c)
			}
		}
		if err := s.remote.Store(ctx, current, gone); err != nil {
			s.log.Debug("cache sync: redis did not take the changes; retrying next round", "changes", len(refs), "err", err)
			return nil
		}
		s.mu.Lock()
		for _, ref := range part {
			// A change that came meanwhile may be newer than the row written: it stays.
			if s.pending[ref] == taken[ref] {
				delete(s.pending, ref)
			}
		}
		s.mu.Unlock()
		for _, ref := range part {
			s.local.Invalidate(ref.DomainID, ref.Key)
		}
	}
	return nil
}

// Waiting is how many changes wait for Redis.
func (s *Syncer) Waiting() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return len(s.pending)
}
