package postgres_test

import (
	"context"
	"testing"

	"github.com/shortlink/shortlink/backend/moderation"
	"github.com/shortlink/shortlink/backend/postgres"
	"github.com/shortlink/shortlink/backend/testenv"
)

// Notes moderators wrote before decisions had a reason of their own were shown to owners as
// the reason; migration 00022 makes them private: the owner's reason and the appeal's
// resolution lose them, the audit log keeps them, and the scorer's reasons stay.
func TestMigrationKeepsOldNotesPrivate(t *testing.T) {
	ctx := context.Background()
	db, provider := migratedDB(t)
	if _, err := provider.DownTo(ctx, 21); err != nil {
		t.Fatal(err)
	}
	ws := newWorkspace(t, db)
	// Link 1: banned by a moderator with a note, appealed and resolved with it. Link 2: flagged
	// by the worker, its reason the scorer's.
	for _, q := range []string{
		`INSERT INTO link_moderation (link_id, workspace_id, state, category, reason) VALUES
			(1, $1, 'banned', 'phishing', 'same kit as case 4411'), (2, $1, 'flagged', 'spam', 'a link farm')`,
		`INSERT INTO moderation_decisions (link_id, workspace_id, action, state, note) VALUES
			(1, $1, 'flag', 'flagged', ''), (1, $1, 'ban', 'banned', 'same kit as case 4411'), (2, $1, 'flag', 'flagged', '')`,
		`INSERT INTO moderation_appeals (link_id, workspace_id, message, resolved_at, resolution) VALUES
			(1, $1, 'mine', now(), 'ban: same kit as case 4411')`,
	} {
		if _, err := db.Pool.Exec(ctx, q, ws); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := provider.UpTo(ctx, 22); err != nil {
		t.Fatal(err)
	}
	var reason1, reason2, resolution, note string
	if err := db.Pool.QueryRow(ctx, `SELECT
		(SELECT reason FROM link_moderation WHERE link_id = 1), (SELECT reason FROM link_moderation WHERE link_id = 2),
		(SELECT resolution FROM moderation_appeals WHERE link_id = 1),
		(SELECT note FROM moderation_decisions WHERE link_id = 1 AND action = 'ban')`).Scan(&reason1, &reason2, &resolution, &note); err != nil {
		t.Fatal(err)
	}
	if reason1 != "" || reason2 != "a link farm" || resolution != "ban" || note != "same kit as case 4411" {
		t.Errorf("after the migration: reasons %q %q, resolution %q, note %q", reason1, reason2, resolution, note)
	}
	if _, err := provider.Up(ctx); err != nil {
		t.Fatal(err)
	}
}

// The appealed tab pages through open appeals, the latest first, each with its appeal and
// whose link it is; the counts count each tab, deleted links left out.
func TestModerationAppealedAndCounts(t *testing.T) {
	ctx := context.Background()
	db := testenv.DB(t)
	ws := newWorkspace(t, db)
	for _, q := range []string{
		`INSERT INTO links (id, workspace_id, key, url, url_hash) SELECT i, $1, 'k'||i, 'https://e.com/'||i, i FROM generate_series(1, 5) i`,
		`INSERT INTO link_moderation (link_id, workspace_id, state) SELECT i, $1, CASE WHEN i <= 3 THEN 'banned' ELSE 'flagged' END
			FROM generate_series(1, 5) i`,
		`INSERT INTO moderation_appeals (link_id, workspace_id, message, created_at)
			SELECT i, $1, 'appeal '||i, '2026-01-01'::timestamptz + i * interval '1 hour' FROM generate_series(1, 4) i`,
		`UPDATE moderation_appeals SET resolved_at = now(), resolution = 'ban' WHERE link_id = 4 AND workspace_id = $1`,
		`INSERT INTO visit_totals (link_id, workspace_id, visits) VALUES (2, $1, 9)`,
	} {
		if _, err := db.Pool.Exec(ctx, q, ws); err != nil {
			t.Fatal(err)
		}
	}
	desk := moderation.NewDesk(postgres.NewModeration(db), nil, nil)
	page, next, err := desk.Queue(ctx, moderation.Appealed, moderation.QueueCursor{}, 2)
	if err != nil || len(page) != 2 || next == nil || page[0].Link.ID != 3 || page[1].Link.ID != 2 ||
		page[1].Appeal == nil || page[1].Appeal.Message != "appeal 2" || page[1].Visits != 9 || page[1].WorkspaceName != "w" {
		t.Fatalf("first page: %+v %v %v", page, next, err)
	}
	page, next, err = desk.Queue(ctx, moderation.Appealed, *next, 2)
	if err != nil || len(page) != 1 || next != nil || page[0].Link.ID != 1 {
		t.Fatalf("second page: %+v %v %v", page, next, err)
	}
	if _, err := db.Pool.Exec(ctx, `DELETE FROM links WHERE id = 5`); err != nil {
		t.Fatal(err)
	}
	c, err := desk.Counts(ctx)
	if err != nil || c != (moderation.Counts{Banned: 3, Flagged: 1, Appealed: 3}) {
		t.Errorf("counts: %+v %v", c, err)
	}
}
