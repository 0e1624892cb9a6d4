package postgres

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/shortlink/shortlink/backend/visit"
)

// Visits implements visit.Store: the raw visits, partitioned by day, and their rollups.
type Visits struct{ db *DB }

// NewVisits returns the PostgreSQL visit store.
func NewVisits(db *DB) *Visits { return &Visits{db: db} }

var _ visit.Store = (*Visits)(nil)

// insertVisits stores the events not stored yet and adds only those (RETURNING) to every rollup,
// in one statement: visit_hours (people, crawlers, and people first seen that UTC day, from the
// visitors of the day), the breakdowns per hour, the all-time totals, the workspace's hours,
// and the moderation reviews due at a power of two of people's visits. The daily breakdowns
// are summed from the hourly ones once a day is over (CompactDays); only a visit arriving
// after that, for a day already summed, is added to them here. Rows go in the order of their
// keys, so that consumers storing overlapping batches at once cannot deadlock (and a deadlock
// that happens anyway is retried).
const insertVisits = `
WITH new AS (
	INSERT INTO visits (event_id, at, link_id, workspace_id, domain_id, variant, country,
		device, os, browser, referrer, in_app, bot, visitor, utm_source, utm_medium, utm_campaign)
	SELECT * FROM unnest($1::uuid[], $2::timestamptz[], $3::bigint[], $4::bigint[], $5::bigint[],
		$6::integer[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[], $12::text[],
		$13::boolean[], $14::bytea[], $15::text[], $16::text[], $17::text[])
	ON CONFLICT (event_id, at) DO NOTHING
	RETURNING link_id, workspace_id, date_trunc('hour', at, 'UTC') AS hour,
		(at AT TIME ZONE 'UTC')::date AS day, bot, visitor,
		variant, country, device, os, browser, referrer, in_app, utm_source, utm_medium, utm_campaign
), fresh AS (
	INSERT INTO visitors (link_id, day, visitor, hour)
	SELECT DISTINCT ON (link_id, day, visitor) link_id, day, visitor, hour
	FROM new WHERE NOT bot ORDER BY link_id, day, visitor, hour
	ON CONFLICT DO NOTHING
	RETURNING link_id, hour
), counts AS (
	SELECT link_id, hour, max(workspace_id) AS workspace_id,
		sum(visits)::bigint AS visits, sum(bots)::bigint AS bots, sum(uniques)::bigint AS uniques
	FROM (
		SELECT link_id, hour, workspace_id, 1 - bot::int AS visits, bot::int AS bots, 0 AS uniques FROM new
		UNION ALL
		SELECT link_id, hour, 0, 0, 0, 1 FROM fresh
	) c GROUP BY 1, 2
), hours AS (
	INSERT INTO visit_hours AS h (link_id, hour, workspace_id, visits, bots, uniques)
	SELECT link_id, hour, workspace_id, visits, bots, uniques FROM counts ORDER BY 1, 2
	ON CONFLICT (link_id, hour) DO UPDATE SET visits = h.visits + EXCLUDED.visits,
		bots = h.bots + EXCLUDED.bots, uniques = h.uniques + EXCLUDED.uniques
), keys AS (
	SELECT n.link_id, n.hour, n.day, k.dim, k.key FROM new n, LATERAL (VALUES
		('c'::"char", n.country), ('d', n.device), ('o', n.os), ('b', n.browser),
		('r', n.referrer), ('v', CASE WHEN n.variant >= 0 THEN n.variant::text ELSE '' END),
		('i', n.in_app), ('s', n.utm_source), ('m', n.utm_medium), ('n', n.utm_campaign)) AS k (dim, key)
	WHERE NOT n.bot AND k.key <> ''
), key_hours AS (
	INSERT INTO visit_key_hours AS t (link_id, hour, dim, key, visits)
	SELECT link_id, hour, dim, key, count(*) FROM keys GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
	ON CONFLICT (link_id, hour, dim, key) DO UPDATE SET visits = t.visits + EXCLUDED.visits
), key_days AS (
	INSERT INTO visit_key_days AS t (link_id, day, dim, key, visits)
	SELECT link_id, day, dim, key, count(*) FROM keys
	WHERE day < (SELECT key_days_before FROM visit_rollups)
	GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
	ON CONFLICT (link_id, day, dim, key) DO UPDATE SET visits = t.visits + EXCLUDED.visits
), per_link AS (
	SELECT link_id, max(workspace_id) AS workspace_id, sum(visits)::bigint AS visits,
		sum(bots)::bigint AS bots, sum(uniques)::bigint AS uniques
	FROM counts GROUP BY 1
), totals AS (
	INSERT INTO visit_totals AS t (link_id, workspace_id, visits, bots, uniques)
	SELECT link_id, workspace_id, visits, bots, uniques FROM per_link ORDER BY 1
	ON CONFLICT (link_id) DO UPDATE SET visits = t.visits + EXCLUDED.visits,
		bots = t.bots + EXCLUDED.bots, uniques = t.uniques + EXCLUDED.uniques
	RETURNING link_id, visits
), spaces AS (
	INSERT INTO workspace_visit_hours AS w (workspace_id, hour, visits, bots)
	SELECT workspace_id, hour, sum(visits), sum(bots) FROM counts GROUP BY 1, 2 ORDER BY 1, 2
	ON CONFLICT (workspace_id, hour) DO UPDATE SET visits = w.visits + EXCLUDED.visits,
		bots = w.bots + EXCLUDED.bots
), due AS (
	-- Due for a review: a link whose people's visits reached a power of two
	-- (visits_milestone, moderation.Milestone in Go), and the first visit to a link whose
	-- destination changed since its last review.
	INSERT INTO moderation_due AS m (link_id, due_at, reason, visits)
	SELECT DISTINCT ON (link_id) link_id, now(), reason, visits FROM (
		SELECT t.link_id, 'visits' AS reason, t.visits, 0 AS rank
		FROM totals t JOIN per_link p USING (link_id)
		WHERE p.visits > 0 AND visits_milestone(t.visits - p.visits, t.visits)
		UNION ALL
		SELECT t.link_id, 'target_changed', t.visits, 1
		FROM totals t JOIN per_link p USING (link_id)
		JOIN link_moderation lm ON lm.link_id = t.link_id
		JOIN links l ON l.id = t.link_id
		WHERE p.visits > 0 AND lm.reviewed_url <> l.url AND l.status = 'active'
			AND NOT EXISTS (SELECT 1 FROM moderation_due d WHERE d.link_id = t.link_id)
	) d
	ORDER BY link_id, rank
	-- A review already due keeps its due time; a new seq tells a review under way that the
	-- link was asked for again (the worker's Record leaves it due).
	ON CONFLICT (link_id) DO UPDATE SET visits = EXCLUDED.visits, seq = m.seq + 1
	RETURNING link_id
)
SELECT (SELECT count(*) FROM new), coalesce((SELECT array_agg(link_id) FROM due), '{}')`

// Insert implements visit.Store. A batch holding a day without its partition creates the
// missing partitions and is stored again.
func (s *Visits) Insert(ctx context.Context, events []visit.Event) (visit.Stored, error) {
	if len(events) == 0 {
		return visit.Stored{}, nil
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
		sources   = make([]string, n)
		mediums   = make([]string, n)
		campaigns = make([]string, n)
	)
	for i, e := range events {
		ids[i], at[i], links[i], spaces[i], domains[i] = e.ID.String(), e.At, e.LinkID, e.WorkspaceID, e.DomainID
		variants[i], countries[i], devices[i], oses[i], browsers[i] = int32(e.Variant), e.Country, e.Device, e.OS, e.Browser
		referrers[i], inApps[i], bots[i], visitors[i] = e.Referrer, e.InApp, e.Crawler, e.Visitor
		sources[i], mediums[i], campaigns[i] = e.UTMSource, e.UTMMedium, e.UTMCampaign
		if visitors[i] == nil {
			visitors[i] = []byte{}
		}
	}
	args := []any{ids, at, links, spaces, domains, variants, countries, devices, oses, browsers, referrers, inApps, bots, visitors, sources, mediums, campaigns}
	for attempt := 0; ; attempt++ {
		var st visit.Stored
		// One implicit transaction: the shared lock is taken before the insert's snapshot, so
		// that a day being summed (CompactDays) is either seen summed or sees this batch.
		b := &pgx.Batch{}
		b.Queue(`SELECT pg_advisory_xact_lock_shared($1)`, keyDaysLock)
		b.Queue(insertVisits, args...).QueryRow(func(row pgx.Row) error { return row.Scan(&st.Events, &st.Due) })
		err := s.db.Pool.SendBatch(ctx, b).Close()
		if err == nil {
			return st, nil
		}
		var pgErr *pgconn.PgError
		if attempt < 2 && errors.As(err, &pgErr) {
			switch pgErr.Code {
			case "23514": // no partition for a row's day
				if err := s.partitionsFor(ctx, at); err != nil {
					return visit.Stored{}, err
				}
				continue
			case "40P01": // deadlock with another batch: the other one went through
				continue
			}
		}
		return visit.Stored{}, fmt.Errorf("store visits: %w", err)
	}
}

// keyDaysLock is the advisory lock between the batches of visits (shared) and the summing of a
// day's breakdowns (exclusive).
const keyDaysLock int64 = 0x6b65795f64617973 // "key_days"

// CompactDays implements visit.Store: each UTC day before the day of before that is not summed
// yet, oldest first, has its hourly breakdowns summed into its daily rows (replacing what
// batches stored there before the days were summed this way), in a transaction that holds the
// batches back meanwhile: a batch stored before it is in the sum, one stored after it adds
// its late visits to the daily rows itself.
func (s *Visits) CompactDays(ctx context.Context, before time.Time) (int, error) {
	until := utcDay(before)
	n := 0
	for {
		var next time.Time
		if err := s.db.Pool.QueryRow(ctx, `SELECT key_days_before FROM visit_rollups`).Scan(&next); err != nil {
			return n, fmt.Errorf("sum daily breakdowns: %w", err)
		}
		if !next.Before(until) {
			return n, nil
		}
		if err := s.compactDay(ctx); err != nil {
			return n, err
		}
		n++
	}
}

// compactDay sums the breakdowns of the first day not summed yet.
func (s *Visits) compactDay(ctx context.Context) error {
	err := pgx.BeginFunc(ctx, s.db.Pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, keyDaysLock); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `
			WITH d AS (
				SELECT key_days_before AS day FROM visit_rollups
			), summed AS (
				INSERT INTO visit_key_days AS t (link_id, day, dim, key, visits)
				SELECT h.link_id, d.day, h.dim, h.key, sum(h.visits) FROM visit_key_hours h, d
				WHERE h.hour >= d.day::timestamp AT TIME ZONE 'UTC'
					AND h.hour < (d.day + 1)::timestamp AT TIME ZONE 'UTC'
				GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
				ON CONFLICT (link_id, day, dim, key) DO UPDATE SET visits = EXCLUDED.visits
			)
			UPDATE visit_rollups SET key_days_before = key_days_before + 1`)
		return err
	})
	if err != nil {
		return fmt.Errorf("sum daily breakdowns: %w", err)
	}
	return nil
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

// DropPartitions implements visit.Store.
func (s *Visits) DropPartitions(ctx context.Context, visitsBefore, visitorsBefore time.Time) (int, error) {
	vb := "-infinity"
	if !visitsBefore.IsZero() {
		vb = utcDay(visitsBefore).Format(time.DateOnly)
	}
	var n int
	err := s.db.Pool.QueryRow(ctx, `SELECT visits_drop_partitions($1::date, $2::date)`,
		vb, utcDay(visitorsBefore).Format(time.DateOnly)).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("drop visit partitions: %w", err)
	}
	return n, nil
}
