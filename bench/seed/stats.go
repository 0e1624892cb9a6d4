package main

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"sort"
	"strconv"
	"sync"
	"time"

	"github.com/shortlink/shortlink/backend/postgres"
	"github.com/shortlink/shortlink/backend/visit"
)

// statsPlan is the statistics seed (-visits, docs/benchmarks.md#statistics-at-a-billion-visits):
// the big workspace's links share its people's visits as a power law of their rank (Zipf, s =
// -zipf: a few links with about a tenth of them each, most with a few hundred), spread over
// the hours of the last -days days (or since the link was made) with a daily rhythm. Every link
// gets the rows the ingest's rollups would hold for those visits (visit_hours, visit_totals, the
// workspace's hours); the links at the sample ranks get their breakdowns too (visit_key_days
// for the UTC days before today, visit_key_hours for today and the days a measured range starts
// in), the only rows a link's statistics read beside its hours.
type statsPlan struct {
	total   int64
	days    int
	zipf    float64
	links   int64
	harm    float64 // the sum of 1/rank^zipf over the links
	mult    int64   // rank(i) = i*mult mod links + 1: the busy links spread over the workspace's age
	start   time.Time
	end     time.Time // the hour after the current one
	samples []int64   // ranks whose breakdowns are written

	mu     sync.Mutex
	space  []int64                     // the workspace's people's visits per hour from start
	sample map[int64]postgres.SeedLink // by rank
	rows   int64                       // visit_hours rows written
}

// newStatsPlan is nil, no plan, without visits.
func newStatsPlan(total int64, days int, zipf float64, links int64, samples []int64) *statsPlan {
	if total <= 0 {
		return nil
	}
	p := &statsPlan{total: total, days: days, zipf: zipf, links: links, sample: map[int64]postgres.SeedLink{}}
	for r := int64(1); r <= links; r++ {
		p.harm += math.Pow(float64(r), -zipf)
	}
	p.mult = 7_919
	for gcd(p.mult, links) != 1 {
		p.mult += 2
	}
	p.end = time.Now().UTC().Truncate(time.Hour).Add(time.Hour)
	p.start = p.end.Add(-time.Duration(days) * 24 * time.Hour)
	p.space = make([]int64, days*24)
	for _, r := range samples {
		if r <= links {
			p.samples = append(p.samples, r)
		}
	}
	return p
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

func (p *statsPlan) rank(at int64) int64 { return at%p.links*p.mult%p.links + 1 }

// weight is the share of a day's visits in the UTC hour h: more in the afternoon than at night.
func weight(h int) float64 { return 1 + 0.6*math.Sin(2*math.Pi*float64(h-9)/24) }

// hours is the link's hours over the plan: its visits split over them, each hour's expected
// share rounded at random when the link has several visits an hour, its visits put in hours at
// random otherwise.
func (p *statsPlan) hours(l *postgres.SeedLink, rank int64) []postgres.SeedHour {
	r := rand.New(rand.NewPCG(uint64(l.ID), 11))
	want := int64(math.Round(float64(p.total) / p.harm * math.Pow(float64(rank), -p.zipf)))
	from := p.start
	if made := l.CreatedAt.Truncate(time.Hour).Add(time.Hour); made.After(from) {
		from = made
	}
	n := int(p.end.Sub(from) / time.Hour)
	if want == 0 || n <= 0 {
		return nil
	}
	counts := make([]int64, n)
	first := from.Hour()
	if want >= 4*int64(n) {
		var sum float64
		for i := range counts {
			sum += weight((first + i) % 24)
		}
		for i := range counts {
			counts[i] = int64(float64(want)*weight((first+i)%24)/sum + r.Float64())
		}
	} else {
		for range want {
			counts[r.IntN(n)]++
		}
	}
	var out []postgres.SeedHour
	for i, c := range counts {
		if c > 0 {
			// Crawlers about a fifth beside the people, people first seen that day about
			// seven in ten of their visits.
			out = append(out, postgres.SeedHour{LinkID: l.ID, Hour: from.Add(time.Duration(i) * time.Hour),
				Visits: c, Bots: (c + int64(r.IntN(5))) / 5, Uniques: (c*7 + int64(r.IntN(10))) / 10})
		}
	}
	return out
}

// linkHours gives the chunk's links their visits: the hours written in batches, the totals
// set on the links (written by Seeder.Links), the workspace's hours summed. A nil plan gives
// none.
func (p *statsPlan) linkHours(ctx context.Context, s *postgres.Seeder, workspaceID int64, links []postgres.SeedLink, from int64) error {
	if p == nil {
		return nil
	}
	const flushAt = 200_000
	var batch []postgres.SeedHour
	space := make([]int64, len(p.space))
	var rows int64
	for i := range links {
		l := &links[i]
		rank := p.rank(from + int64(i))
		hs := p.hours(l, rank)
		l.Visits, l.Bots, l.Uniques = 0, 0, 0
		for _, h := range hs {
			l.Visits += h.Visits
			l.Bots += h.Bots
			l.Uniques += h.Uniques
			space[int(h.Hour.Sub(p.start)/time.Hour)] += h.Visits
		}
		if slices.Contains(p.samples, rank) {
			p.mu.Lock()
			p.sample[rank] = *l
			p.mu.Unlock()
		}
		batch = append(batch, hs...)
		rows += int64(len(hs))
		if len(batch) >= flushAt {
			if err := s.LinkHours(ctx, workspaceID, batch); err != nil {
				return err
			}
			batch = batch[:0]
		}
	}
	if len(batch) > 0 {
		if err := s.LinkHours(ctx, workspaceID, batch); err != nil {
			return err
		}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	for i, v := range space {
		p.space[i] += v
	}
	p.rows += rows
	return nil
}

// workspaceHours writes the workspace's hours, the sum of its links'.
func (p *statsPlan) workspaceHours(ctx context.Context, s *postgres.Seeder, workspaceID int64) error {
	var hours []time.Time
	var visits []int64
	for i, v := range p.space {
		if v > 0 {
			hours = append(hours, p.start.Add(time.Duration(i)*time.Hour))
			visits = append(visits, v)
		}
	}
	return s.WorkspaceHours(ctx, workspaceID, hours, visits)
}

// dimension is a breakdown's values, most frequent first, and the share of visits with one.
type dimension struct {
	dim   byte
	keys  []string
	cdf   []float64
	share float64
}

func newDimension(dim byte, keys []string, s, share float64) dimension {
	d := dimension{dim: dim, keys: keys, share: share}
	var sum float64
	for i := range keys {
		sum += math.Pow(float64(i+1), -s)
		d.cdf = append(d.cdf, sum)
	}
	for i := range d.cdf {
		d.cdf[i] /= sum
	}
	return d
}

// dimensions are the breakdowns with realistic numbers of values: 150 countries, 2,000
// referring hosts (four visits in ten direct), 160 agents (device, system, browser, in-app
// browser: visit.AgentKey), 20 UTM sources, 6 media and 200 campaigns (half the visits without).
func dimensions() []dimension {
	var countries, referrers, sources, media, campaigns, agents []string
	for i := range 150 {
		countries = append(countries, string(rune('A'+i/26%26))+string(rune('A'+i%26)))
	}
	for i := range 2000 {
		referrers = append(referrers, "site-"+strconv.Itoa(i)+".example.org")
	}
	for i := range 20 {
		sources = append(sources, "source-"+strconv.Itoa(i))
	}
	media = []string{"sms", "email", "social", "cpc", "push", "qr"}
	for i := range 200 {
		campaigns = append(campaigns, "campaign-"+strconv.Itoa(i))
	}
	devices := []string{"ios", "android", "desktop", "other"}
	systems := []string{"iOS", "Android", "Windows", "macOS", "Linux", "HarmonyOS"}
	browsers := []string{"Safari", "Chrome", "WeChat", "Edge", "Firefox", "Samsung Internet", "Opera", "UC Browser"}
	inApps := []string{"", "", "WeChat", "QQ", "Weibo"}
	for i := range 160 {
		agents = append(agents, visit.AgentKey(devices[i%4], systems[i/4%6], browsers[i/24%8], inApps[i/3%5]))
	}
	slices.Sort(agents)
	agents = slices.Compact(agents)
	return []dimension{
		newDimension('c', countries, 1.2, 0.98),
		newDimension('a', agents, 1.0, 0.99),
		newDimension('r', referrers, 1.1, 0.6),
		newDimension('s', sources, 1.3, 0.5),
		newDimension('m', media, 1.3, 0.5),
		newDimension('n', campaigns, 1.1, 0.5),
	}
}

// split splits n people's visits over the dimension's values: each value's expected share
// rounded at random when there are several visits a value, drawn visit by visit otherwise.
func (d *dimension) split(n int64, r *rand.Rand, add func(key string, visits int64)) {
	if n >= 4*int64(len(d.keys)) {
		prev := 0.0
		for i, c := range d.cdf {
			if v := int64(float64(n)*d.share*(c-prev) + r.Float64()); v > 0 {
				add(d.keys[i], v)
			}
			prev = c
		}
		return
	}
	counts := map[int]int64{}
	for range n {
		if r.Float64() < d.share {
			counts[sort.SearchFloat64s(d.cdf, r.Float64())]++
		}
	}
	for i, v := range counts {
		add(d.keys[i], v)
	}
}

// keyHourDays are the days back from today whose hours keep their breakdowns in the seed:
// today (not summed yet) and the days the measured ranges (7, 30, 90 and 365 days, in UTC and
// in zones east and west of it) start in.
var keyHourDays = []int{0, 1, 6, 7, 8, 29, 30, 31, 89, 90, 91, 364, 365, 366}

// breakdowns writes the sample links' breakdowns: whole UTC days before today summed into
// visit_key_days, the hours of keyHourDays into visit_key_hours.
func (p *statsPlan) breakdowns(ctx context.Context, s *postgres.Seeder) error {
	dims := dimensions()
	today := p.end.Add(-time.Hour).Truncate(24 * time.Hour)
	for _, rank := range p.samples {
		l, ok := p.sample[rank]
		if !ok {
			continue
		}
		id := l.ID
		r := rand.New(rand.NewPCG(uint64(id), 13))
		// A day whose hours keep their breakdowns is summed from them, as CompactDays sums it;
		// the others are drawn from the day's visits at once.
		byDay := map[time.Time]int64{}
		type dayKey struct {
			day time.Time
			dim byte
			key string
		}
		summed := map[dayKey]int64{}
		var keyHours, keyDays []postgres.SeedKey
		for _, h := range p.hours(&l, rank) {
			day := h.Hour.Truncate(24 * time.Hour)
			back := int(today.Sub(day) / (24 * time.Hour))
			if slices.Contains(keyHourDays, back) {
				for i := range dims {
					dims[i].split(h.Visits, r, func(key string, v int64) {
						keyHours = append(keyHours, postgres.SeedKey{LinkID: id, At: h.Hour, Dim: dims[i].dim, Key: key, Visits: v})
						if day.Before(today) {
							summed[dayKey{day, dims[i].dim, key}] += v
						}
					})
				}
			} else if day.Before(today) {
				byDay[day] += h.Visits
			}
		}
		for k, v := range summed {
			keyDays = append(keyDays, postgres.SeedKey{LinkID: id, At: k.day, Dim: k.dim, Key: k.key, Visits: v})
		}
		for day, n := range byDay {
			for i := range dims {
				dims[i].split(n, r, func(key string, v int64) {
					keyDays = append(keyDays, postgres.SeedKey{LinkID: id, At: day, Dim: dims[i].dim, Key: key, Visits: v})
				})
			}
		}
		if err := s.KeyHours(ctx, keyHours); err != nil {
			return err
		}
		if err := s.KeyDays(ctx, keyDays); err != nil {
			return err
		}
		fmt.Printf("sample link rank=%d id=%d key_days=%d key_hours=%d\n", rank, id, len(keyDays), len(keyHours))
	}
	if err := s.SummedBefore(ctx, today); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "seed: %d visit_hours rows\n", p.rows)
	return nil
}
