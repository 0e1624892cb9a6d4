package postgres_test

import (
	"context"
	"testing"

	"github.com/shortlink/shortlink/backend/postgres"
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
