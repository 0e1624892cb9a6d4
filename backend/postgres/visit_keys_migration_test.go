package postgres_test

import (
	"context"
	"maps"
	"testing"
	"time"

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
		hour, visit.AgentKey("ios", "iOS", "Safari"), visit.AgentKey("desktop", "", "Firefox")); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Pool.Exec(ctx, `INSERT INTO visit_key_days (link_id, day, dim, key, visits) VALUES (1, $1::date, 'a', $2, 7)`,
		hour.Format(time.DateOnly), visit.AgentKey("android", "Android", "Chrome")); err != nil {
		t.Fatal(err)
	}
	if _, err := provider.DownTo(ctx, 38); err != nil {
		t.Fatal(err)
	}
	read := func(table string) map[string]int64 {
		t.Helper()
		rows, err := db.Pool.Query(ctx, `SELECT dim::text || ':' || key, visits FROM `+table+` WHERE link_id = 1`)
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
	if got, want := read("visit_key_hours"), map[string]int64{"d:ios": 7, "o:iOS": 3, "b:Safari": 3,
		"d:desktop": 2, "b:Firefox": 2, "c:DE": 5}; !maps.Equal(got, want) {
		t.Errorf("hourly breakdowns %v, want %v", got, want)
	}
	if got, want := read("visit_key_days"), map[string]int64{"d:android": 7, "o:Android": 7, "b:Chrome": 7}; !maps.Equal(got, want) {
		t.Errorf("daily breakdowns %v, want %v", got, want)
	}
}
