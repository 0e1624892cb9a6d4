package domain

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
)

// Route is what the redirect path needs of a domain.
type Route struct {
	ID          int64
	WorkspaceID int64
	Hostname    string
	// RootURL is where the domain's root sends visitors; "" answers 404.
	RootURL string
	// Active: verified and not removed. An inactive route is kept only so that links made on
	// a domain since removed can say which host it was.
	Active bool
	// AASA and AssetLinks are the app-link files served under /.well-known/ (nil: 404).
	AASA, AssetLinks []byte
}

// Table maps hosts to verified domains in memory, on every node: the redirect path reads it
// with one atomic load and one map lookup, no I/O. It is replaced whole by Reload, which runs
// when this node changes a domain, when the bus says another did, and each second when the
// domains table's epoch moved (a lost bus message).
type Table struct {
	snap  atomic.Pointer[snapshot]
	store Store
	mu    sync.Mutex // one reload at a time, so an older read never replaces a newer one
}

type snapshot struct {
	epoch  int64
	byHost map[string]*Route // active domains, and removed ones whose name no workspace has now
	byID   map[int64]*Route  // active and removed
}

// NewTable returns an empty table over store; Reload fills it.
func NewTable(store Store) *Table {
	t := &Table{store: store}
	t.snap.Store(&snapshot{epoch: -1, byHost: map[string]*Route{}, byID: map[int64]*Route{}})
	return t
}

// Host returns the domain a request's Host header names (the port, if any, and a trailing dot
// are ignored; letters in any case), or nil. It is a removed domain (Active false) when the
// name was removed and no workspace has verified it since: its requests are still a visitor's
// (a bare 404), not the web app's.
func (t *Table) Host(host string) *Route {
	m := t.snap.Load().byHost
	if len(m) == 0 {
		return nil
	}
	if i := lastColon(host); i >= 0 {
		host = host[:i]
	}
	if r := m[host]; r != nil {
		return r
	}
	// Browsers send host names in lower case and without the dot; others may not.
	lower := []byte(nil)
	for i := 0; i < len(host); i++ {
		if c := host[i]; c >= 'A' && c <= 'Z' {
			if lower == nil {
				lower = []byte(host)
			}
			lower[i] = c + 'a' - 'A'
		}
	}
	if lower != nil {
		host = string(lower)
	}
	if n := len(host); n > 1 && host[n-1] == '.' {
		host = host[:n-1]
	} else if lower == nil {
		return nil
	}
	return m[host]
}

// lastColon is the index of a port's colon in a Host header, -1 when there is none (an IPv6
// literal ends with "]").
func lastColon(host string) int {
	for i := len(host) - 1; i >= 0; i-- {
		switch host[i] {
		case ':':
			return i
		case ']':
			return -1
		}
	}
	return -1
}

// ByID returns the domain id, active or removed, or nil when the table does not know it.
func (t *Table) ByID(id int64) *Route { return t.snap.Load().byID[id] }

// Epoch is the epoch of the domains table the current contents were read at (-1 before the
// first read).
func (t *Table) Epoch() int64 { return t.snap.Load().epoch }

// Reload reads every route from the store and replaces the table.
func (t *Table) Reload(ctx context.Context) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	epoch, routes, err := t.store.Routes(ctx)
	if err != nil {
		return fmt.Errorf("reload domains: %w", err)
	}
	s := &snapshot{epoch: epoch, byHost: make(map[string]*Route, len(routes)), byID: make(map[int64]*Route, len(routes))}
	for i := range routes {
		r := &routes[i]
		s.byID[r.ID] = r
		// Routes come in ID order: an active domain wins over the removed ones of its name,
		// and the latest removed one stands for the rest.
		if old := s.byHost[r.Hostname]; old == nil || !old.Active {
			s.byHost[r.Hostname] = r
		}
	}
	t.snap.Store(s)
	return nil
}

// Refresh reloads the table when the store's epoch differs from the one it was read at: one
// small query when nothing changed.
func (t *Table) Refresh(ctx context.Context) error {
	epoch, err := t.store.Epoch(ctx)
	if err != nil {
		return fmt.Errorf("read domains epoch: %w", err)
	}
	if epoch == t.Epoch() {
		return nil
	}
	return t.Reload(ctx)
}
