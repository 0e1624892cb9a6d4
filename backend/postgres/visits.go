package postgres

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/shortlink/shortlink/backend/visit"
)

// Visits implements visit.Store: the raw visits, partitioned by day, and their hourly rollups.
type Visits struct{ db *DB }

// NewVisits returns the PostgreSQL visit store.
func NewVisits(db *DB) *Visits { return &Visits{db: db} }

var _ visit.Store = (*Visits)(nil)

// insertVisits stores the events not stored yet and adds only those (RETURNING) to the hourly
// rollups, in one statement. Rows go in the order of their IDs and rollups in the order of
// their keys, so that consumers storing overlapping batches at once cannot deadlock.
const insertVisits = `
WITH new AS (
	INSERT INTO visits (event_id, at, link_id, workspace_id, domain_id, variant, country,
		device, os, browser, referrer, in_app, bot, visitor)
	SELECT * FROM unnest($1::uuid[], $2::timestamptz[], $3::bigint[], $4::bigint[], $5::bigint[],
		$6::integer[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[], $12::text[],
		$13::boolean[], $14::bytea[])
	ON CONFLICT (event_id, at) DO NOTHING
	RETURNING link_id, workspace_id, at, bot
), hours AS (
	INSERT INTO visit_hours AS h (link_id, hour, workspace_id, visits, bots)
	SELECT link_id, date_trunc('hour', at, 'UTC') AS hour, min(workspace_id),
		count(*) FILTER (WHERE NOT bot), count(*) FILTER (WHERE bot)
	FROM new GROUP BY 1, 2 ORDER BY 1, 2
	ON CONFLICT (link_id, hour) DO UPDATE
		SET visits = h.visits + EXCLUDED.visits, bots = h.bots + EXCLUDED.bots
)
SELECT count(*) FROM new`

// Insert implements visit.Store. A batch holding a day without its partition creates the
// missing partitions and is stored again.
func (s *Visits) Insert(ctx context.Context, events []visit.Event) (int, error) {
	if len(events) == 0 {
		return 0, nil
	}
	events = slices.Clone(events)
	slices.SortFunc(events, func(a, b visit.Event) int { return bytes.Compare(a.ID[:], b.ID[:]) })
	events = slices.CompactFunc(events, func(a, b visit.Event) bool { return a.ID == b.ID && a.At.Equal(b.At) })
	n := len(events)
	var (
		ids       = make([]string, n)
		at        = make([]time.Time, n)
		links     = make([]int64, n)
		spaces    = make([]int64, n)
		domains   = make([]int64, n)
		variants  = make([]int32, n)
		countries = make([]string, n)
		devices   = make([]string, n)
		oses      = make([]string, n)
		browsers  = make([]string, n)
		referrers = make([]string, n)
		inApps    = make([]string, n)
		bots      = make([]bool, n)
		visitors  = make([][]byte, n)
	)
	for i, e := range events {
		ids[i], at[i], links[i], spaces[i], domains[i] = e.ID.String(), e.At, e.LinkID, e.WorkspaceID, e.DomainID
		variants[i], countries[i], devices[i], oses[i], browsers[i] = int32(e.Variant), e.Country, e.Device, e.OS, e.Browser
		referrers[i], inApps[i], bots[i], visitors[i] = e.Referrer, e.InApp, e.Crawler, e.Visitor
		if visitors[i] == nil {
			visitors[i] = []byte{}
		}
	}
	args := []any{ids, at, links, spaces, domains, variants, countries, devices, oses, browsers, referrers, inApps, bots, visitors}
	for attempt := 0; ; attempt++ {
		var added int
		err := s.db.Pool.QueryRow(ctx, insertVisits, args...).Scan(&added)
		if err == nil {
			return added, nil
		}
		var pgErr *pgconn.PgError
		if attempt < 2 && errors.As(err, &pgErr) {
			switch pgErr.Code {
			case "23514": // no partition for a row's day
				if err := s.partitionsFor(ctx, at); err != nil {
					return 0, err
				}
				continue
			case "40P01": // deadlock with another batch: the other one went through
				continue
			}
		}
		return 0, fmt.Errorf("store visits: %w", err)
	}
}

// maxPartitionSpan bounds the days one batch creates partitions for: events carry the time of
// the node that saw them, and one with a broken clock must not create years of tables.
const maxPartitionSpan = 62

// partitionsFor creates the partitions of the days from the earliest to the latest time.
func (s *Visits) partitionsFor(ctx context.Context, at []time.Time) error {
	first, last := slices.MinFunc(at, time.Time.Compare), slices.MaxFunc(at, time.Time.Compare)
	days := int(utcDay(last).Sub(utcDay(first))/(24*time.Hour)) + 1
	if days > maxPartitionSpan {
		return fmt.Errorf("store visits: a batch spans %d days, more than %d", days, maxPartitionSpan)
	}
	return s.CreatePartitions(ctx, first, days)
}

func utcDay(t time.Time) time.Time {
	y, m, d := t.UTC().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// CreatePartitions implements visit.Store.
func (s *Visits) CreatePartitions(ctx context.Context, from time.Time, days int) error {
	_, err := s.db.Pool.Exec(ctx, `SELECT visits_create_partitions($1::date, $2)`,
		utcDay(from).Format(time.DateOnly), days)
	if err != nil {
		return fmt.Errorf("create visit partitions: %w", err)
	}
	return nil
}
