package postgres_test

import (
	"context"
	"testing"
)

// Migrations 00051 and 00052 go down and up again: the archive column and its index, and the
// shares' table.
func TestLinkToolsMigrationsDownAndUp(t *testing.T) {
	ctx := context.Background()
	db, provider := migratedDB(t)
	exists := func(what, query string) bool {
		t.Helper()
		var ok bool
		if err := db.Pool.QueryRow(ctx, query).Scan(&ok); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		return ok
	}
	column := `SELECT EXISTS (SELECT 1 FROM information_schema.columns WHERE table_name = 'links' AND column_name = 'archived_at')`
	index := `SELECT to_regclass('links_archived') IS NOT NULL`
	table := `SELECT to_regclass('link_shares') IS NOT NULL`
	if !exists("column", column) || !exists("index", index) || !exists("table", table) {
		t.Fatal("migrated without the archive or the shares")
	}
	if _, err := provider.DownTo(ctx, 50); err != nil {
		t.Fatal(err)
	}
	if exists("column", column) || exists("index", index) || exists("table", table) {
		t.Fatal("down kept the archive or the shares")
	}
	if _, err := provider.Up(ctx); err != nil {
		t.Fatal(err)
	}
	if !exists("column", column) || !exists("index", index) || !exists("table", table) {
		t.Fatal("up again without the archive or the shares")
	}
}
