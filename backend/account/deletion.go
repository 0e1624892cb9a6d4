package account

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// purgeBatch is how many links of a deleted workspace one statement removes: small enough that
// no transaction holds much, large enough that a million links take a minute or so.
const purgeBatch = 1000

// orphanAfter is how long a deleted workspace may wait before any node takes over its removal
// (the node that deleted it may have stopped).
const orphanAfter = time.Minute

// deletions runs the background removal of deleted workspaces' rows.
type deletions struct {
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	// gone hears of each deleted workspace at once, so that its links stop answering
	// everywhere before their rows are removed.
	gone func(context.Context, int64)
}

func newDeletions() deletions {
	ctx, cancel := context.WithCancel(context.Background())
	return deletions{ctx: ctx, cancel: cancel}
}

func (d *deletions) stop() {
	d.cancel()
	d.wg.Wait()
}

// OnWorkspaceGone sets what is told of a workspace the moment it is deleted.
func (s *Service) OnWorkspaceGone(fn func(ctx context.Context, workspaceID int64)) {
	s.deletions.gone = fn
}

// DeleteWorkspace deletes a workspace. It answers once nobody can reach the workspace any more
// and its links have stopped answering; their rows are then removed in the background, in
// batches, with the caches told of each batch.
func (s *Service) DeleteWorkspace(ctx context.Context, id int64) error {
	if err := s.store.MarkWorkspaceDeleted(ctx, id); err != nil {
		return err
	}
	s.workspaceMarkedDeleted(ctx, id)
	return nil
}

// workspaceMarkedDeleted forgets a workspace marked deleted and removes its rows in the
// background.
func (s *Service) workspaceMarkedDeleted(ctx context.Context, id int64) {
	s.forgetKeys(func(k *APIKey) bool { return k.WorkspaceID == id })
	if s.deletions.gone != nil {
		s.deletions.gone(ctx, id)
	}
	s.deletions.wg.Add(1)
	go func() {
		defer s.deletions.wg.Done()
		if err := s.PurgeWorkspace(s.deletions.ctx, id); err != nil && s.deletions.ctx.Err() == nil {
			s.log.Warn("remove deleted workspace; another node takes over within minutes", "workspace", id, "err", err)
		}
	}()
}

// ErrPurgeBusy is the answer when another node is removing a batch of the same workspace; it
// carries on.
var ErrPurgeBusy = errors.New("another node is removing this workspace")

// PurgeWorkspace removes the rows of a workspace marked deleted, a batch at a time, then the
// workspace. When another node is at the same workspace, it stops and leaves it the work.
func (s *Service) PurgeWorkspace(ctx context.Context, id int64) error {
	for {
		refs, err := s.store.DeleteWorkspaceLinks(ctx, id, purgeBatch)
		if errors.Is(err, ErrPurgeBusy) {
			return nil
		}
		if err != nil {
			return err
		}
		if len(refs) > 0 && s.linksRemoved != nil {
			s.linksRemoved(ctx, refs)
		}
		if len(refs) == purgeBatch {
			continue
		}
		done, err := s.store.FinishWorkspaceDeletion(ctx, id)
		if err != nil || done {
			return err
		}
		// Links are left: skipped as locked by another batch, or made by a create racing the
		// deletion. Give the other batch a moment.
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// DeletedWorkspaces lists the workspaces deleted whose rows are still being removed.
func (s *Service) DeletedWorkspaces(ctx context.Context) ([]int64, error) {
	return s.store.DeletedWorkspaces(ctx, 0)
}

// PurgeOrphans finishes the removal of workspaces deleted a while ago, whose node may have
// stopped before it was done.
func (s *Service) PurgeOrphans(ctx context.Context) error {
	ids, err := s.store.DeletedWorkspaces(ctx, orphanAfter)
	if err != nil {
		return err
	}
	for _, id := range ids {
		if err := s.PurgeWorkspace(ctx, id); err != nil {
			return fmt.Errorf("workspace %d: %w", id, err)
		}
	}
	return nil
}
