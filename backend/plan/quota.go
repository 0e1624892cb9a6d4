package plan

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/shortlink/shortlink/backend/apperr"
)

// roundMax bounds the reservations written in one round.
const roundMax = 10000

// roundTimeout bounds one round's transaction.
const roundTimeout = 10 * time.Second

// errReserverClosed answers reservations that arrive after shutdown began.
var errReserverClosed = apperr.Errorf(apperr.Unavailable, "the service is shutting down, try again").For("unavailable", "")

// reserver coalesces quota reservations: one writer takes every queued request, groups them
// by workspace and writes them in one transaction, while the next round forms. At 15,000
// creates a second that is a few hundred small transactions, each touching one row per
// workspace, instead of a locked row per create.
type reserver struct {
	store Store
	rule  func(*UsageChange) (int64, error)
	now   func() time.Time
	log   *slog.Logger

	queue  chan *request
	mu     sync.RWMutex
	closed bool
	done   chan struct{}
}

// request is a reservation (want > 0, answered on done) or a release (done nil).
type request struct {
	workspaceID int64
	want        int64
	release     int64
	done        chan answer
}

type answer struct {
	granted int64
	err     error
}

func newReserver(store Store, rule func(*UsageChange) (int64, error), now func() time.Time, log *slog.Logger) *reserver {
	r := &reserver{store: store, rule: rule, now: now, log: log, queue: make(chan *request, roundMax), done: make(chan struct{})}
	go r.write()
	return r
}

// reserve queues a reservation and waits for its round. A caller that goes away before the
// answer gives back whatever its round granted.
func (r *reserver) reserve(ctx context.Context, workspaceID, n int64) (int, error) {
	if n <= 0 {
		return 0, nil
	}
	req := &request{workspaceID: workspaceID, want: n, done: make(chan answer, 1)}
	if !r.submit(req) {
		return 0, errReserverClosed
	}
	select {
	case a := <-req.done:
		return int(a.granted), a.err
	case <-ctx.Done():
		go func() {
			if a := <-req.done; a.granted > 0 {
				r.release(workspaceID, a.granted)
			}
		}()
		return 0, fmt.Errorf("reserve links: %w", ctx.Err())
	}
}

// release queues a release for the next round.
func (r *reserver) release(workspaceID, n int64) {
	if n <= 0 {
		return
	}
	if !r.submit(&request{workspaceID: workspaceID, release: n}) {
		r.log.Warn("link quota: release after shutdown dropped; this month's count stays higher by it",
			"workspace", workspaceID, "links", n)
	}
}

// count queues n links created without a reservation (a plan without a limit), counted in the
// next round without waiting on it.
func (r *reserver) count(workspaceID, n int64) {
	if n <= 0 {
		return
	}
	if !r.submit(&request{workspaceID: workspaceID, release: -n}) {
		r.log.Warn("link quota: count after shutdown dropped", "workspace", workspaceID, "links", n)
	}
}

func (r *reserver) submit(req *request) bool {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if r.closed {
		return false
	}
	r.queue <- req
	return true
}

// close stops taking requests and returns once every queued one is written.
func (r *reserver) close() {
	r.mu.Lock()
	if !r.closed {
		r.closed = true
		close(r.queue)
	}
	r.mu.Unlock()
	<-r.done
}

func (r *reserver) write() {
	defer close(r.done)
	for first := range r.queue {
		batch := []*request{first}
		waited := first.done != nil
	more:
		for len(batch) < roundMax {
			select {
			case req, ok := <-r.queue:
				if !ok {
					break more
				}
				batch = append(batch, req)
				waited = waited || req.done != nil
			default:
				break more
			}
		}
		if !waited {
			// Nobody waits on counts and releases: gather them a while, so that a workspace
			// without a limit creating thousands of links a second costs a few rounds a second.
			batch = r.gather(batch)
		}
		r.round(batch)
	}
}

// gatherFor is how long counts and releases wait for more before they are written.
const gatherFor = 100 * time.Millisecond

// gather adds to batch what the queue brings within gatherFor, until a reservation (which
// someone waits on) arrives, the round is full or the queue closes.
func (r *reserver) gather(batch []*request) []*request {
	t := time.NewTimer(gatherFor)
	defer t.Stop()
	for len(batch) < roundMax {
		select {
		case req, ok := <-r.queue:
			if !ok {
				return batch
			}
			batch = append(batch, req)
			if req.done != nil {
				return batch
			}
		case <-t.C:
			return batch
		}
	}
	return batch
}

// round writes one batch of requests and answers each reservation.
func (r *reserver) round(batch []*request) {
	byWS := map[int64]*UsageChange{}
	var changes []*UsageChange
	for _, req := range batch {
		c := byWS[req.workspaceID]
		if c == nil {
			c = &UsageChange{WorkspaceID: req.workspaceID}
			byWS[req.workspaceID] = c
			changes = append(changes, c)
		}
		c.Want += req.want
		c.Release += req.release
	}
	refusals := map[int64]error{}
	ctx, cancel := context.WithTimeout(context.Background(), roundTimeout)
	err := r.store.ChangeUsage(ctx, MonthOf(r.now()), changes, func(c *UsageChange) int64 {
		g, err := r.rule(c)
		refusals[c.WorkspaceID] = err
		return g
	})
	cancel()
	if err != nil {
		err = fmt.Errorf("reserve links: %w", err)
		if apperr.CodeOf(err) == apperr.Internal {
			// Releases in the round are lost with it: the count stays higher by them.
			r.log.Error("link quota: round failed", "requests", len(batch), "err", err)
			err = apperr.Errorf(apperr.Unavailable, "cannot count new links right now, try again").For("unavailable", "")
		}
	}
	// What a workspace was granted goes to its requests in the order they came.
	left := map[int64]int64{}
	for _, c := range changes {
		left[c.WorkspaceID] = c.Granted
	}
	for _, req := range batch {
		if req.done == nil {
			continue
		}
		c := byWS[req.workspaceID]
		switch {
		case err != nil:
			req.done <- answer{err: err}
		case !c.Found:
			req.done <- answer{err: apperr.Errorf(apperr.NotFound, "workspace not found").For("workspace_not_found", "")}
		default:
			g := min(req.want, left[req.workspaceID])
			left[req.workspaceID] -= g
			a := answer{granted: g}
			if g < req.want {
				a.err = refusals[req.workspaceID]
				if a.err == nil {
					a.err = apperr.Errorf(apperr.QuotaExceeded, "this month's new links are used up").For("link_quota_exceeded", "")
				}
			}
			req.done <- a
		}
	}
}
