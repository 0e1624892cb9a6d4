// Tests of the due list and the moderators' queue (moderation_due.go).

package postgres_test

import (
	"context"
	"fmt"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/moderation"
	"github.com/shortlink/shortlink/backend/postgres"
	"github.com/shortlink/shortlink/backend/testenv"
	"github.com/shortlink/shortlink/backend/visit"
	"github.com/shortlink/shortlink/backend/visitor"
)

// The scan of new links never makes a link due again whose review committed while the scan ran:
// the scan's insert does not see the review, and its second look, after the review's commit,
// does.
func TestModerationScanDuringRecord(t *testing.T) {
	db := testenv.DB(t)
	ctx := context.Background()
	ws := newWorkspace(t, db)
	start := time.Now().Add(-time.Minute)
	if _, err := db.Pool.Exec(ctx, `INSERT INTO links (id, workspace_id, key, url, url_hash, created_at)
		VALUES (1, $1, 'k1', 'https://e.com/1', 1, now())`, ws); err != nil {
		t.Fatal(err)
	}
	store := postgres.NewModeration(db)
	if due, err := store.DueCreated(ctx, start); err != nil || len(due) != 1 {
		t.Fatalf("due after creation: %v %v", due, err)
	}
	// A review recording, as Record does: the link's state written, its due row deleted, not
	// committed yet.
	tx, err := db.Pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = tx.Rollback(ctx) }()
	if _, err := tx.Exec(ctx, `INSERT INTO link_moderation (link_id, workspace_id, state, score, reviewed_url, reviewed_at)
		VALUES (1, $1, 'passed', 0.1, 'https://e.com/1', now())`, ws); err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, `DELETE FROM moderation_due WHERE link_id = 1`); err != nil {
		t.Fatal(err)
	}
	// The review commits while the scan runs: after the scan's insert, before its second look.
	committed := false
	store.AfterDueInsert(func() {
		if !committed {
			committed = true
			if err := tx.Commit(ctx); err != nil {
				t.Error(err)
			}
		}
	})
	due, err := store.DueCreated(ctx, start)
	if !committed {
		t.Fatal("the scan never reached its second look")
	}
	if err != nil || len(due) != 0 {
		t.Errorf("the scan beside the review: %v %v, want nothing due", due, err)
	}
	if left, _ := store.Due(ctx); len(left) != 0 {
		t.Errorf("due after the review: %v", left)
	}
}

// The first people's visit after a link's destination changed since its last review makes
// the link due again, once; crawlers do not.
func TestDueAfterTargetChange(t *testing.T) {
	db := testenv.DB(t)
	ctx := context.Background()
	ws := newWorkspace(t, db)
	for _, q := range []string{
		`INSERT INTO links (id, workspace_id, key, url, url_hash) VALUES (7, $1, 'k7', 'https://old.example/', 7)`,
		`INSERT INTO link_moderation (link_id, workspace_id, state, reviewed_url, reviewed_at) VALUES (7, $1, 'passed', 'https://old.example/', now())`,
	} {
		if _, err := db.Pool.Exec(ctx, q, ws); err != nil {
			t.Fatal(err)
		}
	}
	visits := postgres.NewVisits(db)
	n := 0
	visitOf := func(bot bool) visit.Event {
		n++
		v := &visitor.Visitor{IP: netip.AddrFrom4([4]byte{10, 9, 0, byte(n)})}
		v.Crawler = bot
		return visit.NewEvent(time.Now(), visit.Target{LinkID: 7, WorkspaceID: ws}, -1, v, "", "ua", visit.NewHasher(nil))
	}
	due := func() (reason string, seq int64) {
		_ = db.Pool.QueryRow(ctx, `SELECT reason, seq FROM moderation_due WHERE link_id = 7`).Scan(&reason, &seq)
		return
	}
	// Visits 1 and 2 are milestones; clear them as reviews would.
	for range 2 {
		if _, err := visits.Insert(ctx, []visit.Batch{{visitOf(false)}}); err != nil {
			t.Fatal(err)
		}
		if _, err := db.Pool.Exec(ctx, `DELETE FROM moderation_due`); err != nil {
			t.Fatal(err)
		}
	}
	// Visit 3, same destination: nothing due.
	if st, err := visits.Insert(ctx, []visit.Batch{{visitOf(false)}}); err != nil || len(st.Due) != 0 {
		t.Fatalf("a visit of a reviewed destination: %+v %v", st, err)
	}
	if _, err := db.Pool.Exec(ctx, `UPDATE links SET url = 'https://new.example/' WHERE id = 7`); err != nil {
		t.Fatal(err)
	}
	if st, err := visits.Insert(ctx, []visit.Batch{{visitOf(true)}}); err != nil || len(st.Due) != 0 {
		t.Fatalf("a crawler after the change: %+v %v", st, err)
	}
	st, err := visits.Insert(ctx, []visit.Batch{{visitOf(false)}}) // the 4th person: also a milestone
	if err != nil || len(st.Due) != 1 {
		t.Fatalf("the first visit after the change: %+v %v", st, err)
	}
	if _, err := db.Pool.Exec(ctx, `DELETE FROM moderation_due`); err != nil {
		t.Fatal(err)
	}
	if st, err := visits.Insert(ctx, []visit.Batch{{visitOf(false)}}); err != nil || len(st.Due) != 1 {
		t.Fatalf("the 5th visit, destination still unreviewed: %+v %v", st, err)
	}
	if reason, _ := due(); reason != "target_changed" {
		t.Errorf("due for %q, want target_changed", reason)
	}
	_, seq := due()
	if _, err := visits.Insert(ctx, []visit.Batch{{visitOf(false)}}); err != nil {
		t.Fatal(err)
	}
	if _, seq2 := due(); seq2 != seq {
		t.Errorf("a later visit asked again (seq %d → %d)", seq, seq2)
	}
}

// The queue of links waiting for their first review reads a page down the index of
// moderation_due, whatever the statistics say: with 200,000 links due, those due at the same
// moment by the thousand, and every link a state has been recorded for having left pending,
// neither the first page nor a later one reads the whole table or sorts it.
func TestPendingQueuePlan(t *testing.T) {
	db := testenv.DB(t)
	ctx := context.Background()
	ws := newWorkspace(t, db)
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := db.Pool.Exec(ctx, q, args...); err != nil {
			t.Fatal(err)
		}
	}
	exec(`INSERT INTO links (id, workspace_id, key, url, url_hash) SELECT i, $1, 'k'||i, 'https://e.com/'||i, i FROM generate_series(1, 200000) i`, ws)
	exec(`INSERT INTO moderation_due (link_id, due_at, reason) SELECT i, timestamptz '2026-01-01' + (i / 1000) * interval '1 s', 'created' FROM generate_series(1, 200000) i`)
	exec(`INSERT INTO link_moderation (link_id, workspace_id, state) SELECT i, $1, 'passed' FROM generate_series(199001, 200000, 2) i`, ws)
	exec(`ANALYZE links, moderation_due, link_moderation`)
	for _, after := range []moderation.QueueCursor{{}, {At: time.Date(2026, 1, 1, 0, 1, 0, 0, time.UTC), LinkID: 60500}} {
		query, args := postgres.PendingQueueQuery(after, 20)
		rows, err := db.Pool.Query(ctx, "EXPLAIN (COSTS OFF) "+query, args...)
		if err != nil {
			t.Fatal(err)
		}
		var lines []string
		for rows.Next() {
			var line string
			if err := rows.Scan(&line); err != nil {
				t.Fatal(err)
			}
			lines = append(lines, line)
		}
		plan := strings.Join(lines, "\n")
		if strings.Contains(plan, "Seq Scan on moderation_due") || strings.Contains(plan, "Sort") ||
			!strings.Contains(plan, "moderation_due_queue") {
			t.Errorf("page after link %d: the plan reads or sorts the whole queue:\n%s", after.LinkID, plan)
		}
	}
	// And the page is the right one: the latest due first, without the links passed.
	items, err := postgres.NewModeration(db).Queue(ctx, moderation.Pending, moderation.QueueCursor{}, 3)
	if err != nil {
		t.Fatal(err)
	}
	var ids []int64
	for _, it := range items {
		ids = append(ids, it.Link.ID)
	}
	if fmt.Sprint(ids) != "[200000 199998 199996 199994]" {
		t.Errorf("first page %v, want [200000 199998 199996 199994] (one more for the cursor)", ids)
	}
}
