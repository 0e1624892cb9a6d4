// Tests of moderators' decisions (moderation_decisions.go).

package postgres_test

import (
	"context"
	"fmt"
	"log/slog"
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/moderation"
	"github.com/shortlink/shortlink/backend/postgres"
	"github.com/shortlink/shortlink/backend/testenv"
)

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
