package postgres

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/shortlink/shortlink/backend/visit"
)

// Unique visitors (see visit.ExactUniques): the sets of people of the link days a batch of
// visits touches while they are counted exactly, the sketches of those past the exact count and
// of the workspaces; read and locked in the transaction that stores the batch, added to, and
// written back: one row per link and day, however many people.

// dayKey is a link's or a workspace's UTC day.
type dayKey struct {
	id  int64
	day time.Time
}

// sketched is what the sets and sketches counted for a transaction, and what to write back.
type sketched struct {
	links, spaces []visit.HourUniques
	// sets are the link days' sets to write back; a nil one is a link day counted in its
	// sketch from now on.
	sets                        map[dayKey]visit.Set
	linkSketches, spaceSketches map[dayKey]*visit.Sketch
}

// Locks, in this order in every transaction: the links' sets (made empty where missing), the
// workspaces' sketches, then the sketches of the link days whose set says they are counted in
// one. A link day's set is locked before its sketch, so the transaction passing the exact count
// makes the sketch alone. The rollup rows come after all of them.
const (
	newSets = `
INSERT INTO visitor_sets (link_id, day, hashes)
SELECT link_id, day, '' FROM unnest($1::bigint[], $2::date[]) AS k (link_id, day) ORDER BY 1, 2
ON CONFLICT DO NOTHING`
	lockSets = `
SELECT link_id, day, hashes FROM visitor_sets
WHERE (link_id, day) IN (SELECT * FROM unnest($1::bigint[], $2::date[]))
ORDER BY 1, 2 FOR UPDATE`
	newSpaceSketches = `
INSERT INTO workspace_visitor_sketches (workspace_id, day, sketch)
SELECT workspace_id, day, '' FROM unnest($1::bigint[], $2::date[]) AS k (workspace_id, day) ORDER BY 1, 2
ON CONFLICT DO NOTHING`
	lockSpaceSketches = `
SELECT workspace_id, day, sketch FROM workspace_visitor_sketches
WHERE (workspace_id, day) IN (SELECT * FROM unnest($1::bigint[], $2::date[]))
ORDER BY 1, 2 FOR UPDATE`
	lockLinkSketches = `
SELECT link_id, day, sketch FROM visitor_sketches
WHERE (link_id, day) IN (SELECT * FROM unnest($1::bigint[], $2::date[]))
ORDER BY 1, 2 FOR UPDATE`
	saveSets = `
UPDATE visitor_sets s SET hashes = u.hashes
FROM unnest($1::bigint[], $2::date[], $3::bytea[]) AS u (link_id, day, hashes)
WHERE s.link_id = u.link_id AND s.day = u.day`
	saveLinkSketches = `
INSERT INTO visitor_sketches AS s (link_id, day, sketch)
SELECT * FROM unnest($1::bigint[], $2::date[], $3::bytea[]) AS u (link_id, day, sketch) ORDER BY 1, 2
ON CONFLICT (link_id, day) DO UPDATE SET sketch = EXCLUDED.sketch`
	saveSpaceSketches = `
UPDATE workspace_visitor_sketches s SET sketch = u.sketch
FROM unnest($1::bigint[], $2::date[], $3::bytea[]) AS u (workspace_id, day, sketch)
WHERE s.workspace_id = u.workspace_id AND s.day = u.day`
)

// countUniques counts the people of r where they are counted: a link's in the day's set until
// the set reaches the exact count (its people are then moved into a sketch), in the link's
// sketch past it, and a workspace's in its sketch.
func (s *Visits) countUniques(ctx context.Context, tx pgx.Tx, r *visit.Rollup) (*sketched, error) {
	out := &sketched{sets: map[dayKey]visit.Set{}, linkSketches: map[dayKey]*visit.Sketch{},
		spaceSketches: map[dayKey]*visit.Sketch{}}
	linkDays := daysOf(r.Visitors, linkOf)
	spaceDays := daysOf(r.People, spaceOf)
	if len(linkDays) == 0 && len(spaceDays) == 0 {
		return out, nil
	}
	sets := map[dayKey]visit.Set{}
	var inSketches []dayKey
	b := &pgx.Batch{}
	if len(linkDays) > 0 {
		ids, days := split(linkDays)
		b.Queue(newSets, ids, days)
		b.Queue(lockSets, ids, days).Query(func(rows pgx.Rows) error {
			var k dayKey
			var hashes []byte
			_, err := pgx.ForEachRow(rows, []any{&k.id, &k.day, &hashes}, func() error {
				if hashes == nil {
					inSketches = append(inSketches, k)
				} else {
					sets[k] = hashes
				}
				return nil
			})
			return err
		})
	}
	if len(spaceDays) > 0 {
		ids, days := split(spaceDays)
		b.Queue(newSpaceSketches, ids, days)
		b.Queue(lockSpaceSketches, ids, days).Query(func(rows pgx.Rows) error {
			return readSketches(rows, out.spaceSketches)
		})
	}
	if err := tx.SendBatch(ctx, b).Close(); err != nil {
		return nil, err
	}
	if len(inSketches) > 0 {
		ids, days := split(inSketches)
		rows, err := tx.Query(ctx, lockLinkSketches, ids, days)
		if err != nil {
			return nil, err
		}
		if err := readSketches(rows, out.linkSketches); err != nil {
			return nil, err
		}
		for _, k := range inSketches {
			if out.linkSketches[k] == nil { // its sketch is gone (a partition dropped): anew
				out.linkSketches[k] = visit.NewSketch()
			}
		}
	}
	var err error
	eachDay(r.Visitors, linkOf, func(k dayKey, seen []visit.VisitorSeen) {
		if sk := out.linkSketches[k]; sk != nil {
			byHour := slices.Clone(seen)
			slices.SortStableFunc(byHour, func(a, b visit.VisitorSeen) int { return a.Hour.Compare(b.Hour) })
			out.links = append(out.links, sk.CountNew(k.id, byHour)...)
			return
		}
		set, fresh, e := sets[k].Add(k.id, seen)
		if e != nil {
			err = fmt.Errorf("link %d on %s: %w", k.id, k.day.Format(time.DateOnly), e)
			return
		}
		out.links = append(out.links, fresh...)
		switch {
		case set.Len() >= int(s.exactUniques):
			out.linkSketches[k] = set.Sketch()
			out.sets[k] = nil
		case len(fresh) > 0:
			out.sets[k] = set
		}
	})
	if err != nil {
		return nil, err
	}
	eachDay(r.People, spaceOf, func(k dayKey, seen []visit.VisitorSeen) {
		sk := out.spaceSketches[k]
		if sk == nil { // the row is there (made above): a sketch that did not read is made anew
			sk = visit.NewSketch()
			out.spaceSketches[k] = sk
		}
		out.spaces = append(out.spaces, sk.CountNew(k.id, seen)...)
	})
	return out, nil
}

// saveSketches writes back the sets and sketches countUniques changed.
func (s *Visits) saveSketches(ctx context.Context, tx pgx.Tx, u *sketched) error {
	b := &pgx.Batch{}
	if len(u.sets) > 0 {
		keys := sortedKeys(u.sets)
		ids, days := split(keys)
		data := make([][]byte, len(keys))
		for i, k := range keys {
			data[i] = u.sets[k] // nil: NULL, counted in the sketch
		}
		b.Queue(saveSets, ids, days, data)
	}
	for _, set := range []struct {
		sql      string
		sketches map[dayKey]*visit.Sketch
	}{{saveLinkSketches, u.linkSketches}, {saveSpaceSketches, u.spaceSketches}} {
		if len(set.sketches) == 0 {
			continue
		}
		keys := sortedKeys(set.sketches)
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

func linkOf(v visit.VisitorSeen) int64  { return v.LinkID }
func spaceOf(v visit.VisitorSeen) int64 { return v.WorkspaceID }

// sortedKeys are the keys of m in the order rows are written.
func sortedKeys[V any](m map[dayKey]V) []dayKey {
	keys := make([]dayKey, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, compareDayKeys)
	return keys
}

// daysOf are the distinct days of the people seen, sorted.
func daysOf(seen []visit.VisitorSeen, id func(visit.VisitorSeen) int64) []dayKey {
	n := map[dayKey]struct{}{}
	for _, v := range seen {
		n[dayKey{id(v), v.Day}] = struct{}{}
	}
	return sortedKeys(n)
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

// readSketches adds the sketches read to m; a row without one is left out.
func readSketches(rows pgx.Rows, m map[dayKey]*visit.Sketch) error {
	var k dayKey
	var data []byte
	_, err := pgx.ForEachRow(rows, []any{&k.id, &k.day, &data}, func() error {
		if data == nil {
			return nil
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
