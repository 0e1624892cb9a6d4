package postgres_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/imports"
	"github.com/shortlink/shortlink/backend/postgres"
	"github.com/shortlink/shortlink/backend/testenv"
)

// TestImportStore: a file is stored all or nothing and read back whole across parts; a job is
// held by one node at a time, and a node whose lease another took can write nothing more.
func TestImportStore(t *testing.T) {
	t.Parallel()
	db := testenv.DB(t)
	store := postgres.NewImportStore(db)
	ctx := context.Background()
	_, w := newUser(t, postgres.NewAccountStore(db), "importer@example.com")

	// A refused upload leaves nothing behind.
	refused := &imports.Import{WorkspaceID: w.ID}
	err := store.Create(ctx, refused, func(wr io.Writer) error {
		_, _ = wr.Write(bytes.Repeat([]byte("x"), 3<<20))
		return apperr.Errorf(apperr.Invalid, "no")
	})
	if !apperr.Is(err, apperr.Invalid) {
		t.Fatalf("refused upload: %v", err)
	}
	if list, _, _ := store.List(ctx, w.ID, 0, 10); len(list) != 0 {
		t.Fatalf("a refused upload was kept: %+v", list)
	}

	// A file of several parts reads back as it was.
	file := []byte("url\n" + strings.Repeat("https://parts.example/abcdefghij\n", 100000)) // 3.3 MB
	im := &imports.Import{WorkspaceID: w.ID, Filename: "f.csv"}
	if err := store.Create(ctx, im, func(wr io.Writer) error {
		im.Format, im.Rows = imports.FormatShortlink, 100000
		for rest := file; len(rest) > 0; {
			n := min(len(rest), 7777)
			if _, err := wr.Write(rest[:n]); err != nil {
				return err
			}
			rest = rest[n:]
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if im.ID == 0 || im.State != imports.StateQueued || im.Bytes != int64(len(file)) || im.Rows != 100000 || im.NextRow != 1 {
		t.Fatalf("created: %+v", im)
	}
	back, err := io.ReadAll(store.Open(ctx, im.ID))
	if err != nil || !bytes.Equal(back, file) {
		t.Fatalf("read back %d bytes of %d: %v", len(back), len(file), err)
	}

	// One claim at a time; a lease that ran out is taken by the next node.
	lease := 300 * time.Millisecond
	a, err := store.Claim(ctx, "node-a", lease)
	if err != nil || a == nil || a.ID != im.ID || a.State != imports.StateRunning || a.Claims != 1 {
		t.Fatalf("claim: %+v, %v", a, err)
	}
	if b, err := store.Claim(ctx, "node-b", lease); err != nil || b != nil {
		t.Fatalf("a held job was claimed again: %+v, %v", b, err)
	}
	rows := []imports.Result{{Row: 1, Line: 2, URL: "https://parts.example/1", LinkID: 77, ShortURL: "http://sho.rt/x"},
		{Row: 2, Line: 3, URL: "bad", ErrorCode: "invalid", Error: "url has no host"}}
	if err := store.Plan(ctx, a, "node-a", rows, lease); err != nil {
		t.Fatal(err)
	}
	time.Sleep(2 * lease)
	b, err := store.Claim(ctx, "node-b", time.Minute)
	if err != nil || b == nil || b.ID != im.ID || b.Claims != 2 {
		t.Fatalf("claim after the lease ran out: %+v, %v", b, err)
	}
	// Node a, back from a stall, can no longer write or end the job.
	for name, err := range map[string]error{
		"renew":      store.Renew(ctx, im.ID, "node-a", lease),
		"plan":       store.Plan(ctx, a, "node-a", rows[:1], lease),
		"checkpoint": store.Checkpoint(ctx, im.ID, "node-a", nil, 3, 2, 1, lease),
		"release":    store.Release(ctx, im.ID, "node-a"),
		"finish":     store.Finish(ctx, im.ID, "node-a", imports.StateDone, ""),
	} {
		if !errors.Is(err, imports.ErrLeaseLost) {
			t.Errorf("node a's %s after losing the lease: %v", name, err)
		}
	}
	// Node b finds what a recorded and goes on.
	planned, err := store.Planned(ctx, im.ID, 1, 1000)
	if err != nil || len(planned) != 2 || planned[1].LinkID != 77 || planned[2].ErrorCode != "invalid" {
		t.Fatalf("planned: %+v, %v", planned, err)
	}
	failed := []imports.Result{{Row: 1, ErrorCode: "quota_exceeded", Error: "used up"}}
	if err := store.Checkpoint(ctx, im.ID, "node-b", failed, 3, 2, 2, time.Minute); err != nil {
		t.Fatal(err)
	}
	if err := store.Release(ctx, im.ID, "node-b"); err != nil {
		t.Fatal(err)
	}
	c, err := store.Claim(ctx, "node-c", time.Minute)
	if err != nil || c == nil || c.NextRow != 3 || c.Done != 2 || c.Failed != 2 || c.Claims != 3 {
		t.Fatalf("claim of a released job: %+v, %v", c, err)
	}
	if err := store.Finish(ctx, im.ID, "node-c", imports.StateDone, ""); err != nil {
		t.Fatal(err)
	}
	got, err := store.Get(ctx, w.ID, im.ID)
	if err != nil || got.State != imports.StateDone || got.FinishedAt == nil {
		t.Fatalf("finished: %+v, %v", got, err)
	}
	if rest, _ := io.ReadAll(store.Open(ctx, im.ID)); len(rest) != 0 {
		t.Errorf("the file outlived its job: %d bytes", len(rest))
	}
	var results []imports.Result
	for r, err := range store.Results(ctx, w.ID, im.ID) {
		if err != nil {
			t.Fatal(err)
		}
		results = append(results, r)
	}
	if len(results) != 2 || results[0].LinkID != 0 || results[0].ErrorCode != "quota_exceeded" || results[1].Error != "url has no host" {
		t.Fatalf("results: %+v", results)
	}
	// Another workspace sees none of it.
	_, other := newUser(t, postgres.NewAccountStore(db), "other@example.com")
	if _, err := store.Get(ctx, other.ID, im.ID); !apperr.Is(err, apperr.NotFound) {
		t.Errorf("other workspace's Get: %v", err)
	}
	for _, err := range store.Results(ctx, other.ID, im.ID) {
		if err != nil {
			t.Fatal(err)
		}
		t.Fatal("other workspace reads results")
	}
}
