package postgres_test

import (
	"context"
	"fmt"
	"log/slog"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/moderation"
	"github.com/shortlink/shortlink/backend/postgres"
	"github.com/shortlink/shortlink/backend/testenv"
	"github.com/shortlink/shortlink/backend/visit"
	"github.com/shortlink/shortlink/backend/visitor"
)

// New links become due once; a review records its captures, decides by the thresholds, bans
// the link (a change the caches follow), and leaves the link due only when asked for again.
func TestModerationRecord(t *testing.T) {
	db := testenv.DB(t)
	ctx := context.Background()
	ws := newWorkspace(t, db)
	start := time.Now().Add(-time.Minute)
	if _, err := db.Pool.Exec(ctx, `INSERT INTO links (id, workspace_id, key, url, url_hash, created_at)
		SELECT i, $1, 'k'||i, 'https://e.com/'||i, i, now() FROM generate_series(1, 3) i`, ws); err != nil {
		t.Fatal(err)
	}
	store := postgres.NewModeration(db)
	due, err := store.DueCreated(ctx, start)
	if err != nil || len(due) != 3 {
		t.Fatalf("due after creation: %v %v", due, err)
	}
	if again, err := store.DueCreated(ctx, start); err != nil || len(again) != 0 {
		t.Fatalf("due twice: %v %v", again, err)
	}
	jobs, err := store.Jobs(ctx, []int64{1, 2, 3, 99})
	if err != nil || len(jobs) != 3 || jobs[0].Reason != "created" || jobs[0].URL == "" {
		t.Fatalf("jobs: %+v %v", jobs, err)
	}
	capture := moderation.Capture{Profile: moderation.Desktop, URL: "https://e.com/1", FinalURL: "https://e.com/1",
		Redirects: []string{"https://e.com/1"}, Title: "Sign in", Screenshot: []byte("\x89PNG"),
		Forms: []moderation.Form{{Action: "https://e.com/post", Password: true, Fields: []string{"user", "pass"}}}}
	verdict := func(score float64) moderation.Review {
		return moderation.Review{Captures: []moderation.Capture{capture}, Duration: time.Second,
			Verdict: moderation.Verdict{Score: score, Category: "phishing", Reason: "a bank login", Scorer: "model", Model: "m"}}
	}
	var changesBefore int
	if err := db.Pool.QueryRow(ctx, `SELECT count(*) FROM link_changes`).Scan(&changesBefore); err != nil {
		t.Fatal(err)
	}

	out, err := store.Record(ctx, jobs[0], verdict(0.95), moderation.DefaultThresholds)
	if err != nil || out.State != moderation.Banned || out.StillDue {
		t.Fatalf("record: %+v %v", out, err)
	}
	var status string
	var changes, captures, decisions int
	if err := db.Pool.QueryRow(ctx, `SELECT status FROM links WHERE id = 1`).Scan(&status); err != nil {
		t.Fatal(err)
	}
	if err := db.Pool.QueryRow(ctx, `SELECT count(*) FROM link_changes`).Scan(&changes); err != nil {
		t.Fatal(err)
	}
	if err := db.Pool.QueryRow(ctx, `SELECT count(*) FROM review_captures WHERE review_id = $1`, out.ReviewID).Scan(&captures); err != nil {
		t.Fatal(err)
	}
	if err := db.Pool.QueryRow(ctx, `SELECT count(*) FROM moderation_decisions WHERE link_id = 1 AND action = 'ban'`).Scan(&decisions); err != nil {
		t.Fatal(err)
	}
	if status != "banned" || changes != changesBefore+1 || captures != 1 || decisions != 1 {
		t.Errorf("after a ban: status %s, %d new changes, %d captures, %d decisions", status, changes-changesBefore, captures, decisions)
	}

	// Link 2 is asked for again (a milestone) while its review runs: it stays due.
	if _, err := db.Pool.Exec(ctx, `UPDATE moderation_due SET seq = seq + 1 WHERE link_id = 2`); err != nil {
		t.Fatal(err)
	}
	out, err = store.Record(ctx, jobs[1], verdict(0.6), moderation.DefaultThresholds)
	if err != nil || out.State != moderation.Flagged || !out.StillDue {
		t.Errorf("record while asked again: %+v %v", out, err)
	}
	// Link 3's destination changes during its review: the new one is due.
	if _, err := db.Pool.Exec(ctx, `UPDATE links SET url = 'https://other.example/' WHERE id = 3`); err != nil {
		t.Fatal(err)
	}
	out, err = store.Record(ctx, jobs[2], verdict(0.1), moderation.DefaultThresholds)
	if err != nil || out.State != moderation.Passed || !out.StillDue {
		t.Errorf("record of a changed destination: %+v %v", out, err)
	}
	left, _ := store.Due(ctx)
	if len(left) != 2 {
		t.Errorf("due after the reviews: %v, want links 2 and 3", left)
	}
	if n, err := store.Failed(ctx, jobs[1], "browser crashed"); err != nil || n != 1 {
		t.Errorf("failed: %d %v", n, err)
	}
}

// Moderators' decisions: the queue pages through links whose state changed at the same moment
// without losing or repeating one; a ban bans (a change the caches follow), drops the review
// still due and resolves the appeal; an approval of a link never reviewed stands against a
// later automatic ban; appeals are once per flagged or banned link of the workspace.
func TestModerationDecisions(t *testing.T) {
	db := testenv.DB(t)
	ctx := context.Background()
	ws := newWorkspace(t, db)
	var actor int64
	if err := db.Pool.QueryRow(ctx, `INSERT INTO users (email, password_hash) VALUES ('m@example.com', 'x') RETURNING id`).Scan(&actor); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Pool.Exec(ctx, `INSERT INTO links (id, workspace_id, key, url, url_hash, created_at)
		SELECT i, $1, 'k'||i, 'https://e.com/'||i, i, now() FROM generate_series(1, 6) i`, ws); err != nil {
		t.Fatal(err)
	}
	// Links 1..5 flagged at one moment.
	if _, err := db.Pool.Exec(ctx, `INSERT INTO link_moderation (link_id, workspace_id, state, score, reason, reviewed_url, reviewed_at, updated_at)
		SELECT i, $1, 'flagged', 0.6, 'odd', 'https://e.com/'||i, now(), '2025-01-01T00:00:00Z' FROM generate_series(1, 5) i`, ws); err != nil {
		t.Fatal(err)
	}
	store := postgres.NewModeration(db)
	desk := moderation.NewDesk(store, nil, slog.New(slog.DiscardHandler))

	var seen []int64
	after := moderation.QueueCursor{}
	for range 5 {
		items, next, err := desk.Queue(ctx, "", after, 2)
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range items {
			if it.Link.Moderation.State != "flagged" || it.Link.Moderation.Score == nil || *it.Link.Moderation.Score != 0.6 {
				t.Errorf("queue item: %+v", it.Link.Moderation)
			}
			seen = append(seen, it.Link.ID)
		}
		if next == nil {
			break
		}
		if after, err = moderation.ParseQueueCursor(next.String()); err != nil {
			t.Fatal(err)
		}
	}
	if fmt.Sprint(seen) != "[1 2 3 4 5]" {
		t.Errorf("pages of ties: %v", seen)
	}

	// A ban: status, change feed, due review dropped, appeal resolved.
	if _, err := db.Pool.Exec(ctx, `INSERT INTO moderation_due (link_id, due_at, reason) VALUES (1, now(), 'visits')`); err != nil {
		t.Fatal(err)
	}
	if _, err := desk.Appeal(ctx, ws, 1, actor, " mine "); err != nil {
		t.Fatal(err)
	}
	if _, err := desk.Appeal(ctx, ws, 1, actor, "again"); !apperr.Is(err, apperr.Conflict) {
		t.Errorf("second appeal: %v", err)
	}
	if _, err := desk.Appeal(ctx, ws+1, 2, actor, "not mine"); !apperr.Is(err, apperr.NotFound) {
		t.Errorf("appeal from another workspace: %v", err)
	}
	if _, err := desk.Appeal(ctx, ws, 6, actor, "pending"); !apperr.Is(err, apperr.Conflict) {
		t.Errorf("appeal of a pending link: %v", err)
	}
	var changesBefore, changes int
	if err := db.Pool.QueryRow(ctx, `SELECT count(*) FROM link_changes`).Scan(&changesBefore); err != nil {
		t.Fatal(err)
	}
	if _, err := desk.Decide(ctx, 1, actor, "ban", moderation.Explanation{Reason: "ugly", Note: "no such reason"}); !apperr.Is(err, apperr.Invalid) {
		t.Errorf("a ban with an unknown reason: %v", err)
	}
	out, err := desk.Decide(ctx, 1, actor, "ban", moderation.Explanation{Reason: "phishing", ReasonText: "asks for bank passwords",
		Note: "same kit as last week"})
	if err != nil || !out.StatusChanged || out.Link.Status != "banned" || out.Link.Moderation.State != "banned" ||
		out.Link.Moderation.Category != "phishing" || out.Link.Moderation.Reason != "asks for bank passwords" ||
		out.Decision.Note != "same kit as last week" || out.Decision.Reason != "phishing" ||
		out.Decision.Actor == nil || out.Decision.Actor.Email != "m@example.com" {
		t.Fatalf("ban: %+v %v", out, err)
	}
	if err := db.Pool.QueryRow(ctx, `SELECT count(*) FROM link_changes`).Scan(&changes); err != nil {
		t.Fatal(err)
	}
	if changes != changesBefore+1 {
		t.Errorf("a ban made %d changes for the caches, want 1", changes-changesBefore)
	}
	if due, _ := store.Due(ctx); len(due) != 0 {
		t.Errorf("due after a ban: %v", due)
	}
	if a, err := desk.AppealOf(ctx, ws, 1); err != nil || a == nil || a.Message != "mine" || a.ResolvedAt == nil || a.Resolution != "ban: asks for bank passwords" {
		t.Errorf("appeal after the ban: %+v %v", a, err)
	}
	if out, err := desk.Decide(ctx, 1, actor, "unban", moderation.Explanation{}); err != nil || !out.StatusChanged || out.Link.Status != "active" ||
		out.Link.Moderation.State != "passed" || out.Link.Moderation.Reason != "asks for bank passwords" {
		t.Errorf("unban: %+v %v", out, err)
	}
	if out, err := desk.Decide(ctx, 2, actor, "approve", moderation.Explanation{}); err != nil || out.StatusChanged || out.Link.Moderation.State != "passed" {
		t.Errorf("approve: %+v %v", out, err)
	}
	if _, err := desk.Decide(ctx, 99, actor, "ban", moderation.Explanation{Reason: "spam"}); !apperr.Is(err, apperr.NotFound) {
		t.Errorf("decision on a missing link: %v", err)
	}
	if _, err := desk.Decide(ctx, 2, actor, "pass", moderation.Explanation{}); !apperr.Is(err, apperr.Invalid) {
		t.Errorf("the worker's action by a moderator: %v", err)
	}

	// Link 6 was never reviewed: approving it approves its destination, and a later automatic
	// ban of that destination only flags it.
	if out, err := desk.Decide(ctx, 6, actor, "approve", moderation.Explanation{Note: "known sender"}); err != nil || out.Link.Moderation.State != "passed" {
		t.Fatalf("approve unreviewed: %+v %v", out, err)
	}
	at, err := desk.RequestReview(ctx, 6)
	if err != nil || time.Since(at) > time.Minute {
		t.Fatalf("request review: %v %v", at, err)
	}
	jobs, err := store.Jobs(ctx, []int64{6})
	if err != nil || len(jobs) != 1 || jobs[0].Reason != "requested" {
		t.Fatalf("requested job: %+v %v", jobs, err)
	}
	if _, err := desk.RequestReview(ctx, 6); err != nil {
		t.Fatal(err)
	}
	if again, _ := store.Jobs(ctx, []int64{6}); len(again) != 1 || again[0].Seq != jobs[0].Seq+1 {
		t.Errorf("asked twice: %+v", again)
	}
	rec, err := store.Record(ctx, jobs[0], moderation.Review{Verdict: moderation.Verdict{Score: 0.99, Category: "spam", Scorer: "heuristic"}}, moderation.DefaultThresholds)
	if err != nil || rec.State != moderation.Flagged || !rec.StillDue {
		t.Errorf("automatic ban of an approved destination: %+v %v", rec, err)
	}
	if _, err := desk.RequestReview(ctx, 99); !apperr.Is(err, apperr.NotFound) {
		t.Errorf("review of a missing link: %v", err)
	}

	// A deleted link leaves the queue and its file.
	if _, err := db.Pool.Exec(ctx, `DELETE FROM links WHERE id = 4`); err != nil {
		t.Fatal(err)
	}
	items, _, err := desk.Queue(ctx, "flagged", moderation.QueueCursor{}, 10)
	if err != nil || len(items) != 3 || items[0].Link.ID != 6 || items[0].Review == nil || items[0].Review.Category != "spam" {
		t.Errorf("flagged after the decisions: %+v %v", items, err)
	}
	if _, err := desk.File(ctx, 4); !apperr.Is(err, apperr.NotFound) {
		t.Errorf("file of a deleted link: %v", err)
	}
	f, err := desk.File(ctx, 6)
	if err != nil || len(f.Reviews) != 1 || len(f.Decisions) != 2 || f.Decisions[0].Action != "flag" || f.Decisions[0].Actor != nil ||
		f.Decisions[1].Action != "approve" || f.Decisions[1].ReviewID != nil || f.Appeal != nil {
		t.Errorf("file of link 6: %+v %v", f, err)
	}

	// The audit log, a page at a time, newest first.
	page, next, err := desk.Audit(ctx, 0, 4)
	if err != nil || len(page) != 4 || next == 0 || page[0].Action != "flag" || page[1].Action != "approve" {
		t.Fatalf("audit: %+v %d %v", page, next, err)
	}
	rest, next, err := desk.Audit(ctx, next, 4)
	if err != nil || len(rest) != 1 || next != 0 || rest[0].Action != "ban" || rest[0].LinkID != 1 {
		t.Errorf("audit's last page: %+v %d %v", rest, next, err)
	}
}

// The scan of new links never makes a link due again whose review committed while the scan ran:
// the scan's snapshot does not see the review, and the due row the review deleted no longer
// stops its insert.
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
	type result struct {
		due []moderation.Due
		err error
	}
	scanned := make(chan result, 1)
	go func() {
		due, err := store.DueCreated(ctx, start)
		scanned <- result{due, err}
	}()
	time.Sleep(300 * time.Millisecond) // the scan waits for the review's transaction
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	r := <-scanned
	if r.err != nil || len(r.due) != 0 {
		t.Errorf("the scan beside the review: %v %v, want nothing due", r.due, r.err)
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

// TestVisitsMilestoneMatchesGo: the ingest's SQL rule of a review at a power of two of
// people's visits is moderation.Milestone, for every step from 0 to 300 visits by up to 70 at
// once, and near the top of the range.
func TestVisitsMilestoneMatchesGo(t *testing.T) {
	db := testenv.DB(t)
	rows, err := db.Pool.Query(context.Background(), `
		SELECT b, a, visits_milestone(b, a) FROM generate_series(0, 300) b, generate_series(b, b + 70) a
		UNION ALL
		SELECT b, a, visits_milestone(b, a) FROM (VALUES
			(4611686018427387903::bigint, 4611686018427387904::bigint),
			(4611686018427387904, 9223372036854775807), (8, 4)) v(b, a)`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var before, after int64
		var got bool
		if err := rows.Scan(&before, &after, &got); err != nil {
			t.Fatal(err)
		}
		n++
		if want := moderation.Milestone(before, after); got != want {
			t.Errorf("visits_milestone(%d, %d) = %v, moderation.Milestone says %v", before, after, got, want)
		}
	}
	if err := rows.Err(); err != nil || n < 20000 {
		t.Fatalf("%d pairs compared: %v", n, err)
	}
}
