// Package imports turns CSV files of links into links as jobs (docs/domains-and-imports.md#csv-imports). The upload is
// parsed as it streams in and stored in PostgreSQL before it is answered; a Runner on any node
// claims the job with a lease, writes the rows in chunks through the link service's checks,
// quota and coalescing writer, and records a result per row. A job interrupted by a crash or a
// restart is resumed by the next node from its checkpoint without making any link twice.
package imports

import (
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"log/slog"
	"time"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/link"
)

// States of an import.
const (
	StateQueued  = "queued"
	StateRunning = "running"
	StateDone    = "done"
	StateFailed  = "failed"
)

// Import is one CSV import and its progress.
type Import struct {
	ID          int64
	WorkspaceID int64
	CreatedBy   *int64
	State       string
	Filename    string
	Format      string // Format*: what the header was read as
	Bytes       int64
	Rows        int // data rows in the file
	// NextRow is the checkpoint: every row before it has its result.
	NextRow int
	// Done counts the rows with a result, Failed those of them that failed.
	Done, Failed int
	Error        string // why a failed job failed
	// Claims counts the times a node took the job.
	Claims     int
	CreatedAt  time.Time
	StartedAt  *time.Time
	FinishedAt *time.Time
}

// Result is one row's outcome: a link (LinkID, ShortURL) or an error (ErrorCode, Error, and
// the finer ErrorReason, see apperr.Error).
type Result struct {
	Row, Line   int
	URL         string
	LinkID      int64
	ShortURL    string
	ErrorCode   string
	Error       string
	ErrorReason string
}

// Failed reports whether the row failed.
func (r *Result) Failed() bool { return r.ErrorCode != "" }

// ErrLeaseLost is returned by the store when a node no longer holds the job it writes to.
var ErrLeaseLost = errors.New("import: lease lost to another node")

// Store keeps imports, their files and their rows' results. Methods that take an owner change
// the job only while owner holds its lease, and renew the lease when they do; otherwise they
// return ErrLeaseLost.
type Store interface {
	// Create stores a new import whose file write writes to the writer it is given, all or
	// nothing: an error of write leaves nothing behind. write sets im.Format and im.Rows; Create
	// sets the rest.
	Create(ctx context.Context, im *Import, write func(w io.Writer) error) error
	// Get returns the workspace's import, or not_found.
	Get(ctx context.Context, workspaceID, id int64) (*Import, error)
	// List returns up to limit of the workspace's imports with IDs below before (0: from the
	// newest), newest first, and whether more follow.
	List(ctx context.Context, workspaceID, before int64, limit int) ([]*Import, bool, error)
	// Results returns the rows' results in row order, as they are read.
	Results(ctx context.Context, workspaceID, id int64) iter.Seq2[Result, error]
	// Failures returns up to limit of the import's failed rows after row after, in row order,
	// and whether more follow.
	Failures(ctx context.Context, workspaceID, id, after int64, limit int) ([]Result, bool, error)

	// Claim takes the oldest job that is queued, or running under a lease that ran out, for
	// owner; nil when there is none.
	Claim(ctx context.Context, owner string, lease time.Duration) (*Import, error)
	// Renew extends owner's lease.
	Renew(ctx context.Context, id int64, owner string, lease time.Duration) error
	// Release gives the job back (queued) for any node to resume at once.
	Release(ctx context.Context, id int64, owner string) error
	// Finish ends the job as done or failed (with why) and drops its file.
	Finish(ctx context.Context, id int64, owner, state, why string) error
	// Open reads the job's file back.
	Open(ctx context.Context, id int64) io.Reader
	// Planned returns the results recorded for rows from..to (inclusive) of a job.
	Planned(ctx context.Context, id int64, from, to int) (map[int]Result, error)
	// Plan records results of rows before their links are written: a link ID and short URL,
	// or an error; a row recorded already is replaced.
	Plan(ctx context.Context, im *Import, owner string, rows []Result, lease time.Duration) error
	// Checkpoint records the rows that failed while being written, moves the checkpoint to
	// next and adds to the job's counts, in one transaction.
	Checkpoint(ctx context.Context, id int64, owner string, failed []Result, next, done, failedRows int, lease time.Duration) error
	// Existing returns which of ids are links of the workspace.
	Existing(ctx context.Context, workspaceID int64, ids []int64) (map[int64]bool, error)
}

// Links is what an import needs of the link service (link.Service).
type Links interface {
	PrepareRows(ctx context.Context, workspaceID, userID int64, ins []link.Input, ids []int64) []link.Result
	WriteRows(ctx context.Context, workspaceID int64, rows []link.Result)
	Reissue(ctx context.Context, l *link.Link) error
	ShortURL(domainID int64, key string) string
}

// Options configure a Service.
type Options struct {
	// MaxRows bounds the data rows of one file.
	MaxRows int
	// Workers is how many jobs this node runs at once; 0 runs none (other nodes do).
	Workers int
	// Lease is how long a node holds a job without renewing it; a job whose node died is
	// resumed by another within about this long.
	Lease time.Duration
	// Owner names this node in leases.
	Owner string
	// Poll is how often an idle worker looks for jobs (uploads to this node wake it at once).
	Poll time.Duration
	// Finished is told of every job this node ends (done or failed), after it is recorded;
	// nil: nothing is.
	Finished func(ctx context.Context, im *Import, state, why string)
}

// Service takes uploads, answers progress and results, and runs jobs (Run).
type Service struct {
	store Store
	links Links
	o     Options
	log   *slog.Logger
	wake  chan struct{}
}

// NewService returns the import service; Run runs its workers.
func NewService(store Store, links Links, o Options, log *slog.Logger) *Service {
	if o.Poll <= 0 {
		o.Poll = time.Second
	}
	return &Service{store: store, links: links, o: o, log: log, wake: make(chan struct{}, 1)}
}

// MaxRows is the most data rows a file may have.
func (s *Service) MaxRows() int { return s.o.MaxRows }

// Submit reads a CSV file from body as it arrives, checks its header and counts its rows, and
// stores it as a queued job; the file is held whole in PostgreSQL, never in memory. It answers
// invalid for a file without rows or url column and too_large past MaxRows rows; a read error of
// body (such as http.MaxBytesError) is returned as it is.
func (s *Service) Submit(ctx context.Context, workspaceID, userID int64, filename string, body io.Reader) (*Import, error) {
	im := &Import{WorkspaceID: workspaceID, Filename: storable(filename, 255)}
	if userID != 0 {
		im.CreatedBy = &userID
	}
	err := s.store.Create(ctx, im, func(w io.Writer) error {
		rd, err := NewReader(io.TeeReader(body, w))
		if err != nil {
			return err
		}
		im.Format = rd.Format()
		for {
			_, err := rd.Next()
			if err == io.EOF && im.Rows == 0 {
				return apperr.Errorf(apperr.Invalid, "the file holds no rows below its header").For("file_empty", "file")
			}
			if err == io.EOF {
				return nil
			}
			if err != nil {
				return err
			}
			if im.Rows++; im.Rows > s.o.MaxRows {
				return apperr.Errorf(apperr.TooLarge, "the file has more than %d rows; split it", s.o.MaxRows).For("file_too_many_rows", "file")
			}
		}
	})
	if err != nil {
		return nil, fmt.Errorf("import: %w", err)
	}
	select {
	case s.wake <- struct{}{}:
	default:
	}
	return im, nil
}

// Get returns one of the workspace's imports.
func (s *Service) Get(ctx context.Context, workspaceID, id int64) (*Import, error) {
	return s.store.Get(ctx, workspaceID, id)
}

// MaxPage is the largest page List returns.
const MaxPage = 100

// List returns a page of the workspace's imports, newest first, and the cursor of the next
// page (0 when there is none).
func (s *Service) List(ctx context.Context, workspaceID, before int64, limit int) ([]*Import, int64, error) {
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

// Results returns the results of a finished import's rows, in row order; conflict while the job
// is queued or running.
func (s *Service) Results(ctx context.Context, workspaceID, id int64) (*Import, iter.Seq2[Result, error], error) {
	im, err := s.store.Get(ctx, workspaceID, id)
	if err != nil {
		return nil, nil, err
	}
	if im.State == StateQueued || im.State == StateRunning {
		return nil, nil, apperr.Errorf(apperr.Conflict, "import %d is %s: its results are ready once it is done (%d of %d rows so far)", id, im.State, im.Done, im.Rows).For("import_running", "")
	}
	return im, s.store.Results(ctx, workspaceID, id), nil
}
