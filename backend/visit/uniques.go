package visit

import (
	"encoding/binary"
	"fmt"
	"time"

	"github.com/axiomhq/hyperloglog"
)

// Unique visitors are people counted once per UTC day (the visitor hash is salted per day), in
// the hour of their first visit that day. A link's are counted exactly, one stored hash per
// person, until it has had ExactUniques people on a day; from then on that day, and a
// workspace's always, they are counted in a HyperLogLog sketch: 2^14 one-byte registers (16 kB),
// whose estimate has a standard error of 1.04/√16384 ≈ 0.81% (LogLog-Beta). Below about 16,000
// people a sketch keeps its hashes in a sparse list of 2^25 positions, where two people collide
// about once in 2^25/n: in practice exact.

// ExactUniques is how many people a link has on a UTC day before its uniques of that day are
// counted in a sketch, unless the Store is told otherwise.
const ExactUniques = 10_000

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
