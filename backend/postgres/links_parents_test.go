package postgres_test

import (
	"context"
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/link"
	"github.com/shortlink/shortlink/backend/postgres"
	"github.com/shortlink/shortlink/backend/testenv"
)

// TestLinkParents: a link is written only into a workspace that is there (one deleted before or
// while its batch is written answers workspace_not_found, told apart from a taken key), a
// workspace's deletion takes its links, and a person's deletion leaves their links without a
// creator — what the foreign keys did before migration 00059.
func TestLinkParents(t *testing.T) {
	t.Parallel()
	db := testenv.DB(t)
	ctx := context.Background()
	accounts := postgres.NewAccountStore(db)
	links := postgres.NewLinkStore(db)
	u, ws := newUser(t, accounts, "parents@example.com")
	_, doomed := newUser(t, accounts, "parents-doomed@example.com")
	now := time.Now().UTC()
	mk := func(id, ws int64, key string) *link.Link {
		return &link.Link{ID: id, WorkspaceID: ws, Key: key, URL: "https://example.com/" + key, RedirectStatus: 302,
			Status: link.StatusActive, CreatedBy: &u.ID, CreatedAt: now, UpdatedAt: now}
	}
	reason := apperr.ReasonOf

	errs, err := links.Insert(ctx, []*link.Link{mk(5100, ws.ID, "pa"), mk(5101, ws.ID, "pb"), mk(5102, 1<<40, "pc"), mk(5103, ws.ID, "pa")})
	if err != nil {
		t.Fatal(err)
	}
	if errs[0] != nil || errs[1] != nil || reason(errs[2]) != "workspace_not_found" || reason(errs[3]) != "alias_taken" {
		t.Fatalf("insert answers %v", errs)
	}

	// A deletion of the workspace under way holds the insert, which then finds no workspace.
	tx, err := db.Pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = tx.Rollback(ctx) }()
	if _, err := tx.Exec(ctx, `DELETE FROM workspaces WHERE id = $1`, doomed.ID); err != nil {
		t.Fatal(err)
	}
	done := make(chan []error, 1)
	go func() {
		errs, err := links.Insert(ctx, []*link.Link{mk(5104, doomed.ID, "pd")})
		if err != nil {
			errs = []error{err}
		}
		done <- errs
	}()
	for waiting := 0; waiting == 0; {
		if err := db.Pool.QueryRow(ctx, `SELECT count(*) FROM pg_stat_activity
			WHERE datname = current_database() AND wait_event_type = 'Lock'`).Scan(&waiting); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if errs := <-done; reason(errs[0]) != "workspace_not_found" {
		t.Fatalf("insert into a workspace deleted meanwhile: %v", errs)
	}
	var orphans int
	if err := db.Pool.QueryRow(ctx, `SELECT count(*) FROM links WHERE workspace_id = $1`, doomed.ID).Scan(&orphans); err != nil || orphans != 0 {
		t.Fatalf("links of the deleted workspace: %d, %v", orphans, err)
	}

	// The person's deletion keeps their links, without a creator.
	if _, err := db.Pool.Exec(ctx, `DELETE FROM users WHERE id = $1`, u.ID); err != nil {
		t.Fatal(err)
	}
	if l, err := links.Get(ctx, ws.ID, 5100); err != nil || l.CreatedBy != nil {
		t.Fatalf("after the creator's deletion: %+v, %v", l, err)
	}
	// A link of a creator who is gone is written without one.
	if errs, err := links.Insert(ctx, []*link.Link{mk(5105, ws.ID, "pe")}); err != nil || errs[0] != nil {
		t.Fatalf("insert by a deleted creator: %v %v", errs, err)
	}
	if l, err := links.Get(ctx, ws.ID, 5105); err != nil || l.CreatedBy != nil {
		t.Fatalf("link of a deleted creator: %+v, %v", l, err)
	}

	// The workspace's deletion takes its links.
	if _, err := db.Pool.Exec(ctx, `DELETE FROM workspaces WHERE id = $1`, ws.ID); err != nil {
		t.Fatal(err)
	}
	var left int
	if err := db.Pool.QueryRow(ctx, `SELECT count(*) FROM links WHERE workspace_id = $1`, ws.ID).Scan(&left); err != nil || left != 0 {
		t.Fatalf("after the workspace's deletion: %d links left, %v", left, err)
	}
}
