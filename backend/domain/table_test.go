package domain

import (
	"fmt"
	"testing"
)

// filled is a table of n active domains d0.example.com … and one removed, without a store.
func filled(n int) *Table {
	t := NewTable(nil)
	s := &snapshot{byHost: map[string]*Route{}, byID: map[int64]*Route{}}
	for i := range n {
		r := &Route{ID: int64(i + 1), WorkspaceID: 1, Hostname: fmt.Sprintf("d%d.example.com", i), Active: true}
		s.byHost[r.Hostname], s.byID[r.ID] = r, r
	}
	gone := &Route{ID: int64(n + 1), Hostname: "gone.example.com"}
	s.byHost[gone.Hostname], s.byID[gone.ID] = gone, gone
	t.snap.Store(s)
	return t
}

func TestTableHost(t *testing.T) {
	tb := filled(3)
	for host, want := range map[string]int64{
		"d1.example.com": 2, "D1.Example.COM": 2, "d1.example.com:8443": 2, "d1.example.com.": 2,
		"D1.EXAMPLE.COM.:443": 2, "gone.example.com": 4, "sho.rt": 0, "sho.rt:80": 0, "": 0,
		"[::1]:80": 0, "[::1]": 0, "x.d1.example.com": 0, ".": 0,
	} {
		r := tb.Host(host)
		if (r == nil) != (want == 0) || r != nil && r.ID != want {
			t.Errorf("Host(%q) = %+v, want ID %d", host, r, want)
		}
	}
	if r := tb.Host("gone.example.com"); r == nil || r.Active {
		t.Errorf("a removed domain's host: %+v", r)
	}
	if NewTable(nil).Host("d1.example.com") != nil {
		t.Error("an empty table found a host")
	}
}

// BenchmarkHostMiss is the cost the service's own host pays on every request once custom
// domains exist: one atomic load and one map lookup that misses.
func BenchmarkHostMiss(b *testing.B) {
	tb := filled(10000)
	b.ReportAllocs()
	for b.Loop() {
		if tb.Host("sho.rt") != nil {
			b.Fatal("found")
		}
	}
}

// BenchmarkHostHit is a custom domain's lookup.
func BenchmarkHostHit(b *testing.B) {
	tb := filled(10000)
	b.ReportAllocs()
	for b.Loop() {
		if tb.Host("d77.example.com") == nil {
			b.Fatal("missing")
		}
	}
}
