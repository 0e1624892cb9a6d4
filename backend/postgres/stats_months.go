package postgres

import (
	"fmt"
	"time"

	"github.com/shortlink/shortlink/backend/stats"
)

// monthsWithin is the whole UTC months inside the whole UTC days days: empty when it holds none.
func monthsWithin(days stats.Span) stats.Span {
	from, to := days.From.UTC(), days.To.UTC()
	first := time.Date(from.Year(), from.Month(), 1, 0, 0, 0, 0, time.UTC)
	if first.Before(from) {
		first = first.AddDate(0, 1, 0)
	}
	last := time.Date(to.Year(), to.Month(), 1, 0, 0, 0, 0, time.UTC)
	if !first.Before(last) {
		return stats.Span{}
	}
	return stats.Span{From: first, To: last}
}

// keyDays are the statements of LinkKeys reading the breakdowns of the UTC days [from, to)
// (SQL expressions of dates): the days summed from visit_key_days, the others from the hours.
func keyDays(from, to string) []string {
	return []string{
		fmt.Sprintf(`SELECT dim, key, visits FROM visit_key_days
			WHERE link_id = $1 AND day >= %s
				AND day < least(%s, (SELECT key_days_before FROM visit_rollups))`, from, to),
		fmt.Sprintf(`SELECT dim, key, visits FROM visit_key_hours
			WHERE link_id = $1
				AND hour >= greatest(%s, (SELECT key_days_before FROM visit_rollups))::timestamp AT TIME ZONE 'UTC'
				AND hour < %s::timestamp AT TIME ZONE 'UTC'`, from, to),
	}
}
