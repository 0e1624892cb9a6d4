// Package testenv gives tests their own migrated PostgreSQL database and Redis namespace on the
// servers that `make test` starts (DATABASE_URL, REDIS_URL).
package testenv

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"net/url"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/shortlink/shortlink/backend/postgres"
	"github.com/shortlink/shortlink/backend/redis"
	"github.com/shortlink/shortlink/migrations"
)

// templatePrefix names the migrated template databases tests copy; each is named by a hash of
// the migrations it holds (templateName), so a new or changed migration makes a new template
// rather than being skipped on a server that kept an older one.
const templatePrefix = "shortlink_test_template_"

// DatabaseURL creates a fresh migrated database for t, dropped when t ends, and returns its URL.
func DatabaseURL(t testing.TB) string {
	t.Helper()
	base := NeedEnv(t, "DATABASE_URL", "PostgreSQL", "`make test` starts it")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	admin, err := connect(ctx, withDB(t, base, "postgres"))
	if err != nil {
		t.Fatalf("connect to PostgreSQL: %v", err)
	}
	defer func() { _ = admin.Close(ctx) }()
	template := templateName(t)
	// Packages run in parallel: one lock makes sure the template is built once and never
	// copied while it is being built.
	if _, err := admin.Exec(ctx, "SELECT pg_advisory_lock(727274)"); err != nil {
		t.Fatalf("lock: %v", err)
	}
	defer func() { _, _ = admin.Exec(context.Background(), "SELECT pg_advisory_unlock(727274)") }()
	var exists bool
	if err := admin.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", template).Scan(&exists); err != nil {
		t.Fatalf("look for template: %v", err)
	}
	if !exists {
		if _, err := admin.Exec(ctx, "CREATE DATABASE "+template); err != nil {
			t.Fatalf("create template: %v", err)
		}
		if err := postgres.Migrate(ctx, withDB(t, base, template)); err != nil {
			_, _ = admin.Exec(ctx, "DROP DATABASE "+template)
			t.Fatalf("migrate template: %v", err)
		}
	}
	name := "test_" + randomHex(6)
	if _, err := admin.Exec(ctx, fmt.Sprintf("CREATE DATABASE %s TEMPLATE %s", name, template)); err != nil {
		t.Fatalf("create test database: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if c, err := connect(ctx, withDB(t, base, "postgres")); err == nil {
			_, _ = c.Exec(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
			_ = c.Close(ctx)
		}
	})
	return withDB(t, base, name)
}

// DB opens a pool on a fresh migrated database for t.
func DB(t testing.TB) *postgres.DB {
	t.Helper()
	db, err := postgres.Open(context.Background(), DatabaseURL(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(db.Close)
	return db
}

// RedisURL is the Redis server of the test run.
func RedisURL(t testing.TB) string {
	t.Helper()
	return NeedEnv(t, "REDIS_URL", "Redis", "`make test` starts it")
}

// RedisPrefix is a key namespace of t's own; its keys are deleted when t ends.
func RedisPrefix(t testing.TB) string {
	t.Helper()
	prefix := "test:" + randomHex(6) + ":"
	url := RedisURL(t)
	t.Cleanup(func() {
		ctx := context.Background()
		c, err := redis.Open(ctx, url, prefix)
		if c == nil {
			t.Error(err)
			return
		}
		defer func() { _ = c.Close() }()
		_ = c.DeleteAll(ctx)
	})
	return prefix
}

// Redis returns a client of the test run's Redis whose keys are in a namespace of t's own, and
// that namespace's prefix.
func Redis(t testing.TB) (*redis.Client, string) {
	t.Helper()
	prefix := RedisPrefix(t)
	c, err := redis.Open(context.Background(), RedisURL(t), prefix)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c, prefix
}

// RedisInspector opens a redis.Inspector on the Redis of url, to look into or change keys
// named in full; it closes when t ends.
func RedisInspector(t testing.TB, url string) *redis.Inspector {
	t.Helper()
	i, err := redis.OpenInspector(url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = i.Close() })
	return i
}

// connect opens one connection on a DATABASE_URL as the server reads it: the pool's settings
// (pool_max_conns, …) are not sent to PostgreSQL, and several hosts are tried in turn.
func connect(ctx context.Context, url string) (*pgx.Conn, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, err
	}
	return pgx.ConnectConfig(ctx, cfg.ConnConfig)
}

// withDB is base with the database name; a URL of several hosts keeps them all.
func withDB(t testing.TB, base, name string) string {
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("DATABASE_URL: %v", err)
	}
	u.Path = "/" + name
	return u.String()
}

// templateName is the template database's name for the migrations embedded in this binary.
func templateName(t testing.TB) string {
	h := sha256.New()
	err := fs.WalkDir(migrations.FS, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := migrations.FS.ReadFile(path)
		if err != nil {
			return err
		}
		_, _ = fmt.Fprintf(h, "%s\x00%d\x00", path, len(b))
		h.Write(b)
		return nil
	})
	if err != nil {
		t.Fatalf("read migrations: %v", err)
	}
	return templatePrefix + hex.EncodeToString(h.Sum(nil))[:16]
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
