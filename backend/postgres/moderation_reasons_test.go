package postgres_test

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"

	"github.com/shortlink/shortlink/backend/postgres"
	"github.com/shortlink/shortlink/backend/testenv"
	"github.com/shortlink/shortlink/migrations"
)

// Notes moderators wrote before decisions had a reason of their own were shown to owners as
// the reason; migration 00022 makes them private: the owner's reason and the appeal's
// resolution lose them, the audit log keeps them, and the scorer's reasons stay.
func TestMigrationKeepsOldNotesPrivate(t *testing.T) {
	ctx := context.Background()
	url := testenv.DatabaseURL(t)
	db, err := postgres.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(db.Close)
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		t.Fatal(err)
	}
	sqlDB := stdlib.OpenDB(*cfg)
	t.Cleanup(func() { _ = sqlDB.Close() })
	provider, err := goose.NewProvider(goose.DialectPostgres, sqlDB, migrations.FS)
	if err != nil {
		t.Fatal(err)
	}
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
