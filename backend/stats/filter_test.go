package stats

import (
	"strings"
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/apperr"
)

// TestParseFilter: the breakdowns' names filter, each once, with a value the visits could hold;
// other parameters are left alone.
func TestParseFilter(t *testing.T) {
	for _, c := range []struct {
		query map[string][]string
		want  string // Params as "name=value " in FilterParams' order, or the field refused
		field string
	}{
		{map[string][]string{}, "", ""},
		{map[string][]string{"from": {"2026-01-01"}, "tag": {"x"}, "variant": {"0"}}, "", ""},
		{map[string][]string{"country": {"DE"}, "device": {"ios"}, "utm_campaign": {"spring sale"}}, "country=DE device=ios utm_campaign=spring sale ", ""},
		{map[string][]string{"referrer": {strings.Repeat("a", MaxFilterValue)}, "in_app": {"WeChat"}}, "referrer=" + strings.Repeat("a", MaxFilterValue) + " in_app=WeChat ", ""},
		{map[string][]string{"country": {"DE", "CN"}}, "", "country"},
		{map[string][]string{"country": {"de"}}, "", "country"},
		{map[string][]string{"country": {"DEU"}}, "", "country"},
		{map[string][]string{"device": {"tablet"}}, "", "device"},
		{map[string][]string{"os": {""}}, "", "os"},
		{map[string][]string{"browser": {"a\x00b"}}, "", "browser"},
		{map[string][]string{"utm_source": {"\xff"}}, "", "utm_source"},
		{map[string][]string{"referrer": {strings.Repeat("a", MaxFilterValue+1)}}, "", "referrer"},
	} {
		f, err := ParseFilter(c.query)
		if c.field != "" {
			if !apperr.Is(err, apperr.Invalid) || apperr.ReasonOf(err) != "filter_invalid" || apperr.FieldOf(err) != c.field {
				t.Errorf("%v: %v, want filter_invalid of %s", c.query, err, c.field)
			}
			continue
		}
		if err != nil {
			t.Errorf("%v: %v", c.query, err)
			continue
		}
		var got strings.Builder
		for _, p := range FilterParams {
			if v, ok := f.Params()[p.Name]; ok {
				got.WriteString(p.Name + "=" + v + " ")
			}
		}
		if got.String() != c.want {
			t.Errorf("%v: %q, want %q", c.query, got.String(), c.want)
		}
	}
}

// TestRawRange: a filtered range may start on the first UTC day whose raw visits are kept, not
// before; without a retention every range may be filtered.
func TestRawRange(t *testing.T) {
	now := time.Date(2026, 12, 6, 13, 0, 0, 0, time.UTC)
	s := &Service{now: func() time.Time { return now }, rawDays: 30}
	first := time.Date(2026, 11, 6, 0, 0, 0, 0, time.UTC)
	if got := RawSince(now, 30); !got.Equal(first) {
		t.Fatalf("RawSince %s, want %s", got, first)
	}
	if err := s.checkRawRange(Range{From: first, To: now, Loc: time.UTC}); err != nil {
		t.Errorf("from the first day kept: %v", err)
	}
	err := s.checkRawRange(Range{From: first.Add(-time.Hour), To: now, Loc: time.UTC})
	if apperr.ReasonOf(err) != "filter_range_unavailable" || apperr.FieldOf(err) != "from" {
		t.Errorf("an hour before: %v", err)
	}
	s.rawDays = 0
	if err := s.checkRawRange(Range{From: first.AddDate(-5, 0, 0), To: now, Loc: time.UTC}); err != nil {
		t.Errorf("no retention: %v", err)
	}
}
