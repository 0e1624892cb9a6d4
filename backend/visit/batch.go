package visit

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
)

// Batch is the events of one flush of a node, in the order the node gathered them: one entry of
// the stream, or one insert while Redis is down. It is the unit a Store stores once: a node that
// is not sure Redis took an entry stores the same batch itself, and a consumer that claims a dead
// one's entries stores them again, so the Store keeps the key of every batch it stored and skips
// a batch it knows. Batches never share events.
type Batch []Event

// Key identifies the batch: a UUID made of the SHA-256 of its events' IDs in order, so that the
// stream's copy and the node's copy of a batch have the same key.
func (b Batch) Key() uuid.UUID {
	h := sha256.New()
	for i := range b {
		h.Write(b[i].ID[:])
	}
	var key uuid.UUID
	copy(key[:], h.Sum(nil))
	return key
}

// Day is the UTC day of the batch's earliest event: where its key is kept (and dropped, with
// the raw visits of that day).
func (b Batch) Day() time.Time {
	if len(b) == 0 {
		return time.Time{}
	}
	first := b[0].At
	for i := range b {
		if b[i].At.Before(first) {
			first = b[i].At
		}
	}
	return utcDay(first)
}

// Rollup is what events add to the statistics, summed before they reach the Store: one row per
// link and hour, per link, hour and breakdown key, and per person seen, however many visits
// each stands for. The slices are sorted by their keys, the order the Store writes rows in (two
// writers going through rows in one order cannot deadlock).
type Rollup struct {
	Hours    []HourCount
	Keys     []KeyCount
	Visitors []VisitorSeen
	// People are the people seen per workspace (LinkID 0) and UTC day, each once, in the order
	// of workspace, day and hour.
	People []VisitorSeen
}

// HourCount is the visits of a link in one UTC hour: people and crawlers.
type HourCount struct {
	LinkID, WorkspaceID int64
	Hour                time.Time
	Visits, Bots        int64
}

// KeyCount is the people's visits of a link in one UTC hour with one value of a breakdown.
type KeyCount struct {
	LinkID int64
	Hour   time.Time
	// Dim is the breakdown: c country, a agent (AgentKey: device, system and browser in one
	// key), r referrer host, v variant (its index), i in-app browser, s/m/n UTM source, medium
	// and campaign. Rows stored before the agent key have d device, o system, b browser.
	Dim    byte
	Key    string
	Visits int64
}

// VisitorSeen is a person (the day's visitor hash) who visited a link on a UTC day, with the
// hour of their first visit among the events summed.
type VisitorSeen struct {
	LinkID      int64
	WorkspaceID int64
	Day         time.Time
	Visitor     []byte
	Hour        time.Time
}

// Dims are the breakdowns of a visit, in the order Summarise reads them. The device, system,
// browser and in-app browser come from the same User-Agent and travel together as one key
// (AgentKey): one rollup row a visit instead of four, split again when they are read.
const Dims = "carvsmn"

// AgentSep separates the device, system, browser and in-app browser in an agent key.
const AgentSep = "\x1f"

// AgentKey is the agent breakdown's key of a visit: its device, system and browser, any of
// them empty when unknown, then its in-app browser when it has one; "" when all are unknown.
func AgentKey(device, os, browser, inApp string) string {
	switch {
	case device == "" && os == "" && browser == "" && inApp == "":
		return ""
	case inApp == "":
		return device + AgentSep + os + AgentSep + browser
	}
	return device + AgentSep + os + AgentSep + browser + AgentSep + inApp
}

// Summarise sums the events of batches into their rollup rows.
func Summarise(batches ...Batch) Rollup {
	n := 0
	for _, b := range batches {
		n += len(b)
	}
	type hourKey struct{ link, hour int64 }
	type visitorKey struct {
		link, day int64
		n         int
		hash      [16]byte
	}
	var (
		r     Rollup
		hours = make(map[hourKey]int, 64) // index in r.Hours
		// A breakdown's values get small numbers of their own (few, so found fast), and a
		// key is counted under one integer: its hour's index, its breakdown and its value.
		values   [len(Dims)]map[string]uint32
		names    [len(Dims)][]string
		agents   = make(map[[4]string]uint32, 16) // the agent breakdown's values, by their parts
		keys     = make(map[uint64]int64, 1024)
		visitors = make(map[visitorKey]int, n/2) // index in r.Visitors
		people   = make(map[visitorKey]int, n/2) // index in r.People, by workspace
		hourOf   []int64                         // r.Hours' hours, Unix seconds
	)
	for d := range values {
		values[d] = make(map[string]uint32)
	}
	for _, events := range batches {
		for i := range events {
			e := &events[i]
			hour := e.At.Unix()
			hour -= (hour%3600 + 3600) % 3600
			hi, ok := hours[hourKey{e.LinkID, hour}]
			if !ok {
				hi = len(r.Hours)
				hours[hourKey{e.LinkID, hour}] = hi
				r.Hours = append(r.Hours, HourCount{LinkID: e.LinkID, WorkspaceID: e.WorkspaceID, Hour: time.Unix(hour, 0).UTC()})
				hourOf = append(hourOf, hour)
			}
			h := &r.Hours[hi]
			if e.Crawler {
				h.Bots++
				continue
			}
			h.Visits++
			for d := range len(Dims) {
				var id uint32
				if Dims[d] == 'a' {
					// Found by its parts: the joined key is made once per agent, not per visit.
					a := [4]string{e.Device, e.OS, e.Browser, e.InApp}
					if a == ([4]string{}) {
						continue
					}
					if id, ok = agents[a]; !ok {
						id = uint32(len(names[d]))
						agents[a] = id
						names[d] = append(names[d], AgentKey(e.Device, e.OS, e.Browser, e.InApp))
					}
				} else {
					v := e.dim(Dims[d])
					if v == "" {
						continue
					}
					if id, ok = values[d][v]; !ok {
						id = uint32(len(names[d]))
						values[d][v] = id
						names[d] = append(names[d], v)
					}
				}
				keys[uint64(hi)<<32|uint64(d)<<24|uint64(id)]++
			}
			vk := visitorKey{link: e.LinkID, day: hour - (hour%86400+86400)%86400, n: len(e.Visitor)}
			copy(vk.hash[:], e.Visitor)
			seen := VisitorSeen{LinkID: e.LinkID, WorkspaceID: e.WorkspaceID, Day: time.Unix(vk.day, 0).UTC(),
				Visitor: visitorBytes(e.Visitor), Hour: h.Hour}
			r.Visitors = see(r.Visitors, visitors, vk, seen)
			vk.link = -e.WorkspaceID
			seen.LinkID = 0
			r.People = see(r.People, people, vk, seen)
		}
	}
	// The hours in order; the keys in the order of their hours, then by breakdown and value.
	order := make([]int, len(r.Hours))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int {
		return cmp.Or(cmp.Compare(r.Hours[a].LinkID, r.Hours[b].LinkID), cmp.Compare(hourOf[a], hourOf[b]))
	})
	rank := make([]int, len(order))
	sorted := make([]HourCount, len(order))
	for i, j := range order {
		rank[j], sorted[i] = i, r.Hours[j]
	}
	r.Hours = sorted
	type counted struct {
		rank  int
		dim   int
		value uint32
		n     int64
	}
	list := make([]counted, 0, len(keys))
	for k, n := range keys {
		list = append(list, counted{rank: rank[k>>32], dim: int(k >> 24 & 0xff), value: uint32(k & 0xffffff), n: n})
	}
	slices.SortFunc(list, func(a, b counted) int {
		return cmp.Or(cmp.Compare(a.rank, b.rank), cmp.Compare(a.dim, b.dim),
			strings.Compare(names[a.dim][a.value], names[b.dim][b.value]))
	})
	r.Keys = make([]KeyCount, len(list))
	for i, c := range list {
		h := &r.Hours[c.rank]
		r.Keys[i] = KeyCount{LinkID: h.LinkID, Hour: h.Hour, Dim: Dims[c.dim], Key: names[c.dim][c.value], Visits: c.n}
	}
	slices.SortFunc(r.Visitors, func(a, b VisitorSeen) int {
		return cmp.Or(cmp.Compare(a.LinkID, b.LinkID), a.Day.Compare(b.Day), bytes.Compare(a.Visitor, b.Visitor))
	})
	slices.SortFunc(r.People, func(a, b VisitorSeen) int {
		return cmp.Or(cmp.Compare(a.WorkspaceID, b.WorkspaceID), a.Day.Compare(b.Day), a.Hour.Compare(b.Hour))
	})
	return r
}

// see adds a person to list unless index has them, keeping the earlier hour of the two.
func see[K comparable](list []VisitorSeen, index map[K]int, k K, v VisitorSeen) []VisitorSeen {
	if j, ok := index[k]; ok {
		if v.Hour.Before(list[j].Hour) {
			list[j].Hour = v.Hour
		}
		return list
	}
	index[k] = len(list)
	return append(list, v)
}

// dim is the event's value in a breakdown, "" when it has none there.
func (e *Event) dim(d byte) string {
	switch d {
	case 'c':
		return e.Country
	case 'r':
		return e.Referrer
	case 'v':
		if e.Variant >= 0 {
			return strconv.Itoa(e.Variant)
		}
	case 's':
		return e.UTMSource
	case 'm':
		return e.UTMMedium
	case 'n':
		return e.UTMCampaign
	}
	return ""
}

// visitorBytes is the hash as stored: never nil (an event without one counts as one person).
func visitorBytes(v []byte) []byte {
	if v == nil {
		return []byte{}
	}
	return v
}

func utcDay(t time.Time) time.Time {
	y, m, d := t.UTC().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}
