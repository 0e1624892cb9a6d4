// Package stats is the read side of the visits (docs/architecture.md#statistics): a link's totals, series and
// breakdowns, the workspace and operator dashboards, and the CSV exports. It reads only what
// the visit rollups hold (package visit keeps them in step with the raw visits), except for
// the visits export, which reads the raw visits.
//
// What the numbers mean: visits are people's visits, bots are crawlers' (docs/visitors.md), and
// unique visitors are people counted once per UTC day, in the hour they were first seen that
// day (the visitor hash is salted per day, so nobody can be followed across days): over a range
// the unique visitors are the sum of each day's, and a range that starts within a day counts
// only those first seen inside it. The rollups are per UTC hour, so a range is rounded outward
// to whole hours, and a day in a time zone is made of the UTC hours that begin in it: exact for
// zones whose offset is whole hours, off by the part of an hour elsewhere (India, Nepal).
package stats

import (
	"cmp"
	"context"
	"fmt"
	"iter"
	"slices"
	"strconv"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/link"
)

// Limits of the answers.
const (
	// MaxKeys is the most keys a breakdown lists: the ones with most visits.
	MaxKeys = 100
	// HourlyPoints is how many hours the hourly series shows: the last 48 of the range.
	HourlyPoints = 48
	// TopLinks is how many links a dashboard ranks.
	TopLinks = 10
)

// Dim is a dimension of the breakdowns, as the rollups name it.
type Dim byte

// The dimensions of the breakdowns.
const (
	Country  Dim = 'c' // ISO 3166-1 alpha-2 code
	Device   Dim = 'd' // ios, android, desktop, other
	OS       Dim = 'o'
	Browser  Dim = 'b'
	Referrer Dim = 'r' // the referring page's host
	Variant  Dim = 'v' // the A/B variant's index (its URL in answers)
	InApp    Dim = 'i' // the app whose in-app browser it was
	// The campaign the short link's query string named.
	UTMSource   Dim = 's' // utm_source
	UTMMedium   Dim = 'm' // utm_medium
	UTMCampaign Dim = 'n' // utm_campaign
)

// Hour is what the rollups hold for one UTC hour.
type Hour struct {
	Start   time.Time
	Visits  int64 // people
	Bots    int64 // crawlers
	Uniques int64 // people first seen that UTC day in this hour
}

// HourCount is a count of things that happened in one UTC hour.
type HourCount struct {
	Start time.Time
	N     int64
}

// KeyCount is people's visits with one value of a breakdown.
type KeyCount struct {
	Dim    Dim
	Key    string
	Visits int64
}

// Span is the time [From, To).
type Span struct {
	From, To time.Time
}

// Scope is what a dashboard counts: one workspace, or every one of them (operators).
type Scope struct {
	WorkspaceID int64
	All         bool
	// TagID narrows a workspace's scope to the links carrying that tag; 0 for every link,
	// NoTag for none.
	TagID int64
}

// NoTag is a TagID no link carries: what a tag name the workspace has no tag of narrows to.
const NoTag int64 = -1

// Activity is what the rollups say of a scope's hours: visits, links created, top links.
type Activity struct {
	Visits  []Hour      // visits and bots per UTC hour that had any
	Created []HourCount // links created per UTC hour that had any
	Top     []TopLink   // most people's visits first, without ShortURL
}

// LinkTotals is a link with its visits since it was made, a row of the links export.
type LinkTotals struct {
	ID        int64
	DomainID  int64
	Key       string
	ShortURL  string
	URL       string
	Title     string
	Status    string
	CreatedAt time.Time
	Visits    int64
	Uniques   int64
	Bots      int64
	Tags      []string // the names of the link's tags
}

// Visit is one stored visit, a row of the visits export.
type Visit struct {
	EventID string
	At      time.Time
	LinkID  int64
	Key     string // the link's key; "" when the link was deleted
	Variant string // the variant's URL, "#<index>" when the link no longer has it, "" when none
	Country string
	Device  string
	OS      string
	Browser string
	// Referrer is the referring page's host.
	Referrer string
	InApp    string
	Bot      bool
	Visitor  []byte // the daily-salted visitor hash
	// UTMSource, UTMMedium and UTMCampaign are the campaign the short link's query named.
	UTMSource, UTMMedium, UTMCampaign string
}

// Store reads the visit rollups and the raw visits; every method of tenant data takes the
// workspace (or, for Activity, a Scope naming it).
type Store interface {
	// LinkHours returns the link's rollups of the UTC hours in [from, to) that had visits,
	// oldest first.
	LinkHours(ctx context.Context, workspaceID, linkID int64, from, to time.Time) ([]Hour, error)
	// LinkKeys returns people's visits of the link per breakdown key over the UTC days of
	// days (whole days, From and To at midnight UTC; none when empty) and the hours of hours,
	// at most limit keys per dimension: most visits first, then by key (bytewise).
	LinkKeys(ctx context.Context, linkID int64, days Span, hours []Span, limit int) ([]KeyCount, error)
	// LinkVisits reads the workspace's link's raw visits of [from, to) that match f: the UTC
	// hours that had any, oldest first, and people's visits per breakdown key (at most limit
	// per dimension, ranked as LinkKeys ranks them).
	LinkVisits(ctx context.Context, workspaceID, linkID int64, f Filter, from, to time.Time, limit int) ([]Hour, []KeyCount, error)
	// Activity returns the scope's visits and links created per UTC hour of [from, to), and
	// its top links of that time by people's visits (links still there only).
	Activity(ctx context.Context, scope Scope, from, to time.Time, top int) (*Activity, error)
	// Population counts the users and the workspaces not deleted.
	Population(ctx context.Context) (users, workspaces int64, err error)
	// AllLinks yields every link of the workspace by ID with its all-time totals and tags,
	// those a listing's filter f matches only (its IDs resolved: link.Service.ResolveFilter;
	// its sort, cursor, days and limit unread), reading a page at a time; it stops at the first
	// error, which it yields.
	AllLinks(ctx context.Context, workspaceID int64, f link.Filter) iter.Seq2[LinkTotals, error]
	// AllVisits yields the workspace's visits of [from, to) by time, those of the link linkID
	// only unless it is 0, of the links carrying the tag tagID only unless it is 0 and those
	// that have every value of f only, reading a page at a time; it stops at the first error,
	// which it yields.
	AllVisits(ctx context.Context, workspaceID, linkID, tagID int64, f Filter, from, to time.Time) iter.Seq2[Visit, error]
}

// Links finds the workspace's links and builds their short URLs (link.Service).
type Links interface {
	// Get returns the workspace's link, not_found when it is not the workspace's.
	Get(ctx context.Context, workspaceID, id int64) (*link.Link, error)
	// ShortURL is the short URL of the link at key on a domain.
	ShortURL(domainID int64, key string) string
}

// Service answers the statistics.
type Service struct {
	store    Store
	links    Links
	now      func() time.Time
	activity *activityCache
	rawDays  int // days of raw visits kept, 0: all
}

// NewService returns the statistics service.
func NewService(store Store, links Links, opts ...Option) *Service {
	s := &Service{store: store, links: links, now: time.Now}
	for _, o := range opts {
		o(s)
	}
	s.activity = newActivityCache(store, func() time.Time { return s.now() })
	return s
}

// LinkStats are a link's statistics over a range (docs/api.md, statistics).
type LinkStats struct {
	LinkID int64 `json:"link_id"`
	// From, To and TZ are the range answered: whole hours, in the zone asked for.
	From           time.Time  `json:"from"`
	To             time.Time  `json:"to"`
	TZ             string     `json:"tz"`
	Visits         int64      `json:"visits"`
	UniqueVisitors int64      `json:"unique_visitors"`
	Bots           int64      `json:"bots"`
	Series         Series     `json:"series"`
	Breakdowns     Breakdowns `json:"breakdowns"`
	// Filter is the filter answered, by parameter name; absent when there is none.
	Filter map[string]string `json:"filter,omitempty"`
}

// Series are the visits of a range over time, every hour or day of it, zero-filled.
type Series struct {
	// Hourly are the last HourlyPoints hours of the range.
	Hourly []Point `json:"hourly"`
	// Daily are the days of the range in its zone, from midnight; the first and the last
	// count only the part of their day inside the range.
	Daily []Point `json:"daily"`
}

// Point is the visits of one hour or day.
type Point struct {
	Start  time.Time `json:"start"`
	Visits int64     `json:"visits"`
	Bots   int64     `json:"bots"`
}

// Breakdowns are people's visits by each property of the visit; each list holds at most
// MaxKeys keys, most visits first, then by key. Visits whose value is unknown (no country, no
// referrer, no variant, no UTM parameter) are in no key of that list.
type Breakdowns struct {
	Country  []Count `json:"country"`
	Device   []Count `json:"device"`
	OS       []Count `json:"os"`
	Browser  []Count `json:"browser"`
	Referrer []Count `json:"referrer"`
	Variant  []Count `json:"variant"`
	InApp    []Count `json:"in_app"`
	// UTMSource, UTMMedium and UTMCampaign count the utm_source, utm_medium and utm_campaign
	// parameters of the short link's query string.
	UTMSource   []Count `json:"utm_source"`
	UTMMedium   []Count `json:"utm_medium"`
	UTMCampaign []Count `json:"utm_campaign"`
}

// Count is the visits with one key.
type Count struct {
	Key    string `json:"key"`
	Visits int64  `json:"visits"`
}

// Link answers the statistics of the workspace's link over r; not_found when the link is not
// the workspace's.
func (s *Service) Link(ctx context.Context, workspaceID, linkID int64, r Range) (*LinkStats, error) {
	return s.LinkFiltered(ctx, workspaceID, linkID, r, nil)
}

// LinkFiltered answers the statistics of the workspace's link over r, of the visits that match
// f only unless it is empty; not_found when the link is not the workspace's, and invalid
// (filter_range_unavailable) for a filter over a range older than the raw visits kept.
func (s *Service) LinkFiltered(ctx context.Context, workspaceID, linkID int64, r Range, f Filter) (*LinkStats, error) {
	l, err := s.links.Get(ctx, workspaceID, linkID)
	if err != nil {
		return nil, err
	}
	if len(f) > 0 {
		return s.linkFiltered(ctx, l, r, f)
	}
	days := r.Days()
	r = r.Hours()
	// The two reads take about as long as each other: side by side, the answer takes one.
	var hours []Hour
	var keys []KeyCount
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() (err error) {
		if hours, err = s.store.LinkHours(gctx, l.WorkspaceID, l.ID, r.From, r.To); err != nil {
			return fmt.Errorf("link %d statistics: %w", l.ID, err)
		}
		return nil
	})
	g.Go(func() (err error) {
		whole, edges := splitDays(r)
		if keys, err = s.store.LinkKeys(gctx, l.ID, whole, edges, MaxKeys); err != nil {
			return fmt.Errorf("link %d breakdowns: %w", l.ID, err)
		}
		return nil
	})
	if err := g.Wait(); err != nil {
		return nil, err
	}
	return linkStats(l, r, days, hours, keys), nil
}

// linkStats is a link's statistics over r from its hours (the series and totals) and its
// breakdowns' counts, filtered or not.
func linkStats(l *link.Link, r Range, days []time.Time, hours []Hour, keys []KeyCount) *LinkStats {
	out := &LinkStats{LinkID: l.ID, From: r.From, To: r.To, TZ: r.Loc.String()}
	for _, h := range hours {
		out.Visits += h.Visits
		out.Bots += h.Bots
		out.UniqueVisitors += h.Uniques
	}
	out.Series = series(r, days, hours)
	out.Breakdowns = breakdowns(keys, l.Rules.Variants)
	return out
}

// splitDays divides an hour-aligned range into the whole UTC days inside it, which the daily
// rollups answer, and the hours at its ends, which the hourly ones do.
func splitDays(r Range) (days Span, edges []Span) {
	from, to := r.From.UTC(), r.To.UTC()
	first := from.Truncate(24 * time.Hour)
	if first.Before(from) {
		first = first.Add(24 * time.Hour)
	}
	last := to.Truncate(24 * time.Hour)
	if !first.Before(last) {
		return Span{}, []Span{{from, to}}
	}
	if from.Before(first) {
		edges = append(edges, Span{from, first})
	}
	if last.Before(to) {
		edges = append(edges, Span{last, to})
	}
	return Span{first, last}, edges
}

// series lays the hours out as the last hours of r and as days (their starts), zero-filled.
func series(r Range, days []time.Time, hours []Hour) Series {
	n := int(r.To.Sub(r.From) / time.Hour)
	n = min(n, HourlyPoints)
	hourly := make([]Point, n)
	start := r.To.Add(-time.Duration(n) * time.Hour)
	for i := range hourly {
		hourly[i].Start = start.Add(time.Duration(i) * time.Hour).In(r.Loc)
	}
	daily := make([]Point, len(days))
	for i, d := range days {
		daily[i].Start = d
	}
	for _, h := range hours {
		if i := int(h.Start.Sub(start) / time.Hour); !h.Start.Before(start) && i < n {
			hourly[i].Visits += h.Visits
			hourly[i].Bots += h.Bots
		}
		if i := dayIndex(days, h.Start); i >= 0 {
			daily[i].Visits += h.Visits
			daily[i].Bots += h.Bots
		}
	}
	return Series{Hourly: hourly, Daily: daily}
}

// dayIndex is the index of the day t falls in, among days that start at starts: the last
// that starts at or before t, the first for an earlier t; -1 when there are none. A UTC hour
// belongs to the day it begins in.
func dayIndex(starts []time.Time, t time.Time) int {
	if len(starts) == 0 {
		return -1
	}
	i, _ := slices.BinarySearchFunc(starts, t, func(s, t time.Time) int {
		if s.After(t) {
			return 1
		}
		return -1
	})
	return max(i-1, 0)
}

// breakdowns sorts the keys into their lists; variant indexes become the URLs of the link's
// variants now, or "#<index>" for an index it no longer has.
func breakdowns(keys []KeyCount, variants []link.Variant) Breakdowns {
	b := Breakdowns{Country: []Count{}, Device: []Count{}, OS: []Count{}, Browser: []Count{},
		Referrer: []Count{}, Variant: []Count{}, InApp: []Count{},
		UTMSource: []Count{}, UTMMedium: []Count{}, UTMCampaign: []Count{}}
	lists := map[Dim]*[]Count{Country: &b.Country, Device: &b.Device, OS: &b.OS, Browser: &b.Browser,
		Referrer: &b.Referrer, Variant: &b.Variant, InApp: &b.InApp,
		UTMSource: &b.UTMSource, UTMMedium: &b.UTMMedium, UTMCampaign: &b.UTMCampaign}
	for _, k := range keys {
		list, ok := lists[k.Dim]
		if !ok {
			continue
		}
		key := k.Key
		if k.Dim == Variant {
			key = variantKey(key, variants)
			// Two indexes may lead to one URL: they are one key.
			if i := slices.IndexFunc(*list, func(c Count) bool { return c.Key == key }); i >= 0 {
				(*list)[i].Visits += k.Visits
				continue
			}
		}
		*list = append(*list, Count{Key: key, Visits: k.Visits})
	}
	for _, list := range lists {
		slices.SortFunc(*list, func(a, b Count) int {
			return cmp.Or(cmp.Compare(b.Visits, a.Visits), cmp.Compare(a.Key, b.Key))
		})
		if len(*list) > MaxKeys {
			*list = (*list)[:MaxKeys]
		}
	}
	return b
}

func variantKey(index string, variants []link.Variant) string {
	i, err := strconv.Atoi(index)
	if err == nil && i >= 0 && i < len(variants) {
		return variants[i].URL
	}
	return "#" + index
}

// Dashboard is what happened in a workspace, or everywhere, over a range of whole days (the
// last DashboardDays days unless asked otherwise).
type Dashboard struct {
	TZ string `json:"tz"`
	// From and To are the range answered: whole days in TZ.
	From time.Time `json:"from"`
	To   time.Time `json:"to"`
	// Today is the last of Days.
	Today Day   `json:"today"`
	Days  []Day `json:"days"`
	// TopLinks are the links with most people's visits over Days.
	TopLinks []TopLink `json:"top_links"`
}

// Day is one day of a dashboard, in its time zone.
type Day struct {
	Date   string `json:"date"`  // YYYY-MM-DD
	Links  int64  `json:"links"` // links created
	Visits int64  `json:"visits"`
	Bots   int64  `json:"bots"`
	// Uniques are the people of the day: the workspace's, each counted once whichever of its
	// links they visited (a sketch: see visit.ExactUniques); narrowed to a tag, the sum of the
	// tagged links' people.
	Uniques int64 `json:"uniques"`
}

// TopLink is a link of a dashboard's ranking.
type TopLink struct {
	ID          int64  `json:"id"`
	WorkspaceID int64  `json:"workspace_id"`
	DomainID    int64  `json:"-"`
	Code        string `json:"code"`
	ShortURL    string `json:"short_url"`
	Visits      int64  `json:"visits"`
	Bots        int64  `json:"bots"`
}

// SystemDashboard is the operators' dashboard: every workspace's, with the number of users and
// workspaces.
type SystemDashboard struct {
	Dashboard
	Users      int64 `json:"users"`
	Workspaces int64 `json:"workspaces"`
}

// Workspace answers the workspace's dashboard over the days of r (DashboardRange).
func (s *Service) Workspace(ctx context.Context, workspaceID int64, r Range) (*Dashboard, error) {
	if workspaceID <= 0 {
		return nil, apperr.Errorf(apperr.NotFound, "workspace not found").For("workspace_not_found", "")
	}
	return s.dashboard(ctx, Scope{WorkspaceID: workspaceID}, r)
}

// WorkspaceTagged answers the workspace's dashboard narrowed to the links carrying the tag
// tagID (NoTag: none of them).
func (s *Service) WorkspaceTagged(ctx context.Context, workspaceID, tagID int64, r Range) (*Dashboard, error) {
	if workspaceID <= 0 {
		return nil, apperr.Errorf(apperr.NotFound, "workspace not found").For("workspace_not_found", "")
	}
	return s.dashboard(ctx, Scope{WorkspaceID: workspaceID, TagID: tagID}, r)
}

// System answers the operators' dashboard over the days of r (DashboardRange).
func (s *Service) System(ctx context.Context, r Range) (*SystemDashboard, error) {
	d, err := s.dashboard(ctx, Scope{All: true}, r)
	if err != nil {
		return nil, err
	}
	out := &SystemDashboard{Dashboard: *d}
	if out.Users, out.Workspaces, err = s.store.Population(ctx); err != nil {
		return nil, fmt.Errorf("system dashboard: %w", err)
	}
	return out, nil
}

func (s *Service) dashboard(ctx context.Context, scope Scope, r Range) (*Dashboard, error) {
	loc := r.Loc
	hr := r.Hours()
	act, err := s.activity.get(ctx, scope, hr.From, hr.To, TopLinks)
	if err != nil {
		return nil, fmt.Errorf("dashboard: %w", err)
	}
	starts := r.Days()
	// The reading may be kept and shared: its top links are copied before they get their URLs.
	d := &Dashboard{TZ: loc.String(), From: r.From, To: r.To, Days: make([]Day, len(starts)), TopLinks: slices.Clone(act.Top)}
	for i, day := range starts {
		d.Days[i].Date = day.Format(time.DateOnly)
	}
	for _, h := range act.Visits {
		if i := dayIndex(starts, h.Start); i >= 0 {
			d.Days[i].Visits += h.Visits
			d.Days[i].Bots += h.Bots
			d.Days[i].Uniques += h.Uniques
		}
	}
	for _, c := range act.Created {
		if i := dayIndex(starts, c.Start); i >= 0 {
			d.Days[i].Links += c.N
		}
	}
	d.Today = d.Days[len(d.Days)-1]
	if d.TopLinks == nil {
		d.TopLinks = []TopLink{}
	}
	for i := range d.TopLinks {
		d.TopLinks[i].ShortURL = s.links.ShortURL(d.TopLinks[i].DomainID, d.TopLinks[i].Code)
	}
	return d, nil
}

// ExportLinks yields every link of the workspace with its totals since it was made, by ID:
// those the listing's filter f matches (resolved: link.Service.ResolveFilter), as the list
// shows them.
func (s *Service) ExportLinks(ctx context.Context, workspaceID int64, f link.Filter) iter.Seq2[LinkTotals, error] {
	return func(yield func(LinkTotals, error) bool) {
		for l, err := range s.store.AllLinks(ctx, workspaceID, f) {
			if err == nil {
				l.ShortURL = s.links.ShortURL(l.DomainID, l.Key)
			}
			if !yield(l, err) || err != nil {
				return
			}
		}
	}
}

// ExportVisits yields the workspace's visits of r by time, those of the link linkID only unless
// it is 0 and of the links carrying the tag tagID only unless it is 0; not_found when that link
// is not the workspace's. A filter f narrows a link's visits as it narrows its statistics
// (LinkFiltered): invalid with filter_unsupported without a link, and with
// filter_range_unavailable for a range older than the raw visits kept.
func (s *Service) ExportVisits(ctx context.Context, workspaceID, linkID, tagID int64, r Range, f Filter) (iter.Seq2[Visit, error], error) {
	if len(f) > 0 {
		if linkID == 0 {
			for _, p := range FilterParams {
				if _, ok := f[p.Dim]; ok {
					return nil, apperr.Errorf(apperr.Invalid, "the visits export takes a %s filter for one link only: give link", p.Name).
						For("filter_unsupported", p.Name)
				}
			}
		}
		if err := s.checkRawRange(r.Hours()); err != nil {
			return nil, err
		}
	}
	if linkID != 0 {
		if _, err := s.links.Get(ctx, workspaceID, linkID); err != nil {
			return nil, err
		}
	}
	return s.store.AllVisits(ctx, workspaceID, linkID, tagID, f, r.From, r.To), nil
}
