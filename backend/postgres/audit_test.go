package postgres_test

import (
	"context"
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/audit"
	"github.com/shortlink/shortlink/backend/postgres"
	"github.com/shortlink/shortlink/backend/testenv"
)

// TestAuditStore: events page newest first within their workspace; the table refuses updates
// and deletes, and the retention purge alone removes old events and those of gone workspaces.
func TestAuditStore(t *testing.T) {
	t.Parallel()
	db := testenv.DB(t)
	ctx := context.Background()
	store := postgres.NewAuditStore(db)
	ws, other := newWorkspace(t, db), newWorkspace(t, db)
	for i := range 5 {
		e := audit.Event{WorkspaceID: ws, Actor: audit.User(7, "a@example.com"), Action: audit.LinkDeleted, Target: audit.Target("link", int64(i)), Details: map[string]any{"i": i}}
		if err := store.Append(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	if err := store.Append(ctx, audit.Event{WorkspaceID: other, Actor: audit.System(), Action: audit.PlanChanged}); err != nil {
		t.Fatal(err)
	}
	page, err := store.Events(ctx, ws, 0, 3)
	if err != nil || len(page) != 3 || page[0].Target != "link:4" || page[0].Actor.Email != "a@example.com" || page[0].Details["i"] != float64(4) {
		t.Fatalf("first page: %+v %v", page, err)
	}
	rest, err := store.Events(ctx, ws, page[2].ID, 3)
	if err != nil || len(rest) != 2 || rest[1].Target != "link:0" {
		t.Fatalf("second page: %+v %v", rest, err)
	}
	n := 0
	for e, err := range store.AllEvents(ctx, other) {
		if err != nil || e.WorkspaceID != other || e.Actor.Type != audit.ActorSystem || e.Actor.ID != 0 {
			t.Fatalf("other workspace: %+v %v", e, err)
		}
		n++
	}
	if n != 1 {
		t.Fatalf("other workspace has %d events", n)
	}
	if _, err := db.Pool.Exec(ctx, `UPDATE audit_events SET target = 'x'`); err == nil {
		t.Fatal("an update went through")
	}
	if _, err := db.Pool.Exec(ctx, `DELETE FROM audit_events`); err == nil {
		t.Fatal("a delete went through")
	}
	// Nothing is old yet; a gone workspace's events go.
	if _, err := db.Pool.Exec(ctx, `DELETE FROM workspaces WHERE id = $1`, other); err != nil {
		t.Fatal(err)
	}
	if got, err := store.PurgeBefore(ctx, time.Now().Add(-time.Hour)); err != nil || got != 1 {
		t.Fatalf("purge of the gone workspace: %d %v", got, err)
	}
	if got, err := store.PurgeBefore(ctx, time.Now().Add(time.Hour)); err != nil || got != 5 {
		t.Fatalf("purge of everything older than an hour from now: %d %v", got, err)
	}
	// The purge's permission ended with its transaction.
	if err := store.Append(ctx, audit.Event{WorkspaceID: ws, Actor: audit.APIKey(3), Action: audit.APIKeyRevoked}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Pool.Exec(ctx, `DELETE FROM audit_events`); err == nil {
		t.Fatal("a delete went through after a purge")
	}
}
