package cachesync_test

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/cachesync"
	"github.com/shortlink/shortlink/backend/postgres"
	"github.com/shortlink/shortlink/backend/testenv"
)

// resolver records what the node's sync tells the redirect path.
type resolver struct {
	local
	events []cachesync.Event
	issued atomic.Int64
	gone   []int64
}

func (r *resolver) HandleEvent(e cachesync.Event) {
	r.mu.Lock()
	r.events = append(r.events, e)
	r.mu.Unlock()
}

func (r *resolver) Issued(id int64) { r.issued.Store(max(r.issued.Load(), id)) }
func (r *resolver) IssuedID() int64 { return r.issued.Load() }
func (r *resolver) SetGoneWorkspaces(ids []int64) {
	r.mu.Lock()
	r.gone = ids
	r.mu.Unlock()
}

// domains counts the reads of the custom domains.
type domains struct{ reloads, refreshes atomic.Int64 }

func (d *domains) Reload(context.Context) error  { d.reloads.Add(1); return nil }
func (d *domains) Refresh(context.Context) error { d.refreshes.Add(1); return nil }

// accounts answers the deleted workspaces and records the keys forgotten.
type accounts struct {
	mu        sync.Mutex
	deleted   []int64
	fail      bool
	forgotten []int64
	forgotAll int
}

func (a *accounts) DeletedWorkspaces(context.Context) ([]int64, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.fail {
		return nil, errors.New("down")
	}
	return a.deleted, nil
}

func (a *accounts) ForgetKey(id int64) {
	a.mu.Lock()
	a.forgotten = append(a.forgotten, id)
	a.mu.Unlock()
}

func (a *accounts) ForgetAllKeys() {
	a.mu.Lock()
	a.forgotAll++
	a.mu.Unlock()
}

type nodeFixture struct {
	node *cachesync.Node
	rem  *remote
	res  *resolver
	dom  *domains
	acc  *accounts
}

func newNode(t *testing.T, db *postgres.DB) nodeFixture {
	t.Helper()
	feed := postgres.NewLinkChanges(db)
	f := nodeFixture{rem: &remote{server: "one"}, res: &resolver{}, dom: &domains{}, acc: &accounts{}}
	log := slog.New(slog.DiscardHandler)
	f.node = cachesync.NewNode(cachesync.NodeOptions{
		Syncer:       cachesync.New(feed, feed, f.rem, f.res, feed, time.Hour, log),
		Reservations: cachesync.NewReservationSync(feed, f.res),
		Resolver:     f.res, IDs: postgres.NewIDSource(db), Domains: f.dom, Accounts: f.acc, Log: log,
	})
	return f
}

// A round applies the change feed, new reservations, the custom domains and the deleted
// workspaces; the first round positions the feeds when Start could not, and every round counts.
func TestNodeRound(t *testing.T) {
	t.Parallel()
	db, ws := setup(t)
	ctx := context.Background()
	exec := func(sql string, args ...any) {
		t.Helper()
		if _, err := db.Pool.Exec(ctx, sql, args...); err != nil {
			t.Fatal(err)
		}
	}
	exec(`INSERT INTO links (id, workspace_id, key, url, url_hash) VALUES (1, $1, 'a', 'https://e.com/a', 1)`, ws)
	f := newNode(t, db)
	f.node.Round(ctx) // not started: this round positions the feeds
	if f.node.Rounds() != 1 || f.dom.refreshes.Load() != 0 {
		t.Fatalf("the first round: %d rounds, %d domain reads", f.node.Rounds(), f.dom.refreshes.Load())
	}

	exec(`UPDATE links SET url = 'https://e.com/a2', updated_at = now() WHERE id = 1`)
	exec(`INSERT INTO reserved_ids (id, workspace_id) VALUES (9000000, $1)`, ws)
	f.acc.deleted = []int64{ws}
	f.node.Round(ctx)
	if len(f.rem.links) != 1 || f.rem.links[0].URL != "https://e.com/a2" {
		t.Errorf("the edit written to the shared cache: %+v", f.rem.links)
	}
	f.res.mu.Lock()
	if !slices.Contains(f.res.invalidated, "a") || !slices.Equal(f.res.reserved, []int64{9000000}) || !slices.Equal(f.res.gone, []int64{ws}) {
		t.Errorf("the resolver: invalidated %v, reserved %v, gone %v", f.res.invalidated, f.res.reserved, f.res.gone)
	}
	f.res.mu.Unlock()
	if f.dom.refreshes.Load() != 1 || f.node.Rounds() != 2 {
		t.Errorf("%d domain reads, %d rounds", f.dom.refreshes.Load(), f.node.Rounds())
	}

	// A list of deleted workspaces that could not be read leaves the last one standing.
	f.acc.fail = true
	f.node.Round(ctx)
	f.res.mu.Lock()
	if !slices.Equal(f.res.gone, []int64{ws}) {
		t.Errorf("after a failed read, gone %v", f.res.gone)
	}
	f.res.mu.Unlock()
	if f.node.Rounds() != 3 {
		t.Errorf("a round with a failure counts too: %d", f.node.Rounds())
	}
}

// The bus's events reach the resolver and the key cache; a domain event reloads the domains; a
// resubscription forgets every key, reloads the domains and reads the highest issued ID again.
func TestNodeEvents(t *testing.T) {
	t.Parallel()
	db, _ := setup(t)
	ctx := context.Background()
	f := newNode(t, db)
	ids := postgres.NewIDSource(db)
	if _, err := ids.NextBlock(ctx, 10); err != nil {
		t.Fatal(err)
	}
	high, err := ids.HighestIssued(ctx)
	if err != nil || high == 0 {
		t.Fatalf("highest issued: %d %v", high, err)
	}
	events := []cachesync.Event{
		{Kind: cachesync.EventKeyRevoked, ID: 5},
		{Kind: cachesync.EventDomain, ID: 6},
		{Kind: cachesync.EventResync},
	}
	for _, e := range events {
		f.node.HandleEvent(e)
	}
	f.res.mu.Lock()
	if !slices.Equal(f.res.events, events) {
		t.Errorf("the resolver heard %v", f.res.events)
	}
	f.res.mu.Unlock()
	f.acc.mu.Lock()
	if !slices.Equal(f.acc.forgotten, []int64{5}) || f.acc.forgotAll != 1 {
		t.Errorf("keys forgotten %v, all %d times", f.acc.forgotten, f.acc.forgotAll)
	}
	f.acc.mu.Unlock()
	if f.node.Resyncs() != 1 || f.res.IssuedID() != high {
		t.Errorf("after the resubscription: %d resyncs, issued %d, want %d", f.node.Resyncs(), f.res.IssuedID(), high)
	}
	testenv.Eventually(t, 5*time.Second, "the domain event and the resubscription reload the domains", func() bool {
		return f.dom.reloads.Load() == 2
	})
}
