// Package lease keeps a job's lease while a node works on it: the heartbeat the import and bulk
// jobs share (backend/imports, backend/bulkjob).
package lease

import (
	"context"
	"errors"
	"log/slog"
	"time"
)

// Keep renews a lease every third of period until ctx ends, and calls cancel (ending the
// job's ctx) once renew answers lost: another node has the job. Other renewal failures are
// logged under what and tried again. The returned wait cancels the heartbeat and waits for it.
func Keep(ctx context.Context, cancel context.CancelFunc, period time.Duration, renew func(context.Context) error,
	lost error, log *slog.Logger, what string) (wait func()) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(period / 3)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				if err := renew(ctx); errors.Is(err, lost) {
					log.Warn(what + ": lease lost; another node has the job")
					cancel()
					return
				} else if err != nil && ctx.Err() == nil {
					log.Warn(what+": renew lease", "err", err)
				}
			}
		}
	}()
	return func() { cancel(); <-done }
}
