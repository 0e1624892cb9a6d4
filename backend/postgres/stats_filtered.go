package postgres

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/shortlink/shortlink/backend/stats"
)

// visitColumnOf is the column of visits (migrations 00011 and 00024) that holds each dimension a
// filter or a filtered breakdown reads; the variant, an integer, is apart.
var visitColumnOf = []struct {
	dim    stats.Dim
	column string
}{
	{stats.Country, "country"}, {stats.Device, "device"}, {stats.OS, "os"}, {stats.Browser, "browser"},
	{stats.Referrer, "referrer"}, {stats.InApp, "in_app"},
	{stats.UTMSource, "utm_source"}, {stats.UTMMedium, "utm_medium"}, {stats.UTMCampaign, "utm_campaign"},
}

// filteredKeys groups the visits once per dimension in one pass (grouping sets); the column
// grouped is the one not NULL, so coalesce reads the key and grouping() names its dimension.
var filteredKeys = func() string {
	var dims, keys, sets []string
	for _, c := range visitColumnOf {
		dims = append(dims, fmt.Sprintf("WHEN grouping(%s) = 0 THEN '%c'", c.column, c.dim))
		keys = append(keys, c.column)
		sets = append(sets, "("+c.column+")")
	}
	return fmt.Sprintf(`SELECT CASE %s ELSE '%c' END::"char" AS dim,
			coalesce(%s, variant::text) AS key, count(*) AS visits
		FROM v WHERE at >= $3 AND NOT bot
		GROUP BY GROUPING SETS (%s, (variant))`,
		strings.Join(dims, " "), stats.Variant, strings.Join(keys, ", "), strings.Join(sets, ", "))
}()

// LinkVisits implements stats.Store: the link's visits of the range (and, for the unique
// visitors, of the start of its first UTC day) that match f are read once through the range's
// partitions, then summed per hour, per person and day, and per key in one statement. UTC hours
// and days are bins from a UTC midnight (date_bin): date_trunc in a zone looks the zone up for
// every row. A person is counted once per UTC day, in the hour of their first matching visit
// that day, when that hour is inside the range: as the rollups count them, but exactly (no
// sketch) and among the matching visits only.
func (s *StatsStore) LinkVisits(ctx context.Context, workspaceID, linkID int64, f stats.Filter, from, to time.Time, limit int) ([]stats.Hour, []stats.KeyCount, error) {
	args := []any{linkID, workspaceID, from, to, limit, from.UTC().Truncate(24 * time.Hour)}
	var where []string
	for _, c := range visitColumnOf {
		if v, ok := f[c.dim]; ok {
			args = append(args, v)
			where = append(where, fmt.Sprintf("%s = $%d", c.column, len(args)))
		}
	}
	if len(where) != len(f) {
		return nil, nil, fmt.Errorf("read filtered visits: a filter of a dimension visits do not hold")
	}
	cond := ""
	if len(where) > 0 {
		cond = " AND " + strings.Join(where, " AND ")
	}
	var hours []stats.Hour
	var keys []stats.KeyCount
	err := pgx.BeginTxFunc(ctx, s.db.Pool, pgx.TxOptions{AccessMode: pgx.ReadOnly}, func(tx pgx.Tx) error {
		b := &pgx.Batch{}
		// JIT would compile the statement for each partition of the range, a cost that the
		// rows read do not repay (docs/benchmarks.md#a-links-statistics-filtered); the visits
		// read are kept in memory rather than spilled to temporary files; and every run is
		// planned for its own range and values (the partitions it reads, how many rows match).
		b.Queue(`SET LOCAL jit = off`)
		b.Queue(`SET LOCAL work_mem = '32MB'`)
		b.Queue(`SET LOCAL plan_cache_mode = force_custom_plan`)
		b.Queue(`
		WITH v AS MATERIALIZED (
			SELECT at, bot, visitor, variant, country, device, os, browser, referrer, in_app,
				utm_source, utm_medium, utm_campaign
			FROM visits
			WHERE link_id = $1 AND workspace_id = $2 AND at >= $6 AND at < $4`+cond+`
		), hours AS (
			SELECT date_bin('1 hour', at, '2000-01-01Z') AS hour,
				count(*) FILTER (WHERE NOT bot) AS visits, count(*) FILTER (WHERE bot) AS bots
			FROM v WHERE at >= $3 GROUP BY 1
		), firsts AS (
			SELECT date_bin('1 hour', min(at), '2000-01-01Z') AS hour
			FROM v WHERE NOT bot GROUP BY date_bin('1 day', at, '2000-01-01Z'), visitor
		), uniques AS (
			SELECT hour, count(*) AS uniques FROM firsts WHERE hour >= $3 GROUP BY hour
		), keys AS (
			`+filteredKeys+`
		), ranked AS (
			SELECT dim, key, visits,
				row_number() OVER (PARTITION BY dim ORDER BY visits DESC, key COLLATE "C") AS rank
			FROM keys WHERE key <> '' AND NOT (dim = '`+string(stats.Variant)+`' AND key = '-1')
		)
		SELECT h.hour, h.visits, h.bots, coalesce(u.uniques, 0), NULL::"char", NULL::text
		FROM hours h LEFT JOIN uniques u USING (hour)
		UNION ALL
		SELECT NULL, visits, 0, 0, dim, key FROM ranked WHERE rank <= $5`, args...).Query(func(rows pgx.Rows) error {
			var (
				hour          *time.Time
				n, bots, uniq int64
				dim           *byte
				key           *string
			)
			_, err := pgx.ForEachRow(rows, []any{&hour, &n, &bots, &uniq, &dim, &key}, func() error {
				if hour != nil {
					hours = append(hours, stats.Hour{Start: *hour, Visits: n, Bots: bots, Uniques: uniq})
				} else if dim != nil && key != nil {
					keys = append(keys, stats.KeyCount{Dim: stats.Dim(*dim), Key: *key, Visits: n})
				}
				return nil
			})
			return err
		})
		return tx.SendBatch(ctx, b).Close()
	})
	if err != nil {
		return nil, nil, fmt.Errorf("read filtered visits: %w", err)
	}
	slices.SortFunc(hours, func(a, b stats.Hour) int { return a.Start.Compare(b.Start) })
	return hours, keys, nil
}
