// Package redirect is the visitor-facing hot path: host and key to link, through an
// in-process cache, Redis and PostgreSQL, and the small HTML pages visitors may see.
package redirect

import (
	"context"
	"errors"
	"log/slog"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/maypok86/otter/v2"
	"golang.org/x/sync/singleflight"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/cachesync"
	"github.com/shortlink/shortlink/backend/code"
	"github.com/shortlink/shortlink/backend/link"
)

// issuedMargin is how far above the highest ID this node knows of a decoded ID must be to be
// refused without a lookup. Other nodes announce their blocks at once; the margin only covers
// the announcement lag, and costs a garbage code a lookup with odds margin/62^n (2e-5 at n=6).
const issuedMargin = 1 << 20

// loadTimeout bounds one lookup through Redis and PostgreSQL.
const loadTimeout = 3 * time.Second

// localTTL bounds how long a copy lives in-process even if an invalidation were lost
// (Redis down); normally the bus evicts it within milliseconds of a change.
const localTTL = time.Minute

// Store is the source of truth for links.
type Store interface {
	Resolve(ctx context.Context, domainID int64, key string) (*link.Link, error)
}

// Remote is the shared cache between the nodes and PostgreSQL (Redis).
type Remote interface {
	Get(ctx context.Context, domainID int64, key string) (*link.Link, bool, error)
	Fill(ctx context.Context, domainID int64, key string, l *link.Link)
}

// Resolver finds the link behind a key.
type Resolver struct {
	local  *otter.Cache[string, *link.Link]
	remote Remote
	store  Store
	codec  *code.Codec
	log    *slog.Logger
	loads  singleflight.Group

	issued atomic.Int64  // highest ID known to be issued by any node
	gen    atomic.Uint64 // counts invalidations, so a load racing one is not cached

	mu       sync.RWMutex
	reserved map[int64]bool // IDs above issued+issuedMargin whose codes are custom aliases

	// gone holds the workspaces being deleted, whose links no longer answer; nil when none.
	gone atomic.Pointer[map[int64]bool]

	// readPast reports the keys whose latest change Redis has not taken yet: they are read
	// from PostgreSQL, and Redis is not filled with them.
	readPast func(domainID int64, key string) bool
}

// ReadPast sets which keys are read past Redis (see cachesync.Syncer.Pending).
func (r *Resolver) ReadPast(fn func(domainID int64, key string) bool) { r.readPast = fn }

// NewResolver returns a resolver with an in-process cache of size links. remote may be nil.
func NewResolver(store Store, remote Remote, codec *code.Codec, size int, log *slog.Logger) *Resolver {
	return &Resolver{
		local: otter.Must(&otter.Options[string, *link.Link]{
			MaximumSize:      size,
			ExpiryCalculator: otter.ExpiryWriting[string, *link.Link](localTTL),
		}),
		remote:   remote,
		store:    store,
		codec:    codec,
		log:      log,
		reserved: map[int64]bool{},
	}
}

// errMissing is the answer for keys that have no link.
var errMissing = apperr.Errorf(apperr.NotFound, "link not found").For("link_not_found", "")

func cacheKey(domainID int64, key string) string {
	if domainID == link.DefaultDomain {
		return key
	}
	// One allocation: custom domains are on the hot path too.
	var buf [96]byte
	b := strconv.AppendInt(buf[:0], domainID, 10)
	b = append(b, ':')
	return string(append(b, key...))
}

// Resolve returns the link at (domainID, key) or a not_found error. The common case — a
// cached link — costs one map lookup; a key that decodes to an ID never issued costs a
// decryption and no I/O.
func (r *Resolver) Resolve(ctx context.Context, domainID int64, key string) (*link.Link, error) {
	ck := cacheKey(domainID, key)
	if l, ok := r.local.GetIfPresent(ck); ok {
		if g := r.gone.Load(); g != nil && (*g)[l.WorkspaceID] {
			return nil, errMissing
		}
		return l, nil
	}
	if !link.KeyShaped(key) {
		return nil, errMissing
	}
	if id, ok := r.codec.Decode(key); ok && id > uint64(r.issued.Load())+issuedMargin && !r.isReserved(int64(id)) {
		return nil, errMissing
	}
	l, err := r.lookup(ctx, domainID, key, ck)
	if err != nil {
		return nil, err
	}
	if g := r.gone.Load(); g != nil && (*g)[l.WorkspaceID] {
		return nil, errMissing
	}
	return l, nil
}

func (r *Resolver) lookup(ctx context.Context, domainID int64, key, ck string) (*link.Link, error) {
	v, err, _ := r.loads.Do(ck, func() (any, error) {
		// Visitors waiting on this load must not fail because the first of them left.
		lctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), loadTimeout)
		defer cancel()
		return r.load(lctx, domainID, key, ck)
	})
	if err != nil {
		return nil, err
	}
	return v.(*link.Link), nil
}

func (r *Resolver) load(ctx context.Context, domainID int64, key, ck string) (*link.Link, error) {
	gen := r.gen.Load()
	remote := r.remote
	if remote != nil && r.readPast != nil && r.readPast(domainID, key) {
		remote = nil
	}
	if remote != nil {
		l, found, err := remote.Get(ctx, domainID, key)
		switch {
		case err != nil:
			r.log.Debug("resolve: shared cache unavailable, asking the database", "err", err)
		case found && l == nil:
			return nil, errMissing
		case found:
			r.keep(ck, l, gen)
			return l, nil
		}
	}
	l, err := r.store.Resolve(ctx, domainID, key)
	if err != nil {
		if apperr.Is(err, apperr.NotFound) {
			if remote != nil {
				remote.Fill(ctx, domainID, key, nil)
			}
			return nil, errMissing
		}
		return nil, err
	}
	if remote != nil {
		remote.Fill(ctx, domainID, key, l)
	}
	r.keep(ck, l, gen)
	return l, nil
}

// keep caches l unless an invalidation arrived while it was being loaded.
func (r *Resolver) keep(ck string, l *link.Link, gen uint64) {
	if r.gen.Load() == gen {
		r.local.Set(ck, l)
	}
}

func (r *Resolver) isReserved(id int64) bool {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.reserved[id]
}

// Issued raises the highest issued ID this node knows of, and forgets the reservations that
// the issued range has reached: codes below it are looked up anyway.
func (r *Resolver) Issued(id int64) {
	for {
		old := r.issued.Load()
		if id <= old {
			return
		}
		if r.issued.CompareAndSwap(old, id) {
			break
		}
	}
	r.mu.Lock()
	for rid := range r.reserved {
		if rid <= id+issuedMargin {
			delete(r.reserved, rid)
		}
	}
	r.mu.Unlock()
}

// IssuedID is the highest issued ID this node knows of.
func (r *Resolver) IssuedID() int64 { return r.issued.Load() }

// Reserve records that id's code is a custom alias, unless the issued range covers it already.
func (r *Resolver) Reserve(id int64) {
	if id <= r.issued.Load()+issuedMargin {
		return
	}
	r.mu.Lock()
	r.reserved[id] = true
	r.mu.Unlock()
}

// Reserved is how many reservations this node keeps in memory.
func (r *Resolver) Reserved() int {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return len(r.reserved)
}

// SetGoneWorkspaces replaces the set of workspaces being deleted: their links answer as missing.
func (r *Resolver) SetGoneWorkspaces(ids []int64) {
	if len(ids) == 0 {
		if r.gone.Load() != nil {
			r.gone.Store(nil)
		}
		return
	}
	m := make(map[int64]bool, len(ids))
	for _, id := range ids {
		m[id] = true
	}
	r.gone.Store(&m)
}

// WorkspaceIsGone reports whether the workspace is being deleted (its links answer as missing).
func (r *Resolver) WorkspaceIsGone(id int64) bool {
	g := r.gone.Load()
	return g != nil && (*g)[id]
}

// WorkspaceGone adds one workspace to the set of those being deleted.
func (r *Resolver) WorkspaceGone(id int64) {
	for {
		old := r.gone.Load()
		m := map[int64]bool{id: true}
		if old != nil {
			for k := range *old {
				m[k] = true
			}
		}
		if r.gone.CompareAndSwap(old, &m) {
			return
		}
	}
}

// Invalidate drops the local copy of (domainID, key).
func (r *Resolver) Invalidate(domainID int64, key string) {
	r.gen.Add(1)
	r.local.Invalidate(cacheKey(domainID, key))
}

// InvalidateAll drops every local copy.
func (r *Resolver) InvalidateAll() {
	r.gen.Add(1)
	r.local.InvalidateAll()
}

// HandleEvent applies an event from the bus.
func (r *Resolver) HandleEvent(e cachesync.Event) {
	switch e.Kind {
	case cachesync.EventLink:
		r.Invalidate(e.DomainID, e.Key)
	case cachesync.EventIssued:
		r.Issued(e.ID)
	case cachesync.EventReserved:
		r.Reserve(e.ID)
	case cachesync.EventWorkspaceGone:
		r.WorkspaceGone(e.ID)
	case cachesync.EventResync:
		r.InvalidateAll()
	}
}

// IsMissing reports whether err means "no such link".
func IsMissing(err error) bool { return errors.Is(err, errMissing) || apperr.Is(err, apperr.NotFound) }
