package visit

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"fmt"
	"slices"
	"time"

	"github.com/axiomhq/hyperloglog"
)

// Unique visitors are people counted once per UTC day (the visitor hash is salted per day), in
// the hour of their first visit that day. A link's are counted exactly, in the set of the day's
// people (a Set), until it has had ExactUniques people on a day; from then on that day, and a
// workspace's always, they are counted in a HyperLogLog sketch: 2^14 one-byte registers (16 kB),
// whose estimate has a standard error of 1.04/√16384 ≈ 0.81% (LogLog-Beta). Below about 16,000
// people a sketch keeps its hashes in a sparse list of 2^25 positions, where two people collide
// about once in 2^25/n: in practice exact.

// ExactUniques is how many people a link has on a UTC day before its uniques of that day are
// counted in a sketch, unless the Store is told otherwise. A set of that many takes 16 kB, as
// much as a full sketch: a link's people cost at most that much to store per transaction.
const ExactUniques = 2_000

// SetEntry is how many bytes of a visitor hash a Set keeps: two of a link's people of a day
// share them about once in 2^64/n², never in practice.
const SetEntry = 8

// Set is the people of a link on one UTC day, as stored: the first SetEntry bytes of each
// person's visitor hash (zero-padded when shorter), sorted, side by side.
type Set []byte

// Len is how many people the set holds.
func (s Set) Len() int { return len(s) / SetEntry }

// Add adds the people seen (of one link and day) to the set, and answers the set with them
// and how many of them it did not hold, per hour of their first visit (in the order of the
// hours). A set read from elsewhere that is not whole entries is refused.
func (s Set) Add(id int64, seen []VisitorSeen) (Set, []HourUniques, error) {
	if len(s)%SetEntry != 0 {
		return nil, nil, fmt.Errorf("a set of people of %d bytes, not entries of %d", len(s), SetEntry)
	}
	type person struct {
		key  [SetEntry]byte
		hour time.Time
	}
	people := make([]person, len(seen))
	for i, v := range seen {
		copy(people[i].key[:], v.Visitor)
		people[i].hour = v.Hour
	}
	slices.SortFunc(people, func(a, b person) int {
		return cmp.Or(bytes.Compare(a.key[:], b.key[:]), a.hour.Compare(b.hour))
	})
	// The new people, once each (the earliest hour first, from the sort), merged into the set.
	// The set is copied only once someone is new: a link day whose people all came before
	// (most, for a link visited again and again) costs no allocation.
	var out Set
	var fresh []person
	at, copied := 0, 0 // the set's entries before at are below the person; those before copied are in out
	for i, p := range people {
		if i > 0 && p.key == people[i-1].key {
			continue
		}
		for at < len(s) && bytes.Compare(s[at:at+SetEntry], p.key[:]) < 0 {
			at += SetEntry
		}
		if at < len(s) && bytes.Equal(s[at:at+SetEntry], p.key[:]) {
			continue
		}
		if out == nil {
			out = make(Set, 0, len(s)+(len(people)-i)*SetEntry)
		}
		out = append(append(out, s[copied:at]...), p.key[:]...)
		copied = at
		fresh = append(fresh, p)
	}
	if out == nil {
		return s, nil, nil
	}
	out = append(out, s[copied:]...)
	slices.SortFunc(fresh, func(a, b person) int { return a.hour.Compare(b.hour) })
	var counts []HourUniques
	for _, p := range fresh {
		if n := len(counts); n > 0 && counts[n-1].Hour.Equal(p.hour) {
			counts[n-1].N++
			continue
		}
		counts = append(counts, HourUniques{ID: id, Hour: p.hour, N: 1})
	}
	return out, counts, nil
}

// Sketch is the set's people counted in a sketch, for a link passing the exact count.
func (s Set) Sketch() *Sketch {
	sk := NewSketch()
	for i := 0; i+SetEntry <= len(s); i += SetEntry {
		sk.Add(s[i : i+SetEntry])
	}
	return sk
}

// Sketch is a HyperLogLog sketch of the people of a link or a workspace on one UTC day.
type Sketch struct{ hll *hyperloglog.Sketch }

// NewSketch returns an empty sketch.
func NewSketch() *Sketch { return &Sketch{hll: hyperloglog.New14()} }

// SketchOf reads a sketch as Bytes wrote it; no bytes is an empty sketch.
func SketchOf(b []byte) (*Sketch, error) {
	s := NewSketch()
	if len(b) == 0 {
		return s, nil
	}
	if err := s.hll.UnmarshalBinary(b); err != nil {
		return nil, fmt.Errorf("read a visitor sketch: %w", err)
	}
	return s, nil
}

// Bytes is the sketch as stored.
func (s *Sketch) Bytes() []byte {
	b, err := s.hll.MarshalBinary()
	if err != nil { // it never fails on a sketch made here
		panic(err)
	}
	return b
}

// Add counts a visitor hash (already uniformly random: no hash of it is needed).
func (s *Sketch) Add(visitor []byte) {
	var x uint64
	if len(visitor) >= 8 {
		x = binary.LittleEndian.Uint64(visitor)
	} else {
		var buf [8]byte
		copy(buf[:], visitor)
		x = binary.LittleEndian.Uint64(buf[:])
	}
	s.hll.InsertHash(x)
}

// Estimate is how many people the sketch counted.
func (s *Sketch) Estimate() int64 { return int64(s.hll.Estimate()) }

// HourUniques is how many people were first seen in an hour, by a sketch's estimate.
type HourUniques struct {
	ID   int64 // the link's or the workspace's
	Hour time.Time
	N    int64
}

// CountNew adds the people seen (of one link or workspace and one day, in the order of their
// hours) to the sketch, and answers by how much its estimate grew in each hour: the uniques of
// those hours. An estimate that falls (it may, by a little) counts no one.
func (s *Sketch) CountNew(id int64, seen []VisitorSeen) []HourUniques {
	var out []HourUniques
	before := s.Estimate()
	for i := 0; i < len(seen); {
		hour := seen[i].Hour
		for ; i < len(seen) && seen[i].Hour.Equal(hour); i++ {
			s.Add(seen[i].Visitor)
		}
		after := s.Estimate()
		if after > before {
			out = append(out, HourUniques{ID: id, Hour: hour, N: after - before})
			before = after
		}
	}
	return out
}
