package postgres

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/shortlink/shortlink/backend/apperr"
)

// badText are the SQLSTATE codes of text PostgreSQL cannot store: a NUL byte, or a byte
// sequence that is not UTF-8 (22021), and \u0000 in JSON (22P05).
var badText = map[string]bool{"22021": true, "22P05": true}

// formatError turns the database's errors that are the caller's doing into the service's
// codes: text it cannot store (that no validation caught) is invalid. Every other error is
// returned as it is. The driver's error stays inside, for the logs and for checks here.
func formatError(err error) error {
	var pgErr *pgconn.PgError
	if err == nil || !errors.As(err, &pgErr) || !badText[pgErr.Code] {
		return err
	}
	var app *apperr.Error
	if errors.As(err, &app) {
		return err // translated already
	}
	return &dbError{
		app:   apperr.Errorf(apperr.Invalid, "request holds text that cannot be stored (such as a NUL character)").For("text_unstorable", ""),
		cause: err,
	}
}

// dbError is a database error with the service's code it stands for.
type dbError struct {
	app   *apperr.Error
	cause error
}

func (e *dbError) Error() string   { return e.app.Error() + ": " + e.cause.Error() }
func (e *dbError) Unwrap() []error { return []error{e.app, e.cause} }

// Pool is the connection pool; every error of its statements, and of the transactions and rows
// it hands out, goes through formatError.
type Pool struct {
	*pgxpool.Pool
}

// Exec runs a statement.
func (p *Pool) Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	tag, err := p.Pool.Exec(ctx, sql, args...)
	return tag, formatError(err)
}

// Query runs a query.
func (p *Pool) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	rows, err := p.Pool.Query(ctx, sql, args...)
	if err != nil {
		return nil, formatError(err)
	}
	return formattedRows{rows}, nil
}

// QueryRow runs a query of at most one row.
func (p *Pool) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	return formattedRow{p.Pool.QueryRow(ctx, sql, args...)}
}

// Begin starts a transaction.
func (p *Pool) Begin(ctx context.Context) (pgx.Tx, error) {
	tx, err := p.Pool.Begin(ctx)
	if err != nil {
		return nil, formatError(err)
	}
	return formattedTx{tx}, nil
}

// formattedTx is a transaction whose errors go through formatError.
type formattedTx struct{ pgx.Tx }

func (t formattedTx) Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	tag, err := t.Tx.Exec(ctx, sql, args...)
	return tag, formatError(err)
}

func (t formattedTx) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	rows, err := t.Tx.Query(ctx, sql, args...)
	if err != nil {
		return nil, formatError(err)
	}
	return formattedRows{rows}, nil
}

func (t formattedTx) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	return formattedRow{t.Tx.QueryRow(ctx, sql, args...)}
}

func (t formattedTx) Commit(ctx context.Context) error { return formatError(t.Tx.Commit(ctx)) }

// formattedRows are rows whose error goes through formatError.
type formattedRows struct{ pgx.Rows }

func (r formattedRows) Err() error { return formatError(r.Rows.Err()) }

// formattedRow is a row whose error goes through formatError.
type formattedRow struct{ row pgx.Row }

func (r formattedRow) Scan(dest ...any) error { return formatError(r.row.Scan(dest...)) }
