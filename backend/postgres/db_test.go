package postgres_test

import (
	"context"
	"net/url"
	"strings"
	"testing"

	"github.com/shortlink/shortlink/backend/postgres"
	"github.com/shortlink/shortlink/backend/testenv"
)

// Every DATABASE_URL the server opens must work for `shortlink migrate` and for the tests' own
// databases: the pool's settings in the query (pgx stdlib would send them to PostgreSQL as
// run-time parameters, which it refuses), and several hosts of which the first is down, tried
// in turn for the one that takes writes.
func TestDatabaseURLForms(t *testing.T) {
	base := testenv.DatabaseURL(t)
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	withQuery := func(extra string) string {
		v := *u
		if v.RawQuery != "" {
			v.RawQuery += "&"
		}
		v.RawQuery += extra
		return v.String()
	}
	// Port 1 of loopback refuses connections: the first host is "down".
	multi := *u
	multi.Host = "127.0.0.1:1," + u.Host
	multiURL := multi.String()
	if multi.RawQuery != "" {
		multiURL = strings.Replace(multiURL, "?", "?target_session_attrs=read-write&", 1)
	} else {
		multiURL += "?target_session_attrs=read-write"
	}
	for _, tc := range []struct {
		name, url string
		maxConns  int32 // the pool's size: the URL's pool_max_conns, else 16
	}{
		{"pool options", withQuery("pool_max_conns=4&pool_min_conns=1&pool_max_conn_lifetime=1h"), 4},
		{"several hosts, read-write", multiURL, 16},
		{"several hosts with pool options", multiURL + "&pool_max_conns=20", 20},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			if err := postgres.Migrate(ctx, tc.url); err != nil {
				t.Fatalf("Migrate(%s): %v", tc.url, err)
			}
			db, err := postgres.Open(ctx, tc.url)
			if err != nil {
				t.Fatalf("Open(%s): %v", tc.url, err)
			}
			defer db.Close()
			if got := db.Pool.Stat().MaxConns(); got != tc.maxConns {
				t.Errorf("the pool holds at most %d connections, want %d", got, tc.maxConns)
			}
			var jit string
			if err := db.Pool.QueryRow(ctx, `SELECT current_setting('jit')`).Scan(&jit); err != nil || jit != "off" {
				t.Errorf("jit %q (%v), want off", jit, err)
			}
			var n int
			if err := db.Pool.QueryRow(ctx, `SELECT count(*) FROM goose_db_version`).Scan(&n); err != nil || n == 0 {
				t.Fatalf("the migrated schema: %d migrations, %v", n, err)
			}
			// The tests' own databases come from such a URL as well.
			t.Setenv("DATABASE_URL", tc.url)
			fresh := testenv.DatabaseURL(t)
			if err := postgres.Migrate(ctx, fresh); err != nil {
				t.Fatalf("Migrate(%s): %v", fresh, err)
			}
		})
	}
}

// TestJITAsTheURLSays: a URL that names jit keeps it as it says; Open turns it off otherwise
// (TestDatabaseURLForms).
func TestJITAsTheURLSays(t *testing.T) {
	t.Parallel()
	base := testenv.DatabaseURL(t)
	sep := "?"
	if strings.Contains(base, "?") {
		sep = "&"
	}
	ctx := context.Background()
	db, err := postgres.Open(ctx, base+sep+"options=-c%20jit%3Don")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var jit string
	if err := db.Pool.QueryRow(ctx, `SELECT current_setting('jit')`).Scan(&jit); err != nil || jit != "on" {
		t.Errorf("jit %q (%v), want on as the URL says", jit, err)
	}
}

// A database with no tables migrates from such a URL too (the first run of a deployment).
func TestMigrateEmptyDatabaseWithPoolOptions(t *testing.T) {
	ctx := context.Background()
	db := testenv.DB(t)
	name := "empty_" + strings.ReplaceAll(t.Name(), "/", "_")
	name = strings.ToLower(name)
	if _, err := db.Pool.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _, _ = db.Pool.Exec(context.Background(), "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)") })
	u, _ := url.Parse(testenv.DatabaseURL(t))
	u.Path = "/" + name
	q := u.Query()
	q.Set("pool_max_conns", "16")
	u.RawQuery = q.Encode()
	if err := postgres.Migrate(ctx, u.String()); err != nil {
		t.Fatalf("Migrate(%s): %v", u, err)
	}
	again, err := postgres.Open(ctx, u.String())
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	var n int
	if err := again.Pool.QueryRow(ctx, `SELECT count(*) FROM goose_db_version`).Scan(&n); err != nil || n == 0 {
		t.Fatalf("the migrated schema: %d migrations, %v", n, err)
	}
}
