package stats

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/link"
	"github.com/shortlink/shortlink/backend/visitor"
)

// Option sets up a Service.
type Option func(*Service)

// RawDays says how many days of raw visits are kept (VISIT_RETENTION_DAYS): a filtered range
// may start no earlier. 0, the default, keeps them all.
func RawDays(days int) Option { return func(s *Service) { s.rawDays = days } }

// Filter narrows a link's statistics to the visits that have every one of its values, one
// value per dimension (docs/architecture.md#statistics). An empty filter is none: the rollups
// answer; a filter is answered from the raw visits, which are kept for fewer days.
type Filter map[Dim]string

// FilterParam is a query parameter that filters, named as the breakdown it narrows.
type FilterParam struct {
	Name string
	Dim  Dim
}

// FilterParams are the parameters a link's statistics take, in the order they are read.
var FilterParams = []FilterParam{
	{"country", Country}, {"device", Device}, {"os", OS}, {"browser", Browser},
	{"referrer", Referrer}, {"in_app", InApp},
	{"utm_source", UTMSource}, {"utm_medium", UTMMedium}, {"utm_campaign", UTMCampaign},
}

// MaxFilterValue is the longest value a filter takes, in bytes: a host name's 253 fits, and the
// stored UTM parameters are at most 100.
const MaxFilterValue = 253

// devices are the values a visit's device takes (docs/visitors.md).
var devices = []string{string(visitor.IOS), string(visitor.Android), string(visitor.Desktop), string(visitor.OtherDevice)}

// ParseFilter reads the filter parameters of a query (those FilterParams names; others are
// left alone). It answers invalid (filter_invalid) for a parameter given twice or empty, a
// value too long, not UTF-8 or holding a control character, a country that is not two capital
// letters, or a device that is none of ios, android, desktop and other.
func ParseFilter(query map[string][]string) (Filter, error) {
	f := Filter{}
	for _, p := range FilterParams {
		vs, ok := query[p.Name]
		if !ok {
			continue
		}
		if len(vs) != 1 {
			return nil, badFilter(p.Name, "%s is given more than once: the filters of one breakdown do not combine", p.Name)
		}
		v := vs[0]
		switch {
		case v == "":
			return nil, badFilter(p.Name, "%s is empty", p.Name)
		case len(v) > MaxFilterValue:
			return nil, badFilter(p.Name, "%s is longer than %d bytes", p.Name, MaxFilterValue)
		case !utf8.ValidString(v) || strings.ContainsFunc(v, func(r rune) bool { return r < 0x20 || r == 0x7f }):
			return nil, badFilter(p.Name, "%s holds a character that is not text", p.Name)
		case p.Dim == Country && !isCountry(v):
			return nil, badFilter(p.Name, "country must be an ISO 3166-1 code of two capital letters, such as DE")
		case p.Dim == Device && !slices.Contains(devices, v):
			return nil, badFilter(p.Name, "device must be one of %s", strings.Join(devices, ", "))
		}
		f[p.Dim] = v
	}
	return f, nil
}

// Params is the filter as query parameters, by name.
func (f Filter) Params() map[string]string {
	if len(f) == 0 {
		return nil
	}
	out := make(map[string]string, len(f))
	for _, p := range FilterParams {
		if v, ok := f[p.Dim]; ok {
			out[p.Name] = v
		}
	}
	return out
}

func isCountry(v string) bool {
	return len(v) == 2 && 'A' <= v[0] && v[0] <= 'Z' && 'A' <= v[1] && v[1] <= 'Z'
}

func badFilter(name, format string, args ...any) error {
	return apperr.Errorf(apperr.Invalid, format, args...).For("filter_invalid", name)
}

// RawSince is the first instant whose raw visits are kept at now when they are kept for days
// days: the start of that many UTC days before today's (the ingest drops a day's partition
// once it is older).
func RawSince(now time.Time, days int) time.Time {
	return now.UTC().Truncate(24*time.Hour).AddDate(0, 0, -days)
}

// checkRawRange answers invalid (filter_range_unavailable) when r starts before the raw visits
// kept at now.
func (s *Service) checkRawRange(r Range) error {
	if s.rawDays <= 0 {
		return nil
	}
	since := RawSince(s.now(), s.rawDays)
	if r.From.Before(since) {
		return apperr.Errorf(apperr.Invalid,
			"a filtered range starts on %s at the earliest: single visits are kept %d days",
			since.In(r.Loc).Format(time.RFC3339), s.rawDays).For("filter_range_unavailable", "from")
	}
	return nil
}

// linkFiltered answers l's statistics over r from the raw visits that match f, in the shape
// the rollups' answer has: the same hours, series and breakdowns.
func (s *Service) linkFiltered(ctx context.Context, l *link.Link, r Range, f Filter) (*LinkStats, error) {
	days := r.Days()
	r = r.Hours()
	if err := s.checkRawRange(r); err != nil {
		return nil, err
	}
	hours, keys, err := s.store.LinkVisits(ctx, l.WorkspaceID, l.ID, f, r.From, r.To, MaxKeys)
	if err != nil {
		return nil, fmt.Errorf("link %d filtered statistics: %w", l.ID, err)
	}
	out := linkStats(l, r, days, hours, keys)
	out.Filter = f.Params()
	return out, nil
}
