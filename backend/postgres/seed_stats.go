package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// SeedHour is one link's UTC hour as the ingest leaves it in visit_hours.
type SeedHour struct {
	LinkID                int64
	Hour                  time.Time
	Visits, Bots, Uniques int64
}

// SeedKey is a link's people's visits with one key of a breakdown (visit.Dims; the agent key
// is visit.AgentKey), in a UTC hour (visit_key_hours) or on a UTC day (visit_key_days).
type SeedKey struct {
	LinkID int64
	At     time.Time // the hour, or the day's midnight in UTC
	Dim    byte
	Key    string
	Visits int64
}

// LinkHours writes the workspace's links' hours (visit_hours) by COPY: the rows the ingest's
// addRollups would have made of the same visits.
func (s *Seeder) LinkHours(ctx context.Context, workspaceID int64, hours []SeedHour) error {
	_, err := s.db.Pool.CopyFrom(ctx, pgx.Identifier{"visit_hours"},
		[]string{"link_id", "hour", "workspace_id", "visits", "bots", "uniques"},
		pgx.CopyFromSlice(len(hours), func(i int) ([]any, error) {
			h := &hours[i]
			return []any{h.LinkID, h.Hour, workspaceID, h.Visits, h.Bots, h.Uniques}, nil
		}))
	if err != nil {
		return fmt.Errorf("seed: link hours: %w", err)
	}
	return nil
}

// KeyHours writes breakdowns per hour (visit_key_hours) by COPY.
func (s *Seeder) KeyHours(ctx context.Context, keys []SeedKey) error {
	return s.copyKeys(ctx, "visit_key_hours", "hour", keys)
}

// KeyDays writes breakdowns per UTC day (visit_key_days) by COPY, as CompactDays sums them
// from the hours once a day is over.
func (s *Seeder) KeyDays(ctx context.Context, keys []SeedKey) error {
	return s.copyKeys(ctx, "visit_key_days", "day", keys)
}

func (s *Seeder) copyKeys(ctx context.Context, table, at string, keys []SeedKey) error {
	_, err := s.db.Pool.CopyFrom(ctx, pgx.Identifier{table}, []string{"link_id", at, "dim", "key", "visits"},
		pgx.CopyFromSlice(len(keys), func(i int) ([]any, error) {
			k := &keys[i]
			return []any{k.LinkID, k.At, k.Dim, k.Key, k.Visits}, nil
		}))
	if err != nil {
		return fmt.Errorf("seed: %s: %w", table, err)
	}
	return nil
}

// SummedBefore marks the UTC days before day as summed into visit_key_days and the months
// before day's into visit_key_months, summing those months from their days, as CompactDays
// leaves them.
func (s *Seeder) SummedBefore(ctx context.Context, day time.Time) error {
	_, err := s.db.Pool.Exec(ctx, `
		WITH marks AS (
			UPDATE visit_rollups SET key_days_before = $1::date, key_months_before = date_trunc('month', $1::date)::date
			RETURNING key_months_before
		)
		INSERT INTO visit_key_months AS t (link_id, month, dim, key, visits)
		SELECT link_id, date_trunc('month', day)::date, dim, key, sum(visits) FROM visit_key_days
		WHERE day < (SELECT key_months_before FROM marks)
		GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
		ON CONFLICT (link_id, month, dim, key) DO UPDATE SET visits = EXCLUDED.visits`,
		day.UTC().Format(time.DateOnly))
	if err != nil {
		return fmt.Errorf("seed: days summed: %w", err)
	}
	return nil
}
