package postgres_test

import (
	"context"
	"maps"
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/postgres"
	"github.com/shortlink/shortlink/backend/visit"
)

// Migration 00039 joins a visit's device, system and browser into one agent key; undone, it
// splits the agent rows back into the three breakdowns, added to the rows of the same keys.
func TestMigrationSplitsAgentKeysWhenUndone(t *testing.T) {
	ctx := context.Background()
	db, provider := migratedDB(t)
	hour := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	if _, err := db.Pool.Exec(ctx, `INSERT INTO visit_key_hours (link_id, hour, dim, key, visits) VALUES
			(1, $1, 'a', $2, 3), (1, $1, 'a', $3, 2), (1, $1, 'd', 'ios', 4), (1, $1, 'c', 'DE', 5)`,
		hour, visit.AgentKey("ios", "iOS", "Safari", ""), visit.AgentKey("desktop", "", "Firefox", "")); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Pool.Exec(ctx, `INSERT INTO visit_key_days (link_id, day, dim, key, visits) VALUES (1, $1::date, 'a', $2, 7)`,
		hour.Format(time.DateOnly), visit.AgentKey("android", "Android", "Chrome", "")); err != nil {
		t.Fatal(err)
	}
	if _, err := provider.DownTo(ctx, 38); err != nil {
		t.Fatal(err)
	}
	read := keysOf(t, db)
	if got, want := read("visit_key_hours"), map[string]int64{"d:ios": 7, "o:iOS": 3, "b:Safari": 3,
		"d:desktop": 2, "b:Firefox": 2, "c:DE": 5}; !maps.Equal(got, want) {
		t.Errorf("hourly breakdowns %v, want %v", got, want)
	}
	if got, want := read("visit_key_days"), map[string]int64{"d:android": 7, "o:Android": 7, "b:Chrome": 7}; !maps.Equal(got, want) {
		t.Errorf("daily breakdowns %v, want %v", got, want)
	}
}

// Migration 00040 makes a visit's in-app browser the fourth part of its agent key; undone, the
// in-app browsers go back to rows of their own and the agent keys to three parts, added to
// the rows of the same keys.
func TestMigrationSplitsInAppKeysWhenUndone(t *testing.T) {
	ctx := context.Background()
	db, provider := migratedDB(t)
	hour := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	if _, err := db.Pool.Exec(ctx, `INSERT INTO visit_key_hours (link_id, hour, dim, key, visits) VALUES
			(1, $1, 'a', $2, 3), (1, $1, 'a', $3, 2), (1, $1, 'a', $4, 1), (1, $1, 'i', 'wechat', 4)`,
		hour, visit.AgentKey("android", "Android", "Chrome", "wechat"), visit.AgentKey("android", "Android", "Chrome", ""),
		visit.AgentKey("", "", "", "instagram")); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Pool.Exec(ctx, `INSERT INTO visit_key_days (link_id, day, dim, key, visits) VALUES (1, $1::date, 'a', $2, 7)`,
		hour.Format(time.DateOnly), visit.AgentKey("ios", "iOS", "Safari", "instagram")); err != nil {
		t.Fatal(err)
	}
	if _, err := provider.DownTo(ctx, 39); err != nil {
		t.Fatal(err)
	}
	read := keysOf(t, db)
	if got, want := read("visit_key_hours"), map[string]int64{"a:" + visit.AgentKey("android", "Android", "Chrome", ""): 5,
		"a:" + visit.AgentSep + visit.AgentSep: 1, "i:wechat": 7, "i:instagram": 1}; !maps.Equal(got, want) {
		t.Errorf("hourly breakdowns %v, want %v", got, want)
	}
	if got, want := read("visit_key_days"), map[string]int64{"a:" + visit.AgentKey("ios", "iOS", "Safari", ""): 7,
		"i:instagram": 7}; !maps.Equal(got, want) {
		t.Errorf("daily breakdowns %v, want %v", got, want)
	}
}

// keysOf reads the breakdown rows of link 1 in a table, as dim:key and visits.
func keysOf(t *testing.T, db *postgres.DB) func(table string) map[string]int64 {
	return func(table string) map[string]int64 {
		t.Helper()
		rows, err := db.Pool.Query(context.Background(), `SELECT dim::text || ':' || key, visits FROM `+table+` WHERE link_id = 1`)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]int64{}
		for rows.Next() {
			var k string
			var n int64
			if err := rows.Scan(&k, &n); err != nil {
				t.Fatal(err)
			}
			got[k] = n
		}
		return got
	}
}
