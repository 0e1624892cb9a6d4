// Package postgres implements the stores of every aggregate on PostgreSQL with pgx. Every SQL
// statement of the application lives here, next to the method that runs it.
package postgres

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/migrations"
)

// DB is the connection pool every store shares.
type DB struct {
	Pool *Pool
}

// defaultMaxConns is the pool's size when DATABASE_URL does not set pool_max_conns (pgx's own
// default is the number of CPUs, too few for a server's concurrent requests on a small box).
const defaultMaxConns = 16

// Open connects to PostgreSQL and checks the connection. The pool holds at most
// pool_max_conns connections when the URL sets it (docs/configuration.md), else 16. Its
// sessions run with jit off unless the URL names jit: the service's statements read a few rows
// each, yet a row estimate that is far off (a table not analysed yet, a walk in an index that
// stops early) costs them past jit_above_cost, and compiling took 130 ms where the statement
// took one (summing a day of breakdowns).
func Open(ctx context.Context, url string) (*DB, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("postgres: parse DATABASE_URL: %w", err)
	}
	if !strings.Contains(url, "pool_max_conns=") {
		cfg.MaxConns = defaultMaxConns
	}
	params := cfg.ConnConfig.RuntimeParams // the URL's jit=… and options=-c jit=… land here
	if _, set := params["jit"]; !set && !strings.Contains(params["options"], "jit") {
		params["jit"] = "off"
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("postgres: connect: %w", err)
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("postgres: ping: %w", err)
	}
	return &DB{Pool: &Pool{pool}}, nil
}

// Close closes every connection.
func (db *DB) Close() { db.Pool.Close() }

// Ping reports whether the database answers.
func (db *DB) Ping(ctx context.Context) error { return db.Pool.Ping(ctx) }

// Migrate applies every embedded migration that has not been applied yet. It reads url as Open
// does, so that every DATABASE_URL the server takes works here too: the pool's own settings
// (pool_max_conns, …) are taken out, and a URL of several hosts with target_session_attrs picks
// the server the same way.
func Migrate(ctx context.Context, url string) error {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return fmt.Errorf("migrate: parse DATABASE_URL: %w", err)
	}
	sqlDB := stdlib.OpenDB(*cfg.ConnConfig)
	defer func() { _ = sqlDB.Close() }()
	return migrateDB(ctx, sqlDB)
}

func migrateDB(ctx context.Context, sqlDB *sql.DB) error {
	provider, err := goose.NewProvider(goose.DialectPostgres, sqlDB, migrations.FS)
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	if _, err := provider.Up(ctx); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	return nil
}

// notFound turns "no rows" into the application's not_found error naming what was missing.
func notFound(err error, what string) error {
	if errors.Is(err, pgx.ErrNoRows) {
		return apperr.Missing(what)
	}
	return err
}

// isForeignKeyViolation reports whether err is a foreign-key violation (SQLSTATE 23503).
func isForeignKeyViolation(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code == "23503"
}

// isUniqueViolation reports whether err is a unique-constraint violation (SQLSTATE 23505).
func isUniqueViolation(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code == "23505"
}
