package stats

import (
	"strings"
	"time"
	// The zones are compiled in, so that every deployment (a distroless image included) knows
	// the same names and rules, whatever its system holds.
	_ "time/tzdata"

	"github.com/shortlink/shortlink/backend/apperr"
)

// Spans of ranges, in days.
const (
	// LinkDays is the default span of a link's statistics: 90 days, today included.
	LinkDays = 90
	// ExportDays is the default span of a visits export: 30 days, today included.
	ExportDays = 30
	// MaxDays is the longest range a client may ask for.
	MaxDays = 400
	// DashboardDays is the span of the dashboards: 14 days, today included.
	DashboardDays = 14
)

// Times outside these years are refused: no visit is that old, and none will be that late.
const (
	minYear = 1970
	maxYear = 3000
)

// Query is a range as a client writes it: from and to as RFC 3339 times or dates
// (YYYY-MM-DD), and an IANA time zone; every part may be empty.
type Query struct {
	From, To, TZ string
}

// Range is the span of time [From, To), read in the time zone Loc (From and To are in Loc).
type Range struct {
	From, To time.Time
	Loc      *time.Location
}

// Zone returns the IANA time zone named, UTC when name is empty; invalid for a name that is
// not a zone.
func Zone(name string) (*time.Location, error) {
	if name == "" || name == "UTC" {
		return time.UTC, nil
	}
	// "Local" is the server's zone, which means nothing to a client.
	if name == "Local" || len(name) > 64 || strings.ContainsAny(name, "\x00\\") {
		return nil, badZone(name)
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil, badZone(name)
	}
	return loc, nil
}

func badZone(name string) error {
	if len(name) > 64 {
		name = name[:64] + "…"
	}
	return apperr.Errorf(apperr.Invalid, "tz %q is not an IANA time zone such as Asia/Shanghai or UTC", name).For("value_invalid", "tz")
}

// Range reads q at now. A date means the start of that day in the zone, and for to the end of
// it (the start of the next). Without to, the range ends at now; without from, it starts at
// the beginning of the day defaultDays-1 days before the last day of the range, so that it
// holds defaultDays days, the last one included. It answers invalid for a value it cannot
// read, a from not before to, or a range longer than MaxDays days.
func (q Query) Range(now time.Time, defaultDays int) (Range, error) {
	loc, err := Zone(q.TZ)
	if err != nil {
		return Range{}, err
	}
	to := now
	if q.To != "" {
		if to, err = parseTime("to", q.To, loc, true); err != nil {
			return Range{}, err
		}
	}
	var from time.Time
	if q.From != "" {
		if from, err = parseTime("from", q.From, loc, false); err != nil {
			return Range{}, err
		}
	} else {
		from = dayOffset(DayStart(to.Add(-time.Nanosecond), loc), -(defaultDays - 1))
	}
	if !from.Before(to) {
		return Range{}, apperr.Errorf(apperr.Invalid, "from (%s) must be before to (%s)",
			from.In(loc).Format(time.RFC3339), to.In(loc).Format(time.RFC3339)).For("range_invalid", "from")
	}
	if to.After(from.In(loc).AddDate(0, 0, MaxDays)) {
		return Range{}, apperr.Errorf(apperr.Invalid, "a range spans at most %d days", MaxDays).For("range_invalid", "from")
	}
	return Range{From: from.In(loc), To: to.In(loc), Loc: loc}, nil
}

// DashboardRange reads q for a dashboard at now: whole days in the zone, the last
// DashboardDays days (today included) when q names neither from nor to; otherwise as Range
// reads it, widened to the days it touches.
func (q Query) DashboardRange(now time.Time) (Range, error) {
	if q.From == "" && q.To == "" {
		loc, err := Zone(q.TZ)
		if err != nil {
			return Range{}, err
		}
		return LastDays(now, loc, DashboardDays), nil
	}
	r, err := q.Range(now, DashboardDays)
	if err != nil {
		return Range{}, err
	}
	r.From = DayStart(r.From, r.Loc)
	r.To = dayOffset(DayStart(r.To.Add(-time.Nanosecond), r.Loc), 1)
	if r.To.After(r.From.AddDate(0, 0, MaxDays)) {
		return Range{}, apperr.Errorf(apperr.Invalid, "a range spans at most %d days", MaxDays).For("range_invalid", "from")
	}
	return r, nil
}

// LastDays is the n whole days in loc that end with now's day.
func LastDays(now time.Time, loc *time.Location, n int) Range {
	today := DayStart(now, loc)
	return Range{From: dayOffset(today, -(n - 1)), To: dayOffset(today, 1), Loc: loc}
}

// parseTime reads an RFC 3339 time or a date in loc; a date that ends a range means the start
// of the next day.
func parseTime(name, v string, loc *time.Location, end bool) (time.Time, error) {
	t, err := time.Parse(time.RFC3339, v)
	if err != nil {
		d, derr := time.ParseInLocation(time.DateOnly, v, loc)
		if derr != nil {
			return time.Time{}, apperr.Errorf(apperr.Invalid,
				"%s must be an RFC 3339 time such as 2025-03-10T08:00:00Z or a date such as 2025-03-10", name).For("value_invalid", name)
		}
		t = d
		if end {
			t = dayOffset(d, 1)
		}
	}
	if y := t.UTC().Year(); y < minYear || y >= maxYear {
		return time.Time{}, apperr.Errorf(apperr.Invalid, "%s must lie between the years %d and %d", name, minYear, maxYear-1).For("value_invalid", name)
	}
	return t, nil
}

// Hours is r rounded outward to whole hours (UTC hours: the rollups' unit).
func (r Range) Hours() Range {
	from := r.From.Truncate(time.Hour)
	to := r.To.Truncate(time.Hour)
	if to.Before(r.To) {
		to = to.Add(time.Hour)
	}
	return Range{From: from.In(r.Loc), To: to.In(r.Loc), Loc: r.Loc}
}

// Days are the starts (midnight in r.Loc) of the days r touches, oldest first: the first and
// the last may be partly outside r.
func (r Range) Days() []time.Time {
	var out []time.Time
	for d := DayStart(r.From, r.Loc); d.Before(r.To); d = dayOffset(d, 1) {
		out = append(out, d)
	}
	return out
}

// LastDayBounds are the bounds of the last n days in loc at now, today included: the start of
// each day, oldest first, and the start of tomorrow (n+1 instants).
func LastDayBounds(now time.Time, loc *time.Location, n int) []time.Time {
	r := LastDays(now, loc, n)
	return append(r.Days(), r.To)
}

// DayStart is the start of t's day in loc.
func DayStart(t time.Time, loc *time.Location) time.Time {
	y, m, d := t.In(loc).Date()
	return midnight(y, m, d, loc)
}

// dayOffset is the start of the day n days after the day that starts at day (calendar days:
// a day of a change to or from summer time lasts 23 or 25 hours).
func dayOffset(day time.Time, n int) time.Time {
	y, m, d := day.Date()
	return midnight(y, m, d+n, day.Location())
}

// midnight is the first instant of the day (y, m, d) in loc (d may overflow the month). Where
// summer time begins at midnight the day starts at 01:00, and time.Date may answer an instant
// of the day before: that is stepped over.
func midnight(y int, m time.Month, d int, loc *time.Location) time.Time {
	y, m, d = time.Date(y, m, d, 12, 0, 0, 0, time.UTC).Date()
	t := time.Date(y, m, d, 0, 0, 0, 0, loc)
	for i := 0; i < 8 && t.Day() != d; i++ {
		t = t.Add(15 * time.Minute).Truncate(15 * time.Minute)
	}
	return t
}
