package testenv

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Conn is one connection to a PostgreSQL database, for a test that reads or changes it behind
// the stores' back: a row checked, a clock moved, a table locked from a session of its own. Its
// statements return the driver's errors as they are (NoRows tells "no rows").
type Conn struct {
	conn *pgx.Conn
}

// Connect opens a Conn on the database at url, read as the server reads a DATABASE_URL.
func Connect(ctx context.Context, url string) (*Conn, error) {
	c, err := connect(ctx, url)
	if err != nil {
		return nil, err
	}
	return &Conn{conn: c}, nil
}

// OpenConn opens a Conn on the database at url for t, closed when t ends; t fails when it
// cannot connect.
func OpenConn(t testing.TB, url string) *Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := Connect(ctx, url)
	if err != nil {
		t.Fatalf("connect to PostgreSQL: %v", err)
	}
	t.Cleanup(func() { _ = c.Close(context.Background()) })
	return c
}

// Exec runs a statement.
func (c *Conn) Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	return c.conn.Exec(ctx, sql, args...)
}

// Query runs a query.
func (c *Conn) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	return c.conn.Query(ctx, sql, args...)
}

// QueryRow runs a query of at most one row.
func (c *Conn) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	return c.conn.QueryRow(ctx, sql, args...)
}

// Begin starts a transaction on the connection.
func (c *Conn) Begin(ctx context.Context) (pgx.Tx, error) { return c.conn.Begin(ctx) }

// Close closes the connection; closing it again does nothing.
func (c *Conn) Close(ctx context.Context) error { return c.conn.Close(ctx) }

// NoRows says whether err is the "no rows" of a query of one row that found none, from a Conn
// or a postgres.Pool.
func NoRows(err error) bool { return errors.Is(err, pgx.ErrNoRows) }

// QuoteIdentifier quotes name as an SQL identifier (a table's or a column's), for a statement a
// test builds.
func QuoteIdentifier(name string) string { return pgx.Identifier{name}.Sanitize() }

// PoolOf is what the driver reads from a DATABASE_URL for a pool: its (first) host and the
// pool's maximum size (pool_max_conns, else the driver's default).
func PoolOf(url string) (host string, maxConns int32, err error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return "", 0, err
	}
	return cfg.ConnConfig.Host, cfg.MaxConns, nil
}
