package bulkjob

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/shortlink/shortlink/backend/audit"
	"github.com/shortlink/shortlink/backend/lease"
)

// maxClaims fails a job that nodes have taken this many times without finishing it.
const maxClaims = 20

// batchTries is how many times a node tries a batch again before it gives the job back.
const batchTries = 5

// Run runs Options.Workers workers until ctx ends: each claims a job, runs it and looks for the
// next. When ctx ends, a running job finishes the batch under way and is given back for any
// node to resume; Run returns after that.
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

// rounds counts the times an idle worker looked for a job and found none: a test waits for
// one that began after an event.
var rounds atomic.Int64

// IdleRounds answers how many times a worker of this process found no job to claim.
func IdleRounds() int64 { return rounds.Load() }

func (s *Service) work(ctx context.Context) {
	t := time.NewTicker(s.o.Poll)
	defer t.Stop()
	for ctx.Err() == nil {
		j, err := s.store.Claim(ctx, s.o.Owner, s.o.Lease)
		if err != nil && ctx.Err() == nil {
			s.log.Warn("bulk job: claim a job", "err", err)
		}
		if j != nil {
			s.RunJob(ctx, j)
			continue
		}
		rounds.Add(1)
		select {
		case <-ctx.Done():
		case <-t.C:
		case <-s.wake:
		}
	}
}

// RunJob runs one job claimed for Options.Owner until it has ended, its lease is lost or stop
// ends (then it is given back after the batch under way).
func (s *Service) RunJob(stop context.Context, j *Job) {
	log := s.log.With("bulk_job", j.ID, "workspace", j.WorkspaceID)
	// The job's own context outlives stop: a batch under way is committed and its caches told.
	ctx, cancel := context.WithCancel(context.WithoutCancel(stop))
	defer cancel()
	defer lease.Keep(ctx, cancel, s.o.Lease, func(ctx context.Context) error {
		return s.store.Renew(ctx, j.ID, s.o.Owner, s.o.Lease)
	}, ErrLeaseLost, log, "bulk job")()

	if j.Claims > maxClaims {
		s.finish(ctx, j, StateFailed, fmt.Sprintf("the job was interrupted %d times", j.Claims-1), log)
		return
	}
	began, startDone := time.Now(), j.Done
	if !j.Snapshot {
		if err := s.store.Freeze(ctx, j, s.o.Owner, s.o.BatchSize, s.o.Lease); err != nil {
			if !errors.Is(err, ErrLeaseLost) && ctx.Err() == nil {
				log.Warn("bulk job: freeze the matching links; giving the job back", "err", err)
				s.release(ctx, j, log)
			}
			return
		}
		log.Info("bulk job: links frozen", "total", j.Total, "seconds", time.Since(began).Seconds())
	} else if j.NextChunk > 0 {
		log.Info("bulk job: resuming", "chunk", j.NextChunk, "done", j.Done, "total", j.Total)
	}
	// Options.Parallel batches at once, each taking the lowest chunk no other holds, until
	// none is left; the job ends once every one has stopped, by how the first to stop did.
	var (
		mu                  sync.Mutex
		inBatches, inCaches time.Duration // where the time went
		outcome             string        // "" (all done), "canceled", "lost" or "release"
	)
	stopAll := func(how string) {
		mu.Lock()
		if outcome == "" {
			outcome = how
		}
		mu.Unlock()
	}
	stopped := func() bool {
		mu.Lock()
		defer mu.Unlock()
		return outcome != ""
	}
	var wg sync.WaitGroup
	for range s.o.Parallel {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !stopped() {
				t0 := time.Now()
				b, how := s.batch(ctx, stop, j, log)
				t1 := time.Now()
				if how != "" {
					stopAll(how)
					return
				}
				if b.Canceled {
					stopAll("canceled")
					return
				}
				if len(b.Removed) > 0 {
					s.cache.RemovedMany(ctx, b.Removed)
				}
				mu.Lock()
				j.Done += b.Done
				j.Failed += b.Failed
				j.NextChunk = max(j.NextChunk, b.Chunk+1)
				inBatches += t1.Sub(t0)
				inCaches += time.Since(t1)
				mu.Unlock()
				if b.Last {
					return
				}
			}
		}()
	}
	wg.Wait()
	switch outcome {
	case "canceled":
		s.finish(ctx, j, StateCanceled, "", log)
		return
	case "release":
		s.release(ctx, j, log)
		return
	case "lost":
		return
	}
	took := time.Since(began)
	log.Info("bulk job: done", "total", j.Total, "failed", j.Failed, "seconds", took.Seconds(),
		"batches_seconds", inBatches.Seconds(), "caches_seconds", inCaches.Seconds(),
		"links_per_second", float64(j.Done-startDone)/max(took.Seconds(), 1e-9))
	s.finish(ctx, j, StateDone, "", log)
}

// batch runs one batch of the job, trying it again when it fails for a reason that may pass.
// how says why the job cannot go on: "lost" (another node has it), "release" (give it back:
// this node is stopping, or the batch keeps failing); "" when the batch ran.
func (s *Service) batch(ctx, stop context.Context, j *Job, log *slog.Logger) (Batch, string) {
	for try := 0; ; try++ {
		if stop.Err() != nil {
			return Batch{}, "release"
		}
		b, err := s.store.Next(ctx, j, s.o.Owner)
		if err == nil {
			return b, ""
		}
		if errors.Is(err, ErrLeaseLost) || ctx.Err() != nil {
			return Batch{}, "lost"
		}
		if try >= batchTries {
			log.Warn("bulk job: batch keeps failing; giving the job back", "err", err)
			return Batch{}, "release"
		}
		wait := time.Duration(1<<try) * time.Second
		log.Warn("bulk job: batch failed; trying it again", "in", wait, "err", err)
		select {
		case <-time.After(wait):
		case <-stop.Done():
		case <-ctx.Done():
			return Batch{}, "lost"
		}
	}
}

func (s *Service) release(ctx context.Context, j *Job, log *slog.Logger) {
	if err := s.store.Release(ctx, j.ID, s.o.Owner); err != nil {
		if !errors.Is(err, ErrLeaseLost) {
			log.Warn("bulk job: give the job back", "err", err)
		}
		return
	}
	log.Info("bulk job: given back", "chunk", j.NextChunk, "done", j.Done, "total", j.Total)
}

// finish records the job's end, then its one event in the workspace's audit log: who
// submitted it, what it did, to which filter, and how many links.
func (s *Service) finish(ctx context.Context, j *Job, state, why string, log *slog.Logger) {
	if err := s.store.Finish(ctx, j.ID, s.o.Owner, state, why); err != nil {
		if !errors.Is(err, ErrLeaseLost) {
			log.Warn("bulk job: record the end", "state", state, "err", err)
		}
		return
	}
	j.State = state
	if s.audit == nil {
		return
	}
	_ = s.audit.Record(ctx, audit.Event{WorkspaceID: j.WorkspaceID, Actor: j.Actor, Action: audit.LinksBulkJob,
		Target: audit.Target("bulk_job", j.ID), Details: map[string]any{
			"action": j.Action(), "filter": j.Filter, "state": state, "total": j.Total,
			"done": j.Done, "failed": j.Failed, "changed": j.Done - j.Failed,
		}}, "")
}
