package postgres

import (
	"context"
	"fmt"
	"iter"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/shortlink/shortlink/backend/link"
	"github.com/shortlink/shortlink/backend/stats"
)

// StatsStore implements stats.Store on the visit rollups (migrations 00011 and 00012) and the
// raw visits.
type StatsStore struct{ db *DB }

// NewStatsStore returns the PostgreSQL statistics store.
func NewStatsStore(db *DB) *StatsStore { return &StatsStore{db: db} }

var _ stats.Store = (*StatsStore)(nil)

// LinkHours implements stats.Store: the primary key (link_id, hour) reads the range in order.
func (s *StatsStore) LinkHours(ctx context.Context, workspaceID, linkID int64, from, to time.Time) ([]stats.Hour, error) {
	rows, err := s.db.Pool.Query(ctx, `
		SELECT hour, visits, bots, uniques FROM visit_hours
		WHERE link_id = $1 AND hour >= $2 AND hour < $3 AND workspace_id = $4
		ORDER BY hour`, linkID, from, to, workspaceID)
	if err != nil {
		return nil, fmt.Errorf("read link hours: %w", err)
	}
	out, err := collect(rows, func(r pgx.Rows) (stats.Hour, error) {
		var h stats.Hour
		err := r.Scan(&h.Start, &h.Visits, &h.Bots, &h.Uniques)
		return h, err
	})
	if err != nil {
		return nil, fmt.Errorf("read link hours: %w", err)
	}
	return out, nil
}

// LinkKeys implements stats.Store: the whole days from visit_key_days as far as they are summed
// (visit_rollups), the hours of the days not summed yet and of the ends from visit_key_hours,
// summed per key and ranked per dimension in one statement (one snapshot: a day is read from
// one table or the other, never both). Keys are ordered bytewise (COLLATE "C") so that ties
// rank the same whatever the database's locale.
func (s *StatsStore) LinkKeys(ctx context.Context, linkID int64, days stats.Span, hours []stats.Span, limit int) ([]stats.KeyCount, error) {
	args := []any{linkID, limit}
	var parts []string
	if days.From.Before(days.To) {
		param := func(t time.Time) string {
			args = append(args, t.UTC().Format(time.DateOnly))
			return fmt.Sprintf("$%d::date", len(args))
		}
		from, to := param(days.From), param(days.To)
		months := monthsWithin(days)
		if !months.From.Before(months.To) {
			parts = append(parts, keyDays(from, to)...)
		} else {
			// The whole months summed from visit_key_months, the days around them from the
			// days (or the hours of the days not summed yet).
			mFrom, mTo := param(months.From), param(months.To)
			summedTo := fmt.Sprintf("least(%s, (SELECT %s FROM visit_rollups))", mTo, monthsSummed)
			parts = append(parts, fmt.Sprintf(`SELECT dim, key, visits FROM visit_key_months
			WHERE link_id = $1 AND month >= %s AND month < %s`, mFrom, summedTo))
			parts = append(parts, keyDays(from, mFrom)...)
			parts = append(parts, keyDays(fmt.Sprintf("greatest(%s, %s)", mFrom, summedTo), to)...)
		}
	}
	for _, h := range hours {
		if !h.From.Before(h.To) {
			continue
		}
		args = append(args, h.From, h.To)
		parts = append(parts, fmt.Sprintf(`SELECT dim, key, visits FROM visit_key_hours
			WHERE link_id = $1 AND hour >= $%d AND hour < $%d`, len(args)-1, len(args)))
	}
	if len(parts) == 0 {
		return nil, nil
	}
	// A plan of its own each time (an unnamed statement): a generic plan misjudges how many
	// rows a link's days hold and groups them three times slower.
	//
	// The agent keys (visit.AgentKey) are summed first, then split into the device, system,
	// browser and in-app browser they hold (chr(31) is visit.AgentSep; a key of three parts
	// has no in-app browser), and added to the rows of those stored apart before them.
	rows, err := s.db.Pool.Query(ctx, `
		WITH k AS (
			SELECT dim, key, sum(visits)::bigint AS visits
			FROM (`+strings.Join(parts, "\n\t\t\t\tUNION ALL\n")+`) k
			GROUP BY dim, key
		), split AS (
			SELECT dim, key, visits FROM k WHERE dim <> 'a'
			UNION ALL
			SELECT p.dim, split_part(k.key, chr(31), p.n), k.visits
			FROM k, (VALUES ('d'::"char", 1), ('o'::"char", 2), ('b'::"char", 3), ('i'::"char", 4)) AS p (dim, n)
			WHERE k.dim = 'a'
		)
		SELECT dim, key, visits FROM (
			SELECT dim, key, visits,
				row_number() OVER (PARTITION BY dim ORDER BY visits DESC, key COLLATE "C") AS rank
			FROM (SELECT dim, key, sum(visits)::bigint AS visits FROM split WHERE key <> '' GROUP BY dim, key) g
		) r
		WHERE rank <= $2
		ORDER BY dim, rank`, append([]any{pgx.QueryExecModeExec}, args...)...)
	if err != nil {
		return nil, fmt.Errorf("read link breakdowns: %w", err)
	}
	out, err := collect(rows, func(r pgx.Rows) (stats.KeyCount, error) {
		var k stats.KeyCount
		var dim byte
		err := r.Scan(&dim, &k.Key, &k.Visits)
		k.Dim = stats.Dim(dim)
		return k, err
	})
	if err != nil {
		return nil, fmt.Errorf("read link breakdowns: %w", err)
	}
	return out, nil
}

// Activity implements stats.Store with three statements: the workspace hours
// (workspace_visit_hours), the links created (the BRIN index on links.created_at) and the
// top links (visit_hours by workspace and hour, or by hour alone for every workspace).
func (s *StatsStore) Activity(ctx context.Context, scope stats.Scope, from, to time.Time, top int) (*stats.Activity, error) {
	where, args := "", []any{from, to}
	switch {
	case scope.All:
		where = "true"
	case scope.WorkspaceID > 0:
		args = append(args, scope.WorkspaceID)
		where = "workspace_id = $3"
	default:
		return nil, fmt.Errorf("activity: no workspace named")
	}
	// Narrowed to a tag, the hours are the tagged links' (visit_hours through link_tags' key)
	// rather than the workspace's sums, and the links created and ranked are the tagged ones.
	hours, linkWhere := `SELECT hour, sum(visits)::bigint, sum(bots)::bigint, sum(uniques)::bigint FROM workspace_visit_hours
		WHERE `+where+` AND hour >= $1 AND hour < $2`, where
	if scope.TagID != 0 && !scope.All {
		args = append(args, scope.TagID)
		tagged := ` IN (SELECT link_id FROM link_tags WHERE tag_id = $4)`
		hours = `SELECT hour, sum(visits)::bigint, sum(bots)::bigint, sum(uniques)::bigint FROM visit_hours
			WHERE ` + where + ` AND link_id` + tagged + ` AND hour >= $1 AND hour < $2`
		where += ` AND link_id` + tagged
		linkWhere += ` AND id` + tagged
	}
	var act stats.Activity
	rows, err := s.db.Pool.Query(ctx, hours+`
		GROUP BY hour ORDER BY hour`, args...)
	if err == nil {
		act.Visits, err = collect(rows, func(r pgx.Rows) (stats.Hour, error) {
			var h stats.Hour
			err := r.Scan(&h.Start, &h.Visits, &h.Bots, &h.Uniques)
			return h, err
		})
	}
	if err != nil {
		return nil, fmt.Errorf("read visits per hour: %w", err)
	}
	rows, err = s.db.Pool.Query(ctx, `
		SELECT date_trunc('hour', created_at, 'UTC') AS hour, count(*) FROM links
		WHERE `+linkWhere+` AND created_at >= $1 AND created_at < $2
		GROUP BY 1 ORDER BY 1`, args...)
	if err == nil {
		act.Created, err = collect(rows, func(r pgx.Rows) (stats.HourCount, error) {
			var c stats.HourCount
			err := r.Scan(&c.Start, &c.N)
			return c, err
		})
	}
	if err != nil {
		return nil, fmt.Errorf("read links created per hour: %w", err)
	}
	// Links deleted since are left out before ranking, so that they take no place.
	rows, err = s.db.Pool.Query(ctx, `
		SELECT l.id, l.workspace_id, l.domain_id, l.key, t.visits, t.bots
		FROM (
			SELECT link_id, sum(visits)::bigint AS visits, sum(bots)::bigint AS bots FROM visit_hours
			WHERE `+where+` AND hour >= $1 AND hour < $2
			GROUP BY link_id HAVING sum(visits) > 0
		) t JOIN links l ON l.id = t.link_id
		ORDER BY t.visits DESC, l.id
		LIMIT `+fmt.Sprint(top), args...)
	if err == nil {
		act.Top, err = collect(rows, func(r pgx.Rows) (stats.TopLink, error) {
			var l stats.TopLink
			err := r.Scan(&l.ID, &l.WorkspaceID, &l.DomainID, &l.Code, &l.Visits, &l.Bots)
			return l, err
		})
	}
	if err != nil {
		return nil, fmt.Errorf("read top links: %w", err)
	}
	return &act, nil
}

// Population implements stats.Store.
func (s *StatsStore) Population(ctx context.Context) (users, workspaces int64, err error) {
	err = s.db.Pool.QueryRow(ctx, `
		SELECT (SELECT count(*) FROM users), (SELECT count(*) FROM workspaces WHERE deleted_at IS NULL)`).
		Scan(&users, &workspaces)
	if err != nil {
		return 0, 0, fmt.Errorf("count users and workspaces: %w", err)
	}
	return users, workspaces, nil
}

// AllLinks implements stats.Store: pages of exportPage links by ID (the index on
// (workspace_id, id)), the connection going back to the pool between pages; the listing's
// filter's conditions are List's.
func (s *StatsStore) AllLinks(ctx context.Context, workspaceID int64, f link.Filter) iter.Seq2[stats.LinkTotals, error] {
	return pages(exportPage, "export links", func(last *stats.LinkTotals) (pgx.Rows, error) {
		var after int64
		if last != nil {
			after = last.ID
		}
		query, args := exportLinksQuery(workspaceID, f, after)
		return s.db.Pool.Query(ctx, query, args...)
	}, func(r pgx.CollectableRow) (stats.LinkTotals, error) {
		var l stats.LinkTotals
		err := r.Scan(&l.ID, &l.DomainID, &l.Key, &l.URL, &l.Title, &l.Status, &l.CreatedAt,
			&l.Visits, &l.Uniques, &l.Bots, &l.Tags)
		return l, err
	})
}

// visitColumns are a stored visit as the export shows it: the link's key, and the variant's
// URL from the link's rules as they are now.
const visitColumns = `v.event_id::text, v.at, v.link_id, coalesce(l.key, ''),
	CASE WHEN v.variant < 0 THEN ''
		ELSE coalesce(l.rules->'variants'->v.variant->>'url', '#' || v.variant) END,
	v.country, v.device, v.os, v.browser, v.referrer, v.in_app, v.bot, v.visitor,
	v.utm_source, v.utm_medium, v.utm_campaign`

// AllVisits implements stats.Store: pages of exportPage visits in (at, event_id) order, each
// page starting where the last ended, read through the index on (workspace_id, at) of the
// partitions of the range only.
func (s *StatsStore) AllVisits(ctx context.Context, workspaceID, linkID, tagID int64, f stats.Filter, from, to time.Time) iter.Seq2[stats.Visit, error] {
	return pages(exportPage, "export visits", func(last *stats.Visit) (pgx.Rows, error) {
		query, args, err := exportVisitsQuery(workspaceID, linkID, tagID, f, from, to, last)
		if err != nil {
			return nil, err
		}
		return s.db.Pool.Query(ctx, query, args...)
	}, func(r pgx.CollectableRow) (stats.Visit, error) {
		var v stats.Visit
		err := r.Scan(&v.EventID, &v.At, &v.LinkID, &v.Key, &v.Variant, &v.Country, &v.Device,
			&v.OS, &v.Browser, &v.Referrer, &v.InApp, &v.Bot, &v.Visitor,
			&v.UTMSource, &v.UTMMedium, &v.UTMCampaign)
		return v, err
	})
}
