// Package bulkjob changes or deletes every link a listing's filter matches, as a job
// (docs/api.md#bulk-jobs). A job is stored when it is submitted; a Runner on any node claims it
// with a lease, freezes the IDs of the links the filter matched among those made before the
// submission, and works through them in batches by ID, each batch one transaction that also
// moves the job's checkpoint and counts. A node that dies mid-job loses nothing: the next node
// to claim the job after its lease runs out resumes at the checkpoint. Deletions and the
// changes the redirect caches hold reach every node through the change feed that single edits
// use; deletions also through tombstones in the shared cache at once, a batch at a time.
package bulkjob

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/audit"
	"github.com/shortlink/shortlink/backend/link"
)

// States of a job.
const (
	StateQueued   = "queued"
	StateRunning  = "running"
	StateDone     = "done"
	StateFailed   = "failed"
	StateCanceled = "canceled"
)

// Filter is a job's filter: the links list's filters (docs/api.md#listing-links), same names
// and meaning. Tags are every tag a link must carry.
type Filter struct {
	Query    string   `json:"q,omitempty"`
	Status   string   `json:"status,omitempty"`
	Domain   string   `json:"domain,omitempty"`
	Tags     []string `json:"tag,omitempty"`
	Health   string   `json:"health,omitempty"`
	Archived string   `json:"archived,omitempty"`
}

// List is the filter as the links list takes it.
func (f Filter) List() link.Filter {
	lf := link.Filter{Query: f.Query, Status: f.Status, Domain: f.Domain, Health: f.Health, Archived: f.Archived}
	if len(f.Tags) > 0 {
		lf.Tag, lf.AlsoTags = f.Tags[0], f.Tags[1:]
	}
	return lf
}

// Match is a filter resolved at submission, as the store matches links with it: the domain's
// and tags' IDs. None says it matches no link (a tag the workspace has not).
type Match struct {
	Filter   link.Filter
	None     bool
	DomainID *int64
	TagIDs   []int64
}

// Job is one bulk job and its progress.
type Job struct {
	ID          int64
	WorkspaceID int64
	// Actor is who submitted it, as the audit log names them.
	Actor audit.Actor
	State string
	// Filter is the filter as submitted; Match as the store applies it.
	Filter Filter
	Match  Match
	// Delete says the job deletes the links; otherwise Set is the change as submitted and
	// Edit as the store applies it.
	Delete bool
	Set    link.BulkSet
	Edit   link.BulkEdit
	// Snapshot says the matching links' IDs are frozen; Total counts them.
	Snapshot bool
	Total    int64
	// NextChunk is past the highest chunk of frozen IDs done (a chunk a batch each; the
	// chunks left are those not done).
	NextChunk int
	// Done counts the links handled, Failed those of them left as they were (gone meanwhile,
	// banned or held when the change sets a status, or past the tags a link may carry).
	Done, Failed int64
	Error        string
	// Cancel says a cancel was asked; the job stops before its next batch.
	Cancel     bool
	Claims     int
	CreatedAt  time.Time
	StartedAt  *time.Time
	FinishedAt *time.Time
}

// Action names what the job does, as the audit log records it: delete, or the fields set.
func (j *Job) Action() string {
	if j.Delete {
		return "delete"
	}
	var parts []string
	if j.Set.Status.Set {
		parts = append(parts, "status")
	}
	if j.Set.ExpiresAt.Set {
		parts = append(parts, "expires_at")
	}
	if j.Set.Archived.Set {
		parts = append(parts, "archived")
	}
	if len(j.Set.TagsAdd) > 0 {
		parts = append(parts, "tags_add")
	}
	if len(j.Set.TagsRemove) > 0 {
		parts = append(parts, "tags_remove")
	}
	return "set " + strings.Join(parts, ",")
}

// Finished reports whether the job has ended.
func (j *Job) Finished() bool {
	return j.State == StateDone || j.State == StateFailed || j.State == StateCanceled
}

// Batch is what one batch did: the links it deleted, whose tombstones the shared cache takes at
// once. Edits reach the caches through the change feed alone: every node's cache sync rewrites
// the links it records from their rows, work a second write from the job would only double.
type Batch struct {
	Removed []*link.Link
	// Chunk is the chunk of frozen IDs the batch did; Done and Failed are its counts. Last
	// says no chunk was left for it (others may still be under way).
	Chunk        int
	Done, Failed int64
	Last         bool
	// Canceled says a cancel was asked: the batch did nothing.
	Canceled bool
}

// ErrLeaseLost is returned by the store when a node no longer holds the job it writes to.
var ErrLeaseLost = errors.New("bulk job: lease lost to another node")

// Store keeps jobs. Methods that take an owner change the job only while owner holds its lease
// and renew it when they do; otherwise they return ErrLeaseLost.
type Store interface {
	// Create stores a new queued job unless the workspace has max unfinished ones already
	// (conflict, reason bulk_jobs_too_many).
	Create(ctx context.Context, j *Job, max int) error
	// Get returns the workspace's job, or not_found.
	Get(ctx context.Context, workspaceID, id int64) (*Job, error)
	// List returns up to limit of the workspace's jobs with IDs below before (0: from the
	// newest), newest first, and whether more follow.
	List(ctx context.Context, workspaceID, before int64, limit int) ([]*Job, bool, error)
	// Cancel asks the workspace's job to stop: a queued job ends canceled at once, a running
	// one before its next batch. It returns the job as it is then; conflict when it has ended.
	Cancel(ctx context.Context, workspaceID, id int64) (*Job, error)

	// Claim takes the oldest job that is queued, or running under a lease that ran out, for
	// owner; nil when there is none.
	Claim(ctx context.Context, owner string, lease time.Duration) (*Job, error)
	// Renew extends owner's lease.
	Renew(ctx context.Context, id int64, owner string, lease time.Duration) error
	// Release gives the job back (queued) for any node to resume at once.
	Release(ctx context.Context, id int64, owner string) error
	// Freeze writes the IDs of the links the job's filter matches among those made before it
	// was submitted, in ascending chunks of size, and their count as its total, in one
	// transaction.
	Freeze(ctx context.Context, j *Job, owner string, size int, lease time.Duration) error
	// Next applies the job to a chunk of frozen links no other batch holds, in one
	// transaction that drops the chunk and adds to the counts; batches of one job may run at
	// once. It changes nothing of j.
	Next(ctx context.Context, j *Job, owner string) (Batch, error)
	// Finish ends the job (done, failed with why, or canceled) and drops its frozen IDs.
	Finish(ctx context.Context, id int64, owner, state, why string) error
}

// Links is what a job needs of the link service (link.Service).
type Links interface {
	MatchFilter(ctx context.Context, workspaceID int64, f link.Filter) (link.Filter, bool, error)
	CheckBulkSet(ctx context.Context, workspaceID int64, set link.BulkSet) (link.BulkEdit, error)
}

// Cache is told of each batch's deletions once it is committed (cachepolicy.Links): the shared
// cache and this node's copies at once, every other node's through the bus. Should a node die
// before, the change feed brings every cache there within its round.
type Cache interface {
	RemovedMany(ctx context.Context, links []*link.Link)
}

// Log records a finished job in the workspace's audit log (audit.Log).
type Log interface {
	Record(ctx context.Context, e audit.Event, addr string) error
}

// Options configure a Service.
type Options struct {
	// Workers is how many jobs this node runs at once; 0 runs none (other nodes do).
	Workers int
	// Lease is how long a node holds a job without renewing it.
	Lease time.Duration
	// Owner names this node in leases.
	Owner string
	// Poll is how often an idle worker looks for jobs (submissions to this node wake it).
	Poll time.Duration
	// BatchSize is how many links one batch handles (DefaultBatch when 0).
	BatchSize int
	// MaxActive is how many unfinished jobs a workspace may have (DefaultMaxActive when 0).
	MaxActive int
	// Parallel is how many batches of one job run at once (DefaultParallel when 0).
	Parallel int
}

// DefaultParallel is how many batches of a job run at once: on a two-core machine, two.
const DefaultParallel = 2

// DefaultBatch is how many links a batch handles: a few thousand IDs a statement.
const DefaultBatch = 5000

// DefaultMaxActive is how many unfinished jobs a workspace may have at once.
const DefaultMaxActive = 3

// Service takes jobs, answers their progress and runs them (Run).
type Service struct {
	store Store
	links Links
	cache Cache
	audit Log
	o     Options
	log   *slog.Logger
	wake  chan struct{}
}

// NewService returns the bulk job service; Run runs its workers. audit may be nil.
func NewService(store Store, links Links, cache Cache, audit Log, o Options, log *slog.Logger) *Service {
	if o.Poll <= 0 {
		o.Poll = time.Second
	}
	if o.Lease <= 0 {
		o.Lease = 30 * time.Second
	}
	if o.BatchSize <= 0 {
		o.BatchSize = DefaultBatch
	}
	if o.MaxActive <= 0 {
		o.MaxActive = DefaultMaxActive
	}
	if o.Parallel <= 0 {
		o.Parallel = DefaultParallel
	}
	return &Service{store: store, links: links, cache: cache, audit: audit, o: o, log: log, wake: make(chan struct{}, 1)}
}

// Submit checks a job and stores it queued: delete, or set (the change of a bulk edit), over
// the links f matches. It answers invalid for a bad filter or change (the field under
// "filter." or "set."), and conflict when the workspace has too many unfinished jobs.
func (s *Service) Submit(ctx context.Context, workspaceID int64, actor audit.Actor, f Filter, set *link.BulkSet, del bool) (*Job, error) {
	if del == (set != nil) {
		return nil, apperr.Errorf(apperr.Invalid, "give either set (the change) or \"delete\": true").For("bulk_action_required", "set")
	}
	lf, none, err := s.links.MatchFilter(ctx, workspaceID, f.List())
	if err != nil {
		return nil, under("filter", err)
	}
	j := &Job{WorkspaceID: workspaceID, Actor: actor, Filter: f, Delete: del,
		Match: Match{Filter: lf, None: none, DomainID: lf.DomainID}}
	if lf.TagID != nil {
		j.Match.TagIDs = append([]int64{*lf.TagID}, lf.AlsoTagIDs...)
	}
	if set != nil {
		if j.Edit, err = s.links.CheckBulkSet(ctx, workspaceID, *set); err != nil {
			return nil, under("set", err)
		}
		j.Set = *set
	}
	if err := s.store.Create(ctx, j, s.o.MaxActive); err != nil {
		return nil, fmt.Errorf("bulk job: %w", err)
	}
	select {
	case s.wake <- struct{}{}:
	default:
	}
	return j, nil
}

// under names err's field as part of the request's object (filter.status).
func under(object string, err error) error {
	var e *apperr.Error
	if !errors.As(err, &e) {
		return err
	}
	field := object
	if e.Field != "" && e.Field != object {
		field = object + "." + strings.TrimPrefix(e.Field, object+".")
	}
	return e.For(e.Reason, field)
}

// Get returns one of the workspace's jobs.
func (s *Service) Get(ctx context.Context, workspaceID, id int64) (*Job, error) {
	return s.store.Get(ctx, workspaceID, id)
}

// MaxPage is the largest page List returns.
const MaxPage = 100

// List returns a page of the workspace's jobs, newest first, and the cursor of the next page
// (0 when there is none).
func (s *Service) List(ctx context.Context, workspaceID, before int64, limit int) ([]*Job, int64, error) {
	if limit < 1 || limit > MaxPage {
		return nil, 0, apperr.Errorf(apperr.Invalid, "limit must be between 1 and %d", MaxPage).For("value_invalid", "limit")
	}
	list, more, err := s.store.List(ctx, workspaceID, before, limit)
	if err != nil {
		return nil, 0, err
	}
	var next int64
	if more && len(list) > 0 {
		next = list[len(list)-1].ID
	}
	return list, next, nil
}

// Cancel asks one of the workspace's jobs to stop.
func (s *Service) Cancel(ctx context.Context, workspaceID, id int64) (*Job, error) {
	return s.store.Cancel(ctx, workspaceID, id)
}
