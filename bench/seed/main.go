// Command seed fills a database with the scale benchmark's links (docs/benchmarks.md#workspaces-of-10-million-links):
// one big workspace of SMS campaigns, one link per recipient, and many small workspaces beside
// it. Rows are the ones a batch create writes, by COPY, with the visit totals and the health the
// ingest and the checks would have given them. Reads DATABASE_URL and the code key from the
// environment as the server does (docs/configuration.md), so the links' codes are the server's.
package main

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"sync"
	"time"

	"github.com/shortlink/shortlink/backend/code"
	"github.com/shortlink/shortlink/backend/config"
	"github.com/shortlink/shortlink/backend/postgres"
)

func main() {
	var o options
	flag.Int64Var(&o.workspace, "workspace", 0, "the big workspace's ID (made by signing up)")
	flag.Int64Var(&o.links, "links", 10_000_000, "links in the big workspace")
	flag.IntVar(&o.spaces, "workspaces", 10_000, "other workspaces to make")
	flag.Int64Var(&o.spread, "spread", 3_000_000, "links spread over the other workspaces")
	flag.IntVar(&o.workers, "workers", 2, "transactions at once")
	flag.Int64Var(&o.visits, "visits", 0, "people's visits of the big workspace over -days, with every rollup they leave (0: visit totals only)")
	flag.IntVar(&o.days, "days", 365, "days the -visits span, up to now")
	flag.Float64Var(&o.zipf, "zipf", 1.1, "the power law of the visits over the links' ranks")
	flag.Parse()
	if o.workspace == 0 {
		fmt.Fprintln(os.Stderr, "seed: -workspace is required")
		os.Exit(2)
	}
	if err := run(context.Background(), o); err != nil {
		fmt.Fprintln(os.Stderr, "seed:", err)
		os.Exit(1)
	}
}

type options struct {
	workspace     int64
	links, spread int64
	spaces        int
	workers       int
	visits        int64
	days          int
	zipf          float64
}

// sampleRanks are the ranks by visits of the links whose breakdowns the statistics seed writes.
var sampleRanks = []int64{1, 100, 1_000, 10_000}

// chunk is how many links one transaction writes.
const chunk = 20_000

func run(ctx context.Context, o options) error {
	cfg, err := config.Load()
	if err != nil {
		return err
	}
	codec, err := code.New(cfg.CodeKeyBytes, cfg.CodeTweakBytes, cfg.CodeLength)
	if err != nil {
		return err
	}
	db, err := postgres.Open(ctx, cfg.DatabaseURL)
	if err != nil {
		return err
	}
	defer db.Close()
	s := postgres.NewSeeder(db)
	start := time.Now()

	big, err := newSpace(ctx, s, o.workspace, o.links, bigTags)
	if err != nil {
		return err
	}
	domains, err := s.Domains(ctx, o.workspace, []string{"go.shop-a.com", "m.brand-b.net", "sms.c-mart.cn"})
	if err != nil {
		return err
	}
	big.domains = domains
	plan := newStatsPlan(o.visits, o.days, o.zipf, o.links, sampleRanks)
	spaces := []*space{big}
	if o.spaces > 0 && o.spread > 0 {
		ids, err := s.Workspaces(ctx, "seed-", o.spaces)
		if err != nil {
			return err
		}
		per := o.spread / int64(len(ids))
		for _, id := range ids {
			sp, err := newSpace(ctx, s, id, per, smallTags)
			if err != nil {
				return err
			}
			spaces = append(spaces, sp)
		}
	}
	var total int64
	for _, sp := range spaces {
		total += sp.links
	}
	first, err := s.ReserveIDs(ctx, total)
	if err != nil {
		return err
	}
	// The chunks of every workspace, the big one first; each takes its IDs in turn, so a
	// workspace's links are newer the higher their ID, as creates make them.
	type job struct {
		sp       *space
		from, n  int64 // the link's index in its workspace
		firstID  int64
		randSeed uint64
	}
	var jobs []job
	id := first
	for i, sp := range spaces {
		for from := int64(0); from < sp.links; from += chunk {
			n := min(chunk, sp.links-from)
			jobs = append(jobs, job{sp, from, n, id, uint64(i)<<32 | uint64(from)})
			id += n
		}
	}
	work := make(chan job)
	errc := make(chan error, o.workers)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var done int64
	for range o.workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range work {
				links, err := j.sp.make(codec, j.from, j.n, j.firstID, rand.New(rand.NewPCG(j.randSeed, 7)))
				if err == nil && j.sp == big {
					err = plan.linkHours(ctx, s, big.id, links, j.from)
				}
				if err == nil {
					err = s.Links(ctx, links)
				}
				if err != nil {
					errc <- err
					return
				}
				mu.Lock()
				done += j.n
				if done/1_000_000 != (done-j.n)/1_000_000 {
					fmt.Fprintf(os.Stderr, "seed: %d of %d links, %s\n", done, total, time.Since(start).Round(time.Second))
				}
				mu.Unlock()
			}
		}()
	}
	var runErr error
feed:
	for _, j := range jobs {
		select {
		case work <- j:
		case runErr = <-errc:
			break feed
		}
	}
	close(work)
	wg.Wait()
	if runErr == nil {
		select {
		case runErr = <-errc:
		default:
		}
	}
	if runErr != nil {
		return runErr
	}
	if err := workspaceRollups(ctx, s, big, plan); err != nil {
		return err
	}
	if err := s.Analyze(ctx); err != nil {
		return err
	}
	fmt.Printf("seeded %d links (%d in workspace %d, %d in %d others) in %s\n",
		total, big.links, o.workspace, total-big.links, len(spaces)-1, time.Since(start).Round(time.Second))
	return nil
}

// workspaceRollups writes the big workspace's hours for its dashboard, and with plan the sample
// links' breakdowns.
func workspaceRollups(ctx context.Context, s *postgres.Seeder, big *space, plan *statsPlan) error {
	if plan == nil {
		return big.hours(ctx, s)
	}
	if err := plan.workspaceHours(ctx, s, big.id); err != nil {
		return err
	}
	return plan.breakdowns(ctx, s)
}

// space is one workspace being seeded.
type space struct {
	id      int64
	links   int64
	tags    tagSet
	domains []int64
	visits  int64 // the sum of its links' visits, once made
	mu      sync.Mutex
}

// tagSet is a workspace's tags: campaigns in blocks of consecutive links whose sizes fall off
// as 1/k (Zipf), one tag on half the links at random, and one on exactly rare links.
type tagSet struct {
	campaigns []string // names; campaign k holds the links [bounds[k], bounds[k+1])
	bounds    []int64
	ids       []int64 // the campaigns' IDs, then half's, then rare's
	half      string
	rare      string
	rareEvery int64 // rare is on every rareEvery-th link
}

func bigTags(links int64) tagSet   { return campaignTags(links, 998, "sms-all", "vip", 1000) }
func smallTags(links int64) tagSet { return campaignTags(links, 5, "newsletter", "partner", 3) }

func campaignTags(links int64, campaigns int, half, rare string, rareLinks int64) tagSet {
	t := tagSet{half: half, rare: rare, rareEvery: max(1, links/max(1, rareLinks))}
	var sum float64
	for k := 1; k <= campaigns; k++ {
		sum += 1 / float64(k)
	}
	// Campaign k (by size, campaign-0001 the largest) is 1/k of the first's; the largest are
	// the latest.
	var at int64
	for k := campaigns; k >= 1; k-- {
		t.campaigns = append(t.campaigns, fmt.Sprintf("campaign-%04d", k))
		t.bounds = append(t.bounds, at)
		at += int64(float64(links) / float64(k) / sum)
	}
	t.bounds = append(t.bounds, links)
	return t
}

func newSpace(ctx context.Context, s *postgres.Seeder, id, links int64, tags func(int64) tagSet) (*space, error) {
	sp := &space{id: id, links: links, tags: tags(links)}
	ids, err := s.Tags(ctx, id, append(append([]string{}, sp.tags.campaigns...), sp.tags.half, sp.tags.rare))
	if err != nil {
		return nil, err
	}
	sp.tags.ids = ids
	return sp, nil
}

var (
	brands   = []string{"shop-a", "brand-b", "c-mart", "fastfood", "telco-one", "bank-z", "airline-x", "pharma", "fashion-q", "games-r"}
	products = []string{"spring-sale", "black-friday", "new-arrivals", "loyalty", "renewal", "delivery", "survey", "coupon", "invite", "reminder"}
	titlesEn = []string{"Spring sale: 30% off", "Your parcel is on its way", "Renew your plan today", "Tell us how we did",
		"Your coupon inside", "Black Friday starts now", "New arrivals for you", "Points about to expire"}
	titlesZh = []string{"春季大促销 全场七折", "您的包裹正在派送中", "会员续费优惠", "满意度调查", "专属优惠券", "黑色星期五 限时抢购", "新品上市", "积分即将过期"}
	sources  = []string{"sms", "sms", "sms", "email", "push"}
)

// make is the workspace's links [from, from+n), with IDs from firstID.
func (sp *space) make(codec *code.Codec, from, n, firstID int64, r *rand.Rand) ([]postgres.SeedLink, error) {
	links := make([]postgres.SeedLink, n)
	now := time.Now().UTC()
	// A workspace's links were made over the last year, oldest first.
	span := 365 * 24 * time.Hour
	zipf := rand.NewZipf(r, 1.3, 1, 1_000_000)
	var visits int64
	k := 0
	for i := range links {
		at := from + int64(i)
		for at >= sp.tags.bounds[k+1] {
			k++
		}
		id := firstID + int64(i)
		key, err := codec.Encode(uint64(id))
		if err != nil {
			return nil, err
		}
		campaign := sp.tags.campaigns[k]
		brand := brands[(k+int(sp.id))%len(brands)]
		host := brand + ".example.com"
		product := products[k%len(products)]
		l := postgres.SeedLink{
			ID: id, WorkspaceID: sp.id, Key: key, Status: "active", Host: host,
			URL:       "https://" + host + "/" + product + "/" + campaign + "?rid=" + strconv.FormatUint(r.Uint64()>>20, 36),
			CreatedAt: now.Add(-span + time.Duration(float64(span)*float64(at)/float64(sp.links))),
			TagIDs:    []int64{sp.tags.ids[k]},
		}
		if r.IntN(10) == 0 {
			l.Title = titlesZh[k%len(titlesZh)] + " 第" + strconv.FormatInt(at, 10) + "号"
		} else {
			l.Title = titlesEn[k%len(titlesEn)] + " #" + strconv.FormatInt(at, 10)
		}
		utm := `{"source":"` + sources[k%len(sources)] + `","medium":"` + sources[k%len(sources)] + `","campaign":"` + campaign + `"}`
		l.UTM = &utm
		if len(sp.domains) > 0 && k%10 < 3 {
			l.DomainID = sp.domains[k%len(sp.domains)]
		}
		if r.IntN(2) == 0 {
			l.TagIDs = append(l.TagIDs, sp.tags.ids[len(sp.tags.campaigns)])
		}
		if at%sp.tags.rareEvery == 0 && at/sp.tags.rareEvery < 1000 {
			l.TagIDs = append(l.TagIDs, sp.tags.ids[len(sp.tags.campaigns)+1])
		}
		switch p := r.IntN(1000); {
		case p < 20:
			l.Status = "disabled"
		case p < 23:
			l.Status = "banned"
		case p < 25:
			l.Status = "held"
		case p < 35:
			exp := l.CreatedAt.Add(30 * 24 * time.Hour)
			if exp.After(now) {
				exp = now.Add(-time.Hour)
			}
			l.ExpiresAt = &exp
		}
		// About three links in ten were visited, their visits falling off as a power law.
		if r.IntN(10) < 3 {
			l.Visits = int64(zipf.Uint64()) + 1
			visits += l.Visits
		}
		switch p := r.IntN(1000); {
		case p < 5:
			l.Health = "broken"
		case p < 300:
			l.Health = "ok"
		}
		links[i] = l
	}
	sp.mu.Lock()
	sp.visits += visits
	sp.mu.Unlock()
	return links, nil
}

// hours spreads the workspace's visits over the last 90 days' hours of its dashboard.
func (sp *space) hours(ctx context.Context, s *postgres.Seeder) error {
	n := 90 * 24
	end := time.Now().UTC().Truncate(time.Hour)
	hours, visits := make([]time.Time, n), make([]int64, n)
	for i := range hours {
		hours[i] = end.Add(-time.Duration(n-1-i) * time.Hour)
		visits[i] = sp.visits / int64(n)
	}
	return s.WorkspaceHours(ctx, sp.id, hours, visits)
}
