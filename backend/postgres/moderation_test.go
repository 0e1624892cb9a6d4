// Tests of the moderation store that span its files: the ingest's review milestones.

package postgres_test

import (
	"context"
	"testing"

	"github.com/shortlink/shortlink/backend/moderation"
	"github.com/shortlink/shortlink/backend/testenv"
)

// TestVisitsMilestoneMatchesGo: the ingest's SQL rule of a review at a power of two of
// people's visits is moderation.Milestone, for every step from 0 to 300 visits by up to 70 at
// once, and near the top of the range.
func TestVisitsMilestoneMatchesGo(t *testing.T) {
	db := testenv.DB(t)
	rows, err := db.Pool.Query(context.Background(), `
		SELECT b, a, visits_milestone(b, a) FROM generate_series(0, 300) b, generate_series(b, b + 70) a
		UNION ALL
		SELECT b, a, visits_milestone(b, a) FROM (VALUES
			(4611686018427387903::bigint, 4611686018427387904::bigint),
			(4611686018427387904, 9223372036854775807), (8, 4)) v(b, a)`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var before, after int64
		var got bool
		if err := rows.Scan(&before, &after, &got); err != nil {
			t.Fatal(err)
		}
		n++
		if want := moderation.Milestone(before, after); got != want {
			t.Errorf("visits_milestone(%d, %d) = %v, moderation.Milestone says %v", before, after, got, want)
		}
	}
	if err := rows.Err(); err != nil || n < 20000 {
		t.Fatalf("%d pairs compared: %v", n, err)
	}
}
