// Tests of the reviews (moderation_reviews.go).

package postgres_test

import (
	"context"
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/moderation"
	"github.com/shortlink/shortlink/backend/postgres"
	"github.com/shortlink/shortlink/backend/testenv"
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
