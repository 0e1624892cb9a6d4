package postgres_test

import (
	"bytes"
	"context"
	"maps"
	"slices"
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

// Migration 00041 keeps a link's people of a day in one set of 8-byte hashes instead of a row
// each: the hashes stored before go into the sets, sorted and once each, and a link day counted
// in a sketch gets no set of hashes. Undone, the sets go back to a row a person.
func TestMigrationGathersVisitorSets(t *testing.T) {
	ctx := context.Background()
	db, provider := migratedDB(t)
	if _, err := provider.DownTo(ctx, 40); err != nil {
		t.Fatal(err)
	}
	day := time.Now().UTC().Truncate(24 * time.Hour)
	if _, err := db.Pool.Exec(ctx, `SELECT visits_create_partitions($1::date, 1)`, day.Format(time.DateOnly)); err != nil {
		t.Fatal(err)
	}
	hash := func(b byte) []byte { return []byte{b, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16} }
	if _, err := db.Pool.Exec(ctx, `INSERT INTO visitors (link_id, day, visitor, hour) VALUES
			(1, $1, $2, $4), (1, $1, $3, $4), (1, $1, '\x07', $4), (2, $1, $2, $4)`,
		day.Format(time.DateOnly), hash(9), hash(4), day); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Pool.Exec(ctx, `INSERT INTO visitor_sketches (link_id, day, sketch) VALUES (2, $1::date, '\x00')`, day.Format(time.DateOnly)); err != nil {
		t.Fatal(err)
	}
	if _, err := provider.UpTo(ctx, 41); err != nil {
		t.Fatal(err)
	}
	sets := map[int64][]byte{}
	rows, err := db.Pool.Query(ctx, `SELECT link_id, hashes FROM visitor_sets WHERE day = $1::date`, day.Format(time.DateOnly))
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var id int64
		var hashes []byte
		if err := rows.Scan(&id, &hashes); err != nil {
			t.Fatal(err)
		}
		sets[id] = hashes
	}
	want := slices.Concat(hash(4)[:8], []byte{7, 0, 0, 0, 0, 0, 0, 0}, hash(9)[:8])
	if got, ok := sets[2]; len(sets) != 2 || !bytes.Equal(sets[1], want) || !ok || got != nil {
		t.Errorf("sets %x, want link 1's %x and link 2's NULL", sets, want)
	}
	if _, err := provider.DownTo(ctx, 40); err != nil {
		t.Fatal(err)
	}
	var people int
	if err := db.Pool.QueryRow(ctx, `SELECT count(*) FROM visitors WHERE link_id = 1 AND day = $1::date AND length(visitor) = 8`, day.Format(time.DateOnly)).Scan(&people); err != nil || people != 3 {
		t.Errorf("undone: link 1 has %d people of 8-byte hashes (%v), want 3", people, err)
	}
}
