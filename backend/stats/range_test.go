package stats_test

import (
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/stats"
)

var now = time.Date(2026, 11, 23, 16, 47, 5, 0, time.UTC)

func TestQueryRange(t *testing.T) {
	cases := []struct {
		name     string
		q        stats.Query
		days     int
		from, to string // RFC 3339 in the zone; "" for an error
	}{
		{"defaults", stats.Query{}, 90, "2026-08-26T00:00:00Z", "2026-11-23T16:47:05Z"},
		{"defaults east", stats.Query{TZ: "Asia/Shanghai"}, 90, "2026-08-27T00:00:00+08:00", "2026-11-24T00:47:05+08:00"},
		{"defaults west", stats.Query{TZ: "America/Los_Angeles"}, 30, "2026-10-25T00:00:00-07:00", "2026-11-23T08:47:05-08:00"},
		{"dates", stats.Query{From: "2025-03-10", To: "2025-03-12"}, 90, "2025-03-10T00:00:00Z", "2025-03-13T00:00:00Z"},
		{"one date", stats.Query{From: "2025-03-10", To: "2025-03-10", TZ: "Asia/Shanghai"}, 90, "2025-03-10T00:00:00+08:00", "2025-03-11T00:00:00+08:00"},
		{"to alone", stats.Query{To: "2025-03-10"}, 90, "2024-12-11T00:00:00Z", "2025-03-11T00:00:00Z"},
		{"to a time alone", stats.Query{To: "2025-03-10T00:00:00Z"}, 2, "2025-03-08T00:00:00Z", "2025-03-10T00:00:00Z"},
		{"from alone", stats.Query{From: "2026-11-01"}, 90, "2026-11-01T00:00:00Z", "2026-11-23T16:47:05Z"},
		{"times with offsets", stats.Query{From: "2025-03-10T08:00:00+08:00", To: "2025-03-10T12:30:00.5Z", TZ: "Europe/Berlin"}, 90,
			"2025-03-10T01:00:00+01:00", "2025-03-10T13:30:00.5+01:00"},
		{"summer time starts", stats.Query{From: "2025-03-09", To: "2025-03-09", TZ: "America/New_York"}, 90, "2025-03-09T00:00:00-05:00", "2025-03-10T00:00:00-04:00"},
		{"400 days", stats.Query{From: "2024-01-01", To: "2025-02-03"}, 90, "2024-01-01T00:00:00Z", "2025-02-04T00:00:00Z"},
		{"401 days", stats.Query{From: "2024-01-01", To: "2025-02-04"}, 90, "", ""},
		{"from after to", stats.Query{From: "2025-03-11", To: "2025-03-10"}, 90, "", ""},
		{"empty", stats.Query{From: "2025-03-10T10:00:00Z", To: "2025-03-10T10:00:00Z"}, 90, "", ""},
		{"from in the future", stats.Query{From: "2027-01-01"}, 90, "", ""},
		{"bad from", stats.Query{From: "10 March"}, 90, "", ""},
		{"bad to", stats.Query{To: "2025-02-29"}, 90, "", ""},
		{"time without zone", stats.Query{From: "2025-03-10T10:00:00"}, 90, "", ""},
		{"unknown zone", stats.Query{TZ: "Mars/Olympus"}, 90, "", ""},
		{"local zone", stats.Query{TZ: "Local"}, 90, "", ""},
		{"zone path", stats.Query{TZ: "../../../etc/passwd"}, 90, "", ""},
		{"zone absolute", stats.Query{TZ: "/etc/localtime"}, 90, "", ""},
		{"old", stats.Query{From: "1969-12-01", To: "1969-12-02"}, 90, "", ""},
		{"far", stats.Query{From: "3000-01-01", To: "3000-01-02"}, 90, "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, err := c.q.Range(now, c.days)
			if c.from == "" {
				if !apperr.Is(err, apperr.Invalid) {
					t.Fatalf("Range = %v, %v; want invalid", r, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := [2]string{r.From.Format(time.RFC3339Nano), r.To.Format(time.RFC3339Nano)}; got != [2]string{c.from, c.to} {
				t.Errorf("Range = %v, want [%s, %s)", got, c.from, c.to)
			}
		})
	}
}

func TestRangeHoursAndDays(t *testing.T) {
	zone := func(name string) *time.Location {
		loc, err := stats.Zone(name)
		if err != nil {
			t.Fatal(err)
		}
		return loc
	}
	cases := []struct {
		name     string
		q        stats.Query
		from, to string   // the range rounded to hours
		days     []string // starts of its days
	}{
		{"inside hours", stats.Query{From: "2025-03-10T01:30:00Z", To: "2025-03-10T15:10:00Z"},
			"2025-03-10T01:00:00Z", "2025-03-10T16:00:00Z", []string{"2025-03-10T00:00:00Z"}},
		{"whole hours stay", stats.Query{From: "2025-03-10T01:00:00Z", To: "2025-03-11T01:00:00Z"},
			"2025-03-10T01:00:00Z", "2025-03-11T01:00:00Z", []string{"2025-03-10T00:00:00Z", "2025-03-11T00:00:00Z"}},
		// India's midnight is half past a UTC hour: the range starts half an hour before it.
		{"half-hour zone", stats.Query{From: "2025-03-10", To: "2025-03-10", TZ: "Asia/Kolkata"},
			"2025-03-09T23:30:00+05:30", "2025-03-11T00:30:00+05:30", []string{"2025-03-10T00:00:00+05:30"}},
		// Summer time began at midnight in Chile: 7 September 2024 ran from 00:00 to 24:00,
		// then 8 September started at 01:00.
		{"midnight skipped", stats.Query{From: "2024-09-07", To: "2024-09-09", TZ: "America/Santiago"},
			"2024-09-07T00:00:00-04:00", "2024-09-10T00:00:00-03:00",
			[]string{"2024-09-07T00:00:00-04:00", "2024-09-08T01:00:00-03:00", "2024-09-09T00:00:00-03:00"}},
		{"summer time ends", stats.Query{From: "2025-10-25", To: "2025-10-27", TZ: "Europe/Berlin"},
			"2025-10-25T00:00:00+02:00", "2025-10-28T00:00:00+01:00",
			[]string{"2025-10-25T00:00:00+02:00", "2025-10-26T00:00:00+02:00", "2025-10-27T00:00:00+01:00"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, err := c.q.Range(now, 90)
			if err != nil {
				t.Fatal(err)
			}
			h := r.Hours()
			if got := [2]string{h.From.Format(time.RFC3339), h.To.Format(time.RFC3339)}; got != [2]string{c.from, c.to} {
				t.Errorf("Hours = %v, want [%s, %s)", got, c.from, c.to)
			}
			var days []string
			for _, d := range r.Days() {
				days = append(days, d.Format(time.RFC3339))
				if d.Location().String() != zone(c.q.TZ).String() {
					t.Errorf("day %v not in %s", d, c.q.TZ)
				}
			}
			if len(days) != len(c.days) {
				t.Fatalf("Days = %v, want %v", days, c.days)
			}
			for i := range days {
				if days[i] != c.days[i] {
					t.Errorf("Days = %v, want %v", days, c.days)
				}
			}
		})
	}
}

// FuzzQueryRange: whatever a client sends, Range answers a range or invalid, never panics,
// and a range it answers is non-empty, at most MaxDays days long, and rounds to whole hours
// whose days cover it.
func FuzzQueryRange(f *testing.F) {
	f.Add("2025-03-10", "2025-03-12", "Asia/Shanghai")
	f.Add("2025-03-10T01:30:00Z", "", "")
	f.Add("", "2025-03-10T01:30:00+05:45", "Asia/Kathmandu")
	f.Add("2024-09-07", "2024-09-08", "America/Santiago")
	f.Fuzz(func(t *testing.T, from, to, tz string) {
		r, err := stats.Query{From: from, To: to, TZ: tz}.Range(now, 90)
		if err != nil {
			if !apperr.Is(err, apperr.Invalid) {
				t.Fatalf("error %v is not invalid", err)
			}
			return
		}
		if !r.From.Before(r.To) || r.To.Sub(r.From) > (stats.MaxDays*24+2)*time.Hour {
			t.Fatalf("range %v – %v", r.From, r.To)
		}
		h := r.Hours()
		if h.From.After(r.From) || h.To.Before(r.To) || h.From.Truncate(time.Hour) != h.From || h.To.Truncate(time.Hour) != h.To {
			t.Fatalf("hours %v – %v of %v – %v", h.From, h.To, r.From, r.To)
		}
		days := r.Days()
		if len(days) == 0 || days[0].After(r.From) || len(days) > stats.MaxDays+2 {
			t.Fatalf("%d days from %v for %v – %v", len(days), days, r.From, r.To)
		}
		for i := 1; i < len(days); i++ {
			if !days[i].After(days[i-1]) {
				t.Fatalf("days %v", days)
			}
		}
	})
}

func TestLastDayBounds(t *testing.T) {
	berlin, err := stats.Zone("Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	// 2026-03-29 is 23 hours long in Berlin (summer time begins).
	now := time.Date(2026, 3, 31, 21, 30, 0, 0, time.UTC) // 23:30 in Berlin
	got := stats.LastDayBounds(now, berlin, 7)
	if len(got) != 8 {
		t.Fatalf("%d bounds, want 8", len(got))
	}
	for i, want := range []string{"2026-03-25T00:00:00+01:00", "2026-03-26T00:00:00+01:00", "2026-03-27T00:00:00+01:00",
		"2026-03-28T00:00:00+01:00", "2026-03-29T00:00:00+01:00", "2026-03-30T00:00:00+02:00", "2026-03-31T00:00:00+02:00",
		"2026-04-01T00:00:00+02:00"} {
		if s := got[i].Format(time.RFC3339); s != want {
			t.Errorf("bound %d: %s, want %s", i, s, want)
		}
	}
	if utc := stats.LastDayBounds(now, time.UTC, 1); !utc[0].Equal(time.Date(2026, 3, 31, 0, 0, 0, 0, time.UTC)) || !utc[1].Equal(time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("today in UTC: %v", utc)
	}
}

// A dashboard's range is whole days: the last 14 by default, else the days from and to touch.
func TestDashboardRange(t *testing.T) {
	for _, c := range []struct {
		name     string
		q        stats.Query
		from, to string // "" for an error
	}{
		{"default", stats.Query{}, "2026-11-10T00:00:00Z", "2026-11-24T00:00:00Z"},
		{"default east", stats.Query{TZ: "Asia/Shanghai"}, "2026-11-11T00:00:00+08:00", "2026-11-25T00:00:00+08:00"},
		{"today", stats.Query{From: "2026-11-23", To: "2026-11-23"}, "2026-11-23T00:00:00Z", "2026-11-24T00:00:00Z"},
		{"from alone", stats.Query{From: "2026-11-20"}, "2026-11-20T00:00:00Z", "2026-11-24T00:00:00Z"},
		{"times", stats.Query{From: "2026-11-20T10:00:00Z", To: "2026-11-21T03:00:00Z"}, "2026-11-20T00:00:00Z", "2026-11-22T00:00:00Z"},
		{"401 days", stats.Query{From: "2024-01-01", To: "2025-02-04"}, "", ""},
		{"bad zone", stats.Query{TZ: "Mars/Olympus"}, "", ""},
	} {
		r, err := c.q.DashboardRange(now)
		if c.from == "" {
			if !apperr.Is(err, apperr.Invalid) {
				t.Errorf("%s: %v, %v; want invalid", c.name, r, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if got := r.From.Format(time.RFC3339); got != c.from {
			t.Errorf("%s: from %s, want %s", c.name, got, c.from)
		}
		if got := r.To.Format(time.RFC3339); got != c.to {
			t.Errorf("%s: to %s, want %s", c.name, got, c.to)
		}
	}
}
