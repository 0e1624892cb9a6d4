package stats

import (
	"fmt"
	"testing"

	"github.com/shortlink/shortlink/backend/link"
)

// TestBreakdowns: variant indexes become URLs (two indexes of one URL are one key, an index the
// link no longer has is "#<index>"), lists are sorted by visits then key, and cut at MaxKeys.
func TestBreakdowns(t *testing.T) {
	variants := []link.Variant{{URL: "https://a.example/"}, {URL: "https://b.example/"}, {URL: "https://a.example/"}}
	keys := []KeyCount{
		{Variant, "0", 2}, {Variant, "1", 3}, {Variant, "2", 2}, {Variant, "7", 3}, {Variant, "x", 1},
		{Country, "US", 1}, {Country, "CN", 1}, {Country, "DE", 5},
		{Dim('z'), "unknown dimension", 9},
	}
	for i := range MaxKeys + 5 {
		keys = append(keys, KeyCount{Referrer, fmt.Sprintf("r%03d", i), int64(1 + i%2)})
	}
	b := breakdowns(keys, variants)
	if got := fmt.Sprint(b.Variant); got != "[{https://a.example/ 4} {#7 3} {https://b.example/ 3} {#x 1}]" {
		t.Errorf("variants %s", got)
	}
	if got := fmt.Sprint(b.Country); got != "[{DE 5} {CN 1} {US 1}]" {
		t.Errorf("countries %s", got)
	}
	if len(b.Referrer) != MaxKeys || b.Referrer[0] != (Count{"r001", 2}) || b.Referrer[MaxKeys-1] != (Count{"r094", 1}) {
		t.Errorf("referrers %v", b.Referrer)
	}
	if b.Device == nil || b.InApp == nil || len(b.Device) != 0 {
		t.Errorf("empty lists must be empty, not nil: %#v", b.Device)
	}
}
