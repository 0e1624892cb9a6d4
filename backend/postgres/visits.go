package postgres

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/shortlink/shortlink/backend/visit"
)

// Visits implements visit.Store: the raw visits, partitioned by day, and their rollups.
type Visits struct {
	db           *DB
	exactUniques int64
}

// NewVisits returns the PostgreSQL visit store, counting a link's people of a day exactly up
// to visit.ExactUniques.
func NewVisits(db *DB) *Visits { return &Visits{db: db, exactUniques: visit.ExactUniques} }

// CountExactly sets how many people a link has on a day before they are counted in a sketch.
func (s *Visits) CountExactly(people int) *Visits {
	s.exactUniques = int64(people)
	return s
}

var _ visit.Store = (*Visits)(nil)

// insertBatches records the keys of the batches of a transaction and answers those it did
// not know: a batch stored before is skipped whole.
const insertBatches = `
INSERT INTO visit_batches (id, day) SELECT * FROM unnest($1::uuid[], $2::date[])
ON CONFLICT DO NOTHING
RETURNING id`

// addRollups adds the sums of the new batches (visit.Summarise) to every rollup, in one
// statement: the people first seen that UTC day (counted by countUniques, in the hour of their
// first visit), visit_hours, the breakdowns per hour, the all-time totals, the workspace's
// hours, and the moderation reviews due at a power of two of people's visits. The daily
// breakdowns are summed from the hourly ones once a day is over (CompactDays); only a visit
// arriving after that, for a day already summed, is added to them here. Rows go in the order
// of their keys (the arrays come sorted), so that consumers storing overlapping batches at
// once cannot deadlock (and a deadlock that happens anyway is retried).
const addRollups = `
WITH fresh_counts AS (
	SELECT link_id, hour, sum(n)::bigint AS uniques
	FROM unnest($11::bigint[], $12::timestamptz[], $13::bigint[]) AS f (link_id, hour, n)
	GROUP BY 1, 2
), counts AS (
	SELECT c.link_id, c.hour, c.workspace_id, c.visits, c.bots, coalesce(f.uniques, 0) AS uniques
	FROM unnest($1::bigint[], $2::timestamptz[], $3::bigint[], $4::bigint[], $5::bigint[])
		AS c (link_id, hour, workspace_id, visits, bots)
	LEFT JOIN fresh_counts f USING (link_id, hour)
), hours AS (
	INSERT INTO visit_hours AS h (link_id, hour, workspace_id, visits, bots, uniques)
	SELECT link_id, hour, workspace_id, visits, bots, uniques FROM counts ORDER BY 1, 2
	ON CONFLICT (link_id, hour) DO UPDATE SET visits = h.visits + EXCLUDED.visits,
		bots = h.bots + EXCLUDED.bots, uniques = h.uniques + EXCLUDED.uniques
), key_hours AS (
	INSERT INTO visit_key_hours AS t (link_id, hour, dim, key, visits)
	SELECT link_id, hour, dim::"char", key, visits
	FROM unnest($6::bigint[], $7::timestamptz[], $8::text[], $9::text[], $10::bigint[])
		AS k (link_id, hour, dim, key, visits)
	ON CONFLICT (link_id, hour, dim, key) DO UPDATE SET visits = t.visits + EXCLUDED.visits
), key_days AS (
	-- The keys of days already summed, picked out by rollupArgs.
	INSERT INTO visit_key_days AS t (link_id, day, dim, key, visits)
	SELECT link_id, (hour AT TIME ZONE 'UTC')::date, dim::"char", key, sum(visits)
	FROM unnest($17::bigint[], $18::timestamptz[], $19::text[], $20::text[], $21::bigint[])
		AS k (link_id, hour, dim, key, visits)
	GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
	ON CONFLICT (link_id, day, dim, key) DO UPDATE SET visits = t.visits + EXCLUDED.visits
), key_months AS (
	-- Those of months already summed too (before $22, monthsSummed).
	INSERT INTO visit_key_months AS t (link_id, month, dim, key, visits)
	SELECT link_id, date_trunc('month', hour AT TIME ZONE 'UTC')::date, dim::"char", key, sum(visits)
	FROM unnest($17::bigint[], $18::timestamptz[], $19::text[], $20::text[], $21::bigint[])
		AS k (link_id, hour, dim, key, visits)
	WHERE hour < $22
	GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
	ON CONFLICT (link_id, month, dim, key) DO UPDATE SET visits = t.visits + EXCLUDED.visits
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
), space_uniques AS (
	SELECT * FROM unnest($14::bigint[], $15::timestamptz[], $16::bigint[]) AS u (workspace_id, hour, uniques)
), spaces AS (
	INSERT INTO workspace_visit_hours AS w (workspace_id, hour, visits, bots, uniques)
	SELECT c.workspace_id, c.hour, c.visits, c.bots, coalesce(u.uniques, 0)
	FROM (SELECT workspace_id, hour, sum(visits) AS visits, sum(bots) AS bots FROM counts GROUP BY 1, 2) c
	LEFT JOIN space_uniques u USING (workspace_id, hour)
	ORDER BY 1, 2
	ON CONFLICT (workspace_id, hour) DO UPDATE SET visits = w.visits + EXCLUDED.visits,
		bots = w.bots + EXCLUDED.bots, uniques = w.uniques + EXCLUDED.uniques
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
SELECT coalesce((SELECT array_agg(link_id) FROM due), '{}')`

// rawVisitColumns are the raw visit's columns, in the order copyVisits gives them.
var rawVisitColumns = []string{"event_id", "at", "link_id", "workspace_id", "domain_id", "variant",
	"country", "device", "os", "browser", "referrer", "in_app", "bot", "visitor",
	"utm_source", "utm_medium", "utm_campaign"}

// Insert implements visit.Store, in one transaction: the keys of the batches (a batch known
// already is skipped), the raw visits of the others by COPY, and their sums added to the
// rollups by one statement. A batch holding a day without its partition creates the missing
// partitions and is stored again.
func (s *Visits) Insert(ctx context.Context, batches []visit.Batch) (visit.Stored, error) {
	batches = slices.DeleteFunc(slices.Clone(batches), func(b visit.Batch) bool { return len(b) == 0 })
	if len(batches) == 0 {
		return visit.Stored{}, nil
	}
	// Keys in one order: two transactions with the same batches wait for each other instead
	// of deadlocking.
	type keyed struct {
		key uuid.UUID
		day time.Time
	}
	byKey := make(map[uuid.UUID]visit.Batch, len(batches))
	sorted := make([]keyed, len(batches))
	for i, b := range batches {
		sorted[i] = keyed{b.Key(), b.Day()}
		byKey[sorted[i].key] = b
	}
	slices.SortFunc(sorted, func(a, b keyed) int { return bytes.Compare(a.key[:], b.key[:]) })
	keys, days := make([]uuid.UUID, len(sorted)), make([]time.Time, len(sorted))
	for i, k := range sorted {
		keys[i], days[i] = k.key, k.day
	}
	for attempt := 0; ; attempt++ {
		st, err := s.insert(ctx, keys, days, byKey)
		if err == nil {
			return st, nil
		}
		var pgErr *pgconn.PgError
		if attempt < 2 && errors.As(err, &pgErr) {
			switch pgErr.Code {
			case "23514": // no partition for a row's day
				if err := s.partitionsFor(ctx, batches); err != nil {
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

// insert is one attempt of Insert.
func (s *Visits) insert(ctx context.Context, keys []uuid.UUID, days []time.Time, byKey map[uuid.UUID]visit.Batch) (visit.Stored, error) {
	var st visit.Stored
	err := pgx.BeginFunc(ctx, s.db.Pool, func(tx pgx.Tx) error {
		// The shared lock is taken before the rollups' snapshot, so that a day being summed
		// (CompactDays) is either seen summed or sees these visits.
		b := &pgx.Batch{}
		b.Queue(`SELECT pg_advisory_xact_lock_shared($1)`, keyDaysLock)
		// The first day and month whose breakdowns are not summed yet: they hold still until
		// commit.
		var summedBefore, monthsBefore time.Time
		b.Queue(`SELECT key_days_before, ` + monthsSummed + ` FROM visit_rollups`).QueryRow(func(row pgx.Row) error {
			return row.Scan(&summedBefore, &monthsBefore)
		})
		// The arrays of a transaction of 100,000 visits, and what the statement keeps of them,
		// stay in memory rather than spill to temporary files (about 16 MB did at the default
		// 4 MB). A bound, not an allocation: a small transaction uses what it needs.
		b.Queue(`SET LOCAL work_mem = '32MB'`)
		var fresh []uuid.UUID
		b.Queue(insertBatches, keys, days).Query(func(rows pgx.Rows) error {
			var err error
			fresh, err = pgx.CollectRows(rows, pgx.RowTo[uuid.UUID])
			return err
		})
		if err := tx.SendBatch(ctx, b).Close(); err != nil {
			return err
		}
		batches := make([]visit.Batch, len(fresh))
		events := 0
		for i, k := range fresh {
			batches[i] = byKey[k]
			events += len(batches[i])
		}
		if events == 0 {
			return nil
		}
		if _, err := tx.CopyFrom(ctx, pgx.Identifier{"visits"}, rawVisitColumns, copyVisits(batches, events)); err != nil {
			return err
		}
		r := visit.Summarise(batches...)
		u, err := s.countUniques(ctx, tx, &r)
		if err != nil {
			return err
		}
		if err := tx.QueryRow(ctx, addRollups, append(rollupArgs(r, u, summedBefore), monthsBefore)...).Scan(&st.Due); err != nil {
			return err
		}
		if err := keepTagVisits(ctx, tx, r); err != nil {
			return err
		}
		if err := s.saveSketches(ctx, tx, u); err != nil {
			return err
		}
		st.Events = events
		return nil
	})
	if err != nil {
		return visit.Stored{}, err
	}
	return st, nil
}

// copyVisits gives the n events of batches as rows of rawVisitColumns, in the order of the
// raw visits' index (workspace, time): each row's index entry then goes beside the one before,
// on a page PostgreSQL has at hand. BenchmarkIngest (uniform traffic) measured 0.8 µs of
// PostgreSQL's CPU a visit less than in the order they came.
func copyVisits(batches []visit.Batch, n int) pgx.CopyFromSource {
	type place struct {
		space, at int64
		batch, i  int32
	}
	order := make([]place, 0, n)
	for b, events := range batches {
		for i := range events {
			order = append(order, place{events[i].WorkspaceID, events[i].At.UnixNano(), int32(b), int32(i)})
		}
	}
	slices.SortFunc(order, func(a, b place) int {
		return cmp.Or(cmp.Compare(a.space, b.space), cmp.Compare(a.at, b.at))
	})
	row := make([]any, len(rawVisitColumns))
	return pgx.CopyFromFunc(func() ([]any, error) {
		if len(order) == 0 {
			return nil, nil
		}
		e := &batches[order[0].batch][order[0].i]
		order = order[1:]
		visitor := e.Visitor
		if visitor == nil {
			visitor = []byte{}
		}
		row[0], row[1], row[2], row[3], row[4] = pgtype.UUID{Bytes: e.ID, Valid: true}, e.At, e.LinkID, e.WorkspaceID, e.DomainID
		row[5], row[6], row[7], row[8], row[9] = int32(e.Variant), e.Country, e.Device, e.OS, e.Browser
		row[10], row[11], row[12], row[13] = e.Referrer, e.InApp, e.Crawler, visitor
		row[14], row[15], row[16] = e.UTMSource, e.UTMMedium, e.UTMCampaign
		return row, nil
	})
}

// rollupArgs are addRollups' arrays: the keys of every hour go to the hourly breakdowns, and
// those of the days before summedBefore (already summed by CompactDays) to the daily ones too.
func rollupArgs(r visit.Rollup, u *sketched, summedBefore time.Time) []any {
	var (
		hLinks   = make([]int64, len(r.Hours))
		hHours   = make([]time.Time, len(r.Hours))
		hSpaces  = make([]int64, len(r.Hours))
		hVisits  = make([]int64, len(r.Hours))
		hBots    = make([]int64, len(r.Hours))
		kLinks   = make([]int64, len(r.Keys))
		kHours   = make([]time.Time, len(r.Keys))
		kDims    = make([]string, len(r.Keys))
		kKeys    = make([]string, len(r.Keys))
		kVisits  = make([]int64, len(r.Keys))
		dimNames [256]string
	)
	for i := range len(visit.Dims) {
		dimNames[visit.Dims[i]] = visit.Dims[i : i+1]
	}
	for i, h := range r.Hours {
		hLinks[i], hHours[i], hSpaces[i], hVisits[i], hBots[i] = h.LinkID, h.Hour, h.WorkspaceID, h.Visits, h.Bots
	}
	var (
		lLinks, lVisits []int64
		lHours          []time.Time
		lDims, lKeys    []string
	)
	for i, k := range r.Keys {
		kLinks[i], kHours[i], kDims[i], kKeys[i], kVisits[i] = k.LinkID, k.Hour, dimNames[k.Dim], k.Key, k.Visits
		if k.Hour.Before(summedBefore) {
			lLinks, lHours, lDims = append(lLinks, k.LinkID), append(lHours, k.Hour), append(lDims, dimNames[k.Dim])
			lKeys, lVisits = append(lKeys, k.Key), append(lVisits, k.Visits)
		}
	}
	uLinks, uHours, uN := hourUniques(u.links)
	sSpaces, sHours, sN := hourUniques(u.spaces)
	return []any{hLinks, hHours, hSpaces, hVisits, hBots,
		kLinks, kHours, kDims, kKeys, kVisits, uLinks, uHours, uN, sSpaces, sHours, sN,
		lLinks, lHours, lDims, lKeys, lVisits}
}

// hourUniques are the uniques the sketches counted, as arrays.
func hourUniques(us []visit.HourUniques) ([]int64, []time.Time, []int64) {
	ids, hours, n := make([]int64, len(us)), make([]time.Time, len(us)), make([]int64, len(us))
	for i, u := range us {
		ids[i], hours[i], n[i] = u.ID, u.Hour, u.N
	}
	return ids, hours, n
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
		if err != nil {
			return err
		}
		return sumMonth(ctx, tx)
	})
	if err != nil {
		return fmt.Errorf("sum daily breakdowns: %w", err)
	}
	return nil
}

// maxPartitionSpan bounds the days one batch creates partitions for: events carry the time of
// the node that saw them, and one with a broken clock must not create years of tables.
const maxPartitionSpan = 62

// partitionsFor creates the partitions of the days from the earliest visit of the batches to
// the latest.
func (s *Visits) partitionsFor(ctx context.Context, batches []visit.Batch) error {
	var first, last time.Time
	for _, b := range batches {
		for i := range b {
			if first.IsZero() || b[i].At.Before(first) {
				first = b[i].At
			}
			if b[i].At.After(last) {
				last = b[i].At
			}
		}
	}
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
