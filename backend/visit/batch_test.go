package visit_test

import (
	"testing"

	"github.com/shortlink/shortlink/backend/visit"
)

// BenchmarkSummarise sums a consumer's insert: 100,000 visits of 10,000 links (Zipf).
//
//	go test -run x -bench Summarise ./backend/visit
func BenchmarkSummarise(b *testing.B) {
	evs := benchEvents(100_000, false)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		visit.Summarise(evs)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(evs)), "ns/event")
}
