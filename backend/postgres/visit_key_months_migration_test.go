package postgres_test

import (
	"context"
	"testing"
	"time"
)

// Migration 00065 sums into visit_key_months the months whose days were all summed when it
// ran, and leaves the month of the first day not summed to CompactDays.
func TestMigrationSumsSummedMonths(t *testing.T) {
	ctx := context.Background()
	db, provider := migratedDB(t)
	if _, err := provider.DownTo(ctx, 64); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Pool.Exec(ctx, `UPDATE visit_rollups SET key_days_before = '2026-03-15'`); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Pool.Exec(ctx, `INSERT INTO visit_key_days (link_id, day, dim, key, visits) VALUES
			(1, '2026-01-31', 'c', 'DE', 2), (1, '2026-02-01', 'c', 'DE', 3), (1, '2026-02-28', 'c', 'DE', 4),
			(1, '2026-02-10', 'r', 't.co', 1), (2, '2026-02-10', 'c', 'DE', 9), (1, '2026-03-01', 'c', 'DE', 5)`); err != nil {
		t.Fatal(err)
	}
	if _, err := provider.Up(ctx); err != nil {
		t.Fatal(err)
	}
	var before time.Time
	if err := db.Pool.QueryRow(ctx, `SELECT key_months_before::timestamptz FROM visit_rollups`).Scan(&before); err != nil ||
		!before.Equal(time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)) {
		t.Fatalf("months summed before %v (%v), want March", before, err)
	}
	rows, err := db.Pool.Query(ctx, `SELECT link_id || ' ' || to_char(month, 'YYYY-MM-DD') || ' ' || dim::text || ':' || key || ' ' || visits
		FROM visit_key_months ORDER BY 1`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var got []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		got = append(got, s)
	}
	want := []string{"1 2026-01-01 c:DE 2", "1 2026-02-01 c:DE 7", "1 2026-02-01 r:t.co 1", "2 2026-02-01 c:DE 9"}
	if len(got) != len(want) {
		t.Fatalf("monthly rows %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("monthly rows %q, want %q", got, want)
			break
		}
	}
}
