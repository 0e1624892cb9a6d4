package lease_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/lease"
)

var errLost = errors.New("lost")

// A lease renewed until renew answers lost: then the job's context ends, and wait returns.
func TestKeepEndsTheJobWhenTheLeaseIsLost(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var renewals atomic.Int32
	wait := lease.Keep(ctx, cancel, 30*time.Millisecond, func(context.Context) error {
		switch renewals.Add(1) {
		case 1:
			return errors.New("a timeout") // logged, tried again
		case 2:
			return nil
		default:
			return errLost
		}
	}, errLost, slog.New(slog.NewTextHandler(io.Discard, nil)), "job")
	select {
	case <-ctx.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("the job's context did not end when its lease was lost")
	}
	wait()
	if n := renewals.Load(); n != 3 {
		t.Errorf("%d renewals, want 3: a failure tried again, then lost", n)
	}
}

// wait ends the heartbeat of a job that finished with its lease.
func TestKeepStopsWithTheJob(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	wait := lease.Keep(ctx, cancel, time.Hour, func(context.Context) error { return nil }, errLost,
		slog.New(slog.NewTextHandler(io.Discard, nil)), "job")
	wait()
	if ctx.Err() == nil {
		t.Error("wait left the job's context running")
	}
}
