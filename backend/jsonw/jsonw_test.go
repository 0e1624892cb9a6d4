package jsonw

import (
	"encoding/json"
	"testing"
	"time"
)

// FuzzAppendString: any string is written as encoding/json writes it.
func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"", "a<b>&c", "\u2028", "\xff", "\"\\\n", "😀"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, _ := json.Marshal(s)
		if got := AppendString(nil, s); string(got) != string(want) {
			t.Errorf("%q: got %s, want %s", s, got, want)
		}
	})
}

// TestAppendTime: a time TimeOK accepts is written as encoding/json writes it; the others are
// refused.
func TestAppendTime(t *testing.T) {
	for _, at := range []time.Time{time.Date(2026, 3, 4, 5, 6, 7, 891011000, time.FixedZone("x", 5400)), {}, time.Now()} {
		want, _ := json.Marshal(at)
		if !TimeOK(at) || string(AppendTime(nil, at)) != string(want) {
			t.Errorf("%v: %s, want %s", at, AppendTime(nil, at), want)
		}
	}
	for _, at := range []time.Time{time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2026, 1, 1, 0, 0, 0, 0, time.FixedZone("s", 30))} {
		if TimeOK(at) {
			t.Errorf("%v: accepted", at)
		}
	}
}
