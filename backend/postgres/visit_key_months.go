package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"
)

// monthsSummed is, over visit_rollups, the first month whose breakdowns are not summed into
// visit_key_months (migration 00065): never past the month of the first day not summed, so a
// month is read from its own row only once every day of it is summed.
const monthsSummed = `least(key_months_before, date_trunc('month', key_days_before)::date)`

// sumMonth sums the daily breakdowns of the first month not summed yet into its monthly rows
// when every day of it is summed (replacing what late visits added to them before), in the
// transaction of CompactDays that holds the batches back: a batch stored after it adds its
// late visits to the month itself. No visit waits for it: it runs once a month, reading the
// month's days through the BRIN index on visit_key_days.day.
func sumMonth(ctx context.Context, tx pgx.Tx) error {
	_, err := tx.Exec(ctx, `
		WITH m AS (
			SELECT `+monthsSummed+` AS month, key_days_before FROM visit_rollups
		), due AS (
			SELECT month, (month + interval '1 month')::date AS next FROM m WHERE (month + interval '1 month')::date <= key_days_before
		), summed AS (
			INSERT INTO visit_key_months AS t (link_id, month, dim, key, visits)
			SELECT d.link_id, due.month, d.dim, d.key, sum(d.visits) FROM visit_key_days d, due
			WHERE d.day >= due.month AND d.day < due.next
			GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
			ON CONFLICT (link_id, month, dim, key) DO UPDATE SET visits = EXCLUDED.visits
		)
		UPDATE visit_rollups SET key_months_before = due.next FROM due`)
	return err
}
