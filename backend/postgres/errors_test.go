package postgres_test

import (
	"context"
	"errors"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/testenv"
)

// Text PostgreSQL cannot store is the caller's mistake: invalid, whichever way the statement
// ran; other errors keep their code (internal), and the driver's error stays inside.
func TestTextTheDatabaseRefuses(t *testing.T) {
	t.Parallel()
	db := testenv.DB(t)
	ctx := context.Background()
	check := func(what string, err error, want string) {
		t.Helper()
		if code := apperr.CodeOf(err); code != want {
			t.Errorf("%s: code %q (%v), want %q", what, code, err, want)
		}
		var pgErr *pgconn.PgError
		if !errors.As(err, &pgErr) {
			t.Errorf("%s: the driver's error is not inside: %v", what, err)
		}
	}
	_, err := db.Pool.Exec(ctx, `SELECT $1::text`, "a\x00b")
	check("exec NUL", err, apperr.Invalid)
	if err == nil || apperr.MessageOf(err) != "request holds text that cannot be stored (such as a NUL character)" {
		t.Errorf("message %q", apperr.MessageOf(err))
	}
	var s string
	check("query row NUL", db.Pool.QueryRow(ctx, `SELECT $1::text`, "a\x00b").Scan(&s), apperr.Invalid)
	check("jsonb \\u0000", db.Pool.QueryRow(ctx, `SELECT ($1::jsonb)->>'a'`, `{"a":"\u0000"}`).Scan(&s), apperr.Invalid)
	tx, err := db.Pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = tx.Rollback(ctx) }()
	_, err = tx.Exec(ctx, `SELECT $1::text`, "a\x00b")
	check("transaction NUL", err, apperr.Invalid)
	_, err = db.Pool.Exec(ctx, `SELECT 1/0`)
	check("division by zero", err, apperr.Internal)
}
