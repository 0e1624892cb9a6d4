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

// newWorkspace inserts a workspace and answers its ID.
func newWorkspace(t *testing.T, db *postgres.DB) int64 {
	t.Helper()
	var ws int64
	if err := db.Pool.QueryRow(context.Background(), `INSERT INTO workspaces (name) VALUES ('w') RETURNING id`).Scan(&ws); err != nil {
		t.Fatal(err)
	}
	return ws
}

// migratedDB is a fresh migrated database for a test of the migrations themselves: the
// database, and the migrations' provider over it to go down and up again.
func migratedDB(t *testing.T) (*postgres.DB, *goose.Provider) {
	t.Helper()
	url := testenv.DatabaseURL(t)
	db, err := postgres.Open(context.Background(), url)
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
	return db, provider
}
