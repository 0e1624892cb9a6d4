package imports

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"time"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/lease"
	"github.com/shortlink/shortlink/backend/link"
)

// ChunkRows is how many rows a job prepares, records and writes at a time: one coalesced insert
// at the default CREATE_BATCH_MAX.
const ChunkRows = 1000

// maxClaims fails a job that nodes have taken this many times without finishing it: a file that
// stops every node that runs it must not stop them forever.
const maxClaims = 20

// chunkTries is how many times a node tries a chunk again before it gives the job back.
const chunkTries = 6

// retryWait bounds the wait between tries of a chunk whose write failed for a reason that may
// pass (the database unreachable, the node short of IDs).
const retryWait = 30 * time.Second

// Run runs Options.Workers workers until ctx ends: each claims a job, runs it and looks for the
// next. When ctx ends, a running job finishes the chunk it is writing, records it and is given
// back for any node to resume; Run returns after that.
func (s *Service) Run(ctx context.Context) {
	var wg sync.WaitGroup
	for range s.o.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.work(ctx)
		}()
	}
	wg.Wait()
}

func (s *Service) work(ctx context.Context) {
	t := time.NewTicker(s.o.Poll)
	defer t.Stop()
	for ctx.Err() == nil {
		im, err := s.store.Claim(ctx, s.o.Owner, s.o.Lease)
		if err != nil && ctx.Err() == nil {
			s.log.Warn("import: claim a job", "err", err)
		}
		if im != nil {
			s.run(ctx, im)
			continue
		}
		select {
		case <-ctx.Done():
		case <-t.C:
		case <-s.wake:
		}
	}
}

// run runs one claimed job until it is finished, its lease is lost or stop ends.
func (s *Service) run(stop context.Context, im *Import) {
	log := s.log.With("import", im.ID, "workspace", im.WorkspaceID)
	// The job's own context outlives stop: a chunk under way is written and recorded whole. It
	// ends when the lease is lost (another node has the job) or the job returns.
	ctx, cancel := context.WithCancel(context.WithoutCancel(stop))
	defer cancel()
	defer lease.Keep(ctx, cancel, s.o.Lease, func(ctx context.Context) error {
		return s.store.Renew(ctx, im.ID, s.o.Owner, s.o.Lease)
	}, ErrLeaseLost, log, "import")()

	if im.Claims > maxClaims {
		s.finish(ctx, im, StateFailed, fmt.Sprintf("the job was interrupted %d times; import the rows from %d again", im.Claims-1, im.NextRow), log)
		return
	}
	if im.NextRow > 1 {
		log.Info("import: resuming", "row", im.NextRow, "rows", im.Rows)
	}
	rd, err := NewReader(s.store.Open(ctx, im.ID))
	if err != nil {
		s.stopped(ctx, stop, im, fmt.Errorf("read file: %w", err), log)
		return
	}
	began, startRow := time.Now(), im.NextRow
	rows := make([]Row, 0, ChunkRows)
	for {
		rows = rows[:0]
		for len(rows) < ChunkRows {
			row, err := rd.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				s.stopped(ctx, stop, im, fmt.Errorf("read file: %w", err), log)
				return
			}
			if row.N >= im.NextRow {
				rows = append(rows, row)
			}
		}
		if len(rows) == 0 {
			break
		}
		for try := 0; ; try++ {
			if stop.Err() != nil {
				s.release(ctx, im, log)
				return
			}
			err := s.chunk(ctx, im, rows)
			if err == nil {
				break
			}
			if errors.Is(err, ErrLeaseLost) || ctx.Err() != nil {
				return
			}
			if try >= chunkTries {
				// Give the job back: another node may fare better, and a job taken maxClaims
				// times fails rather than trying forever.
				log.Warn("import: chunk keeps failing; giving the job back", "row", rows[0].N, "err", err)
				s.release(ctx, im, log)
				return
			}
			wait := min(time.Duration(1<<min(try, 5))*time.Second, retryWait)
			log.Warn("import: chunk failed; trying it again", "row", rows[0].N, "in", wait, "err", err)
			select {
			case <-time.After(wait):
			case <-stop.Done():
			case <-ctx.Done():
				return
			}
		}
	}
	if took := time.Since(began); im.NextRow > startRow {
		log.Info("import: done", "rows", im.Rows, "failed", im.Failed, "seconds", took.Seconds(),
			"rows_per_second", float64(im.NextRow-startRow)/took.Seconds())
	}
	s.finish(ctx, im, StateDone, "", log)
}

// stopped ends a job that cannot go on: given back when this node is stopping (the error may
// be the stop's), failed otherwise.
func (s *Service) stopped(ctx, stop context.Context, im *Import, err error, log *slog.Logger) {
	if ctx.Err() != nil {
		return
	}
	if stop.Err() != nil || apperr.CodeOf(err) == apperr.Internal {
		// A database that cannot be read now: another try (this node's or another's) may do.
		log.Warn("import: cannot read the file; giving the job back", "err", err)
		_ = s.store.Release(ctx, im.ID, s.o.Owner)
		return
	}
	log.Error("import: failed", "err", err)
	if err := s.store.Finish(ctx, im.ID, s.o.Owner, StateFailed, apperr.MessageOf(err)); err != nil {
		log.Warn("import: record failure", "err", err)
		return
	}
	if s.o.Finished != nil {
		s.o.Finished(ctx, im, StateFailed, apperr.MessageOf(err))
	}
}

func (s *Service) release(ctx context.Context, im *Import, log *slog.Logger) {
	if err := s.store.Release(ctx, im.ID, s.o.Owner); err != nil {
		if !errors.Is(err, ErrLeaseLost) {
			log.Warn("import: give the job back", "err", err)
		}
		return
	}
	log.Info("import: given back", "row", im.NextRow, "rows", im.Rows)
}

func (s *Service) finish(ctx context.Context, im *Import, state, why string, log *slog.Logger) {
	if err := s.store.Finish(ctx, im.ID, s.o.Owner, state, why); err != nil {
		if !errors.Is(err, ErrLeaseLost) {
			log.Warn("import: record the end", "state", state, "err", err)
		}
		return
	}
	if s.o.Finished != nil {
		s.o.Finished(ctx, im, state, why)
	}
}

// transient reports whether a row's error may pass if the chunk is tried again, rather than
// being the row's answer.
func transient(err error) bool {
	c := apperr.CodeOf(err)
	return c == apperr.Unavailable || c == apperr.Internal
}

// chunk gives every row of rows its result and moves the checkpoint past them. The links' IDs
// are recorded before the links are written; rows recorded by an earlier try (this node's or a
// node that stopped) keep their IDs, and those whose links exist are not written again.
//
//nolint:gocyclo // one retried step with its checkpoint: its branches are the states a row may be in after an earlier try
func (s *Service) chunk(ctx context.Context, im *Import, rows []Row) error {
	planned, err := s.store.Planned(ctx, im.ID, rows[0].N, rows[len(rows)-1].N)
	if err != nil {
		return err
	}
	var plannedIDs []int64
	for _, p := range planned {
		if p.LinkID != 0 {
			plannedIDs = append(plannedIDs, p.LinkID)
		}
	}
	exists, err := s.store.Existing(ctx, im.WorkspaceID, plannedIDs)
	if err != nil {
		return err
	}
	if len(plannedIDs) > 0 {
		s.log.Info("import: rows recorded by an earlier try", "import", im.ID, "row", rows[0].N,
			"recorded", len(plannedIDs), "written", len(exists))
	}

	results := make([]Result, len(rows))
	var fresh []Result // results to record before writing
	var ins []link.Input
	var ids []int64
	var at []int // index in rows of each of ins
	for i, row := range rows {
		r := Result{Row: row.N, Line: row.Line, URL: storable(row.URL, link.MaxURLLength)}
		p, seen := planned[row.N]
		switch {
		case seen && (p.Failed() || exists[p.LinkID]):
			results[i] = p // decided by an earlier try
			continue
		case row.Err != nil:
			r.ErrorCode, r.Error, r.ErrorReason = apperr.CodeOf(row.Err), apperr.MessageOf(row.Err), apperr.ReasonOf(row.Err)
			results[i] = r
			fresh = append(fresh, r)
			continue
		}
		results[i] = r
		ins = append(ins, row.Input)
		ids = append(ids, p.LinkID) // 0 unless an earlier try chose it
		at = append(at, i)
	}
	userID := int64(0)
	if im.CreatedBy != nil {
		userID = *im.CreatedBy
	}
	prepared := s.links.PrepareRows(ctx, im.WorkspaceID, userID, ins, ids)
	for j, p := range prepared {
		i := at[j]
		r := &results[i]
		if p.Err != nil {
			if transient(p.Err) {
				return fmt.Errorf("prepare row %d: %w", r.Row, p.Err)
			}
			r.ErrorCode, r.Error, r.ErrorReason = apperr.CodeOf(p.Err), apperr.MessageOf(p.Err), apperr.ReasonOf(p.Err)
		} else {
			r.LinkID, r.ShortURL = p.Link.ID, s.links.ShortURL(p.Link.DomainID, p.Link.Key)
		}
		if ids[j] == 0 || r.Failed() {
			fresh = append(fresh, *r)
		}
	}
	if err := s.store.Plan(ctx, im, s.o.Owner, fresh, s.o.Lease); err != nil {
		return err
	}

	// Write; rows whose generated code collided with an alias take new IDs, recorded before
	// they are written again.
	var failed []Result
	todo := make([]int, 0, len(prepared))
	for j, p := range prepared {
		if p.Err == nil {
			todo = append(todo, j)
		}
	}
	for try := 0; len(todo) > 0; try++ {
		batch := make([]link.Result, len(todo))
		for k, j := range todo {
			batch[k] = link.Result{Link: prepared[j].Link}
		}
		s.links.WriteRows(ctx, im.WorkspaceID, batch)
		var conflicted []int
		var conflictIDs []int64
		for k, j := range todo {
			err := batch[k].Err
			switch {
			case err == nil:
			case transient(err):
				return fmt.Errorf("write row %d: %w", results[at[j]].Row, err)
			case apperr.Is(err, apperr.Conflict):
				conflicted = append(conflicted, j)
				conflictIDs = append(conflictIDs, prepared[j].Link.ID)
			default:
				r := &results[at[j]]
				r.LinkID, r.ShortURL, r.ErrorCode, r.Error = 0, "", apperr.CodeOf(err), apperr.MessageOf(err)
				r.ErrorReason = apperr.ReasonOf(err)
				failed = append(failed, *r)
			}
		}
		todo = todo[:0]
		if len(conflicted) == 0 {
			break
		}
		// A conflict on a row's own ID is its link, written by an earlier try that did not
		// live to record it.
		exists, err := s.store.Existing(ctx, im.WorkspaceID, conflictIDs)
		if err != nil {
			return err
		}
		var again []Result
		for _, j := range conflicted {
			l, r := prepared[j].Link, &results[at[j]]
			switch {
			case exists[l.ID]:
			case l.IsAlias || try >= 4:
				r.LinkID, r.ShortURL, r.ErrorCode = 0, "", apperr.Conflict
				r.Error, r.ErrorReason = fmt.Sprintf("alias %q is already in use", l.Key), "alias_taken"
				if !l.IsAlias {
					r.Error, r.ErrorReason = "no free code was found, try again", "no_free_code"
				}
				failed = append(failed, *r)
			default:
				if err := s.links.Reissue(ctx, l); err != nil {
					return fmt.Errorf("reissue row %d: %w", r.Row, err)
				}
				r.LinkID, r.ShortURL = l.ID, s.links.ShortURL(l.DomainID, l.Key)
				again = append(again, *r)
				todo = append(todo, j)
			}
		}
		if len(again) > 0 {
			if err := s.store.Plan(ctx, im, s.o.Owner, again, s.o.Lease); err != nil {
				return err
			}
		}
	}
	nFailed := 0
	for _, r := range results {
		if r.Failed() {
			nFailed++
		}
	}
	next := rows[len(rows)-1].N + 1
	if err := s.store.Checkpoint(ctx, im.ID, s.o.Owner, failed, next, len(rows), nFailed, s.o.Lease); err != nil {
		return err
	}
	im.NextRow, im.Done, im.Failed = next, im.Done+len(rows), im.Failed+nFailed
	return nil
}
