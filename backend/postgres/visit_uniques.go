package postgres

import (
	"cmp"
	"context"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/shortlink/shortlink/backend/visit"
)

// Unique visitors past the exact count (see visit.ExactUniques): the sketches of the links and
// workspaces a batch of visits touches, read and locked in the transaction that stores it,
// added to, and written back.

// dayKey is a link's or a workspace's UTC day.
type dayKey struct {
	id  int64
	day time.Time
}

// sketched is what the sketches counted for a transaction, and what to write back.
type sketched struct {
	links, spaces []visit.HourUniques
	// linkSketches and spaceSketches are the sketches to write back; switching are the
	// link days that passed the exact count with this transaction, whose sketches are made
	// from the day's stored hashes once this transaction's are stored.
	linkSketches, spaceSketches map[dayKey]*visit.Sketch
	switching                   []dayKey
}

// Locks, in this order in every transaction: the links' sketches, the workspaces' sketches,
// then the sketches of links passing the exact count (rows inserted empty, filled before
// commit). The rollup rows come after all of them.
const (
	lockLinkSketches = `
SELECT link_id, day, sketch FROM visitor_sketches
WHERE (link_id, day) IN (SELECT * FROM unnest($1::bigint[], $2::date[]))
ORDER BY 1, 2 FOR UPDATE`
	// exactCounts answers the link days whose people so far and in this transaction (at most)
	// reach the exact count; the link's people of all days, one row to read, rule out the
	// others before their hours are summed.
	exactCounts = `
SELECT k.link_id, k.day FROM unnest($1::bigint[], $2::date[], $3::bigint[]) AS k (link_id, day, n)
JOIN visit_totals t ON t.link_id = k.link_id AND t.uniques + k.n >= $4
JOIN visit_hours h ON h.link_id = k.link_id
	AND h.hour >= k.day::timestamp AT TIME ZONE 'UTC' AND h.hour < (k.day + 1)::timestamp AT TIME ZONE 'UTC'
GROUP BY k.link_id, k.day, k.n
HAVING sum(h.uniques) + k.n >= $4`
	newSpaceSketches = `
INSERT INTO workspace_visitor_sketches (workspace_id, day, sketch)
SELECT workspace_id, day, '' FROM unnest($1::bigint[], $2::date[]) AS k (workspace_id, day) ORDER BY 1, 2
ON CONFLICT DO NOTHING`
	lockSpaceSketches = `
SELECT workspace_id, day, sketch FROM workspace_visitor_sketches
WHERE (workspace_id, day) IN (SELECT * FROM unnest($1::bigint[], $2::date[]))
ORDER BY 1, 2 FOR UPDATE`
	newLinkSketches = `
INSERT INTO visitor_sketches (link_id, day)
SELECT link_id, day FROM unnest($1::bigint[], $2::date[]) AS k (link_id, day) ORDER BY 1, 2
ON CONFLICT DO NOTHING
RETURNING link_id, day`
	storedHashes = `
SELECT v.link_id, v.day, v.visitor FROM visitors v
JOIN unnest($1::bigint[], $2::date[]) AS k (link_id, day) ON v.link_id = k.link_id AND v.day = k.day`
	saveLinkSketches = `
UPDATE visitor_sketches s SET sketch = u.sketch
FROM unnest($1::bigint[], $2::date[], $3::bytea[]) AS u (link_id, day, sketch)
WHERE s.link_id = u.link_id AND s.day = u.day`
	saveSpaceSketches = `
UPDATE workspace_visitor_sketches s SET sketch = u.sketch
FROM unnest($1::bigint[], $2::date[], $3::bytea[]) AS u (workspace_id, day, sketch)
WHERE s.workspace_id = u.workspace_id AND s.day = u.day`
)

// countUniques counts the people of r in the sketches where they are counted: every
// workspace's, and the links' past the exact count. It takes those people out of r.Visitors,
// whose hashes are stored one by one.
func (s *Visits) countUniques(ctx context.Context, tx pgx.Tx, r *visit.Rollup) (*sketched, error) {
	out := &sketched{linkSketches: map[dayKey]*visit.Sketch{}, spaceSketches: map[dayKey]*visit.Sketch{}}
	linkDays, counts := daysOf(r.Visitors, func(v visit.VisitorSeen) int64 { return v.LinkID })
	spaceDays, _ := daysOf(r.People, func(v visit.VisitorSeen) int64 { return v.WorkspaceID })
	if len(linkDays) == 0 && len(spaceDays) == 0 {
		return out, nil
	}
	lIDs, lDays := split(linkDays)
	sIDs, sDays := split(spaceDays)
	var candidates []dayKey
	b := &pgx.Batch{}
	b.Queue(lockLinkSketches, lIDs, lDays).Query(func(rows pgx.Rows) error {
		return readSketches(rows, out.linkSketches)
	})
	b.Queue(exactCounts, lIDs, lDays, counts, s.exactUniques).Query(func(rows pgx.Rows) error {
		var err error
		candidates, err = pgx.CollectRows(rows, scanDayKey)
		return err
	})
	b.Queue(newSpaceSketches, sIDs, sDays)
	b.Queue(lockSpaceSketches, sIDs, sDays).Query(func(rows pgx.Rows) error {
		return readSketches(rows, out.spaceSketches)
	})
	if err := tx.SendBatch(ctx, b).Close(); err != nil {
		return nil, err
	}
	candidates = slices.DeleteFunc(candidates, func(k dayKey) bool { return out.linkSketches[k] != nil })
	if len(candidates) > 0 {
		// A link passing the count gets its sketch row now: another transaction passing it
		// at once waits for this one, then finds the sketch made.
		cIDs, cDays := split(candidates)
		b := &pgx.Batch{}
		b.Queue(newLinkSketches, cIDs, cDays).Query(func(rows pgx.Rows) error {
			var err error
			out.switching, err = pgx.CollectRows(rows, scanDayKey)
			return err
		})
		b.Queue(lockLinkSketches, cIDs, cDays).Query(func(rows pgx.Rows) error {
			return readSketches(rows, out.linkSketches)
		})
		if err := tx.SendBatch(ctx, b).Close(); err != nil {
			return nil, err
		}
		for _, k := range out.switching {
			delete(out.linkSketches, k) // this transaction's own empty row: counted exactly first
		}
	}
	// The links counted in sketches: their people of this transaction, hour by hour.
	if len(out.linkSketches) > 0 {
		var byHour []visit.VisitorSeen
		r.Visitors = slices.DeleteFunc(r.Visitors, func(v visit.VisitorSeen) bool {
			if out.linkSketches[dayKey{v.LinkID, v.Day}] != nil {
				byHour = append(byHour, v)
				return true
			}
			return false
		})
		slices.SortStableFunc(byHour, func(a, b visit.VisitorSeen) int {
			return cmp.Or(cmp.Compare(a.LinkID, b.LinkID), a.Day.Compare(b.Day), a.Hour.Compare(b.Hour))
		})
		eachDay(byHour, func(v visit.VisitorSeen) int64 { return v.LinkID }, func(k dayKey, seen []visit.VisitorSeen) {
			out.links = append(out.links, out.linkSketches[k].CountNew(k.id, seen)...)
		})
	}
	eachDay(r.People, func(v visit.VisitorSeen) int64 { return v.WorkspaceID }, func(k dayKey, seen []visit.VisitorSeen) {
		sk := out.spaceSketches[k]
		if sk == nil { // the row is there (made above): a sketch that did not read is made anew
			sk = visit.NewSketch()
			out.spaceSketches[k] = sk
		}
		out.spaces = append(out.spaces, sk.CountNew(k.id, seen)...)
	})
	return out, nil
}

// saveSketches writes the sketches back, with those of the links that passed the exact count
// made from the day's hashes (this transaction's included).
func (s *Visits) saveSketches(ctx context.Context, tx pgx.Tx, u *sketched) error {
	if len(u.switching) > 0 {
		ids, days := split(u.switching)
		for _, k := range u.switching {
			u.linkSketches[k] = visit.NewSketch()
		}
		rows, err := tx.Query(ctx, storedHashes, ids, days)
		if err != nil {
			return err
		}
		var k dayKey
		var hash []byte
		_, err = pgx.ForEachRow(rows, []any{&k.id, &k.day, &hash}, func() error {
			u.linkSketches[k].Add(hash)
			return nil
		})
		if err != nil {
			return err
		}
	}
	b := &pgx.Batch{}
	for _, set := range []struct {
		sql      string
		sketches map[dayKey]*visit.Sketch
	}{{saveLinkSketches, u.linkSketches}, {saveSpaceSketches, u.spaceSketches}} {
		if len(set.sketches) == 0 {
			continue
		}
		keys := make([]dayKey, 0, len(set.sketches))
		for k := range set.sketches {
			keys = append(keys, k)
		}
		slices.SortFunc(keys, compareDayKeys)
		ids, days := split(keys)
		data := make([][]byte, len(keys))
		for i, k := range keys {
			data[i] = set.sketches[k].Bytes()
		}
		b.Queue(set.sql, ids, days, data)
	}
	if b.Len() == 0 {
		return nil
	}
	return tx.SendBatch(ctx, b).Close()
}

// daysOf are the distinct days of the people seen (sorted) and how many people each has.
func daysOf(seen []visit.VisitorSeen, id func(visit.VisitorSeen) int64) ([]dayKey, []int64) {
	n := map[dayKey]int64{}
	for _, v := range seen {
		n[dayKey{id(v), v.Day}]++
	}
	keys := make([]dayKey, 0, len(n))
	for k := range n {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, compareDayKeys)
	counts := make([]int64, len(keys))
	for i, k := range keys {
		counts[i] = n[k]
	}
	return keys, counts
}

// eachDay calls f with each run of people of one day in seen (sorted by id and day).
func eachDay(seen []visit.VisitorSeen, id func(visit.VisitorSeen) int64, f func(dayKey, []visit.VisitorSeen)) {
	for i := 0; i < len(seen); {
		k := dayKey{id(seen[i]), seen[i].Day}
		j := i + 1
		for j < len(seen) && id(seen[j]) == k.id && seen[j].Day.Equal(k.day) {
			j++
		}
		f(k, seen[i:j])
		i = j
	}
}

func compareDayKeys(a, b dayKey) int { return cmp.Or(cmp.Compare(a.id, b.id), a.day.Compare(b.day)) }

func split(keys []dayKey) ([]int64, []time.Time) {
	ids, days := make([]int64, len(keys)), make([]time.Time, len(keys))
	for i, k := range keys {
		ids[i], days[i] = k.id, k.day
	}
	return ids, days
}

func scanDayKey(row pgx.CollectableRow) (dayKey, error) {
	var k dayKey
	err := row.Scan(&k.id, &k.day)
	return k, err
}

// readSketches adds the sketches read to m; an empty one (just made) is left out.
func readSketches(rows pgx.Rows, m map[dayKey]*visit.Sketch) error {
	var k dayKey
	var data []byte
	_, err := pgx.ForEachRow(rows, []any{&k.id, &k.day, &data}, func() error {
		if data == nil {
			return nil // being made by another transaction, which holds it: not visible here
		}
		sk, err := visit.SketchOf(data)
		if err != nil {
			return err
		}
		m[k] = sk
		return nil
	})
	return err
}
